package jsonschema

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/ir"
)

// TypeSchemas returns the JSON Schema of the named type t (the Schema of
// its Def) and, when it differs, the schema of t in a request (its
// Def.Input; nil when it is the same): a member both required and
// write-only is required of a request, as a server checks it there, but
// not of a response, which leaves it out; a member both required and
// read-only is required of a response but not of a request (see
// requiredProps). It only reads the converter's state,
// so several goroutines may call it at once after AllocateNames.
func (c *Converter) TypeSchemas(t *ir.Type) (schema, input *ir.Schema) {
	w := &schemaWriter{Converter: c}
	schema = w.jsonSchema(c.src[t], true)
	if w.differs {
		input = (&schemaWriter{Converter: c, input: true}).jsonSchema(c.src[t], true)
	}
	return schema, input
}

// JSONSchema returns the draft 2020-12 JSON Schema of s: see jsonSchema.
func (c *Converter) JSONSchema(s *Schema) *ir.Schema {
	return (&schemaWriter{Converter: c}).jsonSchema(s, false)
}

// InputJSONSchema returns the JSON Schema of s in a request (a request
// body): as JSONSchema, but members both required and write-only stay
// required, and members both required and read-only are not. The named types it refers to are written by TypeSchemas,
// whose input schemas a request's bundle uses.
func (c *Converter) InputJSONSchema(s *Schema) *ir.Schema {
	return (&schemaWriter{Converter: c, input: true}).jsonSchema(s, false)
}

// schemaWriter writes the JSON Schema of a converted schema for one
// direction: input is set for a request, where required write-only
// members stay required and required read-only ones are not. One is made per call, so that goroutines
// writing schemas at once share only the converter's read-only state.
type schemaWriter struct {
	*Converter
	input bool
	// differs is set (only when !input) when a required member is
	// read-only or write-only, not both: the input schema differs.
	differs bool
}

// jsonSchema returns the draft 2020-12 JSON Schema of ref: references to
// named types become references to their Defs, 3.0 nullable becomes a
// type array (or anyOf with null), and OpenAPI-only or documentation
// keywords are dropped (but readOnly and writeOnly on properties). top is set when ref is the definition of a named
// type itself, which must be expanded rather than referred to.
func (c *schemaWriter) jsonSchema(ref *Schema, top bool) *ir.Schema {
	s := ref.resolve()
	if s == nil {
		return &ir.Schema{}
	}
	if !top {
		// A named type is referred to where its schema is used, or where a
		// $ref leads to it (the target may have been loaded twice).
		if e, ok := c.cache[s]; ok && e.Type.Def != nil && (c.src[e.Type] == s || ref.Ref != "" && c.src[e.Type] != nil) {
			return ir.RefTo(e.Type.Def)
		}
	}
	if s.Always != nil {
		if *s.Always {
			return &ir.Schema{}
		}
		return ir.NewSchema(ir.Member{Key: "not", Value: &ir.Schema{}})
	}
	m := make([]ir.Member, 0, 4+len(s.Keywords))
	set := func(k string, v any) { m = append(m, ir.Member{Key: k, Value: v}) }
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
			set("type", types[0])
		} else {
			set("type", types)
		}
		nullable = false
	}
	if s.Format != "" {
		set("format", s.Format)
	}
	if len(s.Enum) > 0 {
		enum := s.Enum
		if nullable || (s.Nullable && !slices.Contains(enum, nil)) {
			enum = append(append([]any(nil), enum...), nil)
		}
		set("enum", enum)
	}
	if s.Const != nil {
		set("const", s.Const)
	}
	// A default its own type rejects (VTEX's {type: integer, default: ""})
	// is left out: the runtime would fill a value that does not fit and
	// warn about a member the body never had.
	if s.Default != nil && defaultFits(s.Types, s.Default) {
		set("default", s.Default)
	}
	for _, k := range s.Keywords {
		set(k.Name, k.Value)
	}
	if s.XML != nil {
		set("xml", s.XML)
	}
	if len(s.Properties) > 0 {
		props := make(ir.Properties, 0, len(s.Properties))
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[name]
			ps := c.jsonSchema(p, false)
			// readOnly and writeOnly stay: they tell a caller of the
			// registry (an agent reading the input schema) which members
			// not to send, as the Go fields' comments do.
			a := annotated(p)
			if a.ReadOnly {
				ps = ps.With("readOnly", true)
			}
			if a.WriteOnly {
				ps = ps.With("writeOnly", true)
			}
			props = append(props, ir.Property{Key: name, Schema: ps})
		}
		set("properties", props)
	}
	if req := c.requiredProps(s); len(req) > 0 {
		set("required", req)
	}
	if ap := s.AdditionalProperties; ap != nil && ap.Always != nil {
		set("additionalProperties", *ap.Always)
	} else if ap != nil {
		set("additionalProperties", c.jsonSchema(ap, false))
	}
	if len(s.PrefixItems) > 0 {
		set("prefixItems", c.jsonSchemas(s.PrefixItems))
	}
	if s.Items != nil {
		if v := s.Items.resolve(); v != nil && v.Always != nil {
			set("items", *v.Always)
		} else {
			set("items", c.jsonSchema(s.Items, false))
		}
	}
	if len(s.AllOf) > 0 {
		set("allOf", c.jsonSchemas(s.AllOf))
	}
	if s.Not != nil && c.expandable(s.Not, nil) {
		// Only a "not" that can be written in full: its schema is not
		// converted to a type, so its $refs are written inline unless
		// they lead to a named type (one in $defs).
		set("not", c.jsonSchema(s.Not, false))
	}
	if len(s.AnyOf) > 0 {
		set("anyOf", c.variantSchemas(s.AnyOf, s.Discriminator))
	}
	if len(s.OneOf) > 0 {
		set("oneOf", c.variantSchemas(s.OneOf, s.Discriminator))
	}
	out := ir.NewSchema(m...)
	if nullable && len(s.Enum) == 0 {
		// A 3.0 nullable schema without a type (allOf, oneOf, $ref wrapper).
		return ir.NewSchema(ir.Member{Key: "anyOf", Value: []*ir.Schema{out, ir.NewSchema(ir.Member{Key: "type", Value: "null"})}})
	}
	return out
}

// variantSchemas returns the JSON Schemas of the oneOf/anyOf variants refs.
// With a discriminator that gives every variant its values, each variant
// also requires the discriminator property to hold one of its values: the
// document says that the discriminator selects the variant, and without it
// variants that share a base (allOf) would all match, so that validation
// would report a valid value as matching several oneOf schemas, and
// normalization could take the wrong variant.
func (c *schemaWriter) variantSchemas(refs []*Schema, disc *Discriminator) []*ir.Schema {
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
		out[i] = ir.NewSchema(ir.Member{Key: "allOf", Value: []*ir.Schema{out[i], ir.NewSchema(
			ir.Member{Key: "properties", Value: ir.Properties{{Key: disc.PropertyName, Schema: ir.NewSchema(ir.Member{Key: "enum", Value: t})}}},
			ir.Member{Key: "required", Value: []string{disc.PropertyName}},
		)}})
	}
	return out
}

func (c *schemaWriter) jsonSchemas(refs []*Schema) []*ir.Schema {
	out := make([]*ir.Schema, len(refs))
	for i, r := range refs {
		out[i] = c.jsonSchema(r, false)
	}
	return out
}

// requiredProps returns the required properties of s, without those of
// its properties that are absent in the schema's direction: read-only ones
// in a request (c.input), write-only ones in a response. A request must
// hold its required write-only members (a password, an attachment id),
// which servers check; a response must hold its required read-only ones
// (an id, a creation time), which a client relies on, so that a response
// without one is warned about. (The Go types require neither.)
func (c *schemaWriter) requiredProps(s *Schema) []string {
	skip := func(name string) bool {
		p := s.Properties[name]
		if p == nil {
			return false
		}
		a := annotated(p)
		if a.ReadOnly != a.WriteOnly && !c.input {
			c.differs = true // the request's "required" differs from this one
		}
		if c.input {
			return a.ReadOnly
		}
		return a.WriteOnly
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

// defaultFits reports whether a default value (decoded JSON) is of one of
// types, the schema's "type" list (any, when empty).
func defaultFits(types []string, v any) bool {
	if len(types) == 0 {
		return true
	}
	var kinds []string
	switch v := v.(type) {
	case bool:
		kinds = []string{"boolean"}
	case string:
		kinds = []string{"string"}
	case map[string]any:
		kinds = []string{"object"}
	case []any:
		kinds = []string{"array"}
	case json.Number:
		kinds = []string{"number"}
		if _, err := v.Int64(); err == nil || !strings.ContainsAny(v.String(), ".eE") {
			kinds = append(kinds, "integer")
		}
	case float64:
		kinds = []string{"number"}
		if v == math.Trunc(v) {
			kinds = append(kinds, "integer")
		}
	case int, int64:
		kinds = []string{"number", "integer"}
	default:
		return true // a kind this check does not know: keep it
	}
	for _, k := range kinds {
		if slices.Contains(types, k) {
			return true
		}
	}
	return false
}
