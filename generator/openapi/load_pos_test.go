package openapi

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// allPointers lists the JSON pointer of every node of v, plus pointers
// that go one step past each leaf and to a missing member.
func allPointers(v any, p string, out *[]string) {
	*out = append(*out, p, p+"/missing~1member")
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			allPointers(e, p+"/"+escapeToken(k), out)
		}
	case []any:
		for i, e := range v {
			allPointers(e, p+"/"+strconv.Itoa(i), out)
		}
	}
}

// TestJSONPositionsMatchYAML checks that the JSON scanner finds every
// pointer at the position the YAML parser gives it.
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
		pos, ok := jsonPositions(data, ptrs)
		if !ok {
			t.Fatalf("%s: not scanned", name)
		}
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
	if _, ok := jsonPositions([]byte(`{"a": [1, 2`), []string{"/a/1"}); ok {
		t.Error("truncated text scanned")
	}
}

// TestRuneLineCols checks the one-pass conversion of offsets against a
// count from the start of the text for each, on text with several lines
// and characters of several bytes, offsets unsorted and repeated.
func TestRuneLineCols(t *testing.T) {
	data := []byte("{\"é\": 1,\n  \"ü€\": [\"x\",\n\n \"日本\"], \"k\": true}")
	var offs []int
	for i := len(data); i >= 0; i-- {
		if i == len(data) || utf8.RuneStart(data[i]) { // offsets of characters
			offs = append(offs, i, i)
		}
	}
	slices.Reverse(offs[len(offs)/2:])
	got := runeLineCols(data, offs)
	for _, off := range offs {
		line, col := 1, 1
		for _, r := range string(data[:off]) {
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		if got[off] != [2]int{line, col} {
			t.Errorf("offset %d: got %v, want [%d %d]", off, got[off], line, col)
		}
	}
}
