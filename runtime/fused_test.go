package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/internal/conform"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// fusedPet has a field of every kind the fused path decodes itself, and
// some it hands to the decoder (time, map, any, []byte, raw JSON, a type
// with UnmarshalJSON).
type fusedPet struct {
	ID     int64            `json:"id"`
	Name   string           `json:"name"`
	Color  genColor         `json:"color,omitempty"`
	Small  int8             `json:"small,omitempty"`
	U      uint16           `json:"u,omitempty"`
	F32    float32          `json:"f32,omitempty"`
	Price  float64          `json:"price,omitempty"`
	OK     bool             `json:"ok,omitempty"`
	Nick   *string          `json:"nick,omitempty"`
	Age    *int             `json:"age,omitempty"`
	Tags   []string         `json:"tags"`
	Owner  *fusedPet        `json:"owner,omitempty"`
	Kids   []fusedPet       `json:"kids,omitempty"`
	Ptrs   []*fusedLeaf     `json:"ptrs,omitempty"`
	Leaf   fusedLeaf        `json:"leaf"`
	When   *time.Time       `json:"when,omitempty"`
	Counts map[string]int64 `json:"counts,omitempty"`
	Any    any              `json:"any,omitempty"`
	File   []byte           `json:"file,omitempty"`
	Raw    json.RawMessage  `json:"raw,omitempty"`
	Union  genUnion         `json:"union"`
	Quoted int              `json:"-"`
	//lint:ignore U1000 an unexported field is not decoded: its presence is the test
	private int
}

type fusedLeaf struct {
	A string `json:"a"`
	B *bool  `json:"b,omitempty"`
}

// fusedWrap is decoded by the two passes only at its root (an embedded
// struct), by the fused path inside.
type fusedWrap struct {
	fusedLeaf
	Items []fusedPet `json:"items"`
}

const fusedSchema = `{"$defs":{
	"pet":{"type":"object","required":["id","name","tags"],"properties":{
		"id":{"type":"integer","minimum":0},
		"name":{"type":"string","minLength":1},
		"color":{"type":"string","enum":["red","green"]},
		"small":{"type":"integer"},"u":{"type":"integer"},"f32":{"type":"number"},"price":{"type":"number","multipleOf":0.5},
		"ok":{"type":"boolean"},"nick":{"type":["string","null"]},"age":{"type":"integer","nullable":true},
		"tags":{"type":"array","items":{"type":"string"},"maxItems":3,"uniqueItems":true},
		"owner":{"$ref":"#/$defs/pet"},
		"kids":{"type":"array","items":{"$ref":"#/$defs/pet"}},
		"ptrs":{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/leaf"},{"type":"null"}]}},
		"leaf":{"$ref":"#/$defs/leaf"},
		"when":{"type":"string","format":"date-time"},
		"counts":{"type":"object","additionalProperties":{"type":"integer"}},
		"any":{},"file":{"type":"string"},"raw":{"type":"object"},
		"union":{"oneOf":[{"type":"string"},{"type":"array"}]}
	}},
	"leaf":{"type":"object","properties":{"a":{"type":"string","pattern":"^[a-z]*$"},"b":{"type":"boolean"}},"additionalProperties":false}
},"$ref":"#/$defs/pet"}`

const fusedBody = `{"id":7,"name":"Rex","color":"red","small":-3,"u":9,"f32":1.5,"price":2.5,"ok":true,"nick":null,"age":4,
"tags":["a","b"],"owner":{"id":1,"name":"Ann","tags":[]},"kids":[{"id":2,"name":"Kid","tags":["x"],"leaf":{"a":"z"}}],
"ptrs":[{"a":"p","b":false},null],"leaf":{"a":"q","b":true},"when":"2024-01-02T03:04:05Z","counts":{"x":1},
"any":[1,"a",{"b":null}],"file":"AAEC","raw":{"r":[1]},"union":"u","extra":{"ignored":[1,2]}}`

// fusedListSchema is an array of fusedSchema's pets.
var fusedListSchema = strings.Replace(fusedSchema, `,"$ref":"#/$defs/pet"}`, `,"type":"array","items":{"$ref":"#/$defs/pet"}}`, 1)

// fusedBodies are bodies the fused path must give up on or take, each
// compared with the two passes.
var fusedBodies = []string{
	fusedBody, `{}`, `[]`, `null`, `1`, `"x"`, `{"id":1,"name":"a","tags":null}`,
	`{"id":1,"name":"a","tags":[]}`, `{"id":1.0,"name":"a","tags":[]}`, `{"id":1e2,"name":"a","tags":[]}`,
	`{"id":-1,"name":"a","tags":[]}`, `{"id":1,"name":"","tags":[]}`, `{"id":1,"name":"a","tags":["a","a"]}`,
	`{"id":1,"name":"a","tags":[],"ID":2}`, `{"id":1,"name":"a","tags":[],"Name":"b"}`, `{"id":1,"name":"a","tags":[],"na_me":"b"}`,
	`{"id":1,"id":2,"name":"a","tags":[]}`, `{"id":1,"name":"a\u00e9\n","tags":[]}`, "{\"id\":1,\"name\":\"\xff\",\"tags\":[]}",
	`{"id":1,"name":"a","tags":[],"small":300}`, `{"id":1,"name":"a","tags":[],"u":-1}`, `{"id":1,"name":"a","tags":[],"f32":1e39}`,
	`{"id":1,"name":"a","tags":[],"color":"blue"}`, `{"id":1,"name":"a","tags":[],"price":0.3}`,
	`{"id":1,"name":"a","tags":[],"leaf":{"a":"Q"}}`, `{"id":1,"name":"a","tags":[],"leaf":{"a":"q","c":1}}`,
	`{"id":1,"name":"a","tags":[],"when":"yesterday"}`, `{"id":1,"name":"a","tags":[],"union":7}`,
	`{"id":1,"name":"a","tags":[],"counts":{"x":"y"}}`, `{"id":1,"name":"a","tags":[],"file":"%%"}`,
	`{"id":1,"name":"a","tags":[],"owner":{"id":2,"name":"b"}}`, `{"id":1,"name":"a","tags":[],"nick":"n","age":null}`,
	`{"id":1,"name":"a","tags":[],"ok":"yes"}`, `{"id":1,"name":"a","tags":[1]}`, `{"id":1,"name":"a","tags":[],"kids":{}}`,
	`{"id":1,"name":"a","tags":[],"ptrs":[{"a":"x"},{"a":"y","b":null}]}`, `{"id":1,"name":"a","tags":[]`, `{"id":1,"name":"a","tags":[]}x`,
	`{"items":[{"id":1,"name":"a","tags":["t"]}],"a":"b"}`, `[{"id":1,"name":"a","tags":[]},{"id":2,"name":"b","tags":["c"]}]`,
	`{"id":1 ,"name" : "a" , "tags" : [ "x" , "y" ] }`, `{"id":1,"name":"a","tags":[],"\u0069d":2}`,
}

var fusedTargets = []func() any{
	func() any { return new(fusedPet) }, func() any { return new([]fusedPet) }, func() any { return new(*fusedPet) },
	func() any { return new(fusedWrap) }, func() any { return new(fusedLeaf) }, func() any { return new(genLike) },
	func() any { return new(status) }, func() any { return new(any) }, func() any { return new(map[string]any) },
}

// compareFused decodes body into a value of each target in each mode with
// the fused path and without it and fails on any difference: the value,
// the warnings, the error.
func compareFused(t *testing.T, schemaDoc, body string) {
	t.Helper()
	compareFusedWith(t, schemaDoc, body, fusedTargets)
}

// compareFusedWith is compareFused with the given targets.
func compareFusedWith(t *testing.T, schemaDoc, body string, targets []func() any) {
	t.Helper()
	var schema *opsgenimpl.Schema
	if schemaDoc != "" {
		if schema = opsgenimpl.NewSchema(schemaDoc); schema.Compile() != nil {
			return
		}
	}
	ctx := context.Background()
	for _, target := range targets {
		for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateOff, runtime.ValidateStrict} {
			p := &runtime.Pipeline{Mode: mode, Logger: discardLogger()}
			run := func(on bool) (any, string) {
				defer conform.SetFused(conform.SetFused(on))
				out := target()
				ws, err := opsgenimpl.DecodeInto(ctx, p, "op", schema, []byte(body), out)
				return out, fmt.Sprintf("%q %v", ws, err)
			}
			two, twoRes := run(false)
			one, oneRes := run(true)
			if twoRes != oneRes || !reflect.DeepEqual(two, one) {
				t.Fatalf("%s, %T, body %s:\ntwo passes: %s %#v\nfused:      %s %#v", mode, two, body, twoRes, two, oneRes, one)
			}
		}
	}
}

// TestFusedSameAsTwoPasses: the fused path decodes exactly what the two
// passes decode and reports exactly their warnings and errors.
func TestFusedSameAsTwoPasses(t *testing.T) {
	for _, schema := range []string{"", fusedSchema, `true`, statusSchema, driftSchema, fusedListSchema} {
		for _, body := range append(fusedBodies, driftBody, longBody(1100, ""), longBody(1030, `,"x"`)) {
			compareFused(t, schema, body)
		}
	}
	// A long array is counted ahead (countItems) and allocated at once
	// (fusedPet is larger than its items' JSON: no estimate, see
	// TestFusedListEstimate).
	var pets []fusedPet
	if !conform.FusedDecode(opsgenimpl.NewSchema(fusedListSchema), []byte(longBody(1100, "")), &pets) ||
		len(pets) != 1100 || cap(pets) != 1100 || pets[1099].Name != `p"1099]` || len(pets[1099].Kids) != 2 {
		t.Errorf("long array: %d items, cap %d", len(pets), cap(pets))
	}
}

// TestFusedListEstimate: the document's list of objects is allocated at
// an estimate of its length from its first items; where the estimate is
// short the list is counted, where it is far too long the list is copied
// to its length. The values are encoding/json's in every case.
func TestFusedListEstimate(t *testing.T) {
	type item struct {
		ID int64  `json:"id"`
		S  string `json:"s"`
	}
	type page struct {
		Items []item `json:"items"`
		Blob  string `json:"blob"`
	}
	items := func(n, long int) string {
		var sb strings.Builder
		for i := range n {
			if i > 0 {
				sb.WriteByte(',')
			}
			s := "abcdefgh"
			if i < long {
				s = strings.Repeat("x", 200)
			}
			fmt.Fprintf(&sb, `{"id":%d,"s":"%s"}`, i, s)
		}
		return sb.String()
	}
	for _, c := range []struct {
		name           string
		body           string
		n              int
		capMin, capMax int
	}{
		{"alike", `{"items":[` + items(300, 0) + `]}`, 300, 300, 300 * 5 / 4},
		{"at the top", `[` + items(300, 0) + `]`, 300, 300, 300 * 5 / 4},
		{"first ones longer: counted", `{"items":[` + items(300, 8) + `]}`, 300, 300, 300},
		{"much after it: copied", `{"items":[` + items(20, 0) + `],"blob":"` + strings.Repeat("y", 20000) + `"}`, 20, 20, 20},
		{"short", `{"items":[` + items(9, 0) + `]}`, 9, 9, 16},
	} {
		want := reflect.New(reflect.TypeFor[page]())
		var got page
		var err error
		if c.body[0] == '[' {
			var list []item
			if !conform.FusedDecode(nil, []byte(c.body), &list) {
				t.Fatalf("%s: not decoded by the fused path", c.name)
			}
			got.Items = list
			var w []item
			err = json.Unmarshal([]byte(c.body), &w)
			want.Elem().Field(0).Set(reflect.ValueOf(w))
		} else {
			if !conform.FusedDecode(nil, []byte(c.body), &got) {
				t.Fatalf("%s: not decoded by the fused path", c.name)
			}
			err = json.Unmarshal([]byte(c.body), want.Interface())
		}
		if err != nil || !reflect.DeepEqual(got, want.Elem().Interface()) {
			t.Fatalf("%s: decoded %+v, encoding/json %+v (%v)", c.name, got, want.Elem().Interface(), err)
		}
		if len(got.Items) != c.n || cap(got.Items) < c.capMin || cap(got.Items) > c.capMax {
			t.Errorf("%s: %d items, cap %d; want %d, cap %d to %d", c.name, len(got.Items), cap(got.Items), c.n, c.capMin, c.capMax)
		}
	}
}

// longBody is an array of n pets whose strings hold quotes, backslashes
// and brackets, followed by tail.
func longBody(n int, tail string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"p\"%d]","tags":["\\","{,}"],"kids":[{"id":1,"name":"k","tags":[]},{"id":2,"name":"[","tags":["]"]}]}`, i, i)
	}
	sb.WriteString(tail + "]")
	return sb.String()
}

// FuzzFused is TestFusedSameAsTwoPasses on any body.
func FuzzFused(f *testing.F) {
	for _, b := range fusedBodies {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		compareFused(t, fusedSchema, body)
		compareFused(t, "", body)
	})
}

// TestFusedTaken: conforming data is decoded in one pass; data that a
// warning, an edit or encoding/json's case-insensitive matching concerns
// is left to the two passes.
func TestFusedTaken(t *testing.T) {
	schema := opsgenimpl.NewSchema(fusedSchema)
	var pet fusedPet
	if !conform.FusedDecode(schema, []byte(fusedBody), &pet) {
		t.Fatal("conforming body not decoded by the fused path")
	}
	if pet.ID != 7 || pet.Owner == nil || pet.Owner.Name != "Ann" || len(pet.Kids) != 1 || pet.Kids[0].Leaf.A != "z" ||
		pet.Ptrs[1] != nil || *pet.Ptrs[0].B || pet.When == nil || pet.Counts["x"] != 1 || pet.Tags[1] != "b" || pet.Owner.Tags == nil {
		t.Errorf("decoded %+v", pet)
	}
	for _, body := range []string{
		`{"id":1,"name":"a","tags":[],"ID":2}`,             // encoding/json matches ID to id
		`{"id":1,"id":2,"name":"a","tags":[]}`,             // a duplicate
		`{"id":1,"name":"","tags":[]}`,                     // minLength
		`{"id":1.0,"name":"a","tags":[]}`,                  // normalized to 1
		`{"id":1,"name":"a","tags":[],"leaf":{"c":1}}`,     // dropped: additionalProperties false
		`{"id":1,"name":"a"}`,                              // required
		`{"id":1,"name":"a","tags":[],"small":300}`,        // does not fit int8
		`{"id":1,"name":"a","tags":[],"when":"yesterday"}`, // format
	} {
		var pet fusedPet
		if conform.FusedDecode(schema, []byte(body), &pet) {
			t.Errorf("%s: decoded by the fused path", body)
		}
		if !reflect.DeepEqual(pet, fusedPet{}) {
			t.Errorf("%s: value not reset: %+v", body, pet)
		}
	}
}

// benchPage is the type generated for the bench module's spec.
type benchPage struct {
	Items []benchPet `json:"items"`
	Next  *string    `json:"next,omitempty"`
}

type benchPet struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Owner struct {
		Email string `json:"email"`
		ID    int64  `json:"id"`
	} `json:"owner"`
	Price  float64  `json:"price"`
	Status string   `json:"status"`
	Tags   []string `json:"tags"`
}

const benchSchemaSet = `{"$defs":{"Owner":{"properties":{"email":{"type":"string"},"id":{"format":"int64","type":"integer"}},"required":["id","email"],"type":"object"},"Page":{"properties":{"items":{"items":{"$ref":"#/$defs/Pet"},"type":"array"},"next":{"type":"string"}},"required":["items"],"type":"object"},"Pet":{"properties":{"id":{"format":"int64","type":"integer"},"name":{"type":"string"},"owner":{"$ref":"#/$defs/Owner"},"price":{"format":"double","type":"number"},"status":{"type":"string"},"tags":{"items":{"type":"string"},"type":"array"}},"required":["id","name","status","price","tags","owner"],"type":"object"}}}`

// BenchmarkFusedPage decodes a page of 1,500 pets (206 KB, the bench
// module's middle size) with the fused path and with the two passes.
func BenchmarkFusedPage(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"items":[`)
	for i := range 1500 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"name":"pet-%d","status":"available","price":12.5,"tags":["dog","good","small"],"owner":{"id":42,"email":"owner@example.com"}}`, i, i)
	}
	sb.WriteString(`],"next":"eyJvZmZzZXQiOjEwLCJsaW1pdCI6MTB9"}`)
	body := []byte(sb.String())
	schema := opsgenimpl.NewSchemaSet(benchSchemaSet).Ref(`{"$ref":"#/$defs/Page"}`)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		mode  runtime.ValidationMode
		fused bool
	}{{"warn", runtime.ValidateWarn, true}, {"off", runtime.ValidateOff, true}, {"warn-two-passes", runtime.ValidateWarn, false}, {"off-two-passes", runtime.ValidateOff, false}} {
		b.Run(c.name, func(b *testing.B) {
			defer conform.SetFused(conform.SetFused(c.fused))
			p := &runtime.Pipeline{Mode: c.mode}
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				var out benchPage
				ws, err := opsgenimpl.DecodeInto(ctx, p, "op", schema, body, &out)
				if err != nil || len(ws) > 0 || len(out.Items) != 1500 {
					b.Fatal(ws, err)
				}
			}
		})
	}
}

// TestFusedConcurrentOrders: decodes of one type running at once, with
// their members in different orders, share the guesses of the next
// member (atomically) and still decode what encoding/json does.
func TestFusedConcurrentOrders(t *testing.T) {
	bodies := []string{
		`{"items":[{"id":1,"name":"a","status":"s","price":1.5,"tags":["x"],"owner":{"id":2,"email":"e"}}]}`,
		`{"items":[{"owner":{"email":"e","id":2},"tags":["x"],"price":1.5,"status":"s","name":"a","id":1}]}`,
		`{"items":[{"name":"a","id":1,"owner":{"id":2,"email":"e"},"status":"s","tags":["x"],"price":1.5}]}`,
	}
	schema := opsgenimpl.NewSchemaSet(benchSchemaSet).Ref(`{"$ref":"#/$defs/Page"}`)
	var want benchPage
	if err := json.Unmarshal([]byte(bodies[0]), &want); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 6 {
		wg.Go(func() {
			for k := range 200 {
				body := bodies[(g+k)%len(bodies)]
				var got benchPage
				if !conform.FusedDecode(schema, []byte(body), &got) || !reflect.DeepEqual(got, want) {
					errs <- fmt.Sprintf("%s: %+v", body, got)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
