package jsonschema

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"net/url"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/naming"
)

// Options configure a Converter.
type Options struct {
	// Source is the main document: Names apply to schemas in it.
	Source string
	// Names pins Go names by JSON pointer in Source ("#/components/schemas/Pet").
	Names map[string]string
	// Origin returns the Type.Doc.Origin of a named type defined at ptr in
	// file; nil means "#" + ptr.
	Origin func(file, ptr string) string
	// Types maps a format to the Go type that holds its values
	// ("import/path.Name", or a predeclared name), over the built-in table
	// (FormatTypes). x-go-type on a schema wins over both.
	Types map[string]string
	// Key returns the key that orders the name requests of types defined at
	// ptr in file (see AllocateNames); nil means file + "#" + ptr. A source
	// whose pointers depend on the order of its document (a tool's index in
	// a listing) gives a key that does not.
	Key func(file, ptr string) string
	// KeepUnknown gives every struct type whose schema has no
	// additionalProperties schema (absent or true; not false) an
	// AdditionalProperties of raw JSON values: the members the schema does
	// not declare, kept when decoding and written back when encoding.
	KeepUnknown bool
}

// Where is the place a schema is converted at: its file and JSON pointer,
// and the Go name an inline type found there should get.
type Where struct {
	File, Ptr string
	Name      string
}

// At returns the place of the child token of w, whose inline type would be
// called name.
func (w Where) At(token, name string) Where {
	return Where{File: w.File, Ptr: jsonptr.Append(w.Ptr, token), Name: name}
}

// Entry is a converted schema: its type and whether null is allowed too.
// Nullability is kept apart from the type so that a named type can be
// nullable at one use and not at another.
type Entry struct {
	Type     *ir.Type
	Nullable bool
}

// Converter turns schemas into IR types. One converter serves one
// ir.Service: it declares every schema once (by pointer) however often it
// is used, names the types (AllocateNames) and writes their JSON Schemas
// (TypeSchemas, JSONSchema).
type Converter struct {
	opts  Options
	diags *diag.List

	cache map[*Schema]Entry
	// src maps each named type to the schema that defines it.
	src map[*ir.Type]*Schema
	// places maps the targets of references, by file#pointer, to their
	// entries: a document may be loaded once per spelling of its path.
	places   map[string]Entry
	requests []nameReq
	// enums holds the parameter enums shared by identical schemas
	// (sharedenum.go), by their key.
	enums map[string]*sharedEnum
}

// New returns a converter that reports to diags.
func New(diags *diag.List, opts Options) *Converter {
	return &Converter{
		opts: opts, diags: diags,
		cache:  map[*Schema]Entry{},
		src:    map[*ir.Type]*Schema{},
		places: map[string]Entry{},
	}
}

// Declared reports whether t is a named type declared for a schema.
func (c *Converter) Declared(t *ir.Type) bool { return c.src[t] != nil }

// Declare converts s, the definition at w of a type called want (a
// component schema, a $defs entry): a reference declares its target.
func (c *Converter) Declare(s *Schema, w Where, want string) Entry {
	if s.Ref != "" {
		// An alias of another schema: its target is the type.
		return c.Use(s, w)
	}
	e := c.named(s, w, want, GroupComponent)
	c.places[w.File+"#"+w.Ptr] = e
	return e
}

// Use converts the schema s found at w to a type.
func (c *Converter) Use(s *Schema, w Where) Entry {
	v := s.resolve()
	if v == nil {
		return Entry{Type: &ir.Type{Kind: ir.Any}}
	}
	if e, ok := c.cache[v]; ok {
		return e
	}
	if s.Ref != "" {
		file, ptr := refPlace(w.File, s.Ref)
		// A document may be loaded once per spelling of its path; the
		// place, not the pointer, identifies the schema then.
		place := file + "#" + ptr
		if e, ok := c.places[place]; ok {
			c.cache[v] = e
			return e
		}
		e := c.named(v, Where{File: file, Ptr: ptr}, refName(s.Ref), GroupComponent)
		c.places[place] = e
		return e
	}
	if needsName(v) {
		if key, ok := c.sharedEnumKey(v, w); ok {
			return c.sharedEnum(v, w, key)
		}
		return c.named(v, w, w.Name, GroupInline) // or its x-go-name: see named
	}
	e := c.build(v, nil, w)
	if _, ok := c.cache[v]; !ok {
		c.cache[v] = e
	}
	return e
}

// refPlace returns the file and JSON pointer a reference found in file
// points at.
func refPlace(file, ref string) (string, string) {
	target, frag, _ := strings.Cut(ref, "#")
	if target != "" {
		if u, err := url.Parse(target); err == nil && u.Scheme != "" {
			file = target
		} else {
			file = path.Join(path.Dir(file), target)
		}
	}
	return file, frag
}

// named converts s as a named type wanted under the name want.
func (c *Converter) named(s *Schema, w Where, want string, group int) Entry {
	if e, ok := c.cache[s]; ok {
		return e
	}
	if over, ok := c.opts.Names["#"+w.Ptr]; ok && w.File == c.opts.Source {
		want, group = over, GroupOverride
	} else if s.GoName != "" {
		want, group = s.GoName, GroupOverride
	}
	t := &ir.Type{}
	c.cache[s] = Entry{Type: t}
	w.Name = naming.Sanitize(want, "Type")
	e := c.build(s, t, w)
	if e.Type != t {
		// The schema is another type under a new name (an alias such as
		// allOf: [$ref] or oneOf: [$ref, null]): declare a copy of it, so that
		// uses of this schema (maybe already made, if it is recursive) keep a
		// type of their own.
		*t = *e.Type
		t.Name = ""
		// Enum constants and variants are named per type: copy them.
		t.Values, t.Variants = copies(e.Type.Values), copies(e.Type.Variants)
		t.Nullable = t.Nullable || e.Nullable
		if a := annotated(s); a.Title != "" || a.Description != "" {
			t.Doc = ir.Doc{Summary: a.Title, Description: a.Description, Deprecated: a.Deprecated}
		}
	}
	c.place(t, s, w)
	c.src[t] = s
	c.requestTypeName(t, group, w, "", w.Name)
	return c.cache[s]
}

// place records w, where s is, as the position and origin of the type t.
func (c *Converter) place(t *ir.Type, s *Schema, w Where) {
	t.Pos = c.pos(w, s)
	t.Doc.Origin = "#" + w.Ptr
	if c.opts.Origin != nil {
		t.Doc.Origin = c.opts.Origin(w.File, w.Ptr)
	}
}

// copies returns copies of the values ps point to (nil for none).
func copies[T any](ps []*T) []*T {
	var out []*T
	for _, p := range ps {
		cp := *p
		out = append(out, &cp)
	}
	return out
}

// needsName reports whether an inline schema becomes a named type: objects
// with properties, enums, unions and merged allOfs need a declaration.
func needsName(s *Schema) bool {
	switch {
	case len(s.Properties) > 0, hasValue(s.Enum):
		return true
	case len(s.AllOf) > 0:
		_, single := allOfPart(s)
		return !single
	case variantCount(s.OneOf) > 1, variantCount(s.AnyOf) > 1:
		return true
	}
	return len(nonNull(s.Types)) > 1
}

// refName is the name a reference suggests: the last token of its
// fragment, or the file's base name.
func refName(ref string) string {
	file, frag, _ := strings.Cut(ref, "#")
	if frag != "" {
		i := strings.LastIndex(frag, "/")
		return jsonptr.Unescape(frag[i+1:])
	}
	base := path.Base(file)
	return strings.TrimSuffix(base, path.Ext(base))
}

// build converts s into t (or a new anonymous type when t is nil). It may
// return another type instead (for aliases); the caller deals with that.
func (c *Converter) build(s *Schema, t *ir.Type, w Where) Entry {
	if t == nil {
		t = &ir.Type{}
	}
	t.Doc = ir.Doc{Summary: s.Title, Description: s.Description, Deprecated: s.Deprecated}
	t.Default = s.Default
	t.Format = s.Format
	t.GoType = c.goTypeOf(s, w)
	nullable := s.Nullable || slices.Contains(s.Types, "null")
	types := nonNull(s.Types)
	if len(types) == 0 && len(s.Types) > 0 {
		t.Kind = ir.Null
		return Entry{Type: t, Nullable: true}
	}
	if t.GoType != "" && (len(s.OneOf) > 0 || len(s.AnyOf) > 0 || len(s.PrefixItems) > 0 || len(types) > 1) {
		// The chosen Go type holds the whole union or tuple: its variants
		// and items are not converted (no Go code would use them); the
		// schema still validates the value.
		t.Kind = ir.Any
		return nullableEntry(t, nullable)
	}

	switch {
	case len(s.AllOf) > 0:
		return c.allOf(s, t, w, nullable)
	case len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		return c.union(s, t, w, nullable)
	case len(s.Enum) > 0:
		return c.enum(s, t, w, nullable, types)
	}
	if s.Const != nil {
		t.Const, t.HasConst = s.Const, true
		if len(types) == 0 {
			types = []string{jsonKindOf(s.Const)}
		}
	}
	inferred := false
	if len(types) == 0 {
		types, inferred = inferTypes(s), true
		// items without type allow any non-array value too (slack's
		// {"items": ...} objects): no Go slice holds those. Keywords of
		// objects keep their struct: omitting "type: object" is common
		// and other kinds rare (as raw JSON, 131 types of 21 specs in a
		// sample of 60 would go).
		if len(types) == 1 && types[0] == "array" {
			c.warnf(diag.RawJSON, w, s, "schema without type has only array keywords, which do not restrict the kind of value; using raw JSON")
			types = nil
		}
	}
	switch len(types) {
	case 0:
		if s.NotIf {
			c.warnf(diag.RawJSON, w, s, "schema with only not/if/then/else is not supported; using raw JSON")
		}
		t.Kind = ir.Any
	case 1:
		// Object keywords without "type" constrain objects only: any other
		// value is valid too, and the struct keeps it (object resets this
		// for a Map).
		t.NonObject = inferred && types[0] == "object"
		c.single(s, types[0], t, w)
	default:
		// Several non-null types: a union selected by JSON kind.
		t.Kind = ir.Union
		for _, ty := range types {
			vt := &ir.Type{}
			vw := w.At("type", w.Name+suffix(ty, ""))
			c.single(s, ty, vt, vw)
			if vt.Kind == ir.Struct {
				// The object variant carries the schema's properties: declare it.
				vt.Pos = c.pos(w, s)
				c.src[vt] = s
				c.requestTypeName(vt, GroupInline, vw, "/"+ty, vw.Name)
			}
			t.Variants = append(t.Variants, &ir.Variant{Type: vt, JSONKind: ty})
		}
	}
	t.Nullable = t.Nullable || nullable
	return Entry{Type: t, Nullable: nullable}
}

// inferTypes guesses the type of a schema without "type" from its keywords.
func inferTypes(s *Schema) []string {
	switch {
	case len(s.Properties) > 0 || s.AdditionalProperties != nil:
		return []string{"object"}
	case s.Items != nil || len(s.PrefixItems) > 0:
		return []string{"array"}
	case s.Format == "date-time" || s.Format == "date" || s.Has("pattern") || s.Has("maxLength"):
		return []string{"string"}
	}
	return nil
}

// Kinds of the JSON types that need no more than their format: "file" is
// a Swagger 2.0 leftover.
var (
	scalarKinds = map[string]ir.Kind{"integer": ir.Int, "number": ir.Float, "boolean": ir.Bool, "file": ir.Binary}
	stringKinds = map[string]ir.Kind{"date-time": ir.DateTime, "date": ir.Date, "byte": ir.Bytes, "binary": ir.Binary}
)

// single fills t for one JSON type ty of s.
func (c *Converter) single(s *Schema, ty string, t *ir.Type, w Where) {
	switch k, scalar := scalarKinds[ty]; {
	case scalar:
		t.Kind = k
	case ty == "string":
		t.Kind = cmp.Or(stringKinds[s.Format], ir.String)
	case ty == "array":
		if len(s.PrefixItems) > 0 {
			t.Kind = ir.Tuple
			for i, it := range s.PrefixItems {
				name := fmt.Sprintf("%sItem%d", w.Name, i)
				t.Items = append(t.Items, c.Use(it, w.At("prefixItems", name).At(fmt.Sprint(i), name)).Type)
			}
			if s.Items != nil && !(s.Items.Always != nil && !*s.Items.Always) {
				t.Elem = c.Use(s.Items, w.At("items", w.Name+"Item")).Type
			}
			return
		}
		t.Kind = ir.Array
		t.Elem = c.Use(s.Items, w.At("items", w.Name+"Item")).Type
	case ty == "object":
		c.object(s, t, w)
	default:
		c.warnf(diag.RawJSON, w, s, "unknown type %q; using raw JSON", ty)
		t.Kind = ir.Any
	}
}

// additional returns the schema of additionalProperties when it is one
// (not absent, not a boolean).
func additional(s *Schema) *Schema {
	if ap := s.AdditionalProperties; ap != nil && ap.Always == nil {
		return ap
	}
	return nil
}

// object fills t from an object schema: a Struct when it has properties,
// else a Map.
func (c *Converter) object(s *Schema, t *ir.Type, w Where) {
	var ap *ir.Type
	if a := additional(s); a != nil {
		ap = c.Use(a, w.At("additionalProperties", w.Name+"Value")).Type
	}
	if len(s.Properties) == 0 {
		t.Kind = ir.Map
		t.NonObject = false
		if ap == nil {
			ap = &ir.Type{Kind: ir.Any}
		}
		t.Elem = ap
		return
	}
	t.Kind = ir.Struct
	if ap == nil && c.opts.KeepUnknown && !(s.AdditionalProperties != nil && s.AdditionalProperties.Always != nil && !*s.AdditionalProperties.Always) {
		ap = &ir.Type{Kind: ir.Any}
	}
	t.AdditionalProperties = ap
	c.addFields(t, s.Properties, s.Required, w)
}

// addFields appends the properties of a schema to a struct, sorted by JSON
// name; properties already present are replaced (allOf: later parts win).
func (c *Converter) addFields(t *ir.Type, props map[string]*Schema, required []string, w Where) {
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name]
		pw := w.At("properties", "").At(name, w.Name+suffix(name, "Field"))
		e := c.Use(p, pw)
		f := &ir.Field{JSONName: name, Type: e.Type, Nullable: e.Nullable, Required: slices.Contains(required, name), Pos: c.pos(pw, nil)}
		if v := p.resolve(); v != nil {
			a := annotated(p)
			f.Doc = ir.Doc{Summary: a.Title, Description: a.Description, Deprecated: a.Deprecated}
			f.ReadOnly, f.WriteOnly, f.Deprecated, f.Default = a.ReadOnly, a.WriteOnly, a.Deprecated, a.Default
			f.Nullable = f.Nullable || a.Nullable
			f.Pos = c.pos(pw, v)
			if p.Ref == "" {
				f.Name = v.GoName
			}
		}
		// A read-only property is not sent in requests, a write-only one
		// not returned: neither is required of the Go value, so that it is
		// left out (omitempty) unless set.
		f.Required = f.Required && !f.ReadOnly && !f.WriteOnly
		if i := slices.IndexFunc(t.Fields, func(g *ir.Field) bool { return g.JSONName == name }); i >= 0 {
			f.Required = f.Required || t.Fields[i].Required
			t.Fields[i] = f
		} else {
			t.Fields = append(t.Fields, f)
		}
	}
	for _, f := range t.Fields {
		if !f.Required && !f.ReadOnly && !f.WriteOnly && slices.Contains(required, f.JSONName) {
			f.Required = true
		}
	}
	// A required member that no property declares (an "actionable_by"
	// requiring "id" and "login" with only "login" among its properties) is
	// kept, as any value in a field of its own, unless the struct keeps
	// undeclared members: decoding into the struct would drop it from the
	// request. A later allOf part that declares it replaces the field.
	if t.AdditionalProperties == nil {
		for _, name := range required {
			if slices.ContainsFunc(t.Fields, func(g *ir.Field) bool { return g.JSONName == name }) {
				continue
			}
			t.Fields = append(t.Fields, &ir.Field{JSONName: name, Type: &ir.Type{Kind: ir.Any}, Required: true, Pos: c.pos(w.At("required", ""), nil)})
		}
	}
	sort.Slice(t.Fields, func(i, j int) bool { return t.Fields[i].JSONName < t.Fields[j].JSONName })
	c.nameFields(t)
}

// nameFields gives the fields of t unique Go names (x-go-name first).
func (c *Converter) nameFields(t *ir.Type) {
	ns := naming.NewNamespace()
	if t.AdditionalProperties != nil {
		ns.Reserve("AdditionalProperties")
	}
	if t.NonObject {
		ns.Reserve(ir.NonObjectField)
	}
	for _, f := range t.Fields {
		if f.Name != "" {
			// Two properties may pin the same x-go-name (x-axis and xAxis
			// in real specs): the first in JSON name order keeps it.
			want := naming.Sanitize(f.Name, "Field")
			f.Name = ns.Alloc(want)
			if f.Name != want {
				c.diags.Warn(diag.Renamed, f.Pos, "x-go-name %q of property %q is taken; using %q", want, f.JSONName, f.Name)
			}
		}
	}
	for _, f := range t.Fields { // then the others
		if f.Name == "" {
			f.Name = ns.Alloc(naming.Ident(f.JSONName, "Field"))
		}
	}
}

// allOf merges the parts of an allOf into one struct.
func (c *Converter) allOf(s *Schema, t *ir.Type, w Where, nullable bool) Entry {
	if i, ok := allOfPart(s); ok {
		// allOf: [X] is X with extra annotations (often a description), and
		// so is an allOf whose parts agree on X's type.
		e := c.Use(s.AllOf[i], w.At("allOf", w.Name).At(fmt.Sprint(i), w.Name))
		e.Nullable = e.Nullable || nullable || annotated(s).Nullable
		return e
	}
	t.Kind = ir.Struct
	// Parts that all state no type accept any value that is not an object.
	t.NonObject = !statesType(s, map[*Schema]bool{})
	seen := map[*Schema]bool{}
	var merge func(x *Schema, xw Where) bool
	merge = func(x *Schema, xw Where) bool {
		if seen[x] {
			c.warnf(diag.LeftOut, xw, x, "allOf refers to itself; the cycle is ignored")
			return true
		}
		seen[x] = true
		for i, p := range x.AllOf {
			pw := xw.At("allOf", w.Name).At(fmt.Sprint(i), w.Name)
			v := p.resolve()
			if v == nil {
				continue
			}
			at := pw // the part's place in the allOf, for the warning
			if p.Ref != "" {
				pw.File, pw.Ptr = refPlace(xw.File, p.Ref)
				// Convert the part as a type of its own too, so that it is declared.
				c.Use(p, pw)
			}
			if !isObjectSchema(v) {
				c.warnf(diag.RawJSON, at, p, "allOf part is not an object schema and the parts do not agree on a type; using raw JSON")
				return false
			}
			if !merge(v, pw) {
				return false
			}
		}
		if ap := additional(x); ap != nil && t.AdditionalProperties == nil {
			t.AdditionalProperties = c.Use(ap, xw.At("additionalProperties", w.Name+"Value")).Type
		}
		c.addFields(t, x.Properties, x.Required, w)
		return true
	}
	if !merge(s, w) {
		*t = ir.Type{Kind: ir.Any, Doc: t.Doc}
	}
	return nullableEntry(t, nullable)
}

// addsRequired reports whether required names a property of the object
// schema v that v itself does not require.
func addsRequired(required []string, v *Schema) bool {
	if v == nil {
		return false
	}
	for _, name := range required {
		if _, ok := v.Properties[name]; ok && !slices.Contains(v.Required, name) {
			return true
		}
	}
	return false
}

// allOfPart returns the part of the allOf of s whose type is the type of
// s: its only part; or the only part that is not just annotations (title,
// description, default, deprecated, readOnly, writeOnly, nullable), as in
// allOf: [{$ref: X}, {description: ...}]; or the first of parts that all
// have the same type, other than object (which merge), where the other
// parts state no type (allOf: [{$ref: Name}, {maxLength: 8}]). ok is false
// when s has properties of its own, or the parts disagree.
func allOfPart(s *Schema) (int, bool) {
	if len(s.Properties) > 0 || len(s.AllOf) == 0 {
		return 0, false
	}
	if len(s.AllOf) == 1 {
		// Unless s requires a property its part does not (allOf: [{$ref:
		// X}], required: [a]): then the part's fields merge into a type of
		// its own, with a required.
		return 0, s.AllOf[0] != nil && !addsRequired(s.Required, s.AllOf[0].resolve())
	}
	first, kind, annotations := -1, "", true
	for i, p := range s.AllOf {
		if annotationOnly(p) {
			continue
		}
		k := partKind(p.resolve())
		if k == "" {
			annotations = false
			continue
		}
		if first < 0 {
			first, kind = i, k
		} else if k != kind || k == "object" || k == "?" {
			return 0, false
		}
	}
	switch {
	case first < 0:
		return 0, false
	case kind == "object" || kind == "?":
		// Parts that constrain an object (required: [...]) merge into it.
		return first, annotations
	}
	return first, true
}

// partKind is the type an allOf part states: its single non-null JSON
// type, "enum", "" for none, or "?" for several or a composition.
func partKind(v *Schema) string {
	switch {
	case v == nil:
		return ""
	case len(v.AllOf) > 0 || len(v.AnyOf) > 0 || len(v.OneOf) > 0:
		return "?"
	case hasValue(v.Enum):
		return "enum"
	case v.Types != nil:
		if k := schemaKind(v); k != "" {
			return k
		}
		return "?"
	}
	if ts := inferTypes(v); len(ts) == 1 {
		return ts[0]
	}
	return ""
}

// annotationOnly reports whether s only annotates: it states no type and
// no constraint (nullable, which only adds null, counts as an annotation).
func annotationOnly(s *Schema) bool {
	if s == nil || s.Ref != "" {
		return false
	}
	c := *s
	c.Title, c.Description, c.Default, c.GoName, c.XML = "", "", nil, "", nil
	c.Deprecated, c.ReadOnly, c.WriteOnly, c.Nullable = false, false, false, false
	c.Line, c.Col = 0, 0
	return reflect.DeepEqual(c, Schema{})
}

// annotated returns the annotations of a use of s: those of the schema
// it resolves to, completed from that schema's annotation-only allOf parts
// (allOf: [{$ref: X}, {readOnly: true}]), under those written next to a
// reference ({$ref: X, description: ...}, from draft 2019-09 on).
func annotated(s *Schema) Schema {
	if s == nil { // a property whose schema could not be read
		return Schema{}
	}
	v := s.resolve()
	if v == nil {
		v = &Schema{}
	}
	var a Schema
	if s.Ref != "" {
		a.annotate(s)
	}
	a.annotate(v)
	for _, p := range v.AllOf {
		if annotationOnly(p) {
			a.annotate(p)
		}
	}
	return a
}

// annotate fills the annotations of a that are not set from those of s.
func (a *Schema) annotate(s *Schema) {
	a.Title, a.Description = cmp.Or(a.Title, s.Title), cmp.Or(a.Description, s.Description)
	if a.Default == nil {
		a.Default = s.Default
	}
	a.Deprecated, a.ReadOnly, a.WriteOnly = a.Deprecated || s.Deprecated, a.ReadOnly || s.ReadOnly, a.WriteOnly || s.WriteOnly
	a.Nullable = a.Nullable || s.Nullable
}

// statesType reports whether s, or a part of its allOf (and theirs),
// states a type.
func statesType(s *Schema, seen map[*Schema]bool) bool {
	if s == nil || seen[s] {
		return false
	}
	seen[s] = true
	if s.Types != nil {
		return true
	}
	for _, p := range s.AllOf {
		if statesType(p.resolve(), seen) {
			return true
		}
	}
	return false
}

func isObjectSchema(s *Schema) bool {
	if s.Types != nil {
		return !slices.ContainsFunc(s.Types, func(ty string) bool { return ty != "object" && ty != "null" })
	}
	return len(s.OneOf) == 0 && len(s.AnyOf) == 0 && len(s.Enum) == 0 && s.Items == nil
}

// union converts oneOf/anyOf.
func (c *Converter) union(s *Schema, t *ir.Type, w Where, nullable bool) Entry {
	parts, kw := s.OneOf, "oneOf"
	if len(parts) == 0 {
		parts, kw = s.AnyOf, "anyOf"
	}
	if len(s.OneOf) > 0 && len(s.AnyOf) > 0 {
		c.warnf(diag.LeftOut, w, s, "both oneOf and anyOf; using oneOf only")
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
		return Entry{Type: t, Nullable: true}
	}
	if len(keep) == 2 && len(s.Properties) == 0 {
		keep, nullable = orAnyObject(keep, nullable)
	}
	if len(keep) == 1 && len(s.Properties) == 0 {
		p := keep[0]
		e := c.Use(p.s, w.At(kw, w.Name).At(fmt.Sprint(p.idx), w.Name))
		e.Nullable = e.Nullable || nullable
		return e
	}
	if len(s.Properties) > 0 {
		c.warnf(diag.LeftOut, w, s, "properties next to %s are not supported; using the %s variants only", kw, kw)
	}
	t.Kind = ir.Union
	t.AnyOf = kw == "anyOf"
	disc := s.Discriminator
	var constProp string
	var constTags [][]string
	if disc != nil {
		t.Discriminator = disc.PropertyName
	} else {
		constProp, constTags = constDiscriminator(keep)
		t.Discriminator = constProp
	}
	for i, p := range keep {
		var tags []string
		var want string
		if constProp != "" {
			tags = constTags[i]
			// Every value names it: ImageOrAudio, not Image.
			want = cmp.Or(naming.Suffix(strings.Join(tags, " or ")), variantName(p.s, nil))
		} else {
			tags = discriminatorTags(disc, p.s)
			want = variantName(p.s, tags)
		}
		vname := w.Name + "Variant" + fmt.Sprint(p.idx)
		if p.s != nil && p.s.Ref == "" {
			if want != "" {
				vname = w.Name + want
			} else if k := schemaKind(p.s); k != "" {
				vname = w.Name + suffix(k, "")
			}
		}
		e := c.Use(p.s, w.At(kw, vname).At(fmt.Sprint(p.idx), vname))
		v := &ir.Variant{Name: want, Type: e.Type, JSONKind: kindJSON(e.Type)}
		if v.JSONKind == "object" {
			v.Required = requiredOf(e.Type, p.s.resolve())
		}
		v.Tags = tags
		t.Variants = append(t.Variants, v)
	}
	if disc != nil {
		for _, v := range t.Variants {
			if len(v.Tags) == 0 {
				c.warnf(diag.Other, w, s, "discriminator %q: a variant has no mapping value; it is selected by shape only", disc.PropertyName)
				break
			}
		}
	}
	return nullableEntry(t, nullable)
}

// part is a member of a oneOf or anyOf and its index there.
type part struct {
	s   *Schema
	idx int
}

// variantName is the name a union variant asks for: its discriminator
// value (from the mapping, or a property whose schema is a const), else
// its title; "" leaves it to its type's name or JSON kind (nameVariants).
func variantName(p *Schema, tags []string) string {
	if len(tags) > 0 {
		if n := naming.Suffix(tags[0]); n != "" {
			return n
		}
	}
	if r := p.resolve(); r != nil && r.Title != "" && p.Ref == "" {
		return naming.Suffix(r.Title)
	}
	return ""
}

// constDiscriminator finds, among variants that are all objects, a
// required-or-not property whose schema fixes a string (const, or a string
// enum) in every variant, with no value in two variants: the implicit
// discriminator of unions such as MCP content blocks ("type": "text" |
// "image"; the filesystem server's media item is "image" or "audio", its
// resource "resource"). It returns the property and each variant's values,
// or "" when there is none.
func constDiscriminator(keep []part) (string, [][]string) {
	if len(keep) < 2 {
		return "", nil
	}
	first := keep[0].s.resolve()
	if first == nil {
		return "", nil
	}
	for _, name := range slices.Sorted(maps.Keys(first.Properties)) {
		vals := make([][]string, 0, len(keep))
		seen := map[string]bool{}
	variants:
		for _, p := range keep {
			r := p.s.resolve()
			if r == nil {
				break
			}
			vs, ok := stringValues(r.Properties[name])
			if !ok {
				break
			}
			for _, v := range vs {
				if seen[v] {
					break variants
				}
				seen[v] = true
			}
			vals = append(vals, vs)
		}
		if len(vals) == len(keep) {
			return name, vals
		}
	}
	return "", nil
}

// stringValues are the values a schema allows when it fixes a string or a
// few (const, or an enum of strings).
func stringValues(s *Schema) ([]string, bool) {
	s = s.resolve()
	if s == nil {
		return nil, false
	}
	if v, ok := s.Const.(string); ok {
		return []string{v}, true
	}
	if len(s.Enum) == 0 {
		return nil, false
	}
	out := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		v, ok := e.(string)
		if !ok {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// discriminatorTags returns the values of the discriminator disc that
// select the variant p (nil when disc is nil or p is not a reference).
func discriminatorTags(disc *Discriminator, p *Schema) []string {
	if disc == nil || p == nil || p.Ref == "" {
		return nil
	}
	var tags []string
	for _, tag := range slices.Sorted(maps.Keys(disc.Mapping)) {
		if sameRef(disc.Mapping[tag], p.Ref) {
			tags = append(tags, tag)
		}
	}
	// Without a mapping entry the schema's name selects it (implicit
	// mapping), unless the variant itself fixes the property to other
	// values: those are what its data holds (Spotify's TrackObject, whose
	// "type" is "track"), and the name could never match it.
	name := refName(p.Ref)
	if _, taken := disc.Mapping[name]; len(tags) == 0 && !taken {
		if r := p.resolve(); r != nil {
			if own, ok := stringValues(r.Properties[disc.PropertyName]); ok && !slices.Contains(own, name) {
				return own
			}
		}
		tags = []string{name}
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

func isNullSchema(p *Schema) bool {
	v := p.resolve()
	return v != nil && len(v.Types) == 1 && v.Types[0] == "null"
}

func nonNullSchemas(ss []*Schema) []*Schema {
	var out []*Schema
	for _, s := range ss {
		if !isNullSchema(s) {
			out = append(out, s)
		}
	}
	return out
}

// hasValue reports whether enum has a value other than null.
func hasValue(enum []any) bool {
	return slices.ContainsFunc(enum, func(v any) bool { return v != nil })
}

// nonNull returns types without "null".
func nonNull(types []string) []string {
	if !slices.Contains(types, "null") {
		return types
	}
	return slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
}

// schemaKind is the single non-null JSON type of s, or "".
func schemaKind(s *Schema) string {
	ts := nonNull(s.Types)
	if s.Types == nil {
		ts = inferTypes(s)
	}
	if len(ts) == 1 {
		return ts[0]
	}
	return ""
}

// kindJSONs are the JSON kinds of the values of the Go kinds that have one.
var kindJSONs = map[ir.Kind]string{
	ir.Bool: "boolean", ir.Int: "integer", ir.Float: "number",
	ir.String: "string", ir.DateTime: "string", ir.Date: "string", ir.Bytes: "string", ir.Binary: "string",
	ir.Array: "array", ir.Tuple: "array", ir.Map: "object", ir.Struct: "object", ir.Null: "null",
}

// kindJSON is the JSON kind a value of t has, or "" when it can be several.
func kindJSON(t *ir.Type) string {
	if t.Kind != ir.Enum {
		return kindJSONs[t.Kind]
	}
	if t.Base == ir.String || t.Base == ir.Int {
		return kindJSONs[t.Base]
	}
	return "number"
}

func jsonKindOf(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case int, int64, uint64:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// enum converts an enum schema.
func (c *Converter) enum(s *Schema, t *ir.Type, w Where, nullable bool, types []string) Entry {
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
			c.warnf(diag.RawJSON, w, s, "enum mixes values of different kinds; using raw JSON")
		}
		t.Kind = ir.Any
		return nullableEntry(t, nullable)
	case kinds["string"]:
		base = ir.String
	case kinds["integer"] && declared != "number":
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
		c.single(s, ty, t, w)
		return nullableEntry(t, nullable)
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
	return nullableEntry(t, nullable)
}

// nullableEntry sets whether t allows null and returns its entry.
func nullableEntry(t *ir.Type, nullable bool) Entry {
	t.Nullable = nullable
	return Entry{Type: t, Nullable: nullable}
}

// warnf records a warning of the given kind about the schema s at w.
func (c *Converter) warnf(kind diag.Kind, w Where, s *Schema, format string, args ...any) {
	c.diags.Warn(kind, c.pos(w, s), format, args...)
}

// Pos is the diagnostic position of w, with the line and column of s when
// the source recorded them.
func (c *Converter) pos(w Where, s *Schema) diag.Pos {
	p := diag.Pos{File: w.File, Pointer: w.Ptr}
	if s != nil {
		p.Line, p.Col = int(s.Line), int(s.Col)
	}
	return p
}

// requiredOf lists the required properties of an object variant, sorted.
// The type may still be under construction (recursive schemas), so the
// schema's own required list is used then.
func requiredOf(t *ir.Type, s *Schema) []string {
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
func suffix(s, fallback string) string { return cmp.Or(naming.Suffix(s), fallback) }
