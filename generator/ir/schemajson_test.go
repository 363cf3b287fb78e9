package ir

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestAppendJSONAsEncodingJSON checks that AppendJSON writes what
// json.Marshal writes of the same members as a map, for the values schemas
// hold and for values it hands over.
func TestAppendJSONAsEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", `quote"d`, `back\slash`, "<b>&amp;</b>", "tab\tnew\nline\r\b\f\x01\x1f", "del\x7f",
		"héllo 日本語", "\u2028\u2029", "bad\xffutf8", "emoji 😀"}
	floats := []float64{0, math.Copysign(0, -1), 1, -1.5, 123.456, 1e20, 1e21, 1.5e21, 1e-6, 1e-7, 9.99e-7, 5e-324, math.MaxFloat64, 0.1, 1e-10}
	var values []any
	for _, s := range strs {
		values = append(values, s, map[string]any{s: s})
	}
	for _, f := range floats {
		values = append(values, f, -f)
	}
	values = append(values,
		nil, true, false, uint64(0), uint64(math.MaxUint64), 42, -7,
		[]string(nil), []string{}, []string{"a", "<"}, []any(nil), []any{}, []any{1.5, "x", nil, []any{true}},
		map[string]any(nil), map[string]any{}, map[string]any{"b": 1.0, "a": map[string]any{"z": []string{"q"}, "é": 2.0, "Z": nil}},
		map[string]any{"default": map[string]any{"k": []any{map[string]any{"n": 1e300}}}},
		map[string]any{"other": int32(3)}, // not a type jsonSchema builds: handed to json.Marshal
		map[string]any{"nan": math.NaN()},
	)
	for _, v := range values {
		m, ok := v.(map[string]any)
		if !ok || m == nil {
			m = map[string]any{"v": v}
		}
		var members []Member
		for k, v := range m {
			members = append(members, Member{k, v})
		}
		want, err := json.Marshal(m)
		got, ok := NewSchema(members...).AppendJSON([]byte("x"))
		if err != nil {
			if ok || string(got) != "x" {
				t.Errorf("AppendJSON(%#v) = %s, %v; json.Marshal fails", m, got, ok)
			}
			continue
		}
		if !ok || string(got) != "x"+string(want) {
			t.Errorf("AppendJSON(%#v) = %s, %v; json.Marshal: %s", m, got, ok, want)
		}
	}
}

// TestSchemaRefs checks that references are written by their defs'
// current names, in key order among the other members and the extra ones,
// and that DecodeSchema reads them back as pointers.
func TestSchemaRefs(t *testing.T) {
	pet := &Def{Name: "Pet", Schema: NewSchema(Member{"type", "object"})}
	s := NewSchema(
		Member{"type", "array"},
		Member{"items", RefTo(pet)},
		Member{"allOf", []*Schema{RefTo(pet).With("readOnly", true), {}}},
		Member{"properties", Properties{{"a", RefTo(pet)}, {"b", NewSchema(Member{"!", 1.0}).With("$id", "x")}}},
	)
	s.Members[2].Value.(Properties)[1].Schema.Ref = pet
	want := `{"$defs":{"Pet":{"type":"object"}},"allOf":[{"$ref":"#/$defs/Pet","readOnly":true},{}],"items":{"$ref":"#/$defs/Pet"},` +
		`"properties":{"a":{"$ref":"#/$defs/Pet"},"b":{"!":1,"$id":"x","$ref":"#/$defs/Pet"}},"type":"array"}`
	got, ok := s.AppendJSON(nil, Member{"$defs", Properties{{"Pet", pet.Schema}}})
	if !ok || string(got) != want {
		t.Fatalf("AppendJSON = %s, %v\nwant %s", got, ok, want)
	}
	pet.Name = "Animal" // renaming a def renames the references
	if got, _ = s.AppendJSON(nil); !strings.Contains(string(got), `"items":{"$ref":"#/$defs/Animal"}`) || strings.Contains(string(got), "Pet") {
		t.Errorf("after the rename: %s", got)
	}
	back, err := DecodeSchema(got, func(name string) *Def {
		if name == "Animal" {
			return pet
		}
		return nil
	})
	if again, _ := back.AppendJSON(nil); err != nil || string(again) != string(got) {
		t.Fatalf("DecodeSchema then AppendJSON = %s, %v; want %s", again, err, got)
	}
	var refs int
	back.Walk(func(s *Schema) {
		if s.Ref == pet {
			refs++
		}
	})
	if refs != 4 {
		t.Errorf("Walk found %d references, want 4", refs)
	}
	items := func(d *Def) *Schema { return NewSchema(Member{"items", RefTo(d)}, Member{"enum", []any{"a", 1.0}}) }
	if !items(pet).Equal(items(pet)) {
		t.Error("equal schemas differ")
	}
	if other := (&Def{Name: "Animal"}); items(pet).Equal(items(other)) {
		t.Error("schemas referring to different defs are equal")
	}
}
