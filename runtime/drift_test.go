package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// The regression tests of opsgen issue 11, "Real calls to real APIs: drift
// never fails a call", one per class of failure found on real APIs.

// driftSchema declares what the server promised; driftThing is the Go type
// opsgen generates from it (date-time is time.Time, float float32, byte
// []byte, and a schema with items but no type a slice).
const driftSchema = `{"type":"object","properties":{
	"when":{"type":"string","format":"date-time"},
	"at":{"type":"string","format":"date-time"},
	"f32":{"type":"number","format":"float"},
	"file":{"type":"string","format":"byte"},
	"list":{"items":{"type":"string"}},
	"name":{"type":"string"}
}}`

type driftThing struct {
	When *time.Time `json:"when,omitempty"`
	At   time.Time  `json:"at"`
	F32  *float32   `json:"f32,omitempty"`
	File []byte     `json:"file,omitempty"`
	List []string   `json:"list,omitempty"`
	Name string     `json:"name"`
}

// driftBody is what Prism served: each member but name is valid JSON
// (and, but for the dates, valid for the schema) that driftThing cannot
// hold.
const driftBody = `{"when":"2018/01/01 12:08:25 +0000","at":"yesterday","f32":-3.402823669209385e+38,"file":"str!ng","list":{"a":1},"name":"kept"}`

// TestDriftGoTypeCannotHoldIsNotADecodeError is class 1: a value the Go
// type cannot hold failed the whole call with DECODE_ERROR "malformed
// JSON", and its warnings were lost. Now each such value is dropped (or,
// for a readable date-time, rewritten) with a warning naming its pointer,
// in warn and off mode, through Decode, DecodeReader and an HTTP call.
func TestDriftGoTypeCannotHoldIsNotADecodeError(t *testing.T) {
	schema := opsgenimpl.NewSchema(driftSchema)
	ctx := context.Background()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(driftBody))
	}))
	defer srv.Close()

	paths := map[string]func(p *runtime.Pipeline, out *driftThing) ([]runtime.Warning, error){
		"Decode": func(p *runtime.Pipeline, out *driftThing) ([]runtime.Warning, error) {
			return opsgenimpl.Decode(ctx, p, "getThing", schema, []byte(driftBody), out)
		},
		"DecodeReader": func(p *runtime.Pipeline, out *driftThing) ([]runtime.Warning, error) {
			return opsgenimpl.DecodeReader(ctx, p, "getThing", schema, strings.NewReader(driftBody), out)
		},
		"httpclient": func(p *runtime.Pipeline, out *driftThing) ([]runtime.Warning, error) {
			c := httpclient.New(srv.URL, nil, httpclient.WithValidation(p.Mode), httpclient.WithLogger(p.Logger), httpclient.WithWarningHook(p.OnWarning))
			r := c.NewRequest("getThing", http.MethodGet, "/thing")
			env, err := httpclient.Do[driftThing](ctx, c, r, []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON, Schema: schema}})
			*out = env.Data
			return env.Warnings, err
		},
	}
	for name, decode := range paths {
		for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateOff} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				var reported []runtime.Warning
				p := &runtime.Pipeline{Mode: mode, Logger: discardLogger()}
				p.OnWarning = func(_ context.Context, w runtime.Warning) { reported = append(reported, w) }
				var out driftThing
				ws, err := decode(p, &out)
				if err != nil {
					t.Fatalf("well-formed JSON failed the call: %v", err)
				}
				want := driftThing{When: ptr(time.Date(2018, 1, 1, 12, 8, 25, 0, time.UTC)), Name: "kept"}
				if !out.When.Equal(*want.When) || !out.At.IsZero() || out.F32 != nil || out.File != nil || out.List != nil || out.Name != "kept" {
					t.Errorf("data %+v, want %+v", out, want)
				}
				// One warning per value the Go type cannot hold, in document
				// order, in both modes: in warn mode the schema's warnings on
				// the same values ("is not a valid date-time") give way to
				// them, so one drift is one warning.
				wantWarnings := []string{
					`/when: "2018/01/01 12:08:25 +0000" is not an RFC 3339 date-time, which Go type time.Time needs: read as "2018-01-01T12:08:25Z"`,
					`/at: value "yesterday" does not fit Go type time.Time (not an RFC 3339 date-time): dropped`,
					`/f32: value -3.402823669209385e+38 does not fit Go type float32 (out of its range): dropped`,
					`/file: value "str!ng" does not fit Go type []byte (not base64): dropped`,
					`/list: value {"a":1} does not fit Go type []string: dropped`,
				}
				if got := pointers(ws); !reflect.DeepEqual(got, wantWarnings) {
					t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantWarnings, "\n"))
				}
				for _, w := range ws {
					if w.OperationID != "getThing" {
						t.Errorf("warning %v: operation %q, want getThing", w, w.OperationID)
					}
				}
				if !reflect.DeepEqual(reported, ws) {
					t.Errorf("reported %v, returned %v", reported, ws)
				}
			})
		}
	}

	// Strict mode: a value the Go type cannot hold is a validation issue,
	// not a decode error, even when the schema has nothing against it.
	t.Run("strict", func(t *testing.T) {
		strict := &runtime.Pipeline{Mode: runtime.ValidateStrict}
		var out driftThing
		_, err := opsgenimpl.Decode(ctx, strict, "getThing", schema, []byte(`{"f32":1e39,"name":"x"}`), &out)
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || len(ce.Issues) != 1 || ce.Issues[0].Pointer != "/f32" || ce.Issues[0].OperationID != "getThing" {
			t.Fatalf("err = %v, want VALIDATION_ERROR with one issue at /f32", err)
		}
		if !reflect.DeepEqual(out, driftThing{}) {
			t.Errorf("out %+v, want zero", out)
		}
	})

	// DECODE_ERROR is for bytes that are not JSON, and only for them.
	t.Run("malformed", func(t *testing.T) {
		for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateStrict, runtime.ValidateOff} {
			var out driftThing
			_, err := opsgenimpl.Decode(ctx, &runtime.Pipeline{Mode: mode}, "getThing", schema, []byte(`{"name":"x",}`), &out)
			if !errors.Is(err, runtime.ErrDecode) {
				t.Errorf("%s: err = %v, want DECODE_ERROR", mode, err)
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// TestDriftGoTypeCannotHoldGeneratedTypes: the types generated code
// declares (enums, unions holding raw JSON, objects with
// AdditionalProperties, tuples, maps) and the integer kinds: what does not
// fit is dropped member by member, the rest kept.
func TestDriftGoTypeCannotHoldGeneratedTypes(t *testing.T) {
	ctx := context.Background()
	body := `{
		"i8": 300, "u16": -1, "i32": 2.5, "big": 1e400,
		"color": 7, "union": {"any": ["thing"]},
		"extra": {"name": "e", "n": 1, "bad": "x"},
		"tuple": ["s", "not a number", true, "rest?"],
		"counts": {"a": 1, "b": "two"}, "byID": {"1": "one", "x": "bad"},
		"nested": [{"i8": 1}, {"i8": 1000}, "oops"],
		"quoted": "12", "quotedBad": "twelve",
		"Name": "folded"
	}`
	var out genLike
	ws, err := opsgenimpl.Decode(ctx, quiet, "gen.op", nil, []byte(body), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := genLike{
		Union:  genUnion{raw: json.RawMessage(`{"any": ["thing"]}`)},
		Extra:  genExtra{Name: ptr("e"), AdditionalProperties: map[string]int64{"n": 1}},
		Tuple:  genTuple{Item0: "s", Rest: []string{"rest?"}},
		Counts: map[string]int64{"a": 1},
		ByID:   map[int]string{1: "one"},
		Nested: []genLeaf{{I8: 1}, {}, {}},
		Quoted: 12,
		Name:   "folded",
	}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("data\n%+v\nwant\n%+v", out, want)
	}
	wantPointers := []string{"/i8", "/u16", "/i32", "/big", "/color", "/extra/bad", "/tuple/1", "/tuple/2", "/counts/b", "/byID/x", "/nested/1/i8", "/nested/2", "/quotedBad"}
	var got []string
	for _, w := range ws {
		got = append(got, w.Pointer)
		if !strings.HasSuffix(w.Message, ": dropped") || w.OperationID != "gen.op" {
			t.Errorf("warning %v", w)
		}
	}
	if !reflect.DeepEqual(got, wantPointers) {
		t.Errorf("warnings at %q, want %q\n%s", got, wantPointers, strings.Join(pointers(ws), "\n"))
	}

	// A root of the wrong kind is the zero value; into any, a number out
	// of float64's range is dropped.
	var leaf genLeaf
	ws, err = opsgenimpl.Decode(ctx, quiet, "gen.op", nil, []byte(`[1,2]`), &leaf)
	if err != nil || len(ws) != 1 || ws[0].Pointer != "" || leaf != (genLeaf{}) {
		t.Errorf("root: %+v %v %v", leaf, ws, err)
	}
	var v any
	ws, err = opsgenimpl.Decode(ctx, quiet, "gen.op", nil, []byte(`{"a":[1,1e400],"b":true}`), &v)
	if b, _ := json.Marshal(v); err != nil || string(b) != `{"a":[1,null],"b":true}` || len(ws) != 1 || ws[0].Pointer != "/a/1" {
		t.Errorf("any: %s %v %v", b, ws, err)
	}
}

// genLike mimics a generated type with a field of every kind generated
// code declares.
type genLike struct {
	I8        int8             `json:"i8,omitempty"`
	U16       uint16           `json:"u16,omitempty"`
	I32       int32            `json:"i32,omitempty"`
	Big       float64          `json:"big,omitempty"`
	Color     genColor         `json:"color,omitempty"`
	Union     genUnion         `json:"union"`
	Extra     genExtra         `json:"extra"`
	Tuple     genTuple         `json:"tuple"`
	Counts    map[string]int64 `json:"counts,omitempty"`
	ByID      map[int]string   `json:"byID,omitempty"`
	Nested    []genLeaf        `json:"nested,omitempty"`
	Quoted    int              `json:"quoted,string,omitempty"`
	QuotedBad int              `json:"quotedBad,string,omitempty"`
	Name      string           `json:"name,omitempty"`
	When      *time.Time       `json:"when,omitempty"`
	File      []byte           `json:"file,omitempty"`
	Free      json.RawMessage  `json:"free,omitempty"`
	Any       any              `json:"any,omitempty"`
}

type genLeaf struct {
	I8 int8 `json:"i8"`
}

// genColor is a generated enum: a string type without methods.
type genColor string

// genUnion is a generated union: it keeps the raw JSON.
type genUnion struct{ raw json.RawMessage }

func (u genUnion) MarshalJSON() ([]byte, error) { return opsgenimpl.MarshalRaw(u.raw) }
func (u *genUnion) UnmarshalJSON(b []byte) error {
	u.raw = append(json.RawMessage(nil), b...)
	return nil
}

// genExtra is a generated object with additionalProperties: its
// UnmarshalJSON reads the declared fields, then the others into
// AdditionalProperties, and fails when one of them does not fit.
type genExtra struct {
	Name                 *string          `json:"name,omitempty"`
	AdditionalProperties map[string]int64 `json:"-"`
}

func (v *genExtra) UnmarshalJSON(b []byte) error {
	type plain genExtra
	if err := json.Unmarshal(b, (*plain)(v)); err != nil {
		return err
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	delete(obj, "name")
	v.AdditionalProperties = nil
	for k, raw := range obj {
		var x int64
		if err := json.Unmarshal(raw, &x); err != nil {
			return err
		}
		if v.AdditionalProperties == nil {
			v.AdditionalProperties = map[string]int64{}
		}
		v.AdditionalProperties[k] = x
	}
	return nil
}

func (v genExtra) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	for k, x := range v.AdditionalProperties {
		m[k] = x
	}
	if v.Name != nil {
		m["name"] = *v.Name
	}
	return json.Marshal(m)
}

// genTuple is a generated tuple.
type genTuple struct {
	Item0 string
	Item1 float64
	Item2 *int
	Rest  []string
}

func (t genTuple) MarshalJSON() ([]byte, error) {
	return opsgenimpl.MarshalTuple([]any{t.Item0, t.Item1, t.Item2}, t.Rest)
}

func (t *genTuple) UnmarshalJSON(b []byte) error {
	return opsgenimpl.UnmarshalTuple(b, []any{&t.Item0, &t.Item1, &t.Item2}, &t.Rest)
}

// TestDriftAdditionalPropertiesFalseWarns: a member additionalProperties
// false forbids is dropped with a warning naming it, whatever the target;
// a struct no longer takes it into a field whose name differs in case.
func TestDriftAdditionalPropertiesFalseWarns(t *testing.T) {
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"name":{"type":"string"},"inner":{"type":"object","properties":{"a":{}},"additionalProperties":false}},"additionalProperties":false}`)
	body := `{"name":"a","Name":"b","inner":{"a":1,"x/y":2},"extra":true}`
	want := []string{
		`/Name: property "Name" is not allowed (additionalProperties is false): dropped`,
		`/inner/x~1y: property "x/y" is not allowed (additionalProperties is false): dropped`,
		`/extra: property "extra" is not allowed (additionalProperties is false): dropped`,
	}
	var s struct {
		Name  string         `json:"name"`
		Inner map[string]any `json:"inner"`
	}
	ws, err := opsgenimpl.Decode(context.Background(), quiet, "op", schema, []byte(body), &s)
	if err != nil || s.Name != "a" || len(s.Inner) != 1 || !reflect.DeepEqual(pointers(ws), want) {
		t.Errorf("struct: %+v %q %v", s, pointers(ws), err)
	}
	got, ws := decodeUntyped(t, quiet, schema, body)
	if got != `{"inner":{"a":1},"name":"a"}` || !reflect.DeepEqual(pointers(ws), want) {
		t.Errorf("any: %s %q", got, pointers(ws))
	}
	// Inside a oneOf branch, a dropped member does not make the branch fail.
	union := opsgenimpl.NewSchema(`{"oneOf":[{"type":"object","required":["kind"],"properties":{"kind":{"const":"a"},"in":{"type":"object","properties":{"a":{}},"additionalProperties":false}}},{"type":"string"}]}`)
	got, ws = decodeUntyped(t, quiet, union, `{"kind":"a","in":{"a":1,"b":2}}`)
	if got != `{"in":{"a":1},"kind":"a"}` || len(ws) != 1 || ws[0].Pointer != "/in/b" {
		t.Errorf("oneOf: %s %q", got, pointers(ws))
	}
}

// statusSchema: a status whose members are all required, as Prism's specs
// often have; a server that drifted sends none of them.
const statusSchema = `{"type":"object","required":["ok","code","items"],"properties":{
	"ok":{"type":"boolean","enum":[true]},
	"code":{"type":"string","pattern":"^[A-Z]+$"},
	"items":{"type":"array","items":{"type":"string"}}
}}`

// status is the type generated for statusSchema: required members are
// values without omitempty.
type status struct {
	OK    bool     `json:"ok"`
	Code  string   `json:"code"`
	Items []string `json:"items"`
}

// TestRegistryOnePipelinePass is class 3: the Registry re-checked the JSON
// of the typed envelope a generated client returned, and invented
// warnings about data the server never sent (false, "", null for absent
// members; "expected object, got null" for a 204), under another
// operation id. Now one call is one pipeline pass with one set of
// warnings, all of one operation id.
func TestRegistryOnePipelinePass(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/nothing" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	ctx := context.Background()
	set := opsgenimpl.NewSchemaSet(`{"$defs":{"Status":` + statusSchema + `}}`)
	outSchema := set.Ref(`{"$ref":"#/$defs/Status"}`)

	for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateStrict} {
		t.Run(mode.String(), func(t *testing.T) {
			var reported []runtime.Warning
			hook := func(_ context.Context, w runtime.Warning) { reported = append(reported, w) }
			// The client in warn mode, as generated clients default to; the
			// Registry in mode.
			client := httpclient.New(srv.URL, nil, httpclient.WithLogger(discardLogger()), httpclient.WithWarningHook(hook))
			reg := runtime.NewRegistry(&runtime.Pipeline{Mode: mode, Logger: discardLogger(), OnWarning: hook})
			// What generated Register does: the handler returns the typed
			// envelope of the client call.
			register := func(id, opID, path string) {
				err := reg.Register(runtime.OperationSpec{ID: id, OutputSchema: json.RawMessage(`{"$ref":"#/$defs/Status"}`), Output: outSchema},
					func(ctx context.Context, _ json.RawMessage) (any, error) {
						r := client.NewRequest(opID, http.MethodGet, path)
						return httpclient.Do[status](ctx, client, r, []httpclient.Response{
							{Status: "200", Kind: httpclient.BodyJSON, Schema: outSchema},
							{Status: "204", Kind: httpclient.BodyNone},
						})
					})
				if err != nil {
					t.Fatal(err)
				}
			}
			register("api.getStatus", "getStatus", "/status")
			register("api.nothing", "nothing", "/nothing")

			env, err := runtime.ExecuteAs[status](ctx, reg, "api.getStatus", nil)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{
				`: missing required property "ok"`,
				`: missing required property "code"`,
				`: missing required property "items"`,
			}
			if got := pointers(env.Warnings); !reflect.DeepEqual(got, want) {
				t.Errorf("warnings %q, want only the client's %q", got, want)
			}
			for _, w := range env.Warnings {
				if w.OperationID != "getStatus" {
					t.Errorf("warning %v: operation %q, want the call's one id getStatus", w, w.OperationID)
				}
			}
			if !reflect.DeepEqual(reported, env.Warnings) {
				t.Errorf("reported %v, want each warning once: %v", reported, env.Warnings)
			}
			if !reflect.DeepEqual(env.Data, status{}) || runtime.HTTPMetaOf(env.Meta) == nil {
				t.Errorf("envelope %+v", env)
			}

			// Converted to another type by ExecuteAs, what that type cannot
			// hold is dropped with a warning of the same operation id.
			other, err := runtime.ExecuteAs[struct {
				OK string `json:"ok"`
			}](ctx, reg, "api.getStatus", nil)
			if mode == runtime.ValidateStrict {
				if !errors.Is(err, runtime.ErrValidation) {
					t.Errorf("ExecuteAs, strict: %v", err)
				}
			} else if err != nil || len(other.Warnings) != 4 || other.Warnings[3].Pointer != "/ok" || other.Warnings[3].OperationID != "getStatus" {
				t.Errorf("ExecuteAs: %+v %v", other, err)
			}

			// A 204 has no body: nothing to validate, nothing to warn about.
			reported = nil
			env, err = runtime.ExecuteAs[status](ctx, reg, "api.nothing", nil)
			if err != nil || len(env.Warnings) != 0 || len(reported) != 0 || runtime.HTTPMetaOf(env.Meta).StatusCode != 204 {
				t.Errorf("204: %+v %v, reported %v", env, err, reported)
			}
		})
	}

	// The wire form of a 204 (a proxy's result) has nothing to validate
	// either, while a local result is still checked.
	reg := runtime.NewRegistry(quiet)
	reg.Register(runtime.OperationSpec{ID: "api.wire", Output: outSchema}, func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(`{"data":null,"meta":{"source":"http","statusCode":204,"headers":{},"contentType":""}}`), nil
	})
	reg.Register(runtime.OperationSpec{ID: "api.local", Output: outSchema}, func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"ok": true, "code": "A"}, nil
	})
	if env, err := reg.Execute(ctx, "api.wire", nil); err != nil || len(env.Warnings) != 0 {
		t.Errorf("wire 204: %+v %v", env, err)
	}
	env, err := reg.Execute(ctx, "api.local", nil)
	if err != nil || len(env.Warnings) != 1 || env.Warnings[0].Message != `missing required property "items"` || env.Warnings[0].OperationID != "api.local" {
		t.Errorf("local: %+v %v", env, err)
	}
}

// TestDriftGoTypeCannotHoldArraysAndEmbedded: Go arrays ignore the items
// beyond their length (no warning for those), embedded structs promote
// their fields, pointers are followed.
func TestDriftGoTypeCannotHoldArraysAndEmbedded(t *testing.T) {
	type Base struct {
		ID int8 `json:"id"`
	}
	type thing struct {
		*Base
		Pair [2]uint8 `json:"pair"`
		Ptr  **int    `json:"ptr"`
	}
	var out thing
	ws, err := opsgenimpl.Decode(context.Background(), quiet, "op", nil, []byte(`{"id":999,"pair":[1,256,"x"],"ptr":"no"}`), &out)
	if err != nil || out.Base != nil || out.Pair != [2]uint8{1, 0} || out.Ptr != nil {
		t.Errorf("%+v %v", out, err)
	}
	if got, want := pointers(ws), []string{
		"/id: value 999 does not fit Go type int8 (out of its range): dropped",
		"/pair/1: value 256 does not fit Go type uint8 (out of its range): dropped",
		`/ptr: value "no" does not fit Go type int: dropped`,
	}; !reflect.DeepEqual(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
}
