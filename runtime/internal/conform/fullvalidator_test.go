package conform

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// TestWithoutFullValidator: with no FullValidator installed (a program that
// does not import runtime/fullschema), keywords the walker does not check
// are logged once per schema and everything else is still checked.
func TestWithoutFullValidator(t *testing.T) {
	saved := fullValidator.Load()
	fullValidator.Store(nil)
	defer fullValidator.Store(saved)
	logged := 0
	savedLog := logUnchecked
	logUnchecked = func() { logged++ }
	defer func() { logUnchecked = savedLog }()

	s := NewSchema(`{"type":"object","properties":{"n":{"type":"integer","not":{"const":13}},"s":{"type":"string"}}}`)
	var out map[string]any
	for range 2 {
		b, _, ws, err := s.Check([]byte(`{"n":13,"s":1}`), true)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		if len(ws) != 1 || ws[0].Pointer != "/s" {
			t.Errorf("warnings %v, want one at /s (the walker's; \"not\" unchecked)", ws)
		}
	}
	if s.fallback != nil {
		t.Error("fallback compiled without a FullValidator")
	}
	if logged != 1 {
		t.Errorf("logged %d times, want once per schema", logged)
	}
}

func TestNeedsFullValidator(t *testing.T) {
	for doc, want := range map[string]bool{
		`{"type":"object","properties":{"not":{"type":"string"}}}`:            false,
		`{"$defs":{"if":{"enum":["not","if"]}},"default":{"not":1}}`:          false,
		`{"type":"integer","not":{"const":1}}`:                                true,
		`{"$defs":{"A":{"patternProperties":{"^x":{}}}}}`:                     true,
		`{"properties":{"a":{"items":{"contains":{"type":"string"}}}}}`:       true,
		`{"anyOf":[{"type":"string"},{"if":{"type":"string"},"then":false}]}`: true,
		`{"properties":{"a":{"not":{}}}}`:                                     false,
		`not JSON`:                                                            false,
	} {
		if got := NeedsFullValidator(doc); got != want {
			t.Errorf("NeedsFullValidator(%s) = %v, want %v", doc, got, want)
		}
	}
}

// TestRuntimeDoesNotLinkJSONSchema: jsonschema/v6 (whose package init
// compiles its metaschemas at every program start) is linked only through
// runtime/fullschema, not by what every generated client imports.
func TestRuntimeDoesNotLinkJSONSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/opsgen/opsgen/runtime", "github.com/opsgen/opsgen/runtime/opsgenimpl", "github.com/opsgen/opsgen/runtime/httpclient", "github.com/opsgen/opsgen/runtime/mcpclient").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "santhosh-tekuri/jsonschema") || strings.HasPrefix(dep, "golang.org/x/text") {
			t.Errorf("runtime links %s", dep)
		}
	}
}

// TestNotEmptyIsFalse: {"not":{}}, the generator's false schema, is checked
// by the walker itself, with or without a FullValidator.
func TestNotEmptyIsFalse(t *testing.T) {
	saved := fullValidator.Load()
	fullValidator.Store(nil)
	defer fullValidator.Store(saved)
	s := NewSchema(`{"type":"object","properties":{"gone":{"not":{}},"n":{"type":"integer"}}}`)
	var out map[string]any
	b, _, ws, err := s.Check([]byte(`{"gone":1,"n":2}`), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Pointer != "/gone" {
		t.Errorf("warnings %v, want one at /gone", ws)
	}
	if _, ok := out["gone"]; ok || out["n"] != 2.0 {
		t.Errorf("data %v, want /gone dropped and n kept", out)
	}
	if s.fallback != nil {
		t.Error("fallback compiled for {\"not\":{}}")
	}
}
