package openapi

import (
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// parseTree decodes one JSON value into the tree json.Decoder gives with
// UseNumber (map[string]any, []any, string, json.Number, bool, nil), in one
// pass instead of encoding/json's two (it scans a value before decoding
// it) and without its per-byte state machine: about twice as fast on large
// documents. Input it would decode differently from encoding/json,
// or that encoding/json rejects, is refused with errTree: invalid UTF-8 and
// unpaired surrogates (which encoding/json replaces with U+FFFD), nesting
// deeper than encoding/json allows, syntax errors. The caller then takes
// kin-openapi's path, which reports errors as before.
func parseTree(data []byte) (any, error) {
	p := &treeParser{posScanner: posScanner{data: data}, keys: map[string]string{}}
	p.space()
	v, err := p.tree(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.data) {
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

// treeParser reads JSON with posScanner's helpers (white space, the
// separators).
type treeParser struct {
	posScanner
	// keys interns object keys: a document repeats a few hundred keys
	// ("type", "description") hundreds of thousands of times.
	keys map[string]string
}

// tree reads the value at p.i (posScanner.value only scans one).
func (p *treeParser) tree(depth int) (any, error) {
	if p.i >= len(p.data) {
		return nil, errTree
	}
	switch c := p.data[p.i]; {
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
	if len(p.data)-p.i < len(word) || string(p.data[p.i:p.i+len(word)]) != word {
		return errTree
	}
	p.i += len(word)
	return nil
}

func (p *treeParser) object(depth int) (any, error) {
	if depth > maxTreeDepth {
		return nil, errTree
	}
	p.i++ // {
	m := make(map[string]any)
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return nil, errTree
		}
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return nil, errTree
		}
		p.i++
		p.space()
		v, err := p.tree(depth)
		if err != nil {
			return nil, err
		}
		m[key] = v // the last of duplicate keys wins, as in encoding/json
		if more, ok := p.next('}'); !ok || !more {
			return m, okErr(ok)
		}
	}
}

// key reads an object key, interned when it has no escapes.
func (p *treeParser) key() (string, error) {
	start := p.i + 1
	for j := start; j < len(p.data); j++ {
		c := p.data[j]
		if c == '"' {
			raw := p.data[start:j]
			if k, ok := p.keys[string(raw)]; ok {
				p.i = j + 1
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
	p.i++ // [
	a := make([]any, 0)
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return a, nil
	}
	for {
		p.space()
		v, err := p.tree(depth)
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		if more, ok := p.next(']'); !ok || !more {
			return a, okErr(ok)
		}
	}
}

// stringValue reads a string at p.i (its opening quote).
func (p *treeParser) stringValue() (string, error) {
	p.i++
	start := p.i
	// The common case: no escapes, ASCII or valid UTF-8.
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			s := string(p.data[start:p.i])
			p.i++
			return s, nil
		case c == '\\':
			return p.escaped(start)
		case c < 0x20:
			return "", errTree
		case c < utf8.RuneSelf:
			p.i++
		default:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", errTree
			}
			p.i += size
		}
	}
	return "", errTree
}

// escaped reads the rest of a string that has escapes; the text from start
// to p.i has none.
func (p *treeParser) escaped(start int) (string, error) {
	b := append([]byte(nil), p.data[start:p.i]...)
	for p.i < len(p.data) {
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", errTree
		case c == '\\':
			if p.i+1 >= len(p.data) {
				return "", errTree
			}
			e := p.data[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", errTree
				}
				if utf16.IsSurrogate(r) {
					// Only a high surrogate followed by a low one is a
					// character; encoding/json replaces anything else.
					if p.i+1 >= len(p.data) || p.data[p.i] != '\\' || p.data[p.i+1] != 'u' {
						return "", errTree
					}
					p.i += 2
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
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && size == 1 {
				return "", errTree
			}
			b = append(b, p.data[p.i:p.i+size]...)
			p.i += size
		}
	}
	return "", errTree
}

// hex4 reads the four hex digits of a \u escape.
func (p *treeParser) hex4() (rune, bool) {
	if len(p.data)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.i : p.i+4] {
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
	p.i += 4
	return r, true
}

// number reads a number (JSON's grammar) as a json.Number.
func (p *treeParser) number() (any, error) {
	start := p.i
	d := p.data
	if d[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(d) && '0' <= d[p.i] && d[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case digits() == 0:
		return nil, errTree
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, errTree
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, errTree
		}
	}
	return json.Number(d[start:p.i]), nil
}
