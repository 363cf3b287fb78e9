package jsonschema

import (
	"encoding/json"
	"math"
	"testing"
)

// TestMarshalAsEncodingJSON checks that Marshal writes what json.Marshal
// writes, for the values schema maps hold and for values it hands over.
func TestMarshalAsEncodingJSON(t *testing.T) {
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
		want, err := json.Marshal(m)
		if err != nil {
			want = []byte(`{}`)
		}
		if got := Marshal(m); string(got) != string(want) {
			t.Errorf("Marshal(%#v) = %s, json.Marshal: %s", m, got, want)
		}
	}
	if Marshal(nil) != nil {
		t.Error("Marshal(nil) is not nil")
	}
}
