package jsonschema

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"github.com/opsgen/opsgen/generator/ir"
)

// TypeSchema returns the JSON Schema of the named type t (its definition
// in ir.Service.Defs). It only reads the converter's state, so several
// goroutines may call it at once after AllocateNames.
func (c *Converter) TypeSchema(t *ir.Type) json.RawMessage {
	return Marshal(c.jsonSchema(c.src[t], true))
}

// JSONSchema returns the draft 2020-12 JSON Schema of s as a map (for
// Marshal): see jsonSchema.
func (c *Converter) JSONSchema(s *Schema) map[string]any { return c.jsonSchema(s, false) }

// jsonSchema returns the draft 2020-12 JSON Schema of ref: references to
// named types become {"$ref": "#/$defs/<Name>"}, 3.0 nullable becomes a
// type array (or anyOf with null), and OpenAPI-only or documentation
// keywords are dropped (but readOnly and writeOnly on properties). top is set when ref is the definition of a named
// type itself, which must be expanded rather than referred to.
func (c *Converter) jsonSchema(ref *Schema, top bool) map[string]any {
	s := ref.resolve()
	if s == nil {
		return map[string]any{}
	}
	if !top {
		// A named type is referred to where its schema is used, or where a
		// $ref leads to it (the target may have been loaded twice).
		if e, ok := c.cache[s]; ok && e.Type.Name != "" && (c.src[e.Type] == s || ref.Ref != "" && c.src[e.Type] != nil) {
			return map[string]any{"$ref": "#/$defs/" + e.Type.Name}
		}
	}
	if s.Always != nil {
		if *s.Always {
			return map[string]any{}
		}
		return map[string]any{"not": map[string]any{}}
	}
	m := map[string]any{}
	// An allOf part that is only annotations and nullable (PandaScore's
	// allOf: [{nullable: true}, {$ref: SerieDescription}]) makes the whole
	// nullable, as the Go types read it (see allOf) and as the servers
	// that write such documents send null.
	nullable := s.Nullable || slices.ContainsFunc(s.AllOf, func(p *Schema) bool { return p != nil && p.Nullable && annotationOnly(p) })
	if len(s.Types) > 0 {
		types := s.Types
		if nullable && !slices.Contains(types, "null") {
			types = append(slices.Clip(types), "null")
		}
		if len(types) == 1 {
			m["type"] = types[0]
		} else {
			m["type"] = types
		}
		nullable = false
	}
	if s.Format != "" {
		m["format"] = s.Format
	}
	if len(s.Enum) > 0 {
		enum := s.Enum
		if nullable || (s.Nullable && !slices.Contains(enum, nil)) {
			enum = append(append([]any(nil), enum...), nil)
		}
		m["enum"] = enum
	}
	if s.Const != nil {
		m["const"] = s.Const
	}
	if s.Default != nil {
		m["default"] = s.Default
	}
	for _, k := range s.Keywords {
		m[k.Name] = k.Value
	}
	if len(s.Properties) > 0 {
		props := make(map[string]any, len(s.Properties))
		for name, p := range s.Properties {
			ps := c.jsonSchema(p, false)
			// readOnly and writeOnly stay: they tell a caller of the
			// registry (an agent reading the input schema) which members
			// not to send, as the Go fields' comments do.
			a := annotated(p)
			if a.ReadOnly {
				ps["readOnly"] = true
			}
			if a.WriteOnly {
				ps["writeOnly"] = true
			}
			props[name] = ps
		}
		m["properties"] = props
	}
	if req := requiredProps(s); len(req) > 0 {
		m["required"] = req
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Always != nil {
		m["additionalProperties"] = *ap.Always
	} else if ap != nil {
		m["additionalProperties"] = c.jsonSchema(ap, false)
	}
	if len(s.PrefixItems) > 0 {
		m["prefixItems"] = c.jsonSchemas(s.PrefixItems)
	}
	if s.Items != nil {
		if v := s.Items.resolve(); v != nil && v.Always != nil {
			m["items"] = *v.Always
		} else {
			m["items"] = c.jsonSchema(s.Items, false)
		}
	}
	if len(s.AllOf) > 0 {
		m["allOf"] = c.jsonSchemas(s.AllOf)
	}
	if s.Not != nil && c.expandable(s.Not, nil) {
		// Only a "not" that can be written in full: its schema is not
		// converted to a type, so its $refs are written inline unless
		// they lead to a named type (one in $defs).
		m["not"] = c.jsonSchema(s.Not, false)
	}
	if len(s.AnyOf) > 0 {
		m["anyOf"] = c.variantSchemas(s.AnyOf, s.Discriminator)
	}
	if len(s.OneOf) > 0 {
		m["oneOf"] = c.variantSchemas(s.OneOf, s.Discriminator)
	}
	if nullable && len(s.Enum) == 0 {
		// A 3.0 nullable schema without a type (allOf, oneOf, $ref wrapper).
		return map[string]any{"anyOf": []any{m, map[string]any{"type": "null"}}}
	}
	return m
}

// variantSchemas returns the JSON Schemas of the oneOf/anyOf variants refs.
// With a discriminator that gives every variant its values, each variant
// also requires the discriminator property to hold one of its values: the
// document says that the discriminator selects the variant, and without it
// variants that share a base (allOf) would all match, so that validation
// would report a valid value as matching several oneOf schemas, and
// normalization could take the wrong variant.
func (c *Converter) variantSchemas(refs []*Schema, disc *Discriminator) []any {
	out := c.jsonSchemas(refs)
	if disc == nil || disc.PropertyName == "" {
		return out
	}
	tags := make([][]string, len(refs))
	for i, r := range refs {
		if isNullSchema(r) {
			continue
		}
		if tags[i] = discriminatorTags(disc, r); len(tags[i]) == 0 {
			return out // a variant selected by shape only: keep the plain variants
		}
	}
	for i, t := range tags {
		if t == nil {
			continue
		}
		out[i] = map[string]any{"allOf": []any{out[i], map[string]any{
			"properties": map[string]any{disc.PropertyName: map[string]any{"enum": t}},
			"required":   []string{disc.PropertyName},
		}}}
	}
	return out
}

func (c *Converter) jsonSchemas(refs []*Schema) []any {
	out := make([]any, len(refs))
	for i, r := range refs {
		out[i] = c.jsonSchema(r, false)
	}
	return out
}

// Marshal encodes a schema map as json.Marshal does (map keys sorted, so
// the output is deterministic). The maps jsonSchema builds are encoded
// directly, several times faster than encoding/json's reflection; anything
// else goes through json.Marshal.
func Marshal(m map[string]any) json.RawMessage {
	if m == nil {
		return nil
	}
	if b, ok := appendJSON(nil, m); ok {
		return b
	}
	b, err := json.Marshal(m)
	if err != nil {
		// Only values decoded from JSON/YAML reach here; they always encode.
		// A default or const holding something else is dropped to "any".
		return json.RawMessage(`{}`)
	}
	return b
}

// appendJSON appends v encoded as json.Marshal encodes it, for the types
// jsonSchema's maps hold; ok is false for any other value.
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
			if b, ok = appendJSON(b, x); !ok {
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
			if b, ok = appendJSON(b, v[k]); !ok {
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

// requiredProps returns the required properties of s, without those of
// its properties that are read-only or write-only: as in the Go types, they
// are not required, being absent from requests or from responses.
func requiredProps(s *Schema) []string {
	skip := func(name string) bool {
		p := s.Properties[name]
		if p == nil {
			return false
		}
		a := annotated(p)
		return a.ReadOnly || a.WriteOnly
	}
	if !slices.ContainsFunc(s.Required, skip) {
		return s.Required
	}
	return slices.DeleteFunc(slices.Clone(s.Required), skip)
}

// expandable reports whether jsonSchema writes ref in full: every $ref in
// it resolves, to a named type (written as a $ref to $defs) or to a schema
// written inline, with no cycle through the latter (nor more than 32
// levels). An unresolved $ref would be written as {}, which a "not" turns
// into "no value".
func (c *Converter) expandable(ref *Schema, stack []*Schema) bool {
	if ref == nil {
		return true
	}
	s := ref.resolve()
	if s == nil {
		return false
	}
	if e, ok := c.cache[s]; ok && e.Type.Name != "" && (c.src[e.Type] == s || ref.Ref != "" && c.src[e.Type] != nil) {
		return true
	}
	if len(stack) > 32 || slices.Contains(stack, s) {
		return false
	}
	stack = append(stack, s)
	subs := append([]*Schema{s.AdditionalProperties, s.Items, s.Not}, s.PrefixItems...)
	subs = append(subs, s.AllOf...)
	subs = append(subs, s.AnyOf...)
	subs = append(subs, s.OneOf...)
	for _, p := range s.Properties {
		subs = append(subs, p)
	}
	for _, p := range subs {
		if p != nil && !c.expandable(p, stack) {
			return false
		}
	}
	return true
}
