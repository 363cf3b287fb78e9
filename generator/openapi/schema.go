package openapi

import (
	"fmt"
	"math"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// where is the place a schema is converted at: its file and JSON pointer, and
// the Go name an inline type found there should get.
type where struct {
	file, ptr string
	name      string
}

func (w where) at(token, name string) where {
	return where{file: w.file, ptr: w.ptr + "/" + escapeToken(token), name: name}
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// entry is a converted schema: its type and whether null is allowed too.
// Nullability is kept apart from the type so that a named type can be
// nullable at one use and not at another.
type entry struct {
	t        *ir.Type
	nullable bool
}

// schema converts a schema reference found at w to a type.
func (l *loader) schema(ref *openapi3.SchemaRef, w where) entry {
	if ref == nil || ref.Value == nil {
		return entry{t: &ir.Type{Kind: ir.Any}}
	}
	s := ref.Value
	if e, ok := l.cache[s]; ok {
		return e
	}
	if ref.Ref != "" {
		file, ptr := l.resolveRefPlace(w.file, ref.Ref)
		// kin-openapi may load a file once per spelling of its path; the
		// place, not the pointer, identifies the schema then.
		place := file + "#" + ptr
		if e, ok := l.places[place]; ok {
			l.cache[s] = e
			return e
		}
		e := l.named(s, where{file: file, ptr: ptr}, refName(ref.Ref), groupComponent)
		l.places[place] = e
		return e
	}
	if needsName(s) {
		want := w.name
		if n := goNameExt(s.Extensions); n != "" {
			want = n
		}
		return l.named(s, w, want, groupInline)
	}
	e := l.build(s, nil, w)
	if _, ok := l.cache[s]; !ok {
		l.cache[s] = e
	}
	return e
}

// originFile names another file in a doc origin: relative to the source
// document's directory, so that the generated code does not depend on the
// directory opsgen was run from (URLs are kept as they are).
func (l *loader) originFile(file string) string {
	if strings.Contains(file, "://") {
		return file
	}
	rel, err := filepath.Rel(filepath.Dir(filepath.FromSlash(l.source)), filepath.FromSlash(file))
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// named converts s as a named type wanted under the name want.
func (l *loader) named(s *openapi3.Schema, w where, want string, group int) entry {
	if e, ok := l.cache[s]; ok {
		return e
	}
	if over, ok := l.opts.Names["#"+w.ptr]; ok && w.file == l.source {
		want, group = over, groupOverride
	} else if n := goNameExt(s.Extensions); n != "" {
		want, group = n, groupOverride
	}
	t := &ir.Type{}
	l.cache[s] = entry{t: t}
	w.name = naming.Sanitize(want, "Type")
	e := l.build(s, t, w)
	if e.t != t {
		// The schema is another type under a new name (an alias such as
		// allOf: [$ref] or oneOf: [$ref, null]): declare a copy of it, so that
		// uses of this schema (maybe already made, if it is recursive) keep a
		// type of their own.
		*t = *e.t
		t.Name = ""
		// Enum constants and variants are named per type: copy them.
		t.Values = nil
		for _, v := range e.t.Values {
			c := *v
			t.Values = append(t.Values, &c)
		}
		t.Variants = nil
		for _, v := range e.t.Variants {
			c := *v
			t.Variants = append(t.Variants, &c)
		}
		if e.nullable {
			t.Nullable = true
		}
		if s.Title != "" || s.Description != "" {
			t.Doc = ir.Doc{Summary: s.Title, Description: s.Description, Deprecated: s.Deprecated}
		}
	}
	t.Pos = l.pos(w, s.Origin)
	t.Doc.Origin = "#" + w.ptr
	if w.file != l.source {
		t.Doc.Origin = l.originFile(w.file) + t.Doc.Origin
	}
	l.src[t] = s
	l.requestTypeName(t, group, w.file+"#"+w.ptr, w.name)
	return l.cache[s]
}

// needsName reports whether an inline schema becomes a named type: objects
// with properties, enums, unions and merged allOfs need a declaration.
func needsName(s *openapi3.Schema) bool {
	switch {
	case len(s.Properties) > 0, len(nonNullValues(s.Enum)) > 0, len(s.AllOf) > 1:
		return true
	case len(nonNullRefs(s.OneOf)) > 1, len(nonNullRefs(s.AnyOf)) > 1:
		return true
	case s.Type != nil:
		n := 0
		for _, ty := range *s.Type {
			if ty != openapi3.TypeNull {
				n++
			}
		}
		return n > 1
	}
	return false
}

// refName is the name a $ref suggests: the last token of its fragment, or
// the file's base name.
func refName(ref string) string {
	file, frag, _ := strings.Cut(ref, "#")
	if frag != "" {
		i := strings.LastIndex(frag, "/")
		return unescapeToken(frag[i+1:])
	}
	base := path.Base(file)
	return strings.TrimSuffix(base, path.Ext(base))
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// build converts s into t (or a new anonymous type when t is nil). It may
// return another type instead (for aliases); the caller deals with that.
func (l *loader) build(s *openapi3.Schema, t *ir.Type, w where) entry {
	if t == nil {
		t = &ir.Type{}
	}
	t.Doc = ir.Doc{Summary: s.Title, Description: s.Description, Deprecated: s.Deprecated}
	t.Default = s.Default
	t.Format = s.Format
	nullable := s.Nullable
	var types []string
	if s.Type != nil {
		for _, ty := range *s.Type {
			if ty == openapi3.TypeNull {
				nullable = true
			} else {
				types = append(types, ty)
			}
		}
		if len(types) == 0 && len(*s.Type) > 0 {
			t.Kind = ir.Null
			return entry{t: t, nullable: true}
		}
	}

	switch {
	case len(s.AllOf) > 0:
		return l.allOf(s, t, w, nullable)
	case len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		return l.union(s, t, w, nullable)
	case len(s.Enum) > 0:
		return l.enum(s, t, w, nullable, types)
	}
	if s.Const != nil {
		t.Const, t.HasConst = s.Const, true
		if len(types) == 0 {
			types = []string{jsonKindOf(s.Const)}
		}
	}
	if len(types) == 0 {
		types = inferTypes(s)
	}
	switch len(types) {
	case 0:
		if s.Not != nil || s.If != nil {
			l.warnf(w, s.Origin, "schema with only not/if/then/else is not supported; using raw JSON")
		}
		t.Kind = ir.Any
	case 1:
		l.single(s, types[0], t, w)
	default:
		// Several non-null types: a union selected by JSON kind.
		t.Kind = ir.Union
		for _, ty := range types {
			vt := &ir.Type{}
			vw := w.at("type", w.name+suffix(ty, ""))
			l.single(s, ty, vt, vw)
			if vt.Kind == ir.Struct {
				// The object variant carries the schema's properties: declare it.
				vt.Pos = l.pos(w, s.Origin)
				l.src[vt] = s
				l.requestTypeName(vt, groupInline, vw.file+"#"+vw.ptr+"/"+ty, vw.name)
			}
			t.Variants = append(t.Variants, &ir.Variant{Type: vt, JSONKind: ty})
		}
	}
	t.Nullable = t.Nullable || nullable
	return entry{t: t, nullable: nullable}
}

// inferTypes guesses the type of a schema without "type" from its keywords.
func inferTypes(s *openapi3.Schema) []string {
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties.Schema != nil || s.AdditionalProperties.Has != nil:
		return []string{openapi3.TypeObject}
	case s.Items != nil || len(s.PrefixItems) > 0:
		return []string{openapi3.TypeArray}
	case s.Format == "date-time" || s.Format == "date" || s.Pattern != "" || s.MaxLength != nil:
		return []string{openapi3.TypeString}
	}
	return nil
}

// single fills t for one JSON type ty of s.
func (l *loader) single(s *openapi3.Schema, ty string, t *ir.Type, w where) {
	switch ty {
	case openapi3.TypeString:
		switch s.Format {
		case "date-time":
			t.Kind = ir.DateTime
		case "date":
			t.Kind = ir.Date
		case "byte":
			t.Kind = ir.Bytes
		case "binary":
			t.Kind = ir.Binary
		default:
			t.Kind = ir.String
		}
	case openapi3.TypeInteger:
		t.Kind = ir.Int
	case openapi3.TypeNumber:
		t.Kind = ir.Float
	case openapi3.TypeBoolean:
		t.Kind = ir.Bool
	case "file": // Swagger 2.0 leftover
		t.Kind = ir.Binary
	case openapi3.TypeArray:
		if len(s.PrefixItems) > 0 {
			t.Kind = ir.Tuple
			for i, it := range s.PrefixItems {
				t.Items = append(t.Items, l.schema(it, w.at("prefixItems", fmt.Sprintf("%sItem%d", w.name, i)).at(fmt.Sprint(i), fmt.Sprintf("%sItem%d", w.name, i))).t)
			}
			if s.Items != nil && !(s.Items.Value != nil && s.Items.Value.Always != nil && !*s.Items.Value.Always) {
				t.Elem = l.schema(s.Items, w.at("items", w.name+"Item")).t
			}
			return
		}
		t.Kind = ir.Array
		t.Elem = l.schema(s.Items, w.at("items", w.name+"Item")).t
	case openapi3.TypeObject:
		l.object(s, t, w)
	default:
		l.warnf(w, s.Origin, "unknown type %q; using raw JSON", ty)
		t.Kind = ir.Any
	}
}

// object fills t from an object schema: a Struct when it has properties,
// else a Map.
func (l *loader) object(s *openapi3.Schema, t *ir.Type, w where) {
	var ap *ir.Type
	if s.AdditionalProperties.Schema != nil {
		ap = l.schema(s.AdditionalProperties.Schema, w.at("additionalProperties", w.name+"Value")).t
	}
	if len(s.Properties) == 0 {
		t.Kind = ir.Map
		if ap == nil {
			ap = &ir.Type{Kind: ir.Any}
		}
		t.Elem = ap
		return
	}
	t.Kind = ir.Struct
	t.AdditionalProperties = ap
	l.addFields(t, s.Properties, s.Required, w)
}

// addFields appends the properties of a schema to a struct, sorted by JSON
// name; properties already present are replaced (allOf: later parts win).
func (l *loader) addFields(t *ir.Type, props openapi3.Schemas, required []string, w where) {
	for _, name := range sortedKeys(props) {
		p := props[name]
		pw := w.at("properties", "").at(name, w.name+suffix(name, "Field"))
		e := l.schema(p, pw)
		f := &ir.Field{JSONName: name, Type: e.t, Nullable: e.nullable, Required: slices.Contains(required, name), Pos: l.pos(pw, nil)}
		if v := p.Value; v != nil {
			f.Doc = ir.Doc{Summary: v.Title, Description: v.Description, Deprecated: v.Deprecated}
			f.ReadOnly, f.WriteOnly, f.Deprecated, f.Default = v.ReadOnly, v.WriteOnly, v.Deprecated, v.Default
			f.Pos = l.pos(pw, v.Origin)
			if p.Ref == "" {
				f.Name = goNameExt(v.Extensions)
			}
		}
		if i := slices.IndexFunc(t.Fields, func(g *ir.Field) bool { return g.JSONName == name }); i >= 0 {
			f.Required = f.Required || t.Fields[i].Required
			t.Fields[i] = f
		} else {
			t.Fields = append(t.Fields, f)
		}
	}
	for _, f := range t.Fields {
		if !f.Required && slices.Contains(required, f.JSONName) {
			f.Required = true
		}
	}
	sort.Slice(t.Fields, func(i, j int) bool { return t.Fields[i].JSONName < t.Fields[j].JSONName })
	l.nameFields(t)
}

// nameFields gives the fields of t unique Go names (x-go-name first).
func (l *loader) nameFields(t *ir.Type) {
	ns := naming.NewNamespace()
	if t.AdditionalProperties != nil {
		ns.Reserve("AdditionalProperties")
	}
	wanted := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		if f.Name != "" {
			// Two properties may pin the same x-go-name (x-axis and xAxis
			// in real specs): the first in JSON name order keeps it.
			want := naming.Sanitize(f.Name, "Field")
			f.Name = ns.Alloc(want)
			if f.Name != want {
				l.diags.Warnf(f.Pos, "x-go-name %q of property %q is taken; using %q", want, f.JSONName, f.Name)
			}
		}
		wanted[i] = f.Name
	}
	for i, f := range t.Fields {
		if wanted[i] == "" {
			f.Name = ns.Alloc(naming.Ident(f.JSONName, "Field"))
		}
	}
}

// allOf merges the parts of an allOf into one struct.
func (l *loader) allOf(s *openapi3.Schema, t *ir.Type, w where, nullable bool) entry {
	if len(s.AllOf) == 1 && len(s.Properties) == 0 && s.AllOf[0] != nil {
		// allOf: [X] is X with extra annotations (often a description).
		e := l.schema(s.AllOf[0], w.at("allOf", w.name).at("0", w.name))
		e.nullable = e.nullable || nullable
		return e
	}
	t.Kind = ir.Struct
	seen := map[*openapi3.Schema]bool{}
	var merge func(x *openapi3.Schema, xw where) bool
	merge = func(x *openapi3.Schema, xw where) bool {
		if seen[x] {
			l.warnf(xw, x.Origin, "allOf refers to itself; the cycle is ignored")
			return true
		}
		seen[x] = true
		for i, p := range x.AllOf {
			pw := xw.at("allOf", w.name).at(fmt.Sprint(i), w.name)
			if p == nil || p.Value == nil {
				continue
			}
			if p.Ref != "" {
				pw.file, pw.ptr = l.resolveRefPlace(xw.file, p.Ref)
				// Convert the part as a type of its own too, so that it is declared.
				l.schema(p, pw)
			}
			if !isObjectSchema(p.Value) {
				l.warnf(pw, p.Value.Origin, "allOf part is not an object schema; using raw JSON")
				return false
			}
			if !merge(p.Value, pw) {
				return false
			}
		}
		if ap := x.AdditionalProperties.Schema; ap != nil && t.AdditionalProperties == nil {
			t.AdditionalProperties = l.schema(ap, xw.at("additionalProperties", w.name+"Value")).t
		}
		l.addFields(t, x.Properties, x.Required, w)
		return true
	}
	if !merge(s, w) {
		*t = ir.Type{Kind: ir.Any, Doc: t.Doc}
	}
	t.Nullable = nullable
	return entry{t: t, nullable: nullable}
}

func isObjectSchema(s *openapi3.Schema) bool {
	if s.Type != nil {
		for _, ty := range *s.Type {
			if ty != openapi3.TypeObject && ty != openapi3.TypeNull {
				return false
			}
		}
		return true
	}
	return len(s.OneOf) == 0 && len(s.AnyOf) == 0 && len(s.Enum) == 0 && s.Items == nil
}

// union converts oneOf/anyOf.
func (l *loader) union(s *openapi3.Schema, t *ir.Type, w where, nullable bool) entry {
	parts, kw := s.OneOf, "oneOf"
	if len(parts) == 0 {
		parts, kw = s.AnyOf, "anyOf"
	}
	if len(s.OneOf) > 0 && len(s.AnyOf) > 0 {
		l.warnf(w, s.Origin, "both oneOf and anyOf; using oneOf only")
	}
	type part struct {
		ref *openapi3.SchemaRef
		idx int
	}
	var keep []part
	for i, p := range parts {
		if isNullSchema(p) {
			nullable = true
			continue
		}
		keep = append(keep, part{p, i})
	}
	if len(keep) == 0 {
		t.Kind = ir.Null
		return entry{t: t, nullable: true}
	}
	if len(keep) == 1 && len(s.Properties) == 0 {
		p := keep[0]
		e := l.schema(p.ref, w.at(kw, w.name).at(fmt.Sprint(p.idx), w.name))
		e.nullable = e.nullable || nullable
		return e
	}
	if len(s.Properties) > 0 {
		l.warnf(w, s.Origin, "properties next to %s are not supported; using the %s variants only", kw, kw)
	}
	t.Kind = ir.Union
	t.AnyOf = kw == "anyOf"
	disc := s.Discriminator
	if disc != nil {
		t.Discriminator = disc.PropertyName
	}
	for _, p := range keep {
		vname := w.name + "Variant" + fmt.Sprint(p.idx)
		if p.ref.Ref == "" && p.ref.Value != nil {
			if k := schemaKind(p.ref.Value); k != "" {
				vname = w.name + suffix(k, "")
			}
		}
		e := l.schema(p.ref, w.at(kw, vname).at(fmt.Sprint(p.idx), vname))
		v := &ir.Variant{Type: e.t, JSONKind: kindJSON(e.t)}
		if v.JSONKind == "object" {
			v.Required = requiredOf(e.t, p.ref.Value)
		}
		v.Tags = discriminatorTags(disc, p.ref)
		t.Variants = append(t.Variants, v)
	}
	if disc != nil {
		for _, v := range t.Variants {
			if len(v.Tags) == 0 {
				l.warnf(w, s.Origin, "discriminator %q: a variant has no mapping value; it is selected by shape only", disc.PropertyName)
				break
			}
		}
	}
	t.Nullable = nullable
	return entry{t: t, nullable: nullable}
}

// discriminatorTags returns the values of the discriminator disc that
// select the variant p (nil when disc is nil or p is not a $ref).
func discriminatorTags(disc *openapi3.Discriminator, p *openapi3.SchemaRef) []string {
	if disc == nil || p.Ref == "" {
		return nil
	}
	var tags []string
	for _, tag := range sortedKeys(disc.Mapping) {
		if sameRef(disc.Mapping[tag].Ref, p.Ref) {
			tags = append(tags, tag)
		}
	}
	// Without a mapping entry the schema's name selects it (implicit mapping).
	if _, taken := disc.Mapping[refName(p.Ref)]; len(tags) == 0 && !taken {
		tags = []string{refName(p.Ref)}
	}
	return tags
}

func sameRef(a, b string) bool {
	if a == b {
		return true
	}
	// A mapping value may be a bare schema name.
	return !strings.Contains(a, "/") && refName(b) == a
}

func isNullSchema(p *openapi3.SchemaRef) bool {
	if p == nil || p.Value == nil || p.Value.Type == nil {
		return false
	}
	ty := *p.Value.Type
	return len(ty) == 1 && ty[0] == openapi3.TypeNull
}

func nonNullRefs(rs openapi3.SchemaRefs) []*openapi3.SchemaRef {
	var out []*openapi3.SchemaRef
	for _, r := range rs {
		if !isNullSchema(r) {
			out = append(out, r)
		}
	}
	return out
}

func nonNullValues(vs []any) []any {
	var out []any
	for _, v := range vs {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

// schemaKind is the single non-null JSON type of s, or "".
func schemaKind(s *openapi3.Schema) string {
	if s.Type == nil {
		if ts := inferTypes(s); len(ts) == 1 {
			return ts[0]
		}
		return ""
	}
	var k string
	for _, ty := range *s.Type {
		if ty == openapi3.TypeNull {
			continue
		}
		if k != "" {
			return ""
		}
		k = ty
	}
	return k
}

// kindJSON is the JSON kind a value of t has, or "" when it can be several.
func kindJSON(t *ir.Type) string {
	switch t.Kind {
	case ir.Bool:
		return "boolean"
	case ir.Int:
		return "integer"
	case ir.Float:
		return "number"
	case ir.String, ir.DateTime, ir.Date, ir.Bytes, ir.Binary:
		return "string"
	case ir.Array, ir.Tuple:
		return "array"
	case ir.Map, ir.Struct:
		return "object"
	case ir.Null:
		return "null"
	case ir.Enum:
		switch t.Base {
		case ir.String:
			return "string"
		case ir.Int:
			return "integer"
		}
		return "number"
	}
	return ""
}

func jsonKindOf(v any) string {
	switch x := v.(type) {
	case string:
		return openapi3.TypeString
	case bool:
		return openapi3.TypeBoolean
	case float64:
		if x == math.Trunc(x) {
			return openapi3.TypeInteger
		}
		return openapi3.TypeNumber
	case int, int64, uint64:
		return openapi3.TypeInteger
	case []any:
		return openapi3.TypeArray
	case map[string]any:
		return openapi3.TypeObject
	}
	return ""
}

// enum converts an enum schema.
func (l *loader) enum(s *openapi3.Schema, t *ir.Type, w where, nullable bool, types []string) entry {
	var values []any
	kinds := map[string]bool{}
	for _, v := range s.Enum {
		if v == nil {
			nullable = true
			continue
		}
		values = append(values, v)
		kinds[jsonKindOf(v)] = true
	}
	if len(kinds) == 2 && kinds["integer"] && kinds["number"] {
		delete(kinds, "integer")
	}
	declared := ""
	if len(types) == 1 {
		declared = types[0]
	}
	var base ir.Kind
	switch {
	case len(kinds) != 1:
		if len(values) > 0 {
			l.warnf(w, s.Origin, "enum mixes values of different kinds; using raw JSON")
		}
		t.Kind = ir.Any
		t.Nullable = nullable
		return entry{t: t, nullable: nullable}
	case kinds["string"]:
		base = ir.String
	case kinds["integer"] && declared != openapi3.TypeNumber:
		base = ir.Int
	case kinds["integer"] || kinds["number"]:
		base = ir.Float
	default:
		// Booleans, objects, arrays: keep the plain type; validation checks the values.
		ty := declared
		if ty == "" {
			for k := range kinds {
				ty = k
			}
		}
		l.single(s, ty, t, w)
		t.Nullable = nullable
		return entry{t: t, nullable: nullable}
	}
	t.Kind, t.Base = ir.Enum, base
	for _, v := range values {
		if base == ir.Int {
			if f, ok := v.(float64); ok {
				v = int64(f)
			}
		}
		t.Values = append(t.Values, &ir.EnumValue{Value: v})
	}
	if len(values) == 1 {
		t.Const, t.HasConst = t.Values[0].Value, true
	}
	t.Nullable = nullable
	return entry{t: t, nullable: nullable}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// warnf records a warning about the schema at w.
func (l *loader) warnf(w where, o *openapi3.Origin, format string, args ...any) {
	l.diags.Warnf(l.pos(w, o), format, args...)
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

// requiredOf lists the required properties of an object variant, sorted.
// The type may still be under construction (recursive schemas), so the
// schema's own required list is used then.
func requiredOf(t *ir.Type, s *openapi3.Schema) []string {
	var req []string
	for _, f := range t.Fields {
		if f.Required {
			req = append(req, f.JSONName)
		}
	}
	if len(t.Fields) == 0 && s != nil {
		req = slices.Clone(s.Required)
	}
	sort.Strings(req)
	return req
}

// suffix is naming.Suffix(s), or fallback when s has no usable characters.
func suffix(s, fallback string) string {
	if x := naming.Suffix(s); x != "" {
		return x
	}
	return fallback
}
