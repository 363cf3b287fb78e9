package openapi

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/jsonptr"
)

// allPointers lists the JSON pointer of every node of v, plus pointers
// that go one step past each leaf and to a missing member.
func allPointers(v any, p string, out *[]string) {
	*out = append(*out, p, p+"/missing~1member")
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			allPointers(e, p+"/"+jsonptr.Escape(k), out)
		}
	case []any:
		for i, e := range v {
			allPointers(e, p+"/"+strconv.Itoa(i), out)
		}
	}
}

// TestJSONPositionsMatchYAML checks that the JSON scanner finds every
// pointer at the position the YAML parser gives it, and that positions
// places nothing in a text that is neither JSON nor YAML.
func TestJSONPositionsMatchYAML(t *testing.T) {
	docs := map[string][]byte{
		"escapes": []byte("{\n  \"a~b/c\": {\"k\\\"ey\": [1, {\"x\": \"é\"}, [true, null]]},\n\t\"é\": {\"\": 1, \"z\": \"}],\"},\n  \"n\": -1.5e3, \"e\": {}, \"l\": []\n}\n"),
	}
	if b, err := os.ReadFile("../../testdata/specs/openapi/petstore.json"); err == nil {
		docs["petstore.json"] = b
	} else {
		t.Fatal(err)
	}
	for name, data := range docs {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var ptrs []string
		allPointers(v, "", &ptrs)
		if _, ok := jsonptr.Offsets(data, ptrs); !ok {
			t.Fatalf("%s: not scanned", name)
		}
		pos := positions(data, ptrs)
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			t.Fatal(err)
		}
		for _, p := range ptrs {
			line, col := lookupPointer(n.Content[0], p)
			if got := pos[p]; got != [2]int{line, col} {
				t.Errorf("%s %q: got %d:%d, YAML says %d:%d", name, p, got[0], got[1], line, col)
			}
		}
	}
	if pos := positions([]byte(`{"a": [1, 2`), []string{"/a/1"}); len(pos) != 0 {
		t.Errorf("truncated text placed: %v", pos)
	}
}
