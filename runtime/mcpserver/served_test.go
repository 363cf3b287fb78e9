package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

func TestServedSchema(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string","enum":["x"],"format":"email","pattern":"^x$","minLength":1,"maxLength":3}},"required":["a"],"additionalProperties":false}`,
			`{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{`{"type":"array","items":{"type":"integer","minimum":1,"maximum":9,"multipleOf":2},"minItems":1,"uniqueItems":true}`,
			`{"items":{"type":"integer"},"type":"array"}`},
		{`{"$defs":{"C":{"title":"Cat","type":"object","properties":{"k":{"const":"cat"}},"required":["k"]}},"oneOf":[{"$ref":"#/$defs/C"},{"type":"object","not":{"required":["x"]}}]}`,
			`{"$defs":{"C":{"properties":{"k":{}},"title":"Cat","type":"object"}},"anyOf":[{"$ref":"#/$defs/C"},{"type":"object"}]}`},
		{`{"oneOf":[{"type":"string"}],"anyOf":[{"type":"string"}]}`,
			`{"allOf":[{"anyOf":[{"type":"string"}]},{"anyOf":[{"type":"string"}]}]}`},
		{`{"type":"array","items":[{"type":"string","enum":["a"]}],"additionalItems":false}`,
			`{"items":[{"type":"string"}],"type":"array"}`},
		{`{"type":"object","additionalProperties":{"type":"string","format":"uri"},"if":{},"then":{},"else":{}}`,
			`{"additionalProperties":{"type":"string"},"type":"object"}`},
	} {
		got, relaxed, err := servedSchema(json.RawMessage(c.in), runtime.ValidateWarn)
		if err != nil || string(got) != c.want || !relaxed {
			t.Errorf("servedSchema(%s) = %s, %v, %v; want %s", c.in, got, relaxed, err, c.want)
		}
		if got, relaxed, _ := servedSchema(json.RawMessage(c.in), runtime.ValidateStrict); string(got) != c.in || relaxed {
			t.Errorf("strict: servedSchema(%s) = %s", c.in, got)
		}
	}
	plain := `{"type":"object","properties":{"a":{"type":"string"}}}`
	if got, relaxed, _ := servedSchema(json.RawMessage(plain), runtime.ValidateWarn); string(got) != plain || relaxed {
		t.Errorf("a schema with nothing to relax: %s, %v", got, relaxed)
	}
}

func TestConform(t *testing.T) {
	schema := `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"u":{"anyOf":[{"type":"string"},{"type":"integer"}]},"n":{"type":"integer"}}}`
	tl := &tool{spec: runtime.OperationSpec{ID: "t.op"}, served: opsgenimpl.NewSchema(schema)}
	if err := tl.served.Compile(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	in := map[string]any{"tags": []any{"a", 1, "b", true}, "u": []any{1}, "n": "x"}
	before, _ := json.Marshal(in)
	out, ws, ok := tl.conform(ctx, in)
	if got, _ := json.Marshal(out); !ok || string(got) != `{"tags":["a","b"]}` {
		t.Errorf("conform = %s, %v", got, ok)
	}
	if after, _ := json.Marshal(in); string(after) != string(before) {
		t.Errorf("conform changed its input: %s, was %s", after, before)
	}
	want := map[string]bool{"/tags/1": true, "/tags/3": true, "/u": true, "/n": true}
	for _, w := range ws {
		delete(want, w.Pointer)
	}
	if len(want) > 0 {
		t.Errorf("no warnings at %v: %v", want, ws)
	}

	fits := map[string]any{"tags": []any{"a"}, "n": 1}
	if out, ws, ok := tl.conform(ctx, fits); !ok || len(ws) > 0 || out.(map[string]any)["n"] != 1 {
		t.Errorf("conform(fitting) = %v, %v, %v", out, ws, ok)
	}
	if _, ws, ok := tl.conform(ctx, []any{1}); ok || len(ws) == 0 {
		t.Errorf("conform(array for an object) = ok %v, %v", ok, ws)
	}
}

func TestOutputSchemaUnionRoot(t *testing.T) {
	for _, c := range []struct {
		in     string
		object bool
	}{
		{`{"$defs":{"A":{"type":"object"},"B":{"$ref":"#/$defs/A"}},"oneOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}]}`, true},
		{`{"anyOf":[{"type":"object"},{"oneOf":[{"type":"object"}]}]}`, true},
		{`{"oneOf":[{"type":"object"},{"type":"string"}]}`, false},
		{`{"oneOf":[]}`, false},
	} {
		out, object, err := outputSchema(json.RawMessage(c.in))
		if err != nil || object != c.object {
			t.Errorf("outputSchema(%s): object %v, %v; want %v", c.in, object, err, c.object)
		}
		var m map[string]any
		json.Unmarshal(out, &m)
		if c.object != (m["type"] == "object") {
			t.Errorf("outputSchema(%s) = %s", c.in, out)
		}
	}
}
