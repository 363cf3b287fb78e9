package runtime_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/internal/conform"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// genUnionValue is a union as generated code declares it.
type genUnionValue struct{ runtime.UnionValue }

// fusedGen has a field of each type generated code uses that the fused
// path decodes through the type's methods' semantics: Nullable, time.Time,
// Date, unions (UnionValue), enums and maps, bare and behind pointers,
// slices and Nullables.
type fusedGen struct {
	Note    runtime.Nullable[string]                   `json:"note,omitzero"`
	Count   runtime.Nullable[int64]                    `json:"count,omitzero"`
	Merged  runtime.Nullable[time.Time]                `json:"merged,omitzero"`
	Leaves  runtime.Nullable[[]fusedLeaf]              `json:"leaves,omitzero"`
	Owner   runtime.Nullable[fusedLeaf]                `json:"owner,omitzero"`
	Created time.Time                                  `json:"created"`
	Closed  *time.Time                                 `json:"closed"`
	Born    runtime.Date                               `json:"born,omitzero"`
	Due     *runtime.Date                              `json:"due,omitempty"`
	Ref     genUnionValue                              `json:"ref"`
	RefPtr  *genUnionValue                             `json:"refPtr,omitempty"`
	Refs    []genUnionValue                            `json:"refs,omitempty"`
	Color   genColor                                   `json:"color,omitempty"`
	Labels  map[string]string                          `json:"labels,omitempty"`
	Scores  map[string]runtime.Nullable[float64]       `json:"scores,omitempty"`
	Maybe   runtime.Nullable[genUnionValue]            `json:"maybe,omitzero"`
	Later   *runtime.Nullable[time.Time]               `json:"later,omitempty"`
	Dates   []runtime.Date                             `json:"dates,omitempty"`
	ByName  map[string]runtime.Nullable[genUnionValue] `json:"byName,omitempty"`
	Scalar  *genUnionValue                             `json:"scalar,omitempty"`
}

const fusedGenSchema = `{"$defs":{
	"gen":{"type":"object","required":["created","closed","ref"],"properties":{
		"note":{"type":["string","null"]},
		"count":{"type":"integer","nullable":true},
		"merged":{"type":["string","null"],"format":"date-time"},
		"leaves":{"type":["array","null"],"items":{"$ref":"#/$defs/leaf"}},
		"owner":{"anyOf":[{"$ref":"#/$defs/leaf"},{"type":"null"}]},
		"created":{"type":"string","format":"date-time"},
		"closed":{"type":["string","null"],"format":"date-time"},
		"born":{"type":"string","format":"date"},
		"due":{"type":["string","null"],"format":"date"},
		"ref":{"anyOf":[{"type":"string","maxLength":8},{"$ref":"#/$defs/leaf"}]},
		"refPtr":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/leaf"}]},
		"refs":{"type":"array","items":{"anyOf":[{"type":"string"},{"$ref":"#/$defs/leaf"}]}},
		"color":{"type":"string","enum":["red","green"]},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"scores":{"type":"object","additionalProperties":{"type":["number","null"]}},
		"maybe":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]},
		"later":{"type":["string","null"],"format":"date-time"},
		"dates":{"type":"array","items":{"type":"string","format":"date"}},
		"byName":{"type":"object","additionalProperties":{"oneOf":[{"type":"string"},{"type":"null"}]}},
		"scalar":{"anyOf":[{"type":"integer"},{"type":"boolean"},{"type":"array"}]}
	}},
	"leaf":{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]*$"},"b":{"type":"boolean"}},"additionalProperties":false}
},"$ref":"#/$defs/gen"}`

// fusedGenBody conforms to fusedGenSchema and has every field.
const fusedGenBody = `{"note":"n","count":3,"merged":"2024-01-02T03:04:05.123456789+02:00","leaves":[{"a":"x"},{"a":"y","b":true}],
"owner":{"a":"o"},"created":"2019-08-07T06:05:04Z","closed":null,"born":"2001-02-03","due":"2030-12-31","ref":"ch_1",
"refPtr":{"a":"e","b":false},"refs":["x",{"a":"y"}, "z"],"color":"green","labels":{"k":"v","é":"ü"},"scores":{"a":1.5,"b":null},
"maybe":7,"later":"2020-02-29T23:59:59-07:30","dates":["2020-01-01","2021-12-31"],"byName":{"a":"b","c":null},"scalar":5}`

// fusedGenBodies are fusedGenBody and drift of each field: wrong types,
// bad dates and date-times, nulls where none is allowed, escapes, data
// that normalization changes.
var fusedGenBodies = func() []string {
	bodies := []string{fusedGenBody, `{}`, `null`, `{"created":"2019-08-07T06:05:04Z","closed":null,"ref":"r"}`}
	for _, edit := range [][2]string{
		{`"note":"n"`, `"note":null`}, {`"note":"n"`, `"note":5`}, {`"note":"n"`, `"note":"\u00e9\n"`},
		{`"count":3`, `"count":null`}, {`"count":3`, `"count":"x"`}, {`"count":3`, `"count":3.0`}, {`"count":3`, `"count":1e2`},
		{`"merged":"2024-01-02T03:04:05.123456789+02:00"`, `"merged":null`},
		{`"merged":"2024-01-02T03:04:05.123456789+02:00"`, `"merged":"yesterday"`},
		{`"merged":"2024-01-02T03:04:05.123456789+02:00"`, `"merged":"2024-01-02 03:04:05Z"`},
		{`"leaves":[{"a":"x"},`, `"leaves":null,"x":[{"a":"x"},`}, {`"leaves":[{"a":"x"}`, `"leaves":[{"a":"X"}`},
		{`"leaves":[{"a":"x"}`, `"leaves":[{"a":"x","c":1}`}, {`"leaves":[{"a":"x"}`, `"leaves":[null`},
		{`"owner":{"a":"o"}`, `"owner":null`}, {`"owner":{"a":"o"}`, `"owner":"o"`}, {`"owner":{"a":"o"}`, `"owner":{"a":"O"}`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":null`}, {`"created":"2019-08-07T06:05:04Z"`, `"created":17`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":"2019-13-07T06:05:04Z"`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":"2019-08-07T06:05:04\u005a"`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":"2019-08-07T06:05:04Zé"`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":"2019-08-07T06:05:60Z"`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":"2019-08-07t06:05:04z"`},
		{`"created":"2019-08-07T06:05:04Z"`, `"created":{"t":1}`},
		{`"closed":null`, `"closed":"2019-08-07T06:05:04Z"`}, {`"closed":null`, `"closed":"never"`}, {`"closed":null`, `"closed":false`},
		{`"born":"2001-02-03"`, `"born":"2001-02-30"`}, {`"born":"2001-02-03"`, `"born":"2001-02-03T00:00:00Z"`},
		{`"born":"2001-02-03"`, `"born":null`}, {`"born":"2001-02-03"`, `"born":20010203`}, {`"born":"2001-02-03"`, `"born":"2001\u002d02-03"`},
		{`"due":"2030-12-31"`, `"due":null`}, {`"due":"2030-12-31"`, `"due":"soon"`},
		{`"ref":"ch_1"`, `"ref":null`}, {`"ref":"ch_1"`, `"ref":3`}, {`"ref":"ch_1"`, `"ref":{"a":"X"}`}, {`"ref":"ch_1"`, `"ref":"much too long"`},
		{`"ref":"ch_1"`, `"ref":"\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9"`}, {`"ref":"ch_1"`, `"ref":"\ud83d\ude00abcdefg"`},
		{`"ref":"ch_1"`, `"ref":{"a":"q","c":[1]}`}, {`"ref":"ch_1"`, `"ref" : { "a" : "q" }`},
		{`"refPtr":{"a":"e","b":false}`, `"refPtr":null`}, {`"refPtr":{"a":"e","b":false}`, `"refPtr":[1]`},
		{`"refs":["x",`, `"refs":[null,`}, {`"refs":["x",`, `"refs":[1,`},
		{`"color":"green"`, `"color":"blue"`}, {`"color":"green"`, `"color":null`},
		{`"labels":{"k":"v",`, `"labels":{"k":1,`}, {`"labels":{"k":"v",`, `"labels":{"k":null,`},
		{`"scores":{"a":1.5,`, `"scores":{"a":"1.5",`}, {`"scores":{"a":1.5,`, `"scores":{"a":1.5,"a":2,`},
		{`"maybe":7`, `"maybe":null`}, {`"maybe":7`, `"maybe":1.5`}, {`"maybe":7`, `"maybe":"s"`},
		{`"later":"2020-02-29T23:59:59-07:30"`, `"later":null`}, {`"later":"2020-02-29T23:59:59-07:30"`, `"later":"2021-02-29T23:59:59Z"`},
		{`"dates":["2020-01-01"`, `"dates":[null`}, {`"dates":["2020-01-01"`, `"dates":["2020-1-1"`},
		{`"byName":{"a":"b"`, `"byName":{"a":1`},
		{`"scalar":5`, `"scalar":true`}, {`"scalar":5`, `"scalar":[1,"x"]`}, {`"scalar":5`, `"scalar":null`}, {`"scalar":5`, `"scalar":"5"`},
	} {
		if !strings.Contains(fusedGenBody, edit[0]) {
			panic("fusedGenBodies: no " + edit[0])
		}
		bodies = append(bodies, strings.Replace(fusedGenBody, edit[0], edit[1], 1))
	}
	return bodies
}()

// TestFusedGeneratedTypesSameAsTwoPasses: for the types generated code
// uses, the fused path decodes, warns and fails exactly as the two passes
// do, in every mode, with the schema, without one and with a list of them.
func TestFusedGeneratedTypesSameAsTwoPasses(t *testing.T) {
	targets := []func() any{
		func() any { return new(fusedGen) }, func() any { return new([]fusedGen) }, func() any { return new(*fusedGen) },
	}
	list := strings.Replace(fusedGenSchema, `,"$ref":"#/$defs/gen"}`, `,"type":"array","items":{"$ref":"#/$defs/gen"}}`, 1)
	for _, schema := range []string{"", fusedGenSchema, list} {
		for _, body := range fusedGenBodies {
			compareFusedWith(t, schema, body, targets)
			compareFusedWith(t, schema, "["+body+","+body+"]", targets)
		}
	}
}

// TestFusedGeneratedTypesTaken: conforming data of those types is decoded
// by the fused path alone, to what encoding/json decodes; drift of them is
// left to the two passes, and the value is reset.
func TestFusedGeneratedTypesTaken(t *testing.T) {
	schema := opsgenimpl.NewSchema(fusedGenSchema)
	var got, want fusedGen
	if !conform.FusedDecode(schema, []byte(fusedGenBody), &got) {
		t.Fatal("conforming body not decoded by the fused path")
	}
	if err := json.Unmarshal([]byte(fusedGenBody), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fused:         %+v\nencoding/json: %+v", got, want)
	}
	if v, ok := got.Merged.Get(); !ok || v.Nanosecond() != 123456789 || got.Born.Day != 3 || got.Closed != nil ||
		string(got.Ref.Raw()) != `"ch_1"` || string(got.RefPtr.Raw()) != `{"a":"e","b":false}` || string(got.Scalar.Raw()) != "5" || !got.Note.IsSet() {
		t.Errorf("decoded %+v", got)
	}
	for _, body := range []string{
		strings.Replace(fusedGenBody, `"2019-08-07T06:05:04Z"`, `"2019-13-07T06:05:04Z"`, 1), // bad date-time
		strings.Replace(fusedGenBody, `"2019-08-07T06:05:04Z"`, `17`, 1),                     // wrong type
		strings.Replace(fusedGenBody, `"born":"2001-02-03"`, `"born":"2001-02-30"`, 1),       // bad date
		strings.Replace(fusedGenBody, `"note":"n"`, `"note":5`, 1),                           // wrong type in a Nullable
		strings.Replace(fusedGenBody, `"ref":"ch_1"`, `"ref":3`, 1),                          // no branch of the union
	} {
		var v fusedGen
		if conform.FusedDecode(schema, []byte(body), &v) {
			t.Errorf("%s: decoded by the fused path", body)
		}
		if !reflect.DeepEqual(v, fusedGen{}) {
			t.Errorf("%s: value not reset: %+v", body, v)
		}
	}
}

// FuzzFusedGenerated is TestFusedGeneratedTypesSameAsTwoPasses on any body.
func FuzzFusedGenerated(f *testing.F) {
	for _, b := range fusedGenBodies {
		f.Add(b)
	}
	targets := []func() any{func() any { return new(fusedGen) }}
	f.Fuzz(func(t *testing.T, body string) {
		compareFusedWith(t, fusedGenSchema, body, targets)
		compareFusedWith(t, "", body, targets)
	})
}
