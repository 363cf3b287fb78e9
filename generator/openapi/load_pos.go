package openapi

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonPositions returns the line and column of each JSON pointer in the
// JSON text data: those of the deepest node on the pointer's path that
// exists (the member's key for an object member), as lookupPointer does on
// a YAML tree. It scans the text once, entering only the members on the
// pointers' paths, which is much cheaper than a YAML parse of a large JSON
// document. ok is false when data is not a JSON text it can scan.
func jsonPositions(data []byte, ptrs []string) (pos map[string][2]int, ok bool) {
	root := &posNode{}
	for _, p := range ptrs {
		n := root
		if p != "" {
			for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
				tok = unescapeToken(tok)
				c := n.kids[tok]
				if c == nil {
					c = &posNode{}
					if n.kids == nil {
						n.kids = map[string]*posNode{}
					}
					n.kids[tok] = c
				}
				n = c
			}
		}
	}
	s := &posScanner{data: data}
	s.space()
	root.off, root.seen = s.i, true
	if !s.value(root) {
		return nil, false
	}
	offs := make(map[string]int, len(ptrs))
	for _, p := range ptrs {
		n, off := root, root.off
		if p != "" {
			for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
				n = n.kids[unescapeToken(tok)]
				if !n.seen {
					break
				}
				off = n.off
			}
		}
		offs[p] = off
	}
	lc := runeLineCols(data, slices.Collect(maps.Values(offs)))
	pos = make(map[string][2]int, len(ptrs))
	for p, off := range offs {
		pos[p] = lc[off]
	}
	return pos, true
}

// posNode is a node of the pointers' trie; off is where it was found.
type posNode struct {
	kids map[string]*posNode
	off  int
	seen bool
}

// runeLineCols converts byte offsets to 1-based lines and columns counted
// in characters, as the YAML parser counts them, in one pass over data
// (a column counted from the start of its line for each offset would take
// quadratic time on a minified document, all on one line).
func runeLineCols(data []byte, offs []int) map[int][2]int {
	sorted := slices.Clone(offs)
	slices.Sort(sorted)
	out := make(map[int][2]int, len(sorted))
	line, col, cur := 1, 1, 0
	for _, orig := range slices.Compact(sorted) {
		off := min(max(orig, cur), len(data))
		seg := data[cur:off]
		if n := bytes.Count(seg, []byte("\n")); n > 0 {
			line += n
			col = 1 + utf8.RuneCount(seg[bytes.LastIndexByte(seg, '\n')+1:])
		} else {
			col += utf8.RuneCount(seg)
		}
		cur = off
		out[orig] = [2]int{line, col}
	}
	return out
}

type posScanner struct {
	data []byte
	i    int
}

func (s *posScanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value scans the value at s.i, recording the positions of n's children.
func (s *posScanner) value(n *posNode) bool {
	if n == nil || n.kids == nil || s.i >= len(s.data) {
		return s.skip()
	}
	switch s.data[s.i] {
	case '{':
		s.i++
		s.space()
		if s.i < len(s.data) && s.data[s.i] == '}' {
			s.i++
			return true
		}
		for {
			s.space()
			keyOff := s.i
			raw, ok := s.str()
			if !ok {
				return false
			}
			key := string(raw[1 : len(raw)-1])
			if bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &key) != nil {
				return false
			}
			s.space()
			if s.i >= len(s.data) || s.data[s.i] != ':' {
				return false
			}
			s.i++
			s.space()
			c := n.kids[key]
			if c != nil && !c.seen {
				c.off, c.seen = keyOff, true
			}
			if !s.value(c) {
				return false
			}
			if more, ok := s.next('}'); !ok || !more {
				return ok
			}
		}
	case '[':
		s.i++
		s.space()
		if s.i < len(s.data) && s.data[s.i] == ']' {
			s.i++
			return true
		}
		for idx := 0; ; idx++ {
			s.space()
			c := n.kids[strconv.Itoa(idx)]
			if c != nil && !c.seen {
				c.off, c.seen = s.i, true
			}
			if !s.value(c) {
				return false
			}
			if more, ok := s.next(']'); !ok || !more {
				return ok
			}
		}
	}
	return s.skip()
}

// next reads the separator after a member or element: more is true after
// a comma, false after the closing bracket.
func (s *posScanner) next(closing byte) (more, ok bool) {
	s.space()
	if s.i >= len(s.data) {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, false
}

// str reads a string and returns its text, quotes included.
func (s *posScanner) str() ([]byte, bool) {
	start := s.i
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return nil, false
	}
	for s.i++; s.i < len(s.data); s.i++ {
		switch s.data[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return s.data[start:s.i], true
		}
	}
	return nil, false
}

// skip passes over one value without looking into it.
func (s *posScanner) skip() bool {
	depth := 0
	for s.i < len(s.data) {
		switch c := s.data[s.i]; c {
		case '"':
			if _, ok := s.str(); !ok {
				return false
			}
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return true // the end of the enclosing container
			}
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		case ',':
			if depth == 0 {
				return true
			}
		case ' ', '\t', '\n', '\r':
			if depth == 0 {
				return true
			}
		}
		s.i++
	}
	return depth == 0
}
