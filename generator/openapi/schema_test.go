package openapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// compile compiles schema with the service's Defs as draft 2020-12.
func compile(t *testing.T, svc *ir.Service, schema *ir.Schema) *jsonschema.Schema {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(schema.String()), &doc); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	defs := map[string]any{}
	for _, d := range svc.Defs {
		var v any
		if err := json.Unmarshal([]byte(d.Schema.String()), &v); err != nil {
			t.Fatalf("def %s: %v", d.Name, err)
		}
		defs[d.Name] = v
	}
	doc["$defs"] = defs
	doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///s.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("mem:///s.json")
	if err != nil {
		t.Fatalf("compile %s: %v", schema, err)
	}
	return s
}

// TestSchemasCompile: every def and operation schema of every spec is valid
// draft 2020-12 JSON Schema whose references resolve.
func TestSchemasCompile(t *testing.T) {
	for _, name := range []string{"petstore.json", "schemas31.yaml", "composition.yaml", "swagger.yaml", "params.yaml", "bodies.yaml", "responses.yaml", "external.yaml"} {
		svc, _ := load(t, name, openapi.Options{})
		for _, d := range svc.Defs {
			if d != typ(t, svc, d.Name).Def {
				t.Errorf("%s: Defs[%s] is not Type.Def", name, d.Name)
			}
			compile(t, svc, d.Schema)
		}
		for _, o := range svc.Operations {
			for _, s := range []*ir.Schema{o.InputSchema, o.OutputSchema} {
				if s != nil {
					compile(t, svc, s)
				}
			}
			for _, r := range o.Responses {
				if r.Schema != nil {
					compile(t, svc, r.Schema)
				}
			}
		}
	}
}

func TestSchemasValidate(t *testing.T) {
	svc, _ := load(t, "composition.yaml", openapi.Options{})
	tests := []struct {
		def, instance string
		ok            bool
	}{
		{"Dog", `{"id": 1, "petType": "dog", "bark": true}`, true},
		{"Dog", `{"id": 1, "petType": "dog"}`, false}, // bark required (allOf)
		{"Holder", `{"maybe": null, "either": null}`, true},
		{"Holder", `{"maybe": {"id": "x"}}`, false},
		{"NullableEnum", `null`, true},
		{"NullableEnum", `"y"`, false},
		{"Node", `{"value": "a", "children": [{"value": "b", "children": []}]}`, true},
		{"Node", `{"children": [{"value": 3}]}`, false},
		{"Extra", `{"name": "a", "n": 1}`, true},
		{"Extra", `{"name": "a", "n": "x"}`, false},
	}
	for _, tt := range tests {
		d := svc.Def(tt.def)
		if d == nil {
			t.Fatalf("no def %s", tt.def)
		}
		s := compile(t, svc, ir.RefTo(d))
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.instance))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); (err == nil) != tt.ok {
			t.Errorf("%s %s: valid=%v, want %v (%v)", tt.def, tt.instance, err == nil, tt.ok, err)
		}
	}
	// 3.0 exclusiveMinimum (boolean) becomes the 2020-12 number form.
	svc2, _, err := openapi.LoadData(context.Background(), []byte(`openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Pos: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 10}
`), "x.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalJSON(t, "Pos", svc2.Def("Pos"), `{"type":"number","exclusiveMinimum":0,"maximum":10}`)
}

func TestAllOfCycleAndAliases(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    A:
      allOf:
        - $ref: "#/components/schemas/B"
        - properties: {a: {type: string}}
    B:
      allOf:
        - $ref: "#/components/schemas/A"
        - properties: {b: {type: string}}
    Shade:
      allOf:
        - $ref: "#/components/schemas/Color"
    Color: {type: string, enum: [red, blue]}
`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "cyc.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasDiag(diags, "cyc.yaml", 6, "/components/schemas/A", "allOf refers to itself") {
		t.Errorf("missing cycle warning: %v", diags)
	}
	equalSlice(t, "A fields", fields(typ(t, svc, "A")), []string{"A:a:string", "B:b:string"})
	// An alias of an enum is an enum of its own, with its own constants.
	var consts []string
	for _, name := range []string{"Color", "Shade"} {
		for _, v := range typ(t, svc, name).Values {
			consts = append(consts, v.Name)
		}
	}
	equalSlice(t, "constants", consts, []string{"ColorRed", "ColorBlue", "ShadeRed", "ShadeBlue"})
}

// TestItemSchema: an OpenAPI 3.2 event stream declares its events with
// itemSchema; a stream without a schema has raw JSON events.
func TestItemSchema(t *testing.T) {
	spec := `openapi: 3.2.0
info: {title: t, version: "1"}
paths:
  /events:
    get:
      operationId: watch
      responses:
        "200":
          description: events
          content:
            text/event-stream:
              itemSchema:
                type: object
                properties:
                  data: {type: string}
  /raw:
    get:
      operationId: raw
      responses:
        "200":
          description: events
          content:
            text/event-stream: {}
`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "sse.yaml", openapi.Options{})
	if err != nil || len(diags) != 0 {
		t.Fatalf("err=%v diags=%v", err, diags)
	}
	w := op(t, svc, "watch")
	if !w.Stream || w.Result.Type.Name != "WatchResponse" {
		t.Errorf("watch: stream=%v type=%s", w.Stream, ts(w.Result.Type))
	}
	equal(t, "origin", typ(t, svc, "WatchResponse").Doc.Origin, "#/paths/~1events/get/responses/200/content/text~1event-stream/itemSchema")
	r := op(t, svc, "raw")
	if !r.Stream || r.Result.Type.Kind != ir.Any || r.OutputSchema != nil {
		t.Errorf("raw: stream=%v type=%s out=%s", r.Stream, ts(r.Result.Type), r.OutputSchema)
	}
}
