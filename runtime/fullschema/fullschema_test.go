package fullschema_test

import (
	"context"
	"log/slog"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/fullschema"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// TestInstalled: importing the package installs the validator: keywords
// the walker does not check are checked, at pointers escaped as JSON
// pointers, beside the walker's own findings.
func TestInstalled(t *testing.T) {
	s := opsgenimpl.NewSchema(`{"type":"object","properties":{"a/b":{"type":"integer","not":{"const":13}},"s":{"type":"string"},"tags":{"type":"array","contains":{"const":"x"}}}}`)
	var out map[string]any
	p := &runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)}
	ws, err := opsgenimpl.Decode(context.Background(), p, "t.op", s, []byte(`{"a/b":13,"s":1,"tags":["a"]}`), &out)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, w := range ws {
		got[w.Pointer] = true
	}
	if len(ws) != 3 || !got["/a~1b"] || !got["/s"] || !got["/tags/0"] {
		t.Errorf("warnings %v, want /a~1b (not), /s (the walker's type) and /tags/0 (contains)", ws)
	}
}

// TestCompileError: a schema the full validator cannot compile makes the
// Schema unusable, with the validator's reason.
func TestCompileError(t *testing.T) {
	s := opsgenimpl.NewSchema(`{"not":{"$ref":"https://example.com/elsewhere.json"}}`)
	if err := s.Compile(); err == nil {
		t.Error("schema with an unreachable $ref compiled")
	}
}

// A pattern Go cannot compile does not make the schema fail here either
// (found by the real-calls suite on AWS descriptions); \u escapes are read.
func TestPatternsGoCannotCompile(t *testing.T) {
	doc := map[string]any{
		"not": map[string]any{"required": []any{"forbidden"}},
		"properties": map[string]any{
			"look": map[string]any{"type": "string", "pattern": "^(?!x)"},
			"uni":  map[string]any{"type": "string", "pattern": `^\u0041+$`},
		},
	}
	s, err := fullschema.Validator{}.Compile(doc, "")
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if w := s.Validate([]byte(`{"look":"xyz","uni":"AA"}`)); len(w) != 0 {
		t.Errorf("valid data: warnings %v", w)
	}
	if w := s.Validate([]byte(`{"uni":"B"}`)); len(w) != 1 {
		t.Errorf(`{"uni":"B"}: warnings %v, want one`, w)
	}
}
