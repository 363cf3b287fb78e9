package ir

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// defsPrefix starts every reference: defs are written under "$defs".
const defsPrefix = "#/$defs/"

// RefText is the "$ref" of a reference to d.
func (d *Def) RefText() string { return defsPrefix + d.Name }

// AppendJSON appends s as JSON, members sorted by key as json.Marshal
// sorts a map's, a reference as {"$ref": "#/$defs/<Name>"}; extra members
// (sorted, each key once, not one of s's) are written with s's, as an
// object holding "$defs" is. ok is false, and b as it was, when a value
// cannot be written (a NaN, or a type encoding/json refuses).
func (s *Schema) AppendJSON(b []byte, extra ...Member) (_ []byte, ok bool) {
	start := len(b)
	if b, ok = s.appendJSON(b, extra); !ok {
		return b[:start], false
	}
	return b, true
}

// MarshalJSON writes s as AppendJSON does.
func (s *Schema) MarshalJSON() ([]byte, error) {
	b, ok := s.AppendJSON(nil)
	if !ok {
		return nil, &json.UnsupportedValueError{Str: "schema"}
	}
	return b, nil
}

func (s *Schema) appendJSON(b []byte, extra []Member) (_ []byte, ok bool) {
	if s == nil {
		return append(b, "null"...), true
	}
	b = append(b, '{')
	first, ref := true, s.Ref != nil
	member := func(key string) {
		if ref && key > "$ref" {
			ref = false
			b = s.appendMember(b, &first, "$ref")
			b = appendString(b, s.Ref.RefText())
		}
		b = s.appendMember(b, &first, key)
	}
	ms, xs := s.Members, extra
	for len(ms) > 0 || len(xs) > 0 {
		var m Member
		if len(xs) == 0 || len(ms) > 0 && ms[0].Key < xs[0].Key {
			m, ms = ms[0], ms[1:]
		} else {
			m, xs = xs[0], xs[1:]
		}
		member(m.Key)
		if b, ok = appendValue(b, m.Value); !ok {
			return b, false
		}
	}
	if ref {
		b = s.appendMember(b, &first, "$ref")
		b = appendString(b, s.Ref.RefText())
	}
	return append(b, '}'), true
}

func (s *Schema) appendMember(b []byte, first *bool, key string) []byte {
	if !*first {
		b = append(b, ',')
	}
	*first = false
	return append(appendString(b, key), ':')
}

// appendValue appends a member's value: a schema, schemas, properties, or
// decoded JSON (appendJSON).
func appendValue(b []byte, v any) (_ []byte, ok bool) {
	switch v := v.(type) {
	case *Schema:
		return v.appendJSON(b, nil)
	case []*Schema:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = x.appendJSON(b, nil); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case Properties:
		b = append(b, '{')
		for i, p := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, p.Key), ':')
			if b, ok = p.Schema.appendJSON(b, nil); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	start := len(b)
	if b, ok := appendJSON(b, v); ok {
		return b, true
	}
	b = b[:start]
	// Another type (a YAML integer, say): as json.Marshal writes it.
	data, err := json.Marshal(v)
	if err != nil {
		return b, false
	}
	return append(b, data...), true
}

// appendJSON appends v, decoded JSON, encoded as json.Marshal encodes it;
// ok is false for any other value (and for a map or list holding one).
func appendJSON(b []byte, v any) (_ []byte, ok bool) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case string:
		return appendString(b, v), true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, false
		}
		// encoding/json's format: 'f' unless the exponent is large or
		// small, then 'e' with a one-digit negative exponent ("e-7").
		f, abs := byte('f'), math.Abs(v)
		if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
			f = 'e'
		}
		b = strconv.AppendFloat(b, v, f, -1, 64)
		if n := len(b); f == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b, true
	case uint64:
		return strconv.AppendUint(b, v, 10), true
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case []string:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		return append(b, ']'), true
	case []any:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendValue(b, x); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if v == nil {
			return append(b, "null"...), true
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			if b, ok = appendValue(b, v[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendString appends s as a JSON string as json.Marshal writes it: quoted
// directly when every byte is printable ASCII that needs no escape (HTML
// characters are escaped by encoding/json), else by json.Marshal.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// DecodeSchema decodes the JSON object data into a Schema: every object
// becomes a Schema, and a "$ref" of the form "#/$defs/<Name>" a reference
// to def(Name) when that is not nil (other references stay as they are
// written). For loaders and tests that have a schema as JSON text.
func DecodeSchema(data []byte, def func(name string) *Def) (*Schema, error) {
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return schemaOf(v, def), nil
}

func schemaOf(m map[string]any, def func(string) *Def) *Schema {
	s := &Schema{Members: make([]Member, 0, len(m))}
	for k, v := range m {
		if r, ok := v.(string); k == "$ref" && ok && def != nil {
			if name, ok := strings.CutPrefix(r, defsPrefix); ok {
				if d := def(name); d != nil {
					s.Ref = d
					continue
				}
			}
		}
		s.Members = append(s.Members, Member{k, decoded(v, def)})
	}
	slices.SortFunc(s.Members, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	return s
}

func decoded(v any, def func(string) *Def) any {
	switch v := v.(type) {
	case map[string]any:
		return schemaOf(v, def)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = decoded(x, def)
		}
		return out
	}
	return v
}

// String returns s as JSON ("" for nil), for messages and tests.
func (s *Schema) String() string {
	if s == nil {
		return ""
	}
	b, err := s.MarshalJSON()
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}
