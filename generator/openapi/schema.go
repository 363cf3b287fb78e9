package openapi

import (
	"path"
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
		Source:      l.name,
		Names:       l.opts.Names,
		Types:       l.opts.Types,
		KeepUnknown: l.opts.KeepUnknown,
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
	return l.conv.Use(l.adapt(ref, nil), w.js()).Type
}

// jsonSchema returns the JSON Schema of ref (see jsonschema.Converter.JSONSchema).
func (l *loader) jsonSchema(ref *openapi3.SchemaRef) *ir.Schema {
	return l.conv.JSONSchema(l.adapt(ref, nil))
}

// inputJSONSchema returns the JSON Schema of ref in a request (see
// jsonschema.Converter.InputJSONSchema).
func (l *loader) inputJSONSchema(ref *openapi3.SchemaRef) *ir.Schema {
	return l.conv.InputJSONSchema(l.adapt(ref, nil))
}

// adapt returns the schema of ref, found in the schema in (nil: outside
// any schema), in generator/jsonschema's model: a reference node for a
// $ref, else the adapted value. Each kin-openapi schema is adapted once (by
// pointer), so references and recursion keep their identity.
func (l *loader) adapt(ref *openapi3.SchemaRef, in *openapi3.Schema) *jsonschema.Schema {
	if ref != nil && ref.Value == nil && ref.Ref != "" {
		if v := l.unresolved(ref.Ref, in); v != nil {
			return &jsonschema.Schema{Ref: ref.Ref, Target: l.adaptValue(v)}
		}
	}
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
	s.XML = xmlObject(v.XML)
	awsList := v.XML == nil && l.wrappedLists && v.Type != nil && v.Type.Is(openapi3.TypeArray)
	if awsList {
		s.XML = map[string]any{"wrapped": true} // see awsWrappedLists
	}
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
			s.Properties[name] = l.adapt(p, v)
		}
	}
	if ap := v.AdditionalProperties; ap.Schema != nil {
		s.AdditionalProperties = l.adapt(ap.Schema, v)
	} else if ap.Has != nil {
		s.AdditionalProperties = &jsonschema.Schema{Always: ap.Has}
	}
	s.Items = l.adapt(v.Items, v)
	if awsList && s.Items != nil && !xmlNamed(v.Items, 0) {
		s.Items = awsMember(s.Items)
	}
	s.PrefixItems = l.adaptAll(v.PrefixItems, v)
	s.AllOf, s.AnyOf, s.OneOf = l.adaptAll(v.AllOf, v), l.adaptAll(v.AnyOf, v), l.adaptAll(v.OneOf, v)
	s.NotIf = v.Not != nil || v.If != nil
	s.Not = l.adapt(v.Not, v)
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

// xmlObject returns the members of an xml object that are set, or nil.
func xmlObject(x *openapi3.XML) map[string]any {
	if x == nil {
		return nil
	}
	m := map[string]any{}
	for k, v := range map[string]string{"name": x.Name, "namespace": x.Namespace, "prefix": x.Prefix} {
		if v != "" {
			m[k] = v
		}
	}
	if x.Attribute {
		m["attribute"] = true
	}
	if x.Wrapped {
		m["wrapped"] = true
	}
	if nt, ok := x.Extensions["nodeType"].(string); ok { // OpenAPI 3.2
		m["nodeType"] = nt
	}
	if len(m) == 0 {
		return nil
	}
	return m
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

func (l *loader) adaptAll(refs openapi3.SchemaRefs, in *openapi3.Schema) []*jsonschema.Schema {
	if refs == nil {
		return nil
	}
	out := make([]*jsonschema.Schema, len(refs))
	for i, r := range refs {
		out[i] = l.adapt(r, in)
	}
	return out
}

// unresolved returns the schema that ref, a $ref kin-openapi left without
// a value in the schema in, stands for, or nil with a warning.
//
// kin-openapi leaves such a $ref when a file the document refers to refers
// back into the document, closing a cycle (components.schemas.Cat is
// {$ref: Cat.yml}, whose property is {$ref: openapi.yml#/components/schemas/Cat}):
// the $ref reached again while its target is still being resolved is filled
// in on a copy. A $ref to a schema of the document's components is
// followed here, relative to the file it was written in.
func (l *loader) unresolved(ref string, in *openapi3.Schema) *openapi3.Schema {
	file, frag, _ := strings.Cut(ref, "#")
	from := l.name
	pos := diag.Pos{File: l.name}
	if in != nil && in.Origin != nil && in.Origin.Key != nil {
		if f := in.Origin.Key.File; f != "" {
			from = f
		}
		pos = diag.Pos{File: from, Line: in.Origin.Key.Line, Col: in.Origin.Key.Column}
	}
	switch {
	case strings.Contains(file, "://") || strings.Contains(from, "://"):
	case file != "":
		file = path.Join(path.Dir(from), file)
	default:
		file = from
	}
	tokens := jsonptr.Tokens(frag)
	if file == path.Clean(l.name) && len(tokens) == 3 && tokens[0] == "components" && tokens[1] == "schemas" && l.doc.Components != nil {
		if r := l.doc.Components.Schemas[tokens[2]]; r != nil && r.Value != nil {
			return r.Value
		}
	}
	l.diags.Warn(diag.UntypedRef, pos, "$ref %q was not resolved (it closes a cycle through another file); what it stands for is untyped (raw JSON)", ref)
	return nil
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
