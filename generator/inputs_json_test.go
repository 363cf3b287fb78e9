package generator

import (
	"os"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestJSONRefsMatchYAML checks that the scan of a JSON document finds the
// $refs the YAML walk finds, in the same order.
func TestJSONRefsMatchYAML(t *testing.T) {
	petstore, err := os.ReadFile("../testdata/specs/openapi/petstore.json")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{
		"petstore.json": petstore,
		"tricky": []byte(`{"a": {"$ref" : "x.json#/A"}, "d": "say \"$ref\": \"no.json\"", "e": {"$ref":"sp ace\u00e9.yaml"},
			"f": {"$ref": {"not": "a string"}}, "g": ["$ref", {"k": {"$ref":"#/local"}}], "h": {"$ref": "esc\"aped.json"}}`),
	}
	for name, data := range docs {
		got, ok := jsonRefs(data)
		if !ok {
			t.Fatalf("%s: not scanned as JSON", name)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		if want := refs(&doc); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	for _, bad := range []string{"openapi: 3.0.0\n", `{"a": {"$ref": "x"`, ""} {
		if _, ok := jsonRefs([]byte(bad)); ok {
			t.Errorf("%q scanned as JSON", bad)
		}
	}
}
