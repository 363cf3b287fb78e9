package mcptools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// TestLoadRepairsSchemas checks that a schema never fails the load: each
// metaschema violation, dangling reference, value OpenAPI cannot hold, or
// schema kin-openapi cannot read is a warning at its place; the offending
// keyword is dropped (or the schema accepts any value), and the rest of the
// listing is generated as usual.
func TestLoadRepairsSchemas(t *testing.T) {
	// ok is a valid tool next to the broken one, which must be unaffected.
	const ok = `{"name": "ok", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}`
	for _, tc := range []struct {
		name, input string
		opts        LoadOptions
		// warnings are the expected diagnostics, all warnings.
		warnings []string
		// check inspects the result.
		check func(t *testing.T, svc *ir.Service)
	}{
		{
			name:  "type is not a type",
			input: "[" + ok + ",\n{\"name\": \"a\", \"inputSchema\": {\"properties\": {\n  \"x\": {\"type\": 5, \"description\": \"kept\"}, \"y\": {\"type\": \"string\"}}}}]",
			warnings: []string{
				`x.json:3:9 (#/1/inputSchema/properties/x/type): warning: not a valid JSON Schema: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; the keyword "type" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				in := op(t, svc, "a").Tool.InputType
				if x := field(t, in, "x"); x.Type.Kind != ir.Any || x.Doc.Description != "kept" {
					t.Errorf("x: kind %v, doc %+v", x.Type.Kind, x.Doc)
				}
				if y := field(t, in, "y"); y.Type.Kind != ir.String {
					t.Errorf("y: kind %v", y.Type.Kind)
				}
			},
		},
		{
			name:  "draft-07 required is a string",
			input: `[{"name": "a", "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"id": {"type": "string"}}, "required": "id"}}]`,
			warnings: []string{
				`x.json:1:146 (#/0/inputSchema/required): warning: not a valid JSON Schema: got string, want array; the keyword "required" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				if id := field(t, op(t, svc, "a").Tool.InputType, "id"); id.Required || id.Type.Kind != ir.String {
					t.Errorf("id: required %v, kind %v", id.Required, id.Type.Kind)
				}
			},
		},
		{
			name:  "pattern is not a regular expression",
			input: `[{"name": "a", "outputSchema": {"type": "string", "pattern": "(["}}]`,
			warnings: []string{
				`x.json:1:2 (#/0): warning: tool "a" has no inputSchema; it is taken to have no arguments`,
				"x.json:1:51 (#/0/outputSchema/pattern): warning: not a valid JSON Schema: '([' is not valid regex: error parsing regexp: missing closing ]: `[`; the keyword \"pattern\" is ignored",
			},
			check: func(t *testing.T, svc *ir.Service) {
				out := op(t, svc, "a").Tool.OutputType
				if out == nil || out.Kind != ir.String || strings.Contains(out.Def.Schema.String(), "pattern") {
					t.Errorf("output %+v", out)
				}
			},
		},
		{
			name:  "a property is not a schema",
			input: `[{"name": "a", "inputSchema": {"properties": {"p": 5, "q": {"type": "boolean"}}, "required": ["p", 7]}}]`,
			warnings: []string{
				`x.json:1:47 (#/0/inputSchema/properties/p): warning: not a valid JSON Schema: got number, want boolean or object; any value is accepted there`,
				`x.json:1:100 (#/0/inputSchema/required/1): warning: not a valid JSON Schema: got number, want string; the keyword "required" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				in := op(t, svc, "a").Tool.InputType
				if p := field(t, in, "p"); p.Type.Kind != ir.Any || p.Required {
					t.Errorf("p: kind %v, required %v", p.Type.Kind, p.Required)
				}
				if q := field(t, in, "q"); q.Type.Kind != ir.Bool {
					t.Errorf("q: kind %v", q.Type.Kind)
				}
			},
		},
		{
			name:  "nested in allOf and items",
			input: `[{"name": "a", "inputSchema": {}, "outputSchema": {"type": "array", "items": {"allOf": [{"type": "object", "properties": {"n": {"minimum": "0", "type": "number"}}}]}}}]`,
			warnings: []string{
				`x.json:1:129 (#/0/outputSchema/items/allOf/0/properties/n/minimum): warning: not a valid JSON Schema: got string, want number; the keyword "minimum" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				out := op(t, svc, "a").Tool.OutputType
				if out == nil || out.Kind != ir.Array || out.Elem == nil {
					t.Fatalf("output %+v", out)
				}
			},
		},
		{
			name:  "configured output schema",
			input: `[{"name": "a", "inputSchema": {}}]`,
			opts:  LoadOptions{OutputSchemas: map[string]json.RawMessage{"a": json.RawMessage(`{"type": "object", "properties": {"s": {"type": "string"}}, "enum": 1}`)}},
			warnings: []string{
				`x.json: configured output schema of "a":1:61 (#/enum): warning: not a valid JSON Schema: got number, want array; the keyword "enum" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				if s := field(t, op(t, svc, "a").Tool.OutputType, "s"); s.Type.Kind != ir.String {
					t.Errorf("s: kind %v", s.Type.Kind)
				}
			},
		},
		{
			name:  "dangling reference",
			input: `[{"name": "a", "inputSchema": {"properties": {"p": {"$ref": "#/$defs/Nope"}}}}]`,
			warnings: []string{
				`x.json:1:53 (#/0/inputSchema/properties/p/$ref): warning: $ref "#/$defs/Nope" does not resolve in this schema; any value is accepted`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				if p := field(t, op(t, svc, "a").Tool.InputType, "p"); p.Type.Kind != ir.Any {
					t.Errorf("p: kind %v", p.Type.Kind)
				}
			},
		},
		{
			name: "valid JSON Schema that OpenAPI types narrower",
			input: `[{"name": "a", "inputSchema": {"type": "object", "properties": {
  "n": {"type": "number", "minimum": 1e400, "maximum": 5},
  "s": {"type": "string", "minLength": 1e30, "maxLength": 2.0, "nullable": "yes", "xml": {"name": 1}},
  "o": {"type": "object", "discriminator": {"propertyName": 5}}}}}]`,
			warnings: []string{
				`x.json:2:27 (#/0/inputSchema/properties/n/minimum): warning: minimum 1e400 is out of range; ignored`,
				`x.json:3:27 (#/0/inputSchema/properties/s/minLength): warning: minLength 1e30 is out of range; ignored`,
				`x.json:3:64 (#/0/inputSchema/properties/s/nullable): warning: nullable must be a boolean, found a string; ignored`,
				`x.json:4:27 (#/0/inputSchema/properties/o/discriminator): warning: discriminator must be an object with a string "propertyName" and a "mapping" of strings; ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				in := op(t, svc, "a").Tool.InputType
				if n, s := field(t, in, "n"), field(t, in, "s"); n.Type.Kind != ir.Float || s.Type.Kind != ir.String {
					t.Errorf("n: kind %v, s: kind %v", n.Type.Kind, s.Type.Kind)
				}
				// The other keywords are kept; 2.0 is written as an integer.
				schema := in.Def.Schema.String()
				if !strings.Contains(schema, `"maximum":5`) || !strings.Contains(schema, `"maxLength":2,`) || strings.Contains(schema, "1e") {
					t.Errorf("schema %s", schema)
				}
			},
		},
		{
			// Keywords the model does not read (OpenAPI's allowEmptyValue,
			// xml) are ignored whatever their shape.
			name:  "keywords outside the model",
			input: `[{"name": "a", "inputSchema": {"type": "object", "properties": {"p": {"type": "string"}}}, "outputSchema": {"type": "object", "properties": {"x": {"allowEmptyValue": "x"}}}}, {"name": "b", "inputSchema": {"type": "object", "properties": {"x": {"allowEmptyValue": 1, "xml": 5}}}}]`,
			check: func(t *testing.T, svc *ir.Service) {
				a := op(t, svc, "a").Tool
				if p := field(t, a.InputType, "p"); p.Type.Kind != ir.String || a.OutputType == nil || field(t, a.OutputType, "x").Type.Kind != ir.Any {
					t.Errorf("a: input %+v, output %+v", a.InputType, a.OutputType)
				}
				if x := field(t, op(t, svc, "b").Tool.InputType, "x"); x.Type.Kind != ir.Any {
					t.Errorf("b: x %+v", x.Type)
				}
			},
		},
		{
			name:  "too deep",
			input: `[{"name": "a", "inputSchema": {}, "outputSchema": ` + strings.Repeat(`{"items": `, maxSchemaDepth) + `{}` + strings.Repeat(`}`, maxSchemaDepth) + `}]`,
			warnings: []string{
				`x.json:1:35 (#/0/outputSchema): warning: schema nests deeper than 200 levels; any value is accepted`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				if out := op(t, svc, "a").Tool.OutputType; out == nil || out.Kind != ir.Any {
					t.Errorf("output %+v", out)
				}
			},
		},
		{
			name:  "many violations",
			input: `[{"name": "a", "inputSchema": {"properties": {"a": {"type": 1}, "b": {"type": 2}, "c": {"type": 3}, "d": {"type": 4}, "e": {"type": "string"}}}}]`,
			warnings: []string{
				`x.json:1:16 (#/0/inputSchema): warning: not a valid JSON Schema in more places; those are ignored too`,
				`x.json:1:53 (#/0/inputSchema/properties/a/type): warning: not a valid JSON Schema: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; the keyword "type" is ignored`,
				`x.json:1:71 (#/0/inputSchema/properties/b/type): warning: not a valid JSON Schema: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; the keyword "type" is ignored`,
				`x.json:1:89 (#/0/inputSchema/properties/c/type): warning: not a valid JSON Schema: value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; the keyword "type" is ignored`,
			},
			check: func(t *testing.T, svc *ir.Service) {
				in := op(t, svc, "a").Tool.InputType
				for _, name := range []string{"a", "b", "c", "d"} {
					if f := field(t, in, name); f.Type.Kind != ir.Any {
						t.Errorf("%s: kind %v", name, f.Type.Kind)
					}
				}
				if e := field(t, in, "e"); e.Type.Kind != ir.String {
					t.Errorf("e: kind %v", e.Type.Kind)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, diags, err := LoadData(context.Background(), []byte(tc.input), "x.json", tc.opts)
			if err != nil {
				t.Fatalf("LoadData: %v", err)
			}
			var got []string
			for _, d := range diags {
				if d.Severity != diag.Warning {
					t.Errorf("not a warning: %s", d)
				}
				got = append(got, d.String())
			}
			// Each expected warning is a prefix (the validator's messages are long).
			if !slices.EqualFunc(got, tc.warnings, strings.HasPrefix) {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.warnings, "\n"))
			}
			tc.check(t, svc)
		})
	}
}
