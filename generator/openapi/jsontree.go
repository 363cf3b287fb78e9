package openapi

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/jsonptr"
)

// parseTree decodes one JSON value into the tree json.Decoder gives with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil), in one
// pass instead of encoding/json's two (it scans a value before decoding
// it) and without its per-byte state machine: about twice as fast on large
// documents. Input it would decode differently from encoding/json,
// or that encoding/json rejects, is refused with errTree: invalid UTF-8 and
// unpaired surrogates (which encoding/json replaces with U+FFFD), nesting
// deeper than encoding/json allows, syntax errors. The caller then decodes
// with encoding/json, which reports the error with its position.
func parseTree(data []byte) (any, error) {
	p := &treeParser{Scanner: jsonptr.Scanner{Data: data}, keys: map[string]string{}}
	p.Space()
	v, err := p.tree(0)
	if err != nil {
		return nil, err
	}
	p.Space()
	if p.Off != len(p.Data) {
		return nil, errTree
	}
	return v, nil
}

// errTree says parseTree refused its input.
var errTree = errors.New("openapi: JSON not decoded by the fast parser")

// okErr is errTree when ok is false.
func okErr(ok bool) error {
	if !ok {
		return errTree
	}
	return nil
}

// maxTreeDepth is encoding/json's nesting limit.
const maxTreeDepth = 10000

// treeParser reads JSON with jsonptr.Scanner's helpers (white space, the
// separators).
type treeParser struct {
	jsonptr.Scanner
	// keys interns object keys: a document repeats a few hundred keys
	// ("type", "description") hundreds of thousands of times.
	keys map[string]string
}

// tree reads the value at p.Off (the Scanner only skips one).
func (p *treeParser) tree(depth int) (any, error) {
	if p.Off >= len(p.Data) {
		return nil, errTree
	}
	switch c := p.Data[p.Off]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.stringValue()
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, errTree
}

func (p *treeParser) literal(word string) error {
	if len(p.Data)-p.Off < len(word) || string(p.Data[p.Off:p.Off+len(word)]) != word {
		return errTree
	}
	p.Off += len(word)
	return nil
}

func (p *treeParser) object(depth int) (any, error) {
	if depth > maxTreeDepth {
		return nil, errTree
	}
	p.Off++ // {
	m := make(map[string]any)
	p.Space()
	if p.Off < len(p.Data) && p.Data[p.Off] == '}' {
		p.Off++
		return m, nil
	}
	for {
		p.Space()
		if p.Off >= len(p.Data) || p.Data[p.Off] != '"' {
			return nil, errTree
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.Space()
		if p.Off >= len(p.Data) || p.Data[p.Off] != ':' {
			return nil, errTree
		}
		p.Off++
		p.Space()
		v, err := p.tree(depth)
		if err != nil {
			return nil, err
		}
		m[key] = v // the last of duplicate keys wins, as in encoding/json
		if more, ok := p.Next('}'); !ok || !more {
			return m, okErr(ok)
		}
	}
}

// key reads an object key, interned when it has no escapes.
func (p *treeParser) key() (string, error) {
	start := p.Off + 1
	for j := start; j < len(p.Data); j++ {
		c := p.Data[j]
		if c == '"' {
			raw := p.Data[start:j]
			if k, ok := p.keys[string(raw)]; ok {
				p.Off = j + 1
				return k, nil
			}
			break
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
	}
	s, err := p.stringValue()
	if err != nil {
		return "", err
	}
	if len(s) <= 64 {
		p.keys[s] = s
	}
	return s, nil
}

func (p *treeParser) array(depth int) (any, error) {
	if depth > maxTreeDepth {
		return nil, errTree
	}
	p.Off++ // [
	a := make([]any, 0)
	p.Space()
	if p.Off < len(p.Data) && p.Data[p.Off] == ']' {
		p.Off++
		return a, nil
	}
	for {
		p.Space()
		v, err := p.tree(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		if more, ok := p.Next(']'); !ok || !more {
			return a, okErr(ok)
		}
	}
}

// stringValue reads a string at p.Off (its opening quote).
func (p *treeParser) stringValue() (string, error) {
	p.Off++
	start := p.Off
	if !p.run() {
		return "", errTree
	}
	if p.Data[p.Off] == '"' { // the common case: no escapes
		p.Off++
		return string(p.Data[start : p.Off-1]), nil
	}
	b := append([]byte(nil), p.Data[start:p.Off]...)
	for { // at a backslash
		if p.Off+1 >= len(p.Data) {
			return "", errTree
		}
		e := p.Data[p.Off+1]
		p.Off += 2
		switch i := strings.IndexByte("\"\\/bfnrt", e); {
		case i >= 0:
			b = append(b, "\"\\/\b\f\n\r\t"[i])
		case e == 'u':
			r, ok := p.hex4()
			if !ok {
				return "", errTree
			}
			if utf16.IsSurrogate(r) {
				// Only a high surrogate followed by a low one is a
				// character; encoding/json replaces anything else.
				if p.Off+1 >= len(p.Data) || p.Data[p.Off] != '\\' || p.Data[p.Off+1] != 'u' {
					return "", errTree
				}
				p.Off += 2
				r2, ok := p.hex4()
				if !ok {
					return "", errTree
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return "", errTree
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", errTree
		}
		start := p.Off
		if !p.run() {
			return "", errTree
		}
		b = append(b, p.Data[start:p.Off]...)
		if p.Data[p.Off] == '"' {
			p.Off++
			return string(b), nil
		}
	}
}

// run passes over the characters of a string up to a quote or a
// backslash; false for a control character, invalid UTF-8 or the end of
// the text.
func (p *treeParser) run() bool {
	for p.Off < len(p.Data) {
		switch c := p.Data[p.Off]; {
		case c == '"' || c == '\\':
			return true
		case c < 0x20:
			return false
		case c < utf8.RuneSelf:
			p.Off++
		default:
			r, size := utf8.DecodeRune(p.Data[p.Off:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			p.Off += size
		}
	}
	return false
}

// hex4 reads the four hex digits of a \u escape.
func (p *treeParser) hex4() (rune, bool) {
	if len(p.Data)-p.Off < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.Data[p.Off : p.Off+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	p.Off += 4
	return r, true
}

// number reads a number (JSON's grammar) as a json.Number.
func (p *treeParser) number() (any, error) {
	start := p.Off
	d := p.Data
	if d[p.Off] == '-' {
		p.Off++
	}
	digits := func() int {
		n := 0
		for p.Off < len(d) && '0' <= d[p.Off] && d[p.Off] <= '9' {
			p.Off++
			n++
		}
		return n
	}
	switch {
	case p.Off < len(d) && d[p.Off] == '0':
		p.Off++
	case digits() == 0:
		return nil, errTree
	}
	if p.Off < len(d) && d[p.Off] == '.' {
		p.Off++
		if digits() == 0 {
			return nil, errTree
		}
	}
	if p.Off < len(d) && (d[p.Off] == 'e' || d[p.Off] == 'E') {
		p.Off++
		if p.Off < len(d) && (d[p.Off] == '+' || d[p.Off] == '-') {
			p.Off++
		}
		if digits() == 0 {
			return nil, errTree
		}
	}
	return json.Number(d[start:p.Off]), nil
}

// member is a top-level member of a JSON object: its key and raw value.
type member struct {
	key string
	raw []byte
}

// topMembers splits a JSON object into its members without decoding them;
// ok is false when data is not an object followed by nothing but space.
// The values are checked when they are decoded.
func topMembers(data []byte) (ms []member, ok bool) {
	s := &jsonptr.Scanner{Data: data}
	s.Space()
	if s.Off >= len(data) || data[s.Off] != '{' {
		return nil, false
	}
	s.Off++
	s.Space()
	if s.Off < len(data) && data[s.Off] == '}' {
		s.Off++
	} else {
		for {
			s.Space()
			raw, ok := s.Str()
			if !ok {
				return nil, false
			}
			var key string
			if json.Unmarshal(raw, &key) != nil {
				return nil, false
			}
			s.Space()
			if s.Off >= len(data) || data[s.Off] != ':' {
				return nil, false
			}
			s.Off++
			s.Space()
			start := s.Off
			if !s.Skip() {
				return nil, false
			}
			ms = append(ms, member{key, data[start:s.Off]})
			more, ok := s.Next('}')
			if !ok {
				return nil, false
			}
			if !more {
				break
			}
		}
	}
	s.Space()
	return ms, s.Off == len(data)
}

// plain converts the json.Numbers of a decoded value to float64, as
// encoding/json decodes numbers into an interface; ok is false for a number
// out of float64's range (an error for encoding/json).
func plain(v any) (any, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case map[string]any:
		delete(v, originKey)
		for k, e := range v {
			p, ok := plain(e)
			if !ok {
				return nil, false
			}
			v[k] = p
		}
	case []any:
		for i, e := range v {
			p, ok := plain(e)
			if !ok {
				return nil, false
			}
			v[i] = p
		}
	}
	return v, true
}
