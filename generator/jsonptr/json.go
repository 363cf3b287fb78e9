package jsonptr

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Scanner reads JSON text without decoding it: white space, strings,
// separators, whole values. Data is the text and Off the current offset.
type Scanner struct {
	Data []byte
	Off  int
}

// Space skips white space.
func (s *Scanner) Space() {
	for s.Off < len(s.Data) {
		switch s.Data[s.Off] {
		case ' ', '\t', '\n', '\r':
			s.Off++
		default:
			return
		}
	}
}

// Next reads the separator after a member or element: more is true after
// a comma, false after the closing bracket.
func (s *Scanner) Next(closing byte) (more, ok bool) {
	s.Space()
	if s.Off >= len(s.Data) {
		return false, false
	}
	switch s.Data[s.Off] {
	case ',':
		s.Off++
		return true, true
	case closing:
		s.Off++
		return false, true
	}
	return false, false
}

// Str reads a string and returns its text, quotes included (its escapes
// are not checked).
func (s *Scanner) Str() ([]byte, bool) {
	start := s.Off
	if s.Off >= len(s.Data) || s.Data[s.Off] != '"' {
		return nil, false
	}
	// The next quote (bytes.IndexByte is vectorised) ends the string
	// unless an odd run of backslashes escapes it.
	from := start + 1
	for {
		j := bytes.IndexByte(s.Data[from:], '"')
		if j < 0 {
			s.Off = len(s.Data)
			return nil, false
		}
		q := from + j
		n := 0
		for q-1-n > start && s.Data[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			s.Off = q + 1
			return s.Data[start:s.Off], true
		}
		from = q + 1
	}
}

// skipStop marks the bytes Skip must look at inside a container: quotes
// and brackets.
var skipStop = func() (t [256]bool) {
	for _, c := range []byte(`"{}[]`) {
		t[c] = true
	}
	return t
}()

// Key reads an object key and the colon after it; it returns the key's
// offset and decoded text.
func (s *Scanner) Key() (off int, key string, ok bool) {
	s.Space()
	off = s.Off
	raw, ok := s.Str()
	if !ok {
		return off, "", false
	}
	key = string(raw[1 : len(raw)-1])
	if bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &key) != nil {
		return off, "", false
	}
	s.Space()
	if s.Off >= len(s.Data) || s.Data[s.Off] != ':' {
		return off, "", false
	}
	s.Off++
	s.Space()
	return off, key, true
}

// Skip passes over one value without looking into it (and without
// checking its scalars).
func (s *Scanner) Skip() bool {
	depth := 0
	for s.Off < len(s.Data) {
		if depth > 0 {
			// Inside a container only quotes and brackets matter.
			for s.Off < len(s.Data) && !skipStop[s.Data[s.Off]] {
				s.Off++
			}
			if s.Off >= len(s.Data) {
				break
			}
		}
		switch c := s.Data[s.Off]; c {
		case '"':
			if _, ok := s.Str(); !ok {
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
				s.Off++
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
		s.Off++
	}
	return depth == 0
}

// maxDepth bounds the nesting looked into (encoding/json's limit).
const maxDepth = 10000

// Offsets returns the byte offset of each pointer of ptrs in the JSON text
// data (see the package doc for which node's offset). It scans the text
// once, entering only the values on the pointers' paths, which is much
// cheaper than decoding a large document. ok is false when data is not a
// JSON text it can scan.
func Offsets(data []byte, ptrs []string) (offs map[string]int, ok bool) {
	root := &trieNode{}
	for _, p := range ptrs {
		n := root
		for _, tok := range Tokens(p) {
			c := n.kids[tok]
			if c == nil {
				c = &trieNode{}
				if n.kids == nil {
					n.kids = map[string]*trieNode{}
				}
				n.kids[tok] = c
			}
			n = c
		}
	}
	s := &Scanner{Data: data}
	s.Space()
	root.off, root.seen = s.Off, true
	if !root.scan(s, 0) {
		return nil, false
	}
	offs = make(map[string]int, len(ptrs))
	for _, p := range ptrs {
		n, off := root, root.off
		for _, tok := range Tokens(p) {
			if n = n.kids[tok]; !n.seen {
				break
			}
			off = n.off
		}
		offs[p] = off
	}
	return offs, true
}

// trieNode is a node of the pointers' trie; off is where it was found.
type trieNode struct {
	kids map[string]*trieNode
	off  int
	seen bool
}

// scan scans the value at s.Off, recording the offsets of n's children.
func (n *trieNode) scan(s *Scanner, depth int) bool {
	if n == nil || n.kids == nil || s.Off >= len(s.Data) || depth > maxDepth {
		return s.Skip()
	}
	return walk(s, depth, func(tok string, off int, s *Scanner, depth int) bool {
		c := n.kids[tok]
		if c != nil && !c.seen {
			c.off, c.seen = off, true
		}
		return c.scan(s, depth)
	})
}

// walk scans the value at s.Off; for an object or an array it calls visit
// for each member (its key, the key's offset) or element (its index, its
// offset), with s at the start of the value, which visit must scan.
func walk(s *Scanner, depth int, visit func(tok string, off int, s *Scanner, depth int) bool) bool {
	if s.Off >= len(s.Data) {
		return false
	}
	switch s.Data[s.Off] {
	case '{':
		s.Off++
		s.Space()
		if s.Off < len(s.Data) && s.Data[s.Off] == '}' {
			s.Off++
			return true
		}
		for {
			off, key, ok := s.Key()
			if !ok || !visit(key, off, s, depth+1) {
				return false
			}
			if more, ok := s.Next('}'); !ok || !more {
				return ok
			}
		}
	case '[':
		s.Off++
		s.Space()
		if s.Off < len(s.Data) && s.Data[s.Off] == ']' {
			s.Off++
			return true
		}
		for i := 0; ; i++ {
			s.Space()
			if !visit(strconv.Itoa(i), s.Off, s, depth+1) {
				return false
			}
			if more, ok := s.Next(']'); !ok || !more {
				return ok
			}
		}
	}
	return s.Skip()
}

// Index holds the offset of every node of a JSON text, for documents whose
// diagnostics are placed as they are found (an MCP tool listing).
type Index struct {
	offs  map[string]int
	lines *Lines
}

// NewIndex indexes the JSON text data. A text it cannot scan (not JSON)
// gives an index that places every pointer at the start.
func NewIndex(data []byte) *Index {
	ix := &Index{offs: map[string]int{}, lines: NewLines(data)}
	s := &Scanner{Data: data}
	s.Space()
	ix.offs[""] = s.Off
	var visit func(ptr string) func(tok string, off int, s *Scanner, depth int) bool
	visit = func(ptr string) func(tok string, off int, s *Scanner, depth int) bool {
		return func(tok string, off int, s *Scanner, depth int) bool {
			p := Append(ptr, tok)
			ix.offs[p] = off
			if depth > maxDepth {
				return s.Skip()
			}
			return walk(s, depth, visit(p))
		}
	}
	walk(s, 0, visit(""))
	return ix
}

// Offset returns the offset of ptr (or of its deepest ancestor in the
// text).
func (ix *Index) Offset(ptr string) int {
	for q := ptr; ; {
		if off, ok := ix.offs[q]; ok {
			return off
		}
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			return ix.offs[""]
		}
		q = q[:i]
	}
}

// LineCol returns the line and column of ptr (see Offset).
func (ix *Index) LineCol(ptr string) (line, col int) { return ix.lines.LineCol(ix.Offset(ptr)) }
