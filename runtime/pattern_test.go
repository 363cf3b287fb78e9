package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// Found by the real-calls suite (AWS sts, organizations, rekognition...):
// an input schema whose pattern Go's regexp cannot compile made the whole
// generated client's Register fail.
func TestRegistryPatternGoCannotCompile(t *testing.T) {
	reg := NewRegistry(nil)
	schema := `{"type":"object","properties":{
		"long":{"type":"string","pattern":"\\S{1,8192}"},
		"look":{"type":"string","pattern":"^(?!x)"},
		"uni":{"type":"string","pattern":"^\\u0041+$"}}}`
	err := reg.Register(OperationSpec{ID: "t.op", InputSchema: json.RawMessage(schema)},
		func(ctx context.Context, in json.RawMessage) (any, error) { return "ok", nil })
	if err != nil {
		t.Fatalf("Register: %v", err)
	}
	if _, err := reg.Execute(context.Background(), "t.op", map[string]any{"long": "a", "look": "xyz", "uni": "AAA"}); err != nil {
		t.Errorf("valid input: %v", err)
	}
	// The \u escape is rewritten for Go, so that pattern is still checked.
	_, err = reg.Execute(context.Background(), "t.op", map[string]any{"uni": "B"})
	var ce *CallError
	if !errors.As(err, &ce) || ce.Code != CodeValidation {
		t.Errorf("input not matching ^\\u0041+$: err = %v, want VALIDATION_ERROR", err)
	}
}

func TestPatternsInOutputSchemas(t *testing.T) {
	s := conform.NewSchema(`{"type":"object","properties":{
		"uni":{"type":"string","pattern":"^\\u0041+$"},
		"long":{"type":"string","pattern":"\\S{1,8192}"}},
		"not":{"required":["forbidden"]}}`)
	var out map[string]any
	w, err := decodeInto(context.Background(), nil, "t.op", s, []byte(`{"uni":"B","long":" "}`), &out)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if len(w) != 1 || w[0].Pointer != "/uni" {
		t.Errorf("warnings = %v, want one at /uni (the uncompilable pattern is not checked)", w)
	}
}
