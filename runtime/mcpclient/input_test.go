package mcpclient_test

import (
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime/mcpclient"
)

func TestParseForm(t *testing.T) {
	f, err := mcpclient.ParseForm([]byte(`{"type":"object","required":["b"],"properties":{
		"z":{"type":"string","minLength":2,"maxLength":4},
		"b":{"type":"boolean"},
		"n":{"type":"integer","minimum":1,"maximum":3},
		"c":{"type":"string","oneOf":[{"const":"x","title":"Ex"},{"const":"y"}]},
		"m":{"type":"array","items":{"type":"string","enum":["p","q"]},"maxItems":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, fd := range f.Fields {
		names = append(names, fd.Name)
	}
	if strings.Join(names, ",") != "z,b,n,c,m" || !f.Fields[1].Required || f.Fields[0].Required {
		t.Errorf("fields %+v", f.Fields)
	}
	if c := f.Fields[3]; c.Type != mcpclient.FieldChoice || c.Options[0].Title != "Ex" || c.Options[1].Title != "y" {
		t.Errorf("choice %+v", c)
	}
	if err := f.Check(map[string]any{"b": false, "z": "abc", "n": 2, "c": "y", "m": []any{"q"}}); err != nil {
		t.Errorf("a good answer: %v", err)
	}
	bad := map[string]any{"z": "a", "n": 2.5, "c": "w", "m": []string{"p", "q"}, "extra": 1}
	err = f.Check(bad)
	for _, want := range []string{"b: required", "z: length 1", "n: want an integer", `c: w is not one`, "m: 2 choices", "extra: not a field"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check: %v, want %q", err, want)
		}
	}

	for schema, want := range map[string]string{
		`{"type":"array"}`:                        "type \"array\", want object",
		`{"properties":{"o":{"type":"object"}}}`:  "/properties/o: type \"object\" is not a form field type",
		`{"properties":{"a":{"type":"array"}}}`:   "/properties/a: an array field must list its choices",
		`{"properties":{"s":{"type":"string"},}}`: "requestedSchema",
	} {
		if _, err := mcpclient.ParseForm([]byte(schema)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseForm(%s): %v, want %q", schema, err, want)
		}
	}
}
