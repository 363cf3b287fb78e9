package conform

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

type fastLeaf struct {
	I8    int8             `json:"i8,omitempty"`
	U16   *uint16          `json:"u16,omitempty"`
	F32   float32          `json:"f32,omitempty"`
	S     string           `json:"s,omitempty"`
	Q     int              `json:"q,string,omitempty"`
	When  *time.Time       `json:"when,omitempty"`
	File  []byte           `json:"file,omitempty"`
	Raw   json.RawMessage  `json:"raw,omitempty"`
	Tags  []string         `json:"tags,omitempty"`
	Arr   [2]int           `json:"arr"`
	Map   map[string]int   `json:"map,omitempty"`
	ByID  map[int]string   `json:"byID,omitempty"`
	Any   any              `json:"any,omitempty"`
	Enum  fastEnum         `json:"enum,omitempty"`
	Next  *fastLeaf        `json:"next,omitempty"`
	Items []fastLeaf       `json:"items,omitempty"`
	Free  map[string]any   `json:"free,omitempty"`
	Embed                  // promoted fields, as encoding/json does
	Skip  string           `json:"-"`
	Ptrs  map[string]*bool `json:"ptrs,omitempty"`
}

// fastPlain is a type the fused path decodes itself, field by field.
type fastPlain struct {
	S    string     `json:"s"`
	P    *string    `json:"p,omitempty"`
	Tags []string   `json:"tags"`
	Next *fastPlain `json:"next,omitempty"`
	// Maps of string keys are decoded by the fused path too.
	Labels map[string]string    `json:"labels,omitempty"`
	Counts map[string]*int      `json:"counts,omitempty"`
	Nested map[string]fastPlain `json:"nested,omitempty"`
}

type Embed struct {
	Name string `json:"name,omitempty"`
}

// fastEnum has its own UnmarshalJSON, as generated enums and unions do.
type fastEnum struct{ v string }

func (e *fastEnum) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] != '"' {
		return fmt.Errorf("enum: not a string")
	}
	return json.Unmarshal(b, &e.v)
}

// FuzzFastDecode checks the first decode of decodeFit, the fused path
// without a schema, against encoding/json: where it decodes, encoding/json
// decodes the same value; where encoding/json fails, it fails too (so
// decodeFit's repair sees what it always saw). And decodeFit itself
// decodes what encoding/json decodes, the same, without warnings.
func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `[]`, `{"i8":1,"I8":2}`, `{"i8":300}`, `{"u16":-1}`, `{"f32":1e40}`,
		`{"q":"12"}`, `{"q":12}`, `{"when":"2020-01-01T00:00:00Z"}`, `{"when":"2020-01-01"}`, `{"file":"AAEC"}`, `{"file":"%%"}`,
		`{"raw":{"a":[1,2]}}`, `{"arr":[1,2,3]}`, `{"map":{"a":1}}`, `{"byID":{"1":"a","x":"b"}}`, `{"any":[1,"a",null,{}]}`,
		`{"enum":"x"}`, `{"enum":1}`, `{"next":{"next":{"s":"deep"}}}`, `{"items":[{"s":"a"},null,{"i8":"x"}]}`,
		`{"NAME":"n","Skip":"x","-":"y"}`, `{"ptrs":{"a":true,"b":null}}`, `{"s":"\ud800"}`, `{"s":"a\u0000b"}`, "{\"s\":\"\xff\"}",
		`{"tags":null,"map":null}`, `{"s":"a","s":"b"}`, `{"free":{"a":1e400}}`, `{"q":"+0"}`, `{"q":"007"}`, `{"q":"null"}`,
		`{"labels":{"a":"x","b":null,"a":"y","\u00e9":"z"},"counts":{"a":1,"b":null},"nested":{"k":{"s":"v","labels":{}}}}`, `{"labels":{"a":1}}`,
		`{"s":"\ud83d\ude00"}`, `{"s":"\udc00\ud800x"}`, `{"s":"\ud800\u0041"}`, `{"s":"\u00e9\n\"\\\/\b\f\r\t"}`,
		"{\"tags\":[\"\\u0041\",\"\xc3\xa9\",\"\xed\xa0\x80\",\"a\xe2\x82\"]}"} {
		f.Add(s)
	}
	targets := []func() any{
		func() any { return new(fastLeaf) }, func() any { return new([]fastLeaf) }, func() any { return new(map[string]fastLeaf) },
		func() any { return new(any) }, func() any { return new(*fastLeaf) }, func() any { return new([]any) },
		func() any { return new(fastPlain) }, func() any { return new([]fastPlain) },
	}
	f.Fuzz(func(t *testing.T, body string) {
		if !json.Valid([]byte(body)) {
			return
		}
		for _, target := range targets {
			std, fast, fit := target(), target(), target()
			stdErr := json.Unmarshal([]byte(body), std)
			decoded := decodeFused(nil, []byte(body), fast)
			switch {
			case stdErr != nil && decoded:
				t.Fatalf("%T %q: fused path decoded what encoding/json refuses (%v)", std, body, stdErr)
			case decoded && !reflect.DeepEqual(std, fast):
				t.Fatalf("%T %q: fused path decoded %#v, encoding/json %#v", std, body, fast, std)
			case !decoded && !reflect.ValueOf(fast).Elem().IsZero():
				t.Fatalf("%T %q: fused path gave up and left %#v", std, body, fast)
			}
			if stdErr != nil {
				continue
			}
			warnings, err := decodeFit([]byte(body), fit)
			if err != nil || len(warnings) != 0 || !reflect.DeepEqual(std, fit) {
				t.Fatalf("%T %q: decodeFit: %#v, %v, %v; encoding/json %#v", std, body, fit, warnings, err, std)
			}
		}
	})
}
