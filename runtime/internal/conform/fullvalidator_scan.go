package conform

import "strings"

// mayUseUnsupported scans doc, JSON text, for what usesUnsupported finds in
// it once decoded, without decoding it: an unsupportedKeywords key in
// keyword position. It never misses one that usesUnsupported would find
// in a valid document; it may report one that it would not (a duplicate
// key whose last value differs, an escaped key, a document that is not
// JSON, nesting deeper than maxScanDepth), so a true answer is confirmed
// by decoding. The generator asks NeedsFullValidator about megabytes of
// schemas that almost never use such keywords: scanning is about ten
// times faster than decoding and allocates nothing.
func mayUseUnsupported(doc string) bool {
	s := scanner{doc: doc}
	s.value(true, 0)
	return s.found
}

// maxScanDepth bounds the scanner's recursion; a deeper document is left
// to the decoder (encoding/json refuses nesting deeper than 10000).
const maxScanDepth = 10000

// scanner is the state of mayUseUnsupported: the text, the offset of the
// next byte, and whether a keyword (or anything it cannot judge) was found.
// Once found is set, it stops.
type scanner struct {
	doc   string
	i     int
	found bool
}

func (s *scanner) space() {
	for s.i < len(s.doc) {
		switch s.doc[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value skips one JSON value; schema says it is in keyword position (a
// schema, or a value whose objects usesUnsupported walks as schemas).
func (s *scanner) value(schema bool, depth int) {
	if depth > maxScanDepth {
		s.found = true
		return
	}
	s.space()
	if s.i >= len(s.doc) {
		s.found = true // not JSON: let the decoder judge
		return
	}
	switch s.doc[s.i] {
	case '{':
		s.object(schema, depth)
	case '[':
		s.i++
		s.space()
		if s.i < len(s.doc) && s.doc[s.i] == ']' {
			s.i++
			return
		}
		for !s.found {
			s.value(schema, depth+1)
			s.space()
			if s.i >= len(s.doc) {
				s.found = true
				return
			}
			c := s.doc[s.i]
			s.i++
			if c == ']' {
				return
			}
			if c != ',' {
				s.found = true
				return
			}
		}
	case '"':
		s.str()
	default:
		// A number, true, false or null: up to the next delimiter.
		for s.i < len(s.doc) {
			switch s.doc[s.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			s.i++
		}
	}
}

// str skips a string, returning its text between the quotes as written
// (escapes included) and whether it has escapes.
func (s *scanner) str() (string, bool) {
	start := s.i + 1
	escaped := false
	for j := start; j < len(s.doc); j++ {
		switch s.doc[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			s.i = j + 1
			return s.doc[start:j], escaped
		}
	}
	s.found = true // unterminated
	s.i = len(s.doc)
	return "", false
}

// object skips an object (at '{'), looking at its keys when it is a schema.
func (s *scanner) object(schema bool, depth int) {
	s.members(func(key string, escaped bool) {
		switch {
		case !schema:
			s.value(false, depth+1)
		case escaped:
			s.found = true // an escaped key may spell a keyword
		case key == "properties" || key == "$defs" || key == "definitions" || key == "patternProperties" ||
			key == "dependentSchemas" || key == "dependencies":
			if unsupportedKeywords[key] {
				s.found = true
				return
			}
			s.space()
			if s.i < len(s.doc) && s.doc[s.i] == '{' {
				s.nameMap(depth + 1)
			} else {
				s.value(false, depth+1)
			}
		case key == "enum" || key == "const" || key == "default" || key == "examples" || key == "example":
			s.value(false, depth+1)
		case key == "not":
			s.space()
			if !s.trivial() {
				s.found = true
			}
		case unsupportedKeywords[key]:
			s.found = true
		default:
			s.value(true, depth+1)
		}
	})
}

// nameMap skips an object whose members are schemas (properties, $defs...).
func (s *scanner) nameMap(depth int) {
	s.members(func(string, bool) { s.value(true, depth+1) })
}

// members reads the object at '{' one member at a time: member gets each
// key (as str returns it) with the offset past its ':', and reads the
// value. It stops at the object's end or once found is set; anything that
// is not JSON sets found (decoding confirms every hit).
func (s *scanner) members(member func(key string, escaped bool)) {
	s.i++
	s.space()
	if s.i < len(s.doc) && s.doc[s.i] == '}' {
		s.i++
		return
	}
	for !s.found {
		s.space()
		if s.i >= len(s.doc) || s.doc[s.i] != '"' {
			s.found = true
			return
		}
		key, escaped := s.str()
		s.space()
		if s.i >= len(s.doc) || s.doc[s.i] != ':' {
			s.found = true
			return
		}
		s.i++
		member(key, escaped)
		if s.found {
			return
		}
		s.space()
		if s.i >= len(s.doc) {
			s.found = true
			return
		}
		c := s.doc[s.i]
		s.i++
		if c != ',' {
			s.found = c != '}'
			return
		}
	}
}

// trivial skips the value of not when it is {} or true (isTrivialSchema),
// and reports whether it was.
func (s *scanner) trivial() bool {
	rest := s.doc[s.i:]
	if strings.HasPrefix(rest, "true") {
		s.i += len("true")
		return true
	}
	if strings.HasPrefix(rest, "{") {
		j := 1
		for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t' || rest[j] == '\n' || rest[j] == '\r') {
			j++
		}
		if j < len(rest) && rest[j] == '}' {
			s.i += j + 1
			return true
		}
	}
	return false
}
