package emit

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// mapElem is the value type of a map: Elem, or (from an IR built
// otherwise) AdditionalProperties.
func mapElem(t *ir.Type) *ir.Type { return cmp.Or(t.Elem, t.AdditionalProperties) }

// nilable reports whether the Go type of t has nil as a value (slices,
// maps, json.RawMessage), so that optional values need no pointer.
func nilable(t *ir.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind {
	case ir.Any, ir.Null, ir.Bytes, ir.Binary, ir.Array, ir.Map:
		return true
	case ir.Union, ir.Tuple:
		return !t.Named()
	}
	return false
}

// warn adds a warning of the given kind once per place and message.
func (g *gen) warn(kind diag.Kind, pos diag.Pos, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, d := range g.diags {
		if d.Pos == pos && d.Message == msg {
			return
		}
	}
	g.diags.Warn(kind, pos, "%s", msg)
}

// typesFile declares the named types, or returns nil when there are none.
func (g *gen) typesFile() *generatedFile {
	var types []*ir.Type
	for _, t := range g.types {
		if g.home[t.Name] == g.dir {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return nil
	}
	f := g.newFile()
	needExtra, needNamed := false, false
	for _, t := range types {
		if t.Kind == ir.Struct && t.AdditionalProperties != nil {
			needExtra = true
		}
		if t.Kind == ir.Struct && len(untagged(t)) > 0 {
			needExtra, needNamed = true, true
		}
		g.declareType(f, t)
	}
	if needExtra {
		g.extraHelpers(f)
	}
	if needNamed {
		g.namedHelper(f)
	}
	return f
}

// typeDoc is the doc comment of a named type: a first sentence by kind,
// then what the spec says, then the origin.
func typeDoc(t *ir.Type, first string) *doc {
	d := newDoc(first)
	d.spec(t.Doc)
	if t.Default != nil {
		d.para("Default: " + jsonText(t.Default) + ".")
	}
	d.origin(t.Doc)
	return d
}

func (g *gen) declareType(f *generatedFile, t *ir.Type) {
	kind := t.Kind
	if t.GoType != "" && kind != ir.Union && kind != ir.Tuple {
		kind = ir.Any // an alias of the chosen type
	}
	switch kind {
	case ir.Struct:
		g.declareStruct(f, t)
	case ir.Enum:
		g.declareEnum(f, t)
	case ir.Union:
		g.declareUnion(f, t)
	case ir.Tuple:
		g.declareTuple(f, t)
	case ir.Array:
		// Defined types, not aliases: a list or map may contain itself.
		g.declareNamed(f, typeDoc(t, t.Name+" is a JSON array."), t.Name, " ", g.goType(t.Elem, false, t.Pos).under("[]"))
	case ir.Map:
		g.declareNamed(f, typeDoc(t, t.Name+" is a JSON object with values of one type."), t.Name, " ", g.goType(mapElem(t), false, t.Pos).under("map[string]"))
	default:
		// Aliases keep the methods of time.Time and json.RawMessage. The
		// type unnamed has what goType reads.
		c := ir.Type{Kind: t.Kind, GoType: t.GoType, Format: t.Format, Base: t.Base, Pos: t.Pos,
			Elem: t.Elem, AdditionalProperties: t.AdditionalProperties}
		g.declareNamed(f, typeDoc(t, t.Name+" is "+kindText(t)+"."), t.Name, " = ", g.goType(&c, false, t.Pos))
	}
}

// declareNamed declares "type name<sep>under" (sep " " or " = ").
func (g *gen) declareNamed(f *generatedFile, d *doc, name, sep string, under goType) {
	w := newTextWriter(f)
	defer w.done()
	w.doc(d.lines())
	w.b.WriteString("type " + name + sep + w.typeText(under))
	f.text(w.b.String())
}

func kindText(t *ir.Type) string {
	if t.GoType != "" {
		if t.Format != "" {
			return "a value of format " + strconv.Quote(t.Format) + ", held as " + t.GoType
		}
		return "a value held as " + t.GoType
	}
	return cmp.Or(kindTexts[t.Kind], "any JSON value")
}

// kindTexts describe the values of kinds in doc comments.
var kindTexts = map[ir.Kind]string{
	ir.Bool: "a JSON boolean", ir.Int: "a JSON integer", ir.Float: "a JSON number", ir.String: "a JSON string",
	ir.DateTime: "a date-time (RFC 3339)", ir.Date: "a date", ir.Bytes: "base64-encoded binary data",
	ir.Binary: "binary data", ir.Null: "the JSON null",
}

func (g *gen) declareStruct(f *generatedFile, t *ir.Type) {
	fields := g.fields(t, t, g.multipart[t])
	var known []string // the tagged properties' names, as literals
	if t.AdditionalProperties != nil {
		fields = append(fields, field{
			doc:  []string{"AdditionalProperties holds the properties the schema does not declare."},
			name: "AdditionalProperties", typ: g.goType(t.AdditionalProperties, false, t.Pos).under("map[string]"), tag: "-",
		})
		for _, fl := range t.Fields {
			if validTagName(fl.JSONName) {
				known = append(known, litText(fl.JSONName))
			}
		}
	}
	what := " is a JSON object."
	if t.NonObject {
		fields = append(fields, nonObjectField())
		what = " is a JSON object, or any other JSON value (its schema states no type), kept in NonObject."
	}
	g.declareStructType(f, typeDoc(t, t.Name+what), t.Name, fields)
	if odd := untagged(t); len(odd) > 0 {
		g.untaggedMethods(f, t, odd, known)
		return
	}
	if t.AdditionalProperties == nil {
		if t.NonObject {
			g.plainNonObjectMethods(f, t)
		}
		return
	}
	g.jsonMethods(f, t, "MarshalJSON writes the declared fields and AdditionalProperties as one object.", func(w *textWriter) {
		w.P("\treturn marshalWithExtra(", args("plain(v)", "v.AdditionalProperties", known), ")")
	}, "UnmarshalJSON reads the declared fields and puts the other properties in AdditionalProperties.", func(w *textWriter) {
		w.P("\treturn unmarshalWithExtra(", args("b", "(*plain)(v)", "&v.AdditionalProperties", known), ")")
	})
}

// args joins the arguments of a call: strings and lists of strings.
func args(list ...any) string {
	var b strings.Builder
	for _, a := range list {
		for _, s := range argList(a) {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

func argList(a any) []string {
	if s, ok := a.(string); ok {
		return []string{s}
	}
	return a.([]string)
}

// extraHelpers declares the two helpers of structs with additional properties.
func (g *gen) extraHelpers(f *generatedFile) {
	marshal, unmarshal, raw := qual("encoding/json", "Marshal"), qual("encoding/json", "Unmarshal"), qual("encoding/json", "RawMessage")
	f.write(newDoc("marshalWithExtra writes v, a struct without custom marshaling, as a JSON object with the members of extra added, except those named in known."), func(w *textWriter) {
		w.P("func marshalWithExtra[T any](v any, extra map[string]T, known ...string) ([]byte, error) {")
		w.P("\tb, err := ", marshal, "(v)")
		w.P("\tif err != nil || len(extra) == 0 {")
		w.P("\t\treturn b, err")
		w.P("\t}")
		w.P("\tobj := map[string]any{}")
		w.P("\tfor k, x := range extra {")
		w.P("\t\tobj[k] = x")
		w.P("\t}")
		w.P("\tfor _, k := range known {")
		w.P("\t\tdelete(obj, k)")
		w.P("\t}")
		w.P("\tvar declared map[string]", raw)
		w.P("\tif err := ", unmarshal, "(b, &declared); err != nil {")
		w.P("\t\treturn nil, err")
		w.P("\t}")
		w.P("\tfor k, x := range declared {")
		w.P("\t\tobj[k] = x")
		w.P("\t}")
		w.P("\treturn ", marshal, "(obj)")
		w.P("}")
	})
	f.write(newDoc("unmarshalWithExtra reads b into v, a pointer to a struct without custom unmarshaling, and the members not named in known into extra."), func(w *textWriter) {
		w.P("func unmarshalWithExtra[T any](b []byte, v any, extra *map[string]T, known ...string) error {")
		w.P("\tif err := ", unmarshal, "(b, v); err != nil {")
		w.P("\t\treturn err")
		w.P("\t}")
		w.P("\tvar obj map[string]", raw)
		w.P("\tif err := ", unmarshal, "(b, &obj); err != nil {")
		w.P("\t\treturn err")
		w.P("\t}")
		w.P("\tfor _, k := range known {")
		w.P("\t\tdelete(obj, k)")
		w.P("\t}")
		w.P("\t*extra = nil")
		w.P("\tfor k, raw := range obj {")
		w.P("\t\tvar x T")
		w.P("\t\tif err := ", unmarshal, "(raw, &x); err != nil {")
		w.P("\t\t\treturn ", qual("fmt", "Errorf"), propertyErrorArgs)
		w.P("\t\t}")
		w.P("\t\tif *extra == nil {")
		w.P("\t\t\t*extra = make(map[string]T, len(obj))")
		w.P("\t\t}")
		w.P("\t\t(*extra)[k] = x")
		w.P("\t}")
		w.P("\treturn nil")
		w.P("}")
	})
}

// propertyErrorArgs are the arguments of fmt.Errorf for the error of a
// property k that does not decode.
const propertyErrorArgs = `("property %q: %w", k, err)`

// untagged returns the fields of struct t whose property names cannot be
// struct tags (a comma, a quote: "size, in cm").
func untagged(t *ir.Type) []*ir.Field {
	var out []*ir.Field
	for _, fl := range t.Fields {
		if !validTagName(fl.JSONName) {
			out = append(out, fl)
		}
	}
	return out
}

// untaggedMethods declares the MarshalJSON and UnmarshalJSON of a struct
// with untagged fields: they are written and read by property name, with
// the additional properties if the struct has them (known names the tagged
// ones).
func (g *gen) untaggedMethods(f *generatedFile, t *ir.Type, odd []*ir.Field, known []string) {
	ap := t.AdditionalProperties != nil
	// The map of the fields to read, sorted by key (as a map literal's
	// keys, for determinism).
	var targets []keyValue
	seen := map[string]bool{}
	for _, fl := range odd {
		if k := litText(fl.JSONName); !seen[k] {
			seen[k] = true
			targets = append(targets, keyValue{k, "&v." + fl.Name})
		}
	}
	slices.SortFunc(targets, func(a, b keyValue) int { return strings.Compare(a.key, b.key) })
	marshal := func(w *textWriter) {
		w.P("\textra := map[string]any{}")
		if ap {
			w.P("\tfor k, x := range v.AdditionalProperties {")
			w.P("\t\textra[k] = x")
			w.P("\t}")
		}
		for _, fl := range odd {
			set := "extra[" + litText(fl.JSONName) + "] = v." + fl.Name
			if fl.Required {
				w.P("\t", set)
			} else {
				w.P("\tif v.", fl.Name, " != nil {")
				w.P("\t\t", set)
				w.P("\t}")
			}
		}
		w.P("\treturn marshalWithExtra(", args("plain(v)", "extra", known), ")")
	}
	unmarshal := func(w *textWriter) {
		if ap {
			all := slices.Clone(known)
			for _, fl := range odd {
				all = append(all, litText(fl.JSONName))
			}
			w.P("\tif err := unmarshalWithExtra(", args("b", "(*plain)(v)", "&v.AdditionalProperties", all), "); err != nil {")
		} else {
			w.P("\tif err := ", qual("encoding/json", "Unmarshal"), "(b, (*plain)(v)); err != nil {")
		}
		w.P("\t\treturn err")
		w.P("\t}")
		if len(targets) == 1 {
			w.P("\treturn unmarshalNamed(b, map[string]any{", targets[0].key, ": ", targets[0].value, "})")
			return
		}
		w.P("\treturn unmarshalNamed(b, map[string]any{")
		w.keyValues("\t\t", targets)
		w.P("\t})")
	}
	g.jsonMethods(f, t, "MarshalJSON writes the fields as one object, those whose property names cannot be struct tags included.", marshal,
		"UnmarshalJSON reads the fields, those whose property names cannot be struct tags included.", unmarshal)
}

// namedHelper declares unmarshalNamed, the reader of untagged fields.
func (g *gen) namedHelper(f *generatedFile) {
	unmarshal := qual("encoding/json", "Unmarshal")
	f.write(newDoc("unmarshalNamed reads the members of the JSON object b named in fields into the pointers they map to."), func(w *textWriter) {
		w.P("func unmarshalNamed(b []byte, fields map[string]any) error {")
		w.P("\tvar obj map[string]", qual("encoding/json", "RawMessage"))
		w.P("\tif err := ", unmarshal, "(b, &obj); err != nil {")
		w.P("\t\treturn err")
		w.P("\t}")
		w.P("\tfor k, p := range fields {")
		w.P("\t\tif raw, ok := obj[k]; ok {")
		w.P("\t\t\tif err := ", unmarshal, "(raw, p); err != nil {")
		w.P("\t\t\t\treturn ", qual("fmt", "Errorf"), propertyErrorArgs)
		w.P("\t\t\t}")
		w.P("\t\t}")
		w.P("\t}")
		w.P("\treturn nil")
		w.P("}")
	})
}

// field is a field of a struct being declared.
type field struct {
	doc  []string // comment lines (doc.lines)
	name string
	typ  goType
	tag  string // the value of the json tag ("": no tag)
}

// declareStructType declares "type name struct{...}".
func (g *gen) declareStructType(f *generatedFile, d *doc, name string, fields []field) {
	w := newTextWriter(f)
	defer w.done()
	w.doc(d.lines())
	w.structDecl(name, fields)
	f.text(w.b.String())
}

// fields returns the fields of struct t; owner is the named type being
// declared (for the recursion check), reader says binary fields are io.Reader.
func (g *gen) fields(owner, t *ir.Type, reader bool) []field {
	var out []field
	tags := map[string]bool{}
	for _, fl := range t.Fields {
		d := &doc{}
		d.spec(fl.Doc)
		if fl.Deprecated && !fl.Doc.Deprecated {
			d.para("Deprecated: the API marks this property as deprecated.")
		}
		if fl.ReadOnly {
			d.para("Read-only: set by the server, not sent in requests.")
		} else if fl.WriteOnly {
			d.para("Write-only: sent in requests, not returned.")
		}
		if fl.Default != nil {
			d.para("Default: " + jsonText(fl.Default) + ".")
		}
		ft := g.goType(fl.Type, reader && fl.Type != nil && fl.Type.Kind == ir.Binary, cmp.Or(fl.Pos, t.Pos))
		nullable := fl.Nullable || (fl.Type != nil && fl.Type.Nullable)
		optional := !fl.Required || nullable
		threeState := threeStates(fl, reader)
		if threeState {
			// Absent, null and a value: runtime.Nullable, left out when absent.
			if g.recursive(owner, fl.Type) || g.nullableByPointer(fl.Type) {
				ft = ft.ptr()
			}
			ft = nullableOf(ft)
		} else if (optional && !nilable(fl.Type) && !(reader && fl.Type != nil && fl.Type.Kind == ir.Binary)) || g.recursive(owner, fl.Type) {
			ft = ft.ptr()
		}
		tag := "-"
		if name := fl.JSONName; !validTagName(name) {
			// Not a struct tag: the struct's MarshalJSON and UnmarshalJSON
			// carry it (untaggedMethods).
		} else if tags[name] {
			g.warn(diag.LeftOut, fl.Pos, "property name %s appears twice; field %s is left out of JSON", quoted(fl.JSONName), fl.Name)
		} else {
			tags[name] = true
			tag = name
			switch {
			case threeState:
				tag += ",omitzero"
			case !fl.Required:
				tag += ",omitempty"
			case name == "-":
				tag = "-," // a bare "-" would mean "not in JSON"
			}
		}
		out = append(out, field{doc: d.lines(), name: fl.Name, typ: ft, tag: tag})
	}
	return out
}

// threeStates reports whether field fl is optional and allows null, so
// that absent, null and a value are three states (runtime.Nullable).
// Values that hold null themselves (raw JSON, the null type) and binary
// readers keep their types.
func threeStates(fl *ir.Field, reader bool) bool {
	if fl.Required || fl.Type == nil || !(fl.Nullable || fl.Type.Nullable) {
		return false
	}
	switch fl.Type.Kind {
	case ir.Any, ir.Null:
		return false
	case ir.Binary:
		return !reader
	}
	return true
}

// nullableByPointer reports whether a three-state field of type t is
// runtime.Nullable[*T] rather than runtime.Nullable[T]: in a split API, for
// a struct. Every package that refers to an instantiated generic type
// compiles its methods again, specialised per shape, and the shape of a
// struct is its own; pointers share one. Graph v1.0's root compiled 2,592
// method bodies for 236 struct shapes of Nullable, and so did, for the
// types they refer to, each operation package and the program calling one.
func (g *gen) nullableByPointer(t *ir.Type) bool {
	return g.home != nil && t.Named() && (t.Kind == ir.Struct || t.Kind == ir.Tuple) && t.GoType == ""
}

// nullableOf returns runtime.Nullable[t].
func nullableOf(t goType) goType {
	return goType{pkg: pkgRuntime, name: "Nullable", arg: &t}
}

// validTagName mirrors encoding/json's check of tag names: letters, digits
// and the punctuation it allows (no quotes, backslash, comma or backtick).
func validTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < utf8.RuneSelf {
			if !tagNameASCII[c] {
				return false
			}
		} else if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// tagNameASCII is validTagName's answer for each ASCII character (every
// field's name goes through it).
var tagNameASCII = func() (ok [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		ok[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", rune(c))
	}
	return ok
}()

// recursive reports whether a value of type ft, held by value inside owner,
// would contain owner by value: such fields must be pointers.
func (g *gen) recursive(owner, ft *ir.Type) bool {
	if owner == nil || !ft.Named() || (ft.Kind != ir.Struct && ft.Kind != ir.Tuple) {
		return false
	}
	return reaches(ft, owner, map[*ir.Type]bool{})
}

// reaches reports whether from contains to by value (through required,
// non-nullable fields, unnamed structs and tuple items).
func reaches(from, to *ir.Type, seen map[*ir.Type]bool) bool {
	if from == nil {
		return false
	}
	if from == to {
		return true
	}
	if seen[from] {
		return false
	}
	seen[from] = true
	var next []*ir.Type
	switch from.Kind {
	case ir.Struct:
		for _, fl := range from.Fields {
			// Required values are held by value, and so are optional
			// nullable ones (runtime.Nullable).
			if fl.Type != nil && (fl.Required && !fl.Nullable && !fl.Type.Nullable || threeStates(fl, false)) {
				next = append(next, fl.Type)
			}
		}
	case ir.Tuple:
		next = from.Items
	}
	for _, n := range next {
		if n != nil && (n.Kind == ir.Struct || n.Kind == ir.Tuple) && reaches(n, to, seen) {
			return true
		}
	}
	return false
}

func (g *gen) declareEnum(f *generatedFile, t *ir.Type) {
	w := newTextWriter(f)
	defer w.done()
	w.doc(typeDoc(t, t.Name+" is one of the values below; other values still decode (see Known).").lines())
	w.b.WriteString("type " + t.Name + " " + enumBase(t).name + "\n")
	var names []string
	var values []string // the string values, for opsgenimpl.EnumKnown
	listed := enumBase(t).name == "string"
	seen := map[string]bool{}
	for _, v := range t.Values {
		if v == nil || v.Value == nil {
			continue // null is the absence of a value, not a constant
		}
		lit, ok := enumLit(t.Base, v.Value)
		if !ok {
			g.warn(diag.LeftOut, t.Pos, "enum value %s of %s does not fit its type; no constant for it", jsonText(v.Value), t.Name)
			continue
		}
		key := fmt.Sprintf("%#v", lit)
		if seen[key] {
			continue
		}
		seen[key] = true
		if len(names) == 0 {
			w.b.WriteString("\n")
			w.doc(newDoc("The values of " + t.Name + ".").lines())
			w.b.WriteString("const (\n")
		}
		cd := newDoc(v.Name + " is " + jsonText(v.Value) + ".")
		cd.para(v.Doc)
		w.comment("\t", cd.lines())
		w.b.WriteString("\t" + v.Name + " " + t.Name + " = " + litText(lit) + "\n")
		names = append(names, v.Name)
		if s, ok := lit.(string); ok && !strings.Contains(s, "\x00") {
			values = append(values, s)
		} else {
			listed = false
		}
	}
	if len(names) > 0 {
		w.b.WriteString(")\n\n")
		w.doc(newDoc("Known reports whether v is one of the values the API declares.").lines())
		if listed {
			// A call to a shared function with the values in one string
			// literal: a switch over the values in each of thousands of
			// enums, or a []string of them in static data, is what the
			// compiler spent most of a large package's build on.
			w.b.WriteString("func (v " + t.Name + ") Known() bool {\n\treturn " + w.typeText(qual(pkgImpl, "EnumKnown")) +
				"(string(v), " + litText(strings.Join(values, "\x00")) + ")\n}\n")
		} else {
			w.b.WriteString("func (v " + t.Name + ") Known() bool {\n\tswitch v {\n\tcase " + strings.Join(names, ", ") +
				":\n\t\treturn true\n\t}\n\treturn false\n}\n")
		}
	}
	f.text(w.b.String())
}

// enumLit converts a decoded JSON enum value to a literal of the enum's Go
// type (only the built-in types litText renders).
func enumLit(base ir.Kind, v any) (any, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = n.Float64(); err != nil {
			return nil, false
		}
	case string:
		return n, base == ir.String || base == ir.Any
	case bool:
		return n, base == ir.Bool
	default:
		return nil, false
	}
	switch base {
	case ir.Int:
		if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, false
		}
		return int(f), true // untyped in the output (int64(1) would be typed)
	case ir.Float:
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, false
		}
		return f, true
	}
	return nil, false
}

// declareUnion declares union t as text in gofmt's form (GitHub's API has
// hundreds of unions, and go/format was the emitter's largest cost): the
// struct, its kind type and constants, Variant, As<Variant> and the
// constructor of each variant, Match, and the union's table.
func (g *gen) declareUnion(f *generatedFile, t *ir.Type) {
	var names []string
	for _, v := range t.Variants {
		names = append(names, v.Name)
	}
	kind := cmp.Or(t.VariantKind, t.Name+"Kind") // "": an IR built without AllocateNames
	w := newTextWriter(f)
	defer w.done()
	decl := func(d *doc, code string) { // one declaration, its doc comment first
		w.doc(d.lines())
		w.b.WriteString(code)
		f.text(w.b.String())
		w.b.Reset()
	}
	decl(typeDoc(t, t.Name+" is one of: "+strings.Join(names, ", ")+". Variant tells which one it holds (a "+kind+"); As<Variant> returns it; Match calls a function per variant; "+t.Name+"From<Variant> makes one."),
		"type "+t.Name+" struct {\n\t"+w.typeText(qual(pkgRuntime, "UnionValue"))+"\n}\n")
	decl(newDoc(kind+" names the variants of "+t.Name+"; \"\" is none."), "type "+kind+" string\n")
	// Each constant has a comment line of its own, so gofmt aligns none.
	w.b.WriteString(commentLine("The variants of "+t.Name+".") + "\nconst (\n")
	for _, v := range t.Variants {
		c := cmp.Or(v.Const, v.Name+t.Name)
		line := c + " is the " + v.Name + " variant"
		if len(v.Tags) > 0 {
			line += " (" + t.Discriminator + ": " + strings.Join(quotedAll(v.Tags), ", ") + ")"
		}
		w.b.WriteString("\t" + commentLine(line+".") + "\n\t" + c + " " + kind + " = " + litText(v.Name) + "\n")
	}
	w.b.WriteString(")\n")
	if len(t.Variants) == 0 { // as gofmt prints an empty block
		w.b.Reset()
		w.b.WriteString(commentLine("The variants of "+t.Name+".") + "\nconst ()\n")
	}
	f.text(w.b.String())
	w.b.Reset()
	recv := "func (u " + t.Name + ") "
	decl(newDoc("Variant returns the variant the value holds, or \"\" when none matches."),
		recv+"Variant() "+kind+" {\n\treturn "+kind+"(union"+t.Name+".VariantOf(u.UnionValue))\n}\n")
	var table strings.Builder // the union's variants, one line each
	for _, v := range t.Variants {
		vt := w.typeText(g.goType(v.Type, false, t.Pos))
		// opsgenimpl.VariantInto, not the generic VariantAs: nothing compiled
		// per variant type.
		decl(newDoc("As"+v.Name+" returns the value as the "+v.Name+" variant."),
			recv+"As"+v.Name+"() ("+vt+", error) {\n\tvar v "+vt+"\n\terr := "+w.typeText(qual(pkgImpl, "VariantInto"))+
				"(u.UnionValue, &v)\n\treturn v, err\n}\n")
		ctor := cmp.Or(v.Constructor, t.Name+"From"+v.Name) // decided by the names stage
		cd := newDoc(ctor + " returns a " + t.Name + " holding the " + v.Name + " variant v.")
		body := ""
		if fl := discField(t, v); fl != nil {
			cd.para("An empty " + fl.Name + " is set to " + strconv.Quote(v.Tags[0]) + ".")
			body = "\tif v." + fl.Name + " == \"\" {\n\t\tv." + fl.Name + " = " + litText(v.Tags[0]) + "\n\t}\n"
		}
		decl(cd, "func "+ctor+"(v "+vt+") "+t.Name+" {\n"+body+"\treturn "+t.Name+"{"+w.typeText(qual(pkgImpl, "UnionOf"))+"("+litText(v.Name)+", v)}\n}\n")
		table.WriteString("\t{Name: " + litText(v.Name))
		for _, m := range [][2]string{{"Tags", strLitsText(v.Tags)}, {"JSONKind", optLit(v.JSONKind)}, {"Required", strLitsText(v.Required)}} {
			if m[1] != "" { // as optKV leaves empty members out
				table.WriteString(", " + m[0] + ": " + m[1])
			}
		}
		table.WriteString("},\n")
	}
	g.declareUnionMatch(w, t)
	rows := "" // "{}" for none, as gofmt prints it
	if table.Len() > 0 {
		rows = "\n" + table.String()
	}
	disc := ""
	if t.Discriminator != "" {
		disc = "Discriminator: " + litText(t.Discriminator) + ", "
	}
	w.b.WriteString(commentLine("union"+t.Name+" selects the variant of a "+t.Name+".") + "\nvar union" + t.Name + " = &" +
		w.typeText(qual(pkgImpl, "Union")) + "{" + disc + "Variants: []" + w.typeText(qual(pkgImpl, "UnionVariant")) + "{" + rows + "}}\n")
	f.text(w.b.String())
}

// strLitsText is a []string literal of ss, or "" for
// none.
func strLitsText(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	lits := make([]string, len(ss))
	for i, s := range ss {
		lits[i] = litText(s)
	}
	return "[]string{" + strings.Join(lits, ", ") + "}"
}

// optLit is a string literal of s, or "" for an empty s.
func optLit(s string) string {
	if s == "" {
		return ""
	}
	return litText(s)
}

// discField is the field of variant v of union t that holds the
// discriminator, when it is a plain string the constructor can fill in.
func discField(t *ir.Type, v *ir.Variant) *ir.Field {
	if t.Discriminator == "" || len(v.Tags) == 0 || v.Type == nil || v.Type.Kind != ir.Struct {
		return nil
	}
	for _, fl := range v.Type.Fields {
		if fl.JSONName == t.Discriminator && fl.Required && !fl.Nullable && fl.Type != nil && !fl.Type.Nullable &&
			!fl.Type.Named() && (fl.Type.Kind == ir.String) {
			return fl
		}
	}
	return nil
}

// quotedAll quotes each of ss.
func quotedAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

func (g *gen) declareTuple(f *generatedFile, t *ir.Type) {
	var fields []field
	var vals, ptrs []string
	for i, it := range t.Items {
		name := "Item" + strconv.Itoa(i)
		ft := g.goType(it, false, t.Pos)
		if g.recursive(t, it) {
			ft = ft.ptr()
		}
		fields = append(fields, field{name: name, typ: ft})
		vals = append(vals, "t."+name)
		ptrs = append(ptrs, "&t."+name)
	}
	rest, restPtr := "nil", "nil"
	if t.Elem != nil {
		fields = append(fields, field{doc: []string{"Rest holds the items after the fixed positions."}, name: "Rest", typ: g.goType(t.Elem, false, t.Pos).under("[]")})
		rest, restPtr = "t.Rest", "&t.Rest"
	}
	f.write(typeDoc(t, t.Name+" is a JSON array with fixed positions: Item0 is its first item."), func(w *textWriter) {
		w.plainStructDecl(t.Name, fields)
	})
	f.write(newDoc("MarshalJSON writes the value as a JSON array."), func(w *textWriter) {
		w.P("func (t ", t.Name, ") MarshalJSON() ([]byte, error) {")
		w.P("\treturn ", qual(pkgImpl, "MarshalTuple"), "([]any{", strings.Join(vals, ", "), "}, ", rest, ")")
		w.P("}")
	})
	f.write(newDoc("UnmarshalJSON reads a JSON array."), func(w *textWriter) {
		w.P("func (t *", t.Name, ") UnmarshalJSON(b []byte) error {")
		w.P("\treturn ", qual(pkgImpl, "UnmarshalTuple"), "(b, []any{", strings.Join(ptrs, ", "), "}, ", restPtr, ")")
		w.P("}")
	})
}
