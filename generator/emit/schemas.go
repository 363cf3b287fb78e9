package emit

import (
	"encoding/json"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// schemaText returns s as compact JSON, "" for nil: the one place a
// schema of the IR is serialized (each once: the text is kept). A schema
// holding a value JSON cannot write (a NaN) accepts anything, as {}.
func (g *gen) schemaText(s *ir.Schema) string {
	if s == nil {
		return ""
	}
	if c, ok := g.schemaTexts[s]; ok {
		return c
	}
	c := "{}"
	if b, ok := s.AppendJSON(nil); ok {
		c = string(b)
	}
	g.schemaTexts[s] = c
	return c
}

// schemaVar returns the name of the package-level *opsgenimpl.Schema var of
// schema, declaring it in schemas.go on first use. A schema that only refers
// to a named type is shared as refSchema<Type>; others take name.
func (g *gen) schemaVar(schema *ir.Schema, name string) string {
	c := g.schemaText(schema)
	if v, ok := g.schemaVars[c]; ok {
		return v
	}
	if schema.IsRef() && token.IsIdentifier(schema.Ref.Name) {
		name = "refSchema" + schema.Ref.Name
	}
	base := name
	for i := 2; g.schemaVarNames[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	g.schemaVars[c] = name
	g.schemaVarNames[name] = true
	return name
}

// defsDoc is the JSON document of the schema set: every def under "$defs",
// sorted by name.
func (g *gen) defsDoc() string {
	defs := slices.SortedFunc(slices.Values(g.svc.Defs), func(a, b *ir.Def) int { return strings.Compare(a.Name, b.Name) })
	b := make([]byte, 0, 64<<10)
	b = append(b, `{"$defs":{`...)
	for i, d := range defs {
		if i > 0 {
			b = append(b, ',')
		}
		if plainKey(d.Name) {
			b = append(b, '"')
			b = append(b, d.Name...)
			b = append(b, '"')
		} else {
			key, _ := json.Marshal(d.Name)
			b = append(b, key...)
		}
		b = append(b, ':')
		if d.Schema == nil {
			g.warn(diag.RawJSON, diag.Pos{File: g.svc.Source}, "schema of %s is missing; it accepts anything", quoted(d.Name))
			b = append(b, "true"...)
			continue
		}
		var ok bool
		if b, ok = d.Schema.AppendJSON(b); !ok {
			b = append(b, "{}"...)
		}
	}
	b = append(b, `}}`...)
	return string(b)
}

// schemasFile declares Schemas and the schema vars the other files use. It
// is written as text: go/format is slow on megabytes of string literal.
func (g *gen) schemasFile() *generatedFile {
	f := g.newFile()
	w := newTextWriter(f)
	defer w.done()
	w.doc(newDoc(`Schemas holds the JSON Schema (draft 2020-12) of every type of the package under "$defs"; the schemas of operations refer into it. The client uses them to normalize and validate results.`).lines())
	defs := g.defsDoc()
	w.b.WriteString("var Schemas = " + f.ident(pkgImpl, "NewSchemaSet") + "(" + jsonString(defs) + ")")
	f.text(w.b.String())
	g.schemaVarsDecl(f, "Schemas", defs)
	return f
}

// schemaVarsDecl declares the schema vars the other files of the package
// use, each set.Ref(...) of its schema (set: the Schemas of the package,
// or the root's for an operation package), and imports the validators the
// package's schemas (defs, if any, and the vars') need.
func (g *gen) schemaVarsDecl(f *generatedFile, set string, defs ...string) {
	byName := map[string]string{}
	for c, v := range g.schemaVars {
		byName[v] = c
	}
	docs := g.schemaDocs(defs, byName)
	if opsgenimpl.NeedsFullValidator(docs...) {
		f.anon(pkgFullSchema)
	}
	if hasPattern(docs) {
		f.anon(pkgPattern)
	}
	if len(byName) == 0 {
		return
	}
	names := slices.Sorted(maps.Keys(byName))
	width := 0
	for _, v := range names {
		width = max(width, utf8.RuneCountInString(v))
	}
	w := newTextWriter(f)
	defer w.done()
	if g.xmlBodies {
		w.b.WriteString("// Output schemas of the operations, and the schemas of their XML bodies.\nvar (\n")
	} else {
		w.b.WriteString("// Output schemas of the operations.\nvar (\n")
	}
	for _, v := range names {
		w.b.WriteString("\t" + v + strings.Repeat(" ", width-utf8.RuneCountInString(v)+1) + "= " + set + ".Ref(" + jsonString(byName[v]) + ")\n")
	}
	w.b.WriteString(")")
	f.text(w.b.String())
}

// bundle returns schema with the defs it needs (transitively) under
// "$defs", so that it stands alone (for runtime.OperationSpec); "" for nil.
// An input schema (input set) has the defs' input schemas (ir.Def.Input,
// where required write-only members stay required) under their names.
func (g *gen) bundle(schema *ir.Schema, input bool) string {
	if schema == nil {
		return ""
	}
	if g.defSet == nil {
		g.defSet = make(map[*ir.Def]bool, len(g.svc.Defs))
		for _, d := range g.svc.Defs {
			g.defSet[d] = true
		}
	}
	defSchema := func(d *ir.Def) *ir.Schema {
		if input {
			return d.InputSchema()
		}
		return d.Schema
	}
	need := map[*ir.Def]bool{}
	var walk func(*ir.Schema)
	walk = func(s *ir.Schema) {
		s.Walk(func(s *ir.Schema) {
			if d := s.Ref; d != nil && g.defSet[d] && !need[d] {
				need[d] = true
				walk(defSchema(d))
			}
		})
	}
	walk(schema)
	if len(need) == 0 {
		return g.schemaText(schema)
	}
	defs := make(ir.Properties, 0, len(need))
	for d := range need {
		defs = append(defs, ir.Property{Key: d.Name, Schema: defSchema(d)})
	}
	slices.SortFunc(defs, func(a, b ir.Property) int { return strings.Compare(a.Key, b.Key) })
	out, ok := schema.AppendJSON(nil, ir.Member{Key: "$defs", Value: defs})
	if !ok {
		return g.schemaText(schema)
	}
	return string(out)
}

// eachObject calls fn with every JSON object in v, a decoded JSON value,
// each before the values it holds.
func eachObject(v any, fn func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		fn(v)
		for _, x := range v {
			eachObject(x, fn)
		}
	case []any:
		for _, x := range v {
			eachObject(x, fn)
		}
	}
}

// jsonString is a string literal of JSON text: a raw string when Go allows the
// text unchanged between backquotes (strconv.CanBackquote: no backquote, no
// control character, valid UTF-8), else a quoted string (as litText
// writes it).
func jsonString(s string) string {
	if canBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// canBackquote is strconv.CanBackquote (no backquote, no control
// character but tab, valid UTF-8 without a byte order mark) with a fast
// path for ASCII: the standard one decodes every byte as a rune, and took
// about 12 ms on the megabytes of GitHub's schemas.go.
func canBackquote(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\t' || c == '`' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 || r == '\ufeff' {
			return false
		}
		i += w
	}
	return true
}

// plainKey reports whether json.Marshal writes k as it is between quotes:
// ASCII letters, digits and '_' (a type name, in practice).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// schemaDocs are the package's schemas. When they use keywords the
// runtime's walker does not check, the package imports runtime/fullschema,
// which validates them; when they have patterns, runtime/pattern (programs
// whose schemas do not need them do not link them, nor pay for their
// package initialisation).
func (g *gen) schemaDocs(defs []string, byName map[string]string) []string {
	docs := append(defs, slices.Collect(maps.Values(byName))...)
	if g.opts.Registry {
		ops := g.svc.Operations
		if g.rootPath != "" {
			ops = g.ops // an operation package's own
		}
		for _, op := range ops {
			docs = append(docs, g.schemaText(op.InputSchema), g.schemaText(op.OutputSchema))
		}
	}
	return docs
}

// hasPattern reports whether a schema of docs has a "pattern" keyword (a
// member "pattern" with a string value, in any object): the answer of
// decodePattern, from a scan of the text (scanPattern; GitHub's 2.9 MB of
// defs took 50 ms to decode into any, the scan a few). The documents are
// valid JSON (ir.Schema.AppendJSON's output); on those the two
// agree (TestScanPattern, FuzzScanPattern).
func hasPattern(docs []string) bool {
	for _, d := range docs {
		if !strings.Contains(d, `"pattern"`) {
			continue
		}
		found, ok := scanPattern(d)
		if !ok {
			found = decodePattern(d)
		}
		if found {
			return true
		}
	}
	return false
}

// decodePattern reports whether doc, decoded, has an object whose member
// "pattern" is a string (with duplicate members, the last one counts, as
// for any decoded map). A document that is not JSON has none.
func decodePattern(doc string) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["pattern"].(string); ok {
				return true
			}
			for _, m := range v {
				if walk(m) {
					return true
				}
			}
		case []any:
			for _, m := range v {
				if walk(m) {
					return true
				}
			}
		}
		return false
	}
	var v any
	return json.Unmarshal([]byte(doc), &v) == nil && walk(v)
}
