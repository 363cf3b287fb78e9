package jsonptr

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ tok, esc string }{
		{"pets", "pets"}, {"/pets/{id}", "~1pets~1{id}"}, {"a~b", "a~0b"}, {"~1", "~01"}, {"", ""},
	} {
		if got := Escape(tc.tok); got != tc.esc {
			t.Errorf("Escape(%q) = %q, want %q", tc.tok, got, tc.esc)
		}
		if got := Unescape(tc.esc); got != tc.tok {
			t.Errorf("Unescape(%q) = %q, want %q", tc.esc, got, tc.tok)
		}
	}
	if got := Append("/paths", "/pets"); got != "/paths/~1pets" {
		t.Errorf("Append = %q", got)
	}
	if got := Tokens("#/paths/~1pets/get"); len(got) != 3 || got[1] != "/pets" {
		t.Errorf("Tokens = %q", got)
	}
	if Tokens("") != nil || Tokens("#") != nil {
		t.Error("the empty pointer has tokens")
	}
}

func TestLookup(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"a/b": [1, {"c~d": true}], "e": null}`), &v); err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]any{"/a~1b/0": 1.0, "/a~1b/1/c~0d": true, "/e": nil} {
		if got, ok := Lookup(v, ptr); !ok || got != want {
			t.Errorf("Lookup(%q) = %v, %v", ptr, got, ok)
		}
	}
	for _, ptr := range []string{"/x", "/a~1b/2", "/a~1b/01", "/a~1b/-1", "/e/f", "/a~1b/0/x"} {
		if _, ok := Lookup(v, ptr); ok {
			t.Errorf("Lookup(%q) found something", ptr)
		}
	}
	if got, ok := Lookup(v, ""); !ok || got == nil {
		t.Error("the empty pointer is not the document")
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\n\télan: \"€x\"\n\nz")
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {4, 2, 2}, {5, 2, 3}, // "é" is two bytes, one column
		{7, 2, 4}, {12, 2, 9}, {15, 2, 10}, {16, 2, 11}, {18, 3, 1}, {19, 4, 1}, {20, 4, 2}, {99, 4, 2}, {-1, 1, 1},
	} {
		if l, c := LineCol(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
	// Many offsets at once agree with one at a time, in any order.
	offs := []int{19, 3, 15, 0, 7, 15, 12}
	lc := LineCols(data, offs)
	lines := NewLines(data)
	for _, off := range offs {
		l, c := LineCol(data, off)
		l2, c2 := lines.LineCol(off) // out of order, reusing the converter
		if lc[off] != [2]int{l, c} || l2 != l || c2 != c {
			t.Errorf("offset %d: LineCols %v, Lines %d:%d, LineCol %d:%d", off, lc[off], l2, c2, l, c)
		}
	}
}

// doc has non-ASCII text before keys, nested arrays, an escaped key and
// a key with a slash, on several lines and with one long line.
const doc = `{"openapi": "3.1.0", "info": {"title": "Ünïcödé ✓", "version": "1"},
  "paths": {
    "/pets/{id}": {"get": {"parameters": [{"name": "a"}, {"name": "b", "schema": {"type": "string"}}]}},
	"ke\u0079~": [[1, 2], {"x": "ö"}]
  }
}`

// positions lists every pointer of doc with its line and column as
// gopkg.in/yaml.v3 reports them (JSON is YAML): member keys, elements.
func yamlPositions(t *testing.T) map[string][2]int {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &n); err != nil {
		t.Fatal(err)
	}
	out := map[string][2]int{"": {n.Content[0].Line, n.Content[0].Column}}
	var walk func(n *yaml.Node, ptr string)
	walk = func(n *yaml.Node, ptr string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				p := Append(ptr, k.Value)
				out[p] = [2]int{k.Line, k.Column}
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := ptr + "/" + strconv.Itoa(i)
				out[p] = [2]int{c.Line, c.Column}
				walk(c, p)
			}
		}
	}
	walk(n.Content[0], "")
	return out
}

// TestPositionsAgree: Offsets, Index and YAML's parser place every node of
// a JSON text at the same line and column.
func TestPositionsAgree(t *testing.T) {
	want := yamlPositions(t)
	if len(want) < 20 {
		t.Fatalf("only %d positions", len(want))
	}
	var ptrs []string
	for p := range want {
		ptrs = append(ptrs, p)
	}
	offs, ok := Offsets([]byte(doc), ptrs)
	if !ok {
		t.Fatal("Offsets refused the document")
	}
	lc := LineCols([]byte(doc), func() []int {
		var o []int
		for _, off := range offs {
			o = append(o, off)
		}
		return o
	}())
	ix := NewIndex([]byte(doc))
	for p, w := range want {
		if got := lc[offs[p]]; got != w {
			t.Errorf("Offsets: %q at %v, YAML says %v", p, got, w)
		}
		if l, c := ix.LineCol(p); [2]int{l, c} != w {
			t.Errorf("Index: %q at %d:%d, YAML says %v", p, l, c, w)
		}
	}
	// A pointer that goes on past the text is placed at its deepest node.
	for p, deepest := range map[string]string{
		"/paths/~1pets~1{id}/get/parameters/1/schema/missing/x": "/paths/~1pets~1{id}/get/parameters/1/schema",
		"/paths/~1pets~1{id}/get/parameters/7":                  "/paths/~1pets~1{id}/get/parameters",
		"/nothing":                                              "",
	} {
		offs, _ := Offsets([]byte(doc), []string{p})
		if l, c := LineCol([]byte(doc), offs[p]); [2]int{l, c} != want[deepest] {
			t.Errorf("Offsets: %q at %d:%d, want %q's %v", p, l, c, deepest, want[deepest])
		}
		if l, c := ix.LineCol(p); [2]int{l, c} != want[deepest] {
			t.Errorf("Index: %q at %d:%d, want %q's %v", p, l, c, deepest, want[deepest])
		}
	}
}

func TestOffsetsRefusesNonJSON(t *testing.T) {
	for _, data := range []string{`{"a": `, `{"a" 1}`, `[1 2]`, `{"a": "x}`} {
		if _, ok := Offsets([]byte(data), []string{"/a/b", "/0/c"}); ok {
			t.Errorf("Offsets(%q) accepted it", data)
		}
	}
	// NewIndex does not fail: unknown pointers are at the start.
	ix := NewIndex([]byte("  not json"))
	if l, c := ix.LineCol("/a"); l != 1 || c != 3 {
		t.Errorf("NewIndex of a non-JSON text: /a at %d:%d", l, c)
	}
}

// TestLineColsOnePass checks the one-pass conversion of offsets against a
// count from the start of the text for each, on text with several lines
// and characters of several bytes, offsets unsorted and repeated.
func TestLineColsOnePass(t *testing.T) {
	data := []byte("{\"é\": 1,\n  \"ü€\": [\"x\",\n\n \"日本\"], \"k\": true}")
	var offs []int
	for i := len(data); i >= 0; i-- {
		if i == len(data) || utf8.RuneStart(data[i]) { // offsets of characters
			offs = append(offs, i, i)
		}
	}
	slices.Reverse(offs[len(offs)/2:])
	got := LineCols(data, offs)
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

// refSkip is Skip and Str as they were written first, byte by byte: the
// reference of FuzzSkip.
func refSkip(data []byte, off int) (int, bool) {
	str := func() bool {
		for off++; off < len(data); off++ {
			switch data[off] {
			case '\\':
				off++
			case '"':
				off++
				return true
			}
		}
		return false
	}
	depth := 0
	for off < len(data) {
		switch data[off] {
		case '"':
			if !str() {
				return off, false
			}
			if depth == 0 {
				return off, true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return off, true
			}
			depth--
			if depth == 0 {
				return off + 1, true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return off, true
			}
		}
		off++
	}
	return off, depth == 0
}

// FuzzSkip checks Skip (vectorised string search, fast path inside
// containers) against the byte-by-byte reference.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"y",{"b":"\\"}]} ,`, `"abc\\\"d" x`, `[[["\\\\"]]]`, `"\`, `{"a":"`, `12 ,`, `{"a\\":"b\\\\\""}`, `[`, `]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wantOff, wantOK := refSkip(data, 0)
		s := &Scanner{Data: data}
		ok := s.Skip()
		if ok != wantOK || ok && s.Off != wantOff {
			t.Errorf("Skip(%q) = %d, %v; want %d, %v", data, s.Off, ok, wantOff, wantOK)
		}
	})
}
