package openapi

import (
	"path/filepath"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/jsonschema"
)

// Schemas are converted by generator/jsonschema: this file adapts
// kin-openapi's schemas to its model, without copying more than the
// keywords it reads.

// where is the place a schema is converted at: its file and JSON pointer, and
// the Go name an inline type found there should get.
type where struct {
	file, ptr string
	name      string
}

func (w where) at(token, name string) where {
	return where{file: w.file, ptr: w.ptr + "/" + jsonptr.Escape(token), name: name}
}

func (w where) js() jsonschema.Where { return jsonschema.Where{File: w.file, Ptr: w.ptr, Name: w.name} }

// newConverter returns the schema converter of the loader.
func (l *loader) newConverter() *jsonschema.Converter {
	return jsonschema.New(&l.diags, jsonschema.Options{
		Source: l.name,
		Names:  l.opts.Names,
		Types:  l.opts.Types,
		// Another file is named relative to the source document's
		// directory, so that the generated code does not depend on the
		// directory opsgen was run from (URLs are kept as they are).
		Origin: func(file, ptr string) string {
			switch {
			case file == l.name:
				file = ""
			case !strings.Contains(file, "://"):
				file = relTo(l.name, file)
			}
			return file + "#" + ptr
		},
	})
}

// schema converts a schema reference found at w to a type.
func (l *loader) schema(ref *openapi3.SchemaRef, w where) *ir.Type {
	return l.conv.Use(l.adapt(ref), w.js()).Type
}

// jsonSchema returns the JSON Schema of ref (see jsonschema.Converter.JSONSchema).
func (l *loader) jsonSchema(ref *openapi3.SchemaRef) map[string]any {
	return l.conv.JSONSchema(l.adapt(ref))
}

// adapt returns the schema of ref in generator/jsonschema's model: a
// reference node for a $ref, else the adapted value. Each kin-openapi
// schema is adapted once (by pointer), so references and recursion keep
// their identity.
func (l *loader) adapt(ref *openapi3.SchemaRef) *jsonschema.Schema {
	if ref == nil || ref.Value == nil {
		return nil
	}
	if ref.Ref != "" {
		return &jsonschema.Schema{Ref: ref.Ref, Target: l.adaptValue(ref.Value)}
	}
	return l.adaptValue(ref.Value)
}

func (l *loader) adaptValue(v *openapi3.Schema) *jsonschema.Schema {
	if s, ok := l.schemas[v]; ok {
		return s
	}
	s := &jsonschema.Schema{
		Always: v.Always, Nullable: v.Nullable, Format: v.Format,
		Title: v.Title, Description: v.Description,
		Deprecated: v.Deprecated, ReadOnly: v.ReadOnly, WriteOnly: v.WriteOnly,
		Default: v.Default, Const: v.Const, Enum: v.Enum, Required: v.Required,
		Keywords: keywords(v), GoName: goNameExt(v.Extensions),
	}
	s.GoType, _ = v.Extensions["x-go-type"].(string)
	l.schemas[v] = s
	if v.Type != nil {
		s.Types = *v.Type
		if s.Types == nil {
			s.Types = []string{}
		}
	}
	if o := v.Origin; o != nil && o.Key != nil {
		s.Line, s.Col = int32(o.Key.Line), int32(o.Key.Column)
	}
	if len(v.Properties) > 0 {
		s.Properties = make(map[string]*jsonschema.Schema, len(v.Properties))
		for name, p := range v.Properties {
			s.Properties[name] = l.adapt(p)
		}
	}
	if ap := v.AdditionalProperties; ap.Schema != nil {
		s.AdditionalProperties = l.adapt(ap.Schema)
	} else if ap.Has != nil {
		s.AdditionalProperties = &jsonschema.Schema{Always: ap.Has}
	}
	s.Items = l.adapt(v.Items)
	s.PrefixItems = l.adaptAll(v.PrefixItems)
	s.AllOf, s.AnyOf, s.OneOf = l.adaptAll(v.AllOf), l.adaptAll(v.AnyOf), l.adaptAll(v.OneOf)
	s.NotIf = v.Not != nil || v.If != nil
	if d := v.Discriminator; d != nil {
		s.Discriminator = &jsonschema.Discriminator{PropertyName: d.PropertyName}
		if len(d.Mapping) > 0 {
			s.Discriminator.Mapping = make(map[string]string, len(d.Mapping))
			for k, m := range d.Mapping {
				s.Discriminator.Mapping[k] = m.Ref
			}
		}
	}
	return s
}

// keywords returns the validation keywords of v, in their 2020-12 form.
func keywords(v *openapi3.Schema) []jsonschema.Keyword {
	var kw []jsonschema.Keyword
	add := func(name string, value any) { kw = append(kw, jsonschema.Keyword{Name: name, Value: value}) }
	if v.Pattern != "" {
		add("pattern", v.Pattern)
	}
	for _, c := range [...]struct {
		minName, maxName string
		min              uint64
		max              *uint64
	}{
		{"minLength", "maxLength", v.MinLength, v.MaxLength},
		{"minItems", "maxItems", v.MinItems, v.MaxItems},
		{"minProperties", "maxProperties", v.MinProps, v.MaxProps},
	} {
		if c.min > 0 {
			add(c.minName, c.min)
		}
		if c.max != nil {
			add(c.maxName, *c.max)
		}
	}
	if v.UniqueItems {
		add("uniqueItems", true)
	}
	kw = jsonschema.AppendBound(kw, "minimum", "exclusiveMinimum", v.Min, v.ExclusiveMin.Bool, v.ExclusiveMin.Value)
	kw = jsonschema.AppendBound(kw, "maximum", "exclusiveMaximum", v.Max, v.ExclusiveMax.Bool, v.ExclusiveMax.Value)
	if v.MultipleOf != nil {
		add("multipleOf", *v.MultipleOf)
	}
	return kw
}

func (l *loader) adaptAll(refs openapi3.SchemaRefs) []*jsonschema.Schema {
	if refs == nil {
		return nil
	}
	out := make([]*jsonschema.Schema, len(refs))
	for i, r := range refs {
		out[i] = l.adapt(r)
	}
	return out
}

// relTo returns file relative to the directory of source (slash paths), or
// file when it cannot be.
func relTo(source, file string) string {
	rel, err := filepath.Rel(filepath.Dir(filepath.FromSlash(source)), filepath.FromSlash(file))
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// pos is the diagnostic position of w, with line and column from the
// origin kin-openapi recorded (YAML sources only; the rest is filled in
// lazily by the position finder).
func (l *loader) pos(w where, o *openapi3.Origin) diag.Pos {
	p := diag.Pos{File: w.file, Pointer: w.ptr}
	if o != nil && o.Key != nil {
		p.Line, p.Col = o.Key.Line, o.Key.Column
	}
	return p
}

// requestName asks for the package-level name of the params struct or an
// error type found at w (see jsonschema.Converter.RequestName).
func (l *loader) requestName(w where, want string, set func(string)) {
	l.conv.RequestName(jsonschema.GroupOperation, w.file+"#"+w.ptr, diag.Pos{File: w.file, Pointer: w.ptr}, want, set)
}
