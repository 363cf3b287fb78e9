package jsonschema

// Schema is one JSON Schema node, in the dialects the generator reads:
// draft 2020-12 and 2019-09, draft-07 (the source has already turned its
// tuple items and definitions into the 2020-12 shape), and OpenAPI 3.0's
// (nullable, boolean exclusive bounds, discriminator). It holds what the
// conversion to IR types and the JSON Schema written for the runtime need;
// other keywords are not kept.
//
// A schema with Ref set is a reference: Target is the schema it resolves to
// (nil when it does not resolve); its annotations (title, description,
// default, deprecated, readOnly, writeOnly) apply to the property that uses
// it, and its other fields are ignored. Nodes are
// compared by pointer: a schema reached twice (two references to the same
// definition) must be the same *Schema, which is how the converter declares
// a definition once and handles recursive schemas.
type Schema struct {
	// Ref is the reference as written ("#/components/schemas/Pet",
	// "common.yaml#/Pet", "#/tools/0/inputSchema/$defs/Node"); the name of
	// the type it leads to is taken from its last token.
	Ref    string
	Target *Schema

	// Always is set for a boolean schema: true accepts any value, false none.
	Always *bool

	// Types lists "type": one or several of "string", "integer", "number",
	// "boolean", "array", "object", "null"; nil when absent.
	Types []string
	// Nullable is OpenAPI 3.0's nullable.
	Nullable bool
	Format   string

	Title, Description string
	Deprecated         bool
	ReadOnly           bool
	WriteOnly          bool
	// Default, Const and the Enum values are decoded JSON: nil, bool,
	// float64, string, []any, map[string]any. A nil Const means no const.
	Default any
	Const   any
	Enum    []any

	Properties map[string]*Schema
	Required   []string
	// AdditionalProperties is nil when absent; a boolean schema when it is
	// true or false.
	AdditionalProperties *Schema
	// Items is the schema of the array's items (after PrefixItems); false
	// closes a tuple.
	Items       *Schema
	PrefixItems []*Schema

	AllOf, AnyOf, OneOf []*Schema
	Discriminator       *Discriminator
	// NotIf is set when the schema has not or if (then, else): keywords
	// the conversion does not support, and says so.
	NotIf bool
	// Not is the schema's "not": Go types ignore it, the JSON Schema keeps
	// it (so that input validation refuses what it matches).
	Not *Schema

	// Keywords are the validation keywords that the runtime's JSON Schema
	// keeps as they are (pattern, minLength, maximum, exclusiveMinimum,
	// uniqueItems, ...), in their draft 2020-12 form; see AppendBound.
	Keywords []Keyword

	// XML is OpenAPI's xml object (name, namespace, prefix, attribute,
	// wrapped, nodeType) as decoded JSON, or nil: an annotation the
	// runtime's JSON Schema keeps, which guides the XML wire form
	// (runtime/xmljson).
	XML map[string]any

	// GoName is x-go-name: it pins the Go name of the type (and, on a
	// property's schema, of the field).
	GoName string
	// GoType is x-go-type: the Go type ("import/path.Name") that holds the
	// schema's values instead of the one its kind and format give.
	GoType string
	// Line and Col are the schema's position in its file, when the source
	// knows it (0 otherwise: the source fills positions in later).
	Line, Col int32
}

// Keyword is a validation keyword and its value: a string, bool, float64
// or uint64.
type Keyword struct {
	Name  string
	Value any
}

// Has reports whether s has the validation keyword name.
func (s *Schema) Has(name string) bool {
	for _, k := range s.Keywords {
		if k.Name == name {
			return true
		}
	}
	return false
}

// AppendBound appends a bound in its 2020-12 form: name (minimum or
// maximum) with bound, turned exclusive by the boolean modifier flag
// (OpenAPI 3.0, draft-04), or exclusiveName with value (draft 2019-09 and
// later).
func AppendBound(kw []Keyword, name, exclusiveName string, bound *float64, flag *bool, value *float64) []Keyword {
	switch {
	case value != nil:
		kw = append(kw, Keyword{exclusiveName, *value})
		if bound != nil {
			kw = append(kw, Keyword{name, *bound})
		}
	case flag != nil && *flag && bound != nil:
		kw = append(kw, Keyword{exclusiveName, *bound})
	case bound != nil:
		kw = append(kw, Keyword{name, *bound})
	}
	return kw
}

// Discriminator is OpenAPI's discriminator: the property whose value
// selects a oneOf/anyOf variant.
type Discriminator struct {
	PropertyName string
	// Mapping maps a property value to a reference (as written, or a bare
	// schema name).
	Mapping map[string]string
}

// resolve follows references to the schema they lead to (nil when one does
// not resolve). Chains of references are followed; a cycle of references
// only (which constrains nothing) resolves to nil.
func (s *Schema) resolve() *Schema {
	for i := 0; s != nil && s.Ref != ""; i++ {
		if i > 64 {
			return nil
		}
		s = s.Target
	}
	return s
}
