package conform

import (
	"strings"
	"testing"
)

// Without a pattern compiler (a program that does not import
// runtime/pattern), a pattern is not checked, and the rest of the schema
// is.
func TestPatternWithoutCompiler(t *testing.T) {
	saved := patternCompiler.Load()
	patternCompiler.Store(nil)
	defer patternCompiler.Store(saved)
	schema := NewSchema(`{"type":"object","properties":{"code":{"type":"string","pattern":"^[A-Z]+$","maxLength":3}}}`)
	if err := schema.Compile(); err != nil {
		t.Fatal(err)
	}
	ws, err := schema.Issues([]byte(`{"code":"abc"}`))
	if err != nil || len(ws) != 0 {
		t.Errorf("unchecked pattern: %v %v", ws, err)
	}
	ws, err = schema.Issues([]byte(`{"code":"ABCD"}`))
	if err != nil || len(ws) != 1 || !strings.Contains(ws[0].Message, "length") {
		t.Errorf("maxLength: %v %v", ws, err)
	}
	// With the compiler (this package's tests install Go's regexp).
	patternCompiler.Store(saved)
	checked := NewSchema(`{"type":"string","pattern":"^[A-Z]+$"}`)
	if err := checked.Compile(); err != nil {
		t.Fatal(err)
	}
	ws, err = checked.Issues([]byte(`"abc"`))
	if err != nil || len(ws) != 1 || !strings.Contains(ws[0].Message, "pattern") {
		t.Errorf("checked pattern: %v %v", ws, err)
	}
}
