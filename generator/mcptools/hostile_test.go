package mcptools

import (
	"context"
	"go/parser"
	"go/token"
	"testing"

	"github.com/opsgen/opsgen/generator/emit"
)

// TestHostileToolNames: tool names that are Go keywords, collide with the
// generated Client.Register or with each other, or hold no letters at all
// all get a method, and the package emits and parses.
func TestHostileToolNames(t *testing.T) {
	listing := `{"tools":[
		{"name":"register","inputSchema":{"type":"object"}},
		{"name":"Register","inputSchema":{"type":"object"}},
		{"name":"func","inputSchema":{"type":"object"}},
		{"name":"名前","inputSchema":{"type":"object"}},
		{"name":"123","inputSchema":{"type":"object"}},
		{"name":"a-b","inputSchema":{"type":"object"}},
		{"name":"a_b","inputSchema":{"type":"object"}},
		{"name":"*/ func PWNED() {} /*","description":"*/\nfunc PWNED() {}\n//","inputSchema":{"type":"object"}}
	]}`
	svc, _, err := LoadData(context.Background(), []byte(listing), "tools.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(svc.Operations) != 8 {
		t.Fatalf("%d operations, want 8", len(svc.Operations))
	}
	for _, o := range svc.Operations {
		if o.GoName == "Register" {
			t.Errorf("tool %q is method Register, which the registry declares", o.ID)
		}
	}
	files, diags, err := emit.Emit(svc, emit.Options{Package: "tools", Registry: true})
	if err != nil {
		t.Fatalf("%v\n%v", err, diags)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if _, err := parser.ParseFile(fset, f.Name, f.Content, 0); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}
