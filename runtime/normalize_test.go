package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// quiet is a pipeline whose warnings go nowhere, so test output stays clean.
var quiet = &runtime.Pipeline{Logger: discardLogger()}

// decodeUntyped decodes body into an any with the pipeline and returns the
// data re-marshalled (compact, keys sorted) with the warnings.
func decodeUntyped(t *testing.T, p *runtime.Pipeline, schema *opsgenimpl.Schema, body string) (string, []runtime.Warning) {
	t.Helper()
	var out any
	ws, err := opsgenimpl.Decode(context.Background(), p, "test.op", schema, []byte(body), &out)
	if err != nil {
		t.Fatalf("Decode(%s): %v", body, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), ws
}

// compact returns JSON re-encoded the way decodeUntyped renders it.
func compact(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// pointers lists the warnings as "pointer: message".
func pointers(ws []runtime.Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Pointer + ": " + w.Message
	}
	return out
}

const petSchema = `{
	"type": "object",
	"required": ["id", "name"],
	"properties": {
		"id": {"type": "integer"},
		"name": {"type": "string", "minLength": 1},
		"status": {"type": "string", "enum": ["available", "sold"], "default": "available"},
		"tags": {"type": "array", "items": {"type": "string"}},
		"owner": {
			"type": "object",
			"properties": {
				"name": {"type": "string"},
				"verified": {"type": "boolean", "default": false}
			}
		}
	}
}`

// pet is shaped as opsgen generates types: optional fields have omitempty.
type pet struct {
	ID     int      `json:"id"`
	Name   string   `json:"name"`
	Status string   `json:"status,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Owner  *struct {
		Name     string `json:"name,omitempty"`
		Verified bool   `json:"verified"`
	} `json:"owner,omitempty"`
}

// TestNormalize covers each normalization rule on an untyped target, where
// every change is visible in the decoded value.
func TestNormalize(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	for _, tc := range []struct {
		name     string
		in, want string
		warnings []string // "pointer: message" prefixes
	}{
		{
			name: "conforming data is unchanged apart from defaults",
			in:   `{"id":1,"name":"rex","status":"sold","tags":["a"]}`,
			want: `{"id":1,"name":"rex","status":"sold","tags":["a"]}`,
		},
		{
			name: "undeclared properties are dropped",
			in:   `{"extra":true,"id":1,"x":{"y":[1,2]},"name":"rex","status":"sold","last":null}`,
			want: `{"id":1,"name":"rex","status":"sold"}`,
		},
		{
			name: "absent defaults are filled, present values kept",
			in:   `{"id":1,"name":"rex","owner":{"name":"ann"}}`,
			want: `{"id":1,"name":"rex","status":"available","owner":{"name":"ann","verified":false}}`,
		},
		{
			name: "defaults fill an empty object",
			in:   `{"id":1,"name":"rex","owner":{}}`,
			want: `{"id":1,"name":"rex","status":"available","owner":{"verified":false}}`,
		},
		{
			name:     "a wrong-typed field is dropped, the rest kept",
			in:       `{"id":"seven","name":"rex","status":"sold","tags":["a"]}`,
			want:     `{"name":"rex","status":"sold","tags":["a"]}`,
			warnings: []string{`/id: expected integer, got string`},
		},
		{
			name: "wrong-typed first, last and only members",
			in:   `{"owner":{"verified":"yes"},"id":1,"name":2}`,
			want: `{"id":1,"status":"available","owner":{}}`,
			// One warning per problem: the dropped required member is not
			// reported missing as well.
			warnings: []string{`/owner/verified: expected boolean, got string`, `/name: expected string, got integer`},
		},
		{
			name:     "a wrong-typed array item becomes null",
			in:       `{"id":1,"name":"rex","status":"sold","tags":["a",{"b":1},"c"]}`,
			want:     `{"id":1,"name":"rex","status":"sold","tags":["a",null,"c"]}`,
			warnings: []string{`/tags/1: expected string, got object`},
		},
		{
			name:     "constraint mismatches are warnings, the value stays",
			in:       `{"id":1,"name":"","status":"lost"}`,
			want:     `{"id":1,"name":"","status":"lost"}`,
			warnings: []string{`/name: length 0 is less than minLength 1`, `/status: value "lost" is not one of ["available","sold"]`},
		},
		{
			name:     "missing required property",
			in:       `{"name":"rex"}`,
			want:     `{"name":"rex","status":"available"}`,
			warnings: []string{`: missing required property "id"`},
		},
		{
			name:     "a root of the wrong type becomes null",
			in:       `[{"id":1}]`,
			want:     `null`,
			warnings: []string{`: expected object, got array`},
		},
		{
			name: "white space and escapes survive",
			in:   " {\n \"id\" : 1 , \"n\\u0061me\" : \"r\\\"ex\" ,\n \"junk\" : [ ] } ",
			want: `{"id":1,"name":"r\"ex","status":"available"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ws := decodeUntyped(t, quiet, schema, tc.in)
			if got != compact(t, tc.want) {
				t.Errorf("data\n got %s\nwant %s", got, compact(t, tc.want))
			}
			checkWarnings(t, ws, tc.warnings)
		})
	}
}

func checkWarnings(t *testing.T, ws []runtime.Warning, want []string) {
	t.Helper()
	got := pointers(ws)
	if len(got) != len(want) {
		t.Fatalf("warnings\n got %q\nwant %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("warning %d = %q, want prefix %q", i, got[i], want[i])
		}
	}
	for _, w := range ws {
		if w.OperationID != "test.op" {
			t.Errorf("warning %q has operation %q", w.Message, w.OperationID)
		}
	}
}

// TestNormalizeStruct: a struct target gets defaults and loses wrong-typed
// fields, so that one bad field does not fail the whole result.
func TestNormalizeStruct(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	var p pet
	// Plain encoding/json fails on the first field of the wrong type.
	body := []byte(`{"id":"7","name":"rex","tags":["a",3],"owner":{"name":"ann"},"extra":1}`)
	if err := json.Unmarshal(body, &p); err == nil {
		t.Fatal("encoding/json accepted a wrong-typed field; the test proves nothing")
	}
	p = pet{}
	ws, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, body, &p)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != 0 || p.Name != "rex" || p.Status != "available" || !reflect.DeepEqual(p.Tags, []string{"a", ""}) ||
		p.Owner == nil || p.Owner.Name != "ann" || p.Owner.Verified {
		t.Errorf("decoded %+v", p)
	}
	checkWarnings(t, ws, []string{"/id: expected integer, got string", "/tags/1: expected string, got integer"})
}

func TestAdditionalProperties(t *testing.T) {
	for _, tc := range []struct{ schema, in, want string }{
		{`{"properties":{"a":{}}}`, `{"a":1,"b":2}`, `{"a":1}`},
		{`{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, `{"a":1}`},
		{`{"properties":{"a":{}},"additionalProperties":true}`, `{"a":1,"b":2}`, `{"a":1,"b":2}`},
		{`{"properties":{"a":{}},"additionalProperties":{"type":"string"}}`, `{"a":1,"b":"x","c":3}`, `{"a":1,"b":"x"}`},
		{`{"type":"object"}`, `{"a":1,"b":2}`, `{"a":1,"b":2}`},
	} {
		got, _ := decodeUntyped(t, quiet, opsgenimpl.NewSchema(tc.schema), tc.in)
		if got != tc.want {
			t.Errorf("schema %s, data %s: got %s, want %s", tc.schema, tc.in, got, tc.want)
		}
	}
}

// TestAdditionalPropertiesBesideBranch: a member that only the chosen
// anyOf branch declares is checked against the schema's own
// additionalProperties too, and warned about, but kept: the branch's type
// holds it (Adyen's additionalData, seed 2718).
func TestAdditionalPropertiesBesideBranch(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{"type":"object","additionalProperties":{"type":"string"},"anyOf":[{"properties":{"e":{"type":"boolean"}}}]}`)
	got, ws := decodeUntyped(t, quiet, schema, `{"e":true,"s":"x"}`)
	if got != `{"e":true,"s":"x"}` {
		t.Errorf("got %s", got)
	}
	checkWarnings(t, ws, []string{"/e: expected string, got boolean"})
}

func TestIntegerSpellings(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"n":{"type":"integer"},"f":{"type":"number"}}}`)
	var out struct {
		N int     `json:"n"`
		F float64 `json:"f"`
	}
	ws, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, []byte(`{"n":1e3,"f":2.5}`), &out)
	if err != nil || len(ws) != 0 || out.N != 1000 || out.F != 2.5 {
		t.Errorf("1e3: %+v %v %v", out, ws, err)
	}
	ws, err = opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, []byte(`{"n":2.0}`), &out)
	if err != nil || len(ws) != 0 || out.N != 2 {
		t.Errorf("2.0: %+v %v %v", out, ws, err)
	}
	ws, _ = opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, []byte(`{"n":2.5,"f":1}`), &out)
	checkWarnings(t, ws, []string{"/n: expected integer, got number"})
}

func TestValidationModes(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	body := []byte(`{"id":"x","name":"rex","extra":1}`)

	t.Run("strict", func(t *testing.T) {
		var out map[string]any
		_, err := opsgenimpl.Decode(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateStrict}, "pets.get", schema, body, &out)
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || !errors.Is(err, runtime.ErrValidation) {
			t.Fatalf("err = %v, want a VALIDATION_ERROR", err)
		}
		if len(ce.Issues) != 1 || ce.Issues[0].Pointer != "/id" || ce.OperationID != "pets.get" || ce.Issues[0].OperationID != "pets.get" {
			t.Errorf("issues = %+v", ce.Issues)
		}
		if out != nil {
			t.Errorf("out = %v, want untouched", out)
		}
		// Conforming data passes strict mode, normalized.
		_, err = opsgenimpl.Decode(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateStrict}, "pets.get", schema, []byte(`{"id":1,"name":"a","x":1}`), &out)
		if err != nil || !reflect.DeepEqual(out, map[string]any{"id": 1.0, "name": "a", "status": "available"}) {
			t.Errorf("strict, conforming: %v %v", out, err)
		}
	})
	t.Run("off", func(t *testing.T) {
		got, ws := decodeUntyped(t, &runtime.Pipeline{Mode: runtime.ValidateOff}, schema, string(body))
		if got != compact(t, string(body)) || ws != nil {
			t.Errorf("off mode changed the data: %s %v", got, ws)
		}
	})
	t.Run("warn is the zero value and nil, logging to package log", func(t *testing.T) {
		// Package log's default logger, with the line slog's default
		// handler would write (so that log/slog is linked only by
		// programs that ask for it).
		var logs bytes.Buffer
		flags, w := log.Flags(), log.Writer()
		defer func() { log.SetFlags(flags); log.SetOutput(w) }()
		log.SetFlags(0)
		log.SetOutput(&logs)
		for _, p := range []*runtime.Pipeline{nil, {}} {
			logs.Reset()
			var out map[string]any
			ws, err := opsgenimpl.Decode(context.Background(), p, "test.op", schema, body, &out)
			if err != nil || len(ws) != 1 || out["extra"] != nil || out["name"] != "rex" {
				t.Errorf("pipeline %v: %v %v %v", p, out, ws, err)
			}
			if !strings.HasPrefix(logs.String(), "WARN opsgen: result does not match its schema operation=test.op pointer=/id message=") {
				t.Errorf("pipeline %v: default log %q", p, logs.String())
			}
		}
	})
	t.Run("no schema", func(t *testing.T) {
		got, ws := decodeUntyped(t, quiet, nil, string(body))
		if got != compact(t, string(body)) || ws != nil {
			t.Errorf("nil schema changed the data: %s %v", got, ws)
		}
	})
}

func TestComposition(t *testing.T) {
	set := opsgenimpl.NewSchemaSet(`{"$defs": {
		"Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "kind": {"type": "string"}}},
		"Cat": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer", "default": 9}}},
		"Dog": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}}},
		"Named": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"name": {"type": "string"}}, "required": ["name"]}]},
		"Pet": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]},
		"Either": {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0}]},
		"Loose": {"oneOf": [{"type": "number"}, {"type": "integer"}]}
	}}`)
	for _, tc := range []struct {
		name, ref, in, want string
		warnings            []string
	}{
		{"allOf keeps the properties of every part", "Named", `{"id":1,"name":"a","kind":"x","extra":1}`, `{"id":1,"name":"a","kind":"x"}`, nil},
		{"allOf checks every part", "Named", `{"kind":"x"}`, `{"kind":"x"}`, []string{`: missing required property "id"`, `: missing required property "name"`}},
		{"allOf drops a field wrong for one part", "Named", `{"id":"1","name":"a"}`, `{"name":"a"}`, []string{"/id: expected integer"}},
		{"oneOf picks the matching branch and normalizes with it", "Pet", `{"kind":"cat","extra":1}`, `{"kind":"cat","lives":9}`, nil},
		{"oneOf other branch", "Pet", `{"kind":"dog","good":true,"lives":3}`, `{"kind":"dog","good":true}`, nil},
		{"oneOf without a match warns and keeps the value", "Pet", `{"kind":"cow"}`, `{"kind":"cow"}`, []string{": matches none of the 2 oneOf schemas"}},
		{"oneOf with two matches warns", "Loose", `3`, `3`, []string{": matches 2 of the oneOf schemas"}},
		{"anyOf first branch", "Either", `"x"`, `"x"`, nil},
		{"anyOf second branch", "Either", `4`, `4`, nil},
		{"anyOf no branch", "Either", `-4`, `-4`, []string{": matches none of the 2 anyOf schemas (first: expected string, got integer)"}},
		{"oneOf inside an array", "PetList", `[{"kind":"cat"},{"kind":"dog","x":1}]`, `[{"kind":"cat","lives":9},{"kind":"dog"}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref := `{"$ref":"#/$defs/` + tc.ref + `"}`
			if tc.ref == "PetList" {
				ref = `{"type":"array","items":{"$ref":"#/$defs/Pet"}}`
			}
			got, ws := decodeUntyped(t, quiet, set.Ref(ref), tc.in)
			if got != compact(t, tc.want) {
				t.Errorf("data\n got %s\nwant %s", got, compact(t, tc.want))
			}
			checkWarnings(t, ws, tc.warnings)
		})
	}
}

func TestRecursiveRef(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{
		"$ref": "#/$defs/Tree",
		"$defs": {"Tree": {"type": "object", "required": ["value"], "properties": {
			"value": {"type": "integer"},
			"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}
		}}}
	}`)
	type tree struct {
		Value    int    `json:"value"`
		Children []tree `json:"children"`
	}
	var out tree
	body := `{"value":1,"children":[{"value":2,"children":[{"value":"three","x":1},{"value":4}]},{"value":5,"junk":true}]}`
	ws, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, []byte(body), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := tree{1, []tree{{2, []tree{{0, nil}, {4, nil}}}, {5, nil}}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("decoded %+v", out)
	}
	checkWarnings(t, ws, []string{"/children/0/children/0/value: expected integer, got string"})

	got, _ := decodeUntyped(t, quiet, schema, body)
	if want := `{"children":[{"children":[{},{"value":4}],"value":2},{"value":5}],"value":1}`; got != want {
		t.Errorf("untyped\n got %s\nwant %s", got, want)
	}
}

func TestNullable(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{
		"a": {"type": "string", "nullable": true},
		"b": {"type": ["string", "null"]},
		"c": {"type": "string"},
		"d": {"allOf": [{"$ref": "#/$defs/Obj"}], "nullable": true}
	}, "$defs": {"Obj": {"type": "object"}}}`)
	got, ws := decodeUntyped(t, quiet, schema, `{"a":null,"b":null,"c":null,"d":null}`)
	if want := `{"a":null,"b":null,"d":null}`; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	checkWarnings(t, ws, []string{"/c: expected string, got null"})
	_, ws = decodeUntyped(t, quiet, schema, `{"a":1,"b":2,"d":"x"}`)
	checkWarnings(t, ws, []string{"/a: expected string", "/b: expected null or string", "/d: expected object"})
}

func TestKeywords(t *testing.T) {
	for _, tc := range []struct {
		schema, in string
		warnings   []string
	}{
		{`{"enum":[1,"a",null,{"x":[1]}]}`, `{"x":[1.0]}`, nil},
		{`{"enum":[1,"a"]}`, `2`, []string{`: value 2 is not one of [1,"a"]`}},
		{`{"const":"v1"}`, `"v2"`, []string{`: value "v2" is not the constant "v1"`}},
		{`{"minimum":1,"maximum":3}`, `0`, []string{": 0 is less than minimum 1"}},
		{`{"minimum":1,"maximum":3}`, `3.5`, []string{": 3.5 is greater than maximum 3"}},
		{`{"exclusiveMinimum":1,"exclusiveMaximum":3}`, `3`, []string{": 3 is not less than exclusiveMaximum 3"}},
		{`{"minimum":1,"exclusiveMinimum":true}`, `1`, []string{": 1 is not greater than exclusiveMinimum 1"}},
		{`{"multipleOf":0.1}`, `0.3`, nil},
		{`{"multipleOf":2}`, `3`, []string{": 3 is not a multiple of 2"}},
		{`{"maxLength":2}`, `"héé"`, []string{": length 3 is greater than maxLength 2"}},
		{`{"pattern":"^[a-z]+$"}`, `"ab1"`, []string{`: "ab1" does not match pattern`}},
		{`{"pattern":"(?<=a)b"}`, `"zzz"`, nil}, // lookbehind: Go cannot compile it, skipped
		{`{"format":"date-time"}`, `"2024-01-02T03:04:05Z"`, nil},
		{`{"format":"date-time"}`, `"yesterday"`, []string{`: "yesterday" is not a valid date-time`}},
		{`{"format":"date"}`, `"2024-13-01"`, []string{`: "2024-13-01" is not a valid date`}},
		{`{"format":"uuid"}`, `"123e4567-e89b-12d3-a456-426614174000"`, nil},
		{`{"format":"uuid"}`, `"123e4567"`, []string{`: "123e4567" is not a valid uuid`}},
		{`{"format":"email"}`, `"a@b.example"`, nil},
		{`{"format":"email"}`, `"not an email"`, []string{`: "not an email" is not a valid email`}},
		{`{"format":"hostname"}`, `"!!"`, nil}, // unchecked formats are annotations
		{`{"type":"number","format":"int32"}`, `14`, nil},
		{`{"type":"number","format":"int32"}`, `14.5`, []string{`: 14.5 is not a valid int32`}},
		{`{"type":"integer","format":"int32"}`, `2147483648`, []string{`: 2147483648 is not a valid int32`}},
		{`{"type":"number","format":"int64"}`, `-3e3`, nil},
		{`{"format":"int32"}`, `"14.5"`, nil}, // a number format says nothing of strings
		{`{"minItems":2,"maxItems":3}`, `[1]`, []string{": has 1 items, fewer than minItems 2"}},
		{`{"maxItems":1}`, `[[1,2],[3]]`, []string{": has 2 items, more than maxItems 1"}},
		{`{"uniqueItems":true}`, `[1,{"a":1},{"a":1.0}]`, []string{": items 1 and 2 are equal"}},
		{`{"minProperties":2}`, `{"a":1}`, []string{": has 1 properties, fewer than minProperties 2"}},
		{`{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}`, `["a",1,true,2]`, []string{"/3: expected boolean, got integer"}},
		{`{"items":[{"type":"string"}]}`, `[1]`, []string{"/0: expected string, got integer"}},
		{`{"additionalProperties":{"type":"integer"}}`, `{"a":1,"b":"x"}`, []string{"/b: expected integer, got string"}},
		{`{"properties":{"a":{}},"additionalProperties":false}`, `{"a":1,"b":2}`, []string{`/b: property "b" is not allowed (additionalProperties is false): dropped`}},
		{`{"properties":{"a":false}}`, `{"a":1}`, []string{"/a: no value is allowed here"}},
		{`true`, `{"anything":[1]}`, nil},
		{`{"required":["a","b"]}`, `{"a":1,"c":2}`, []string{`: missing required property "b"`}},
		{`{"oneOf":[{"minProperties":2},{"maxProperties":0}]}`, `{"a":1,"b":2}`, nil},
		{`{"oneOf":[{"minProperties":2},{"maxProperties":0}]}`, `{"a":1}`, []string{": matches none of the 2 oneOf schemas (first: has 1 properties, fewer than minProperties 2)"}},
		{`{"type":"object","properties":{"a/b~c":{"type":"string"}}}`, `{"a/b~c":1}`, []string{"/a~1b~0c: expected string, got integer"}},
		// The first failing branch's message, from a branch of a branch,
		// with its pointer; a branch skipped for its type first.
		{`{"anyOf":[{"type":"object","required":["a"],"properties":{"a":{"oneOf":[{"type":"string"},{"type":"boolean"}]}}},{"type":"string"}]}`, `{"a":1}`,
			[]string{": matches none of the 2 anyOf schemas (first: /a: matches none of the 2 oneOf schemas (first: /a: expected string, got integer))"}},
		{`{"anyOf":[{"type":"string"},{"type":"object","required":["b"]}]}`, `{"a":1}`,
			[]string{": matches none of the 2 anyOf schemas (first: expected string, got object)"}},
	} {
		_, ws := decodeUntyped(t, quiet, opsgenimpl.NewSchema(tc.schema), tc.in)
		if len(ws) != len(tc.warnings) {
			t.Errorf("schema %s, data %s: warnings %q, want %q", tc.schema, tc.in, pointers(ws), tc.warnings)
			continue
		}
		for i := range tc.warnings {
			if got := pointers(ws)[i]; !strings.HasPrefix(got, tc.warnings[i]) {
				t.Errorf("schema %s, data %s: warning %q, want prefix %q", tc.schema, tc.in, got, tc.warnings[i])
			}
		}
	}
}

// TestFallbackValidator: keywords the walker does not check are checked by
// santhosh-tekuri/jsonschema; members a patternProperties may match stay.
func TestFallbackValidator(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{"type":"object",
		"properties":{"n":{"type":"integer","not":{"const":13}}},
		"patternProperties":{"^x-":{"type":"string"}}}`)
	got, ws := decodeUntyped(t, quiet, schema, `{"n":13,"x-a":"ok","x-b":2}`)
	if got != `{"n":13,"x-a":"ok","x-b":2}` {
		t.Errorf("data %s", got)
	}
	ps := pointers(ws) // sorted by pointer
	if len(ps) != 2 || !strings.HasPrefix(ps[0], "/n: ") || !strings.HasPrefix(ps[1], "/x-b: ") {
		t.Errorf("warnings %q", ps)
	}
	_, ws = decodeUntyped(t, quiet, schema, `{"n":12,"x-a":"ok"}`)
	if len(ws) != 0 {
		t.Errorf("warnings %q", pointers(ws))
	}
}

// TestFallbackInSet: the fallback validator resolves refs into the set.
func TestFallbackInSet(t *testing.T) {
	set := opsgenimpl.NewSchemaSet(`{"$defs": {
		"Odd": {"type": "integer", "not": {"multipleOf": 2}},
		"Pair": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Odd"}, "b": {"type": "integer", "nullable": true}}}
	}}`)
	schema := set.Ref(`{"type": "array", "items": {"$ref": "#/$defs/Pair"}}`)
	if err := schema.Compile(); err != nil {
		t.Fatal(err)
	}
	got, ws := decodeUntyped(t, quiet, schema, `[{"a":3,"b":null},{"a":4,"b":1,"c":0}]`)
	if got != `[{"a":3,"b":null},{"a":4,"b":1}]` {
		t.Errorf("data %s", got)
	}
	if ps := pointers(ws); len(ps) != 1 || !strings.HasPrefix(ps[0], "/1/a: ") {
		t.Errorf("warnings %q", ps)
	}
}

func TestSchemaErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"not JSON":         `{"type":`,
		"not a schema":     `[1]`,
		"bad type":         `{"type":"text"}`,
		"dangling ref":     `{"$ref":"#/$defs/Nope"}`,
		"external ref":     `{"$ref":"https://example.com/s.json"}`,
		"bad minLength":    `{"minLength":-1}`,
		"bad required":     `{"required":"id"}`,
		"bad property":     `{"properties":{"a":3}}`,
		"trailing garbage": `{} {}`,
	} {
		s := opsgenimpl.NewSchema(doc)
		err := s.Compile()
		if err == nil {
			t.Errorf("%s: compiled", name)
			continue
		}
		// Warn mode decodes without the schema and says why.
		var out any
		ws, derr := opsgenimpl.Decode(context.Background(), quiet, "test.op", s, []byte(`{"a":1}`), &out)
		if derr != nil || len(ws) != 1 || !strings.Contains(ws[0].Message, "unusable") || out == nil {
			t.Errorf("%s: warn mode: %v %v %v", name, out, ws, derr)
		}
		// Strict mode fails.
		_, derr = opsgenimpl.Decode(context.Background(), &runtime.Pipeline{Mode: runtime.ValidateStrict}, "test.op", s, []byte(`{}`), &out)
		if !errors.Is(derr, runtime.ErrValidation) {
			t.Errorf("%s: strict mode: %v", name, derr)
		}
	}
	set := opsgenimpl.NewSchemaSet(`{"$defs":`)
	if err := set.Ref(`{"$ref":"#/$defs/A"}`).Compile(); err == nil {
		t.Error("a schema of a broken set compiled")
	}
}

func TestMalformedJSON(t *testing.T) {
	schema := opsgenimpl.NewSchema(petSchema)
	for _, body := range []string{``, `{`, `{"id":1,}`, `{"id" 1}`, `[1 2]`, `{"id":01}`, `{"id":1} x`, `"\x"`, "\"a\x01\"", `{"id":tru}`, `nul`, `-`, `1.`, `{"a":"\u12"}`} {
		var out any
		_, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", schema, []byte(body), &out)
		if !errors.Is(err, runtime.ErrDecode) {
			t.Errorf("%q: err = %v, want DECODE_ERROR", body, err)
		}
		if json.Valid([]byte(body)) {
			t.Errorf("%q is valid JSON; the case proves nothing", body)
		}
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	var out any
	if _, err := opsgenimpl.Decode(context.Background(), quiet, "test.op", opsgenimpl.NewSchema(`{"items":{"$ref":"#"}}`), []byte(deep), &out); !errors.Is(err, runtime.ErrDecode) {
		t.Errorf("20000 nested arrays: err = %v, want DECODE_ERROR", err)
	}
}

// TestSharedMember: a member declared both by a schema and by its chosen
// oneOf branch is normalized once, by the branch, and checked by both.
func TestSharedMember(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{
		"type": "object",
		"properties": {"p": {"type": "object", "properties": {"a": {"type": "integer", "default": 1}}}},
		"oneOf": [{"properties": {"kind": {"const": "b"}, "p": {"type": "object", "properties": {"b": {"default": 2}, "a": {}}}}}]
	}`)
	got, ws := decodeUntyped(t, quiet, schema, `{"kind":"b","p":{"x":0}}`)
	if want := `{"kind":"b","p":{"b":2}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	checkWarnings(t, ws, nil)
	_, ws = decodeUntyped(t, quiet, schema, `{"kind":"b","p":{"a":"one"}}`)
	checkWarnings(t, ws, []string{"/p/a: expected integer, got string"})
}
