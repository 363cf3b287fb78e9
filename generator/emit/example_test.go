package emit_test

import (
	"fmt"
	"log"

	"github.com/opsgen/opsgen/generator/emit"
	"github.com/opsgen/opsgen/generator/ir"
)

// An MCP service with one tool becomes a client package of four files.
func ExampleEmit() {
	readOnly := true
	svc := &ir.Service{
		Kind: ir.MCP, Source: "tools.json", Title: "Notes",
		Operations: []*ir.Operation{{
			Kind: ir.MCPTool, ID: "list_notes", GoName: "ListNotes",
			Doc:  ir.Doc{Description: "Lists the notes.", Origin: `MCP tool "list_notes"`},
			Tool: &ir.Tool{Name: "list_notes", ReadOnly: &readOnly},
		}},
	}
	files, diags, err := emit.Emit(svc, emit.Options{Package: "notes", Version: "v1.0.0"})
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		fmt.Println(f.Name)
	}
	fmt.Println(len(diags), "diagnostics")
	// Output:
	// client.go
	// schemas.go
	// tools.go
	// 0 diagnostics
}
