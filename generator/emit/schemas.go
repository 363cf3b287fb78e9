package emit

import (
	"encoding/json"
	"go/token"
	"maps"
	"path"
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

// schemaVar returns an expression of the package-level opsgenimpl.Schema
// of schema (&name), declaring it in schemas.go on first use. A schema that
// only refers to a named type is shared as refSchema<Type>; others take
// name. "" for nil.
func (g *gen) schemaVar(schema *ir.Schema, name string) string {
	if schema == nil {
		return ""
	}
	c := g.schemaText(schema)
	if v, ok := g.schemaVars[c]; ok {
		return "&" + v
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
	g.schemaVarOf[name] = schema
	return "&" + name
}

// defIdents names the Go declarations of each def of the service: its
// marker type defRef<Name> and its opsgenimpl.Def var defSchema<Name>
// (a name that is no identifier is made one, and numbered when taken).
func (g *gen) defIdents(defs []*ir.Def) map[*ir.Def]string {
	ids := make(map[*ir.Def]string, len(defs))
	taken := make(map[string]bool, len(defs))
	for _, d := range defs {
		id := identOf(d.Name)
		base := id
		for i := 2; taken[id]; i++ {
			id = base + "_" + strconv.Itoa(i)
		}
		taken[id] = true
		ids[d] = id
	}
	return ids
}

// identOf returns name with every byte that cannot be in a Go identifier
// (ASCII letters, digits, '_') replaced by '_'.
func identOf(name string) string {
	if plainKey(name) {
		return name
	}
	b := []byte(name)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// directDefs returns the defs of the service that schema refers to itself
// (not through another def), sorted by name.
func (g *gen) directDefs(schema *ir.Schema) []*ir.Def {
	var out []*ir.Def
	seen := map[*ir.Def]bool{}
	schema.Walk(func(s *ir.Schema) {
		if d := s.Ref; d != nil && g.defSet[d] && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	})
	slices.SortFunc(out, func(a, b *ir.Def) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// defsPath is the import path of the package declaring the defs: "" when
// they are in the package's own schemas.go (unexported: defRef<Name>,
// defSchema<Name>); for a split API, the root's internal package
// internal/schemas, whose markers are exported (Def<Name>) so that the root
// and every operation package refer to the same defs (defsFile).
func (g *gen) defsPath() string {
	switch {
	case g.rootPath != "":
		return g.rootPath + "/" + defsDir
	case len(g.groups) > 0:
		return g.opts.ImportPath + "/" + defsDir
	}
	return ""
}

// defsDir is the directory, under a split API's root, of the package
// declaring its defs.
const defsDir = "internal/schemas"

// defPath returns the import path of the defs package that declares d in
// a split API: internal/schemas for the shared defs, and below it one
// package per operation package with defs of its own (placeDefs).
func (g *gen) defPath(d *ir.Def) string {
	p := g.defsPath()
	if home := g.defHome[d]; home != "" {
		p += "/" + home
	}
	return p
}

// defMarker returns the Go text of the DefRef of def d (a marker value) as
// f, a file of a package other than d's defs package, refers to it.
func (g *gen) defMarker(f *generatedFile, d *ir.Def) string {
	if p := g.defsPath(); p != "" {
		return f.ident(g.defPath(d), "Def"+g.defIDs[d]) + "{}"
	}
	return "defRef" + g.defIDs[d] + "{}"
}

// setRef returns the Go text of a pointer to the SchemaSet that shares the
// compiled nodes of the package's schemas (the defs package's in a split API).
func (g *gen) setRef(f *generatedFile) string {
	if p := g.defsPath(); p != "" {
		return "&" + f.ident(p, "Set")
	}
	return "&schemaSet"
}

// defRefList returns the Go text of a []opsgenimpl.DefRef of defs; marker
// writes one (defMarker, or the defs package's own unqualified name).
func defRefList(f *generatedFile, defs []*ir.Def, marker func(d *ir.Def) string) string {
	var b strings.Builder
	b.WriteString("[]" + f.ident(pkgImpl, "DefRef") + "{")
	for i, d := range defs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(marker(d))
	}
	b.WriteString("}")
	return b.String()
}

// sortedDefs returns the defs of the service sorted by name, and their Go
// identifiers (defIdents), decided once: the root's schemasFile does it
// before the operation packages' generators copy g.
func (g *gen) sortedDefs() ([]*ir.Def, map[*ir.Def]string) {
	if g.defIDs == nil {
		g.ensureDefSet()
		g.defsSorted = slices.SortedFunc(slices.Values(g.svc.Defs), func(a, b *ir.Def) int { return strings.Compare(a.Name, b.Name) })
		g.defIDs = g.defIdents(g.defsSorted)
	}
	return g.defsSorted, g.defIDs
}

// defText returns the JSON of d's schema: "true" (with a warning) when it
// is missing, {} when JSON cannot write it.
func (g *gen) defText(d *ir.Def) string {
	if d.Schema == nil {
		g.warn(diag.RawJSON, diag.Pos{File: g.svc.Source}, "schema of %s is missing; it accepts anything", quoted(d.Name))
		return "true"
	}
	return g.schemaText(d.Schema)
}

// schemasFile declares the schemas as static data: per def a marker type
// (its DefRef) and an opsgenimpl.Def (in the package itself, or for a split
// API in its defs package, defsFile), the schema vars the other files use,
// and Schemas. Nothing of it runs at package initialisation, so a program
// links only the schemas its operations reach. It is written as text:
// go/format is slow on megabytes of string literal.
func (g *gen) schemasFile() *generatedFile {
	f := g.newFile()
	defs, ids := g.sortedDefs()
	var docs []string
	if g.defsPath() == "" {
		w := newTextWriter(f)
		w.doc(newDoc(`Schemas returns the JSON Schema (draft 2020-12) of every type of the package under "$defs"; the schemas of operations refer into it. Each call makes a new set, which compiles on first use; a program that calls Schemas links every schema of the package.`).lines())
		w.b.WriteString("func Schemas() *" + f.ident(pkgImpl, "SchemaSet") + " { return " + f.ident(pkgImpl, "NewDefSet") + "(allSchemaDefs...) }")
		f.text(w.b.String())
		w.done()
		docs = g.defsDecl(f, defs, ids, "")
	} else if len(g.schemaVars) == 0 {
		return nil
	}
	g.schemaVarsDecl(f, ids, docs)
	return f
}

// defsFile is one defs package of a split API, the one of home (placeDefs):
// its defs, with exported markers, and the list of them (All);
// internal/schemas (home "") also declares the set that shares the
// compiled nodes of every package's schemas (Set). Nil when home has no
// defs.
func (g *gen) defsFile(home string) *generatedFile {
	all, ids := g.sortedDefs()
	var defs []*ir.Def
	for _, d := range all {
		if g.defHome[d] == home {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 && home != "" {
		return nil
	}
	f := newGeneratedFile(path.Base(defsDir + "/" + home))
	f.names = g.pkgNames
	f.header = g.newFile().header
	what := "shared by more than one of its packages"
	switch pkg := strings.TrimSuffix(home, "defs"); {
	case pkg == g.unreferencedDir():
		what = "that no operation uses"
	case home != "":
		what = "that only package " + pkg + "'s operations use"
	}
	f.pkgDoc = commentLines(newDoc("Package "+f.pkg+" holds the JSON Schemas of the types of "+g.opts.Package+" ("+g.opts.ImportPath+") "+what+": generated code only.").lines(), true)
	docs := g.defsDecl(f, defs, ids, home)
	if home == "" {
		f.text("// Set shares the compiled nodes of the schemas of the API's packages.\nvar Set " + f.ident(pkgImpl, "SchemaSet"))
	}
	g.validatorImports(f, docs)
	return f
}

// allSchemasFile declares a split API's package schemaset: All, the JSON
// Schemas of every type, which Schemas returns in an API of one package.
// The defs packages each declare the list of theirs.
func (g *gen) allSchemasFile() *generatedFile {
	dir := g.schemasetDir()
	f := newGeneratedFile(dir)
	f.names = g.pkgNames
	f.header = g.newFile().header
	d := newDoc("Package " + dir + " returns the JSON Schemas of every type of " + g.opts.Package + " (" + g.opts.ImportPath + ") and its operation packages, generated by opsgen from " + g.source() + ".")
	d.para("They are apart from the packages of the operations, whose schemas refer each to the types it needs, so that a program links them all only when it imports this package.")
	f.pkgDoc = commentLines(d.lines(), true)
	homes := setOf(g.defHome)
	homes[""] = true // internal/schemas
	var lists []string
	for _, h := range slices.Sorted(maps.Keys(homes)) {
		p := g.defsPath()
		if h != "" {
			p += "/" + h
		}
		lists = append(lists, f.ident(p, "All"))
	}
	w := newTextWriter(f)
	defer w.done()
	w.doc(newDoc(`All returns the JSON Schema (draft 2020-12) of every type of the API under "$defs"; the schemas of operations refer into it. Each call makes a new set, which compiles on first use; a program that calls All links every schema of the API.`).lines())
	w.b.WriteString("func All() *" + f.ident(pkgImpl, "SchemaSet") + " {\n\treturn " + f.ident(pkgImpl, "NewDefSet") + "(" + f.ident("slices", "Concat") + "(" + strings.Join(lists, ", ") + ")...)\n}")
	f.text(w.b.String())
	return f
}

// defsDecl declares defs in f, each a marker type and its opsgenimpl.Def,
// and the list of them; it returns the defs' JSON texts. In an API of one
// package the list is allSchemaDefs and the markers defRef<Name>; in a
// split API's defs package of home, All and Def<Name>.
func (g *gen) defsDecl(f *generatedFile, defs []*ir.Def, ids map[*ir.Def]string, home string) []string {
	w := newTextWriter(f)
	defer w.done()
	impl := f.ident(pkgImpl, "Def")
	exported := g.defsPath() != ""
	marker, all := "defRef", "// allSchemaDefs are the package's named types, for Schemas.\nvar allSchemaDefs"
	if exported {
		marker, all = "Def", "// All are the named types of this package.\nvar All"
	}
	w.b.WriteString(all + " = []" + f.ident(pkgImpl, "DefRef") + "{")
	for _, d := range defs {
		w.b.WriteString("\n\t" + marker + ids[d] + "{},")
	}
	if len(defs) > 0 {
		w.b.WriteString("\n")
	}
	w.b.WriteString("}")
	f.text(w.b.String())
	docs := make([]string, 0, len(defs))
	for i, d := range defs {
		id := ids[d]
		text := g.defText(d)
		docs = append(docs, text)
		w.b.Reset()
		if exported {
			w.b.WriteString("// " + marker + id + " is the schema of " + id + ": its Def method returns it.\n")
		} else if i == 0 {
			w.b.WriteString("// The package's named types: each a marker type, whose Def method returns\n// its schema, and the schema, listing the markers of the types it refers to.\n")
		}
		w.b.WriteString("type " + marker + id + " struct{}\n\n")
		if exported {
			w.b.WriteString("// Def returns the schema.\n")
		}
		w.b.WriteString("func (" + marker + id + ") Def() *" + impl + " {\n\treturn &defSchema" + id + "\n}\n\n")
		w.b.WriteString("var defSchema" + id + " = " + impl + "{Name: " + strconv.Quote(d.Name) + ", JSON: " + jsonString(text))
		if d.Schema != nil {
			if deps := g.directDefs(d.Schema); len(deps) > 0 {
				w.b.WriteString(", Deps: " + defRefList(f, deps, func(dep *ir.Def) string {
					if exported && g.defHome[dep] != home {
						return g.defMarker(f, dep)
					}
					return marker + ids[dep] + "{}"
				}))
			}
		}
		w.b.WriteString("}")
		f.text(w.b.String())
	}
	return docs
}

// schemaVarsDecl declares in f the schema vars the other files of the
// package use, and imports the validators they and docs need.
func (g *gen) schemaVarsDecl(f *generatedFile, ids map[*ir.Def]string, docs []string) {
	byName := map[string]string{}
	for c, v := range g.schemaVars {
		byName[v] = c
	}
	g.validatorImports(f, append(docs, g.schemaDocs(byName)...))
	if len(byName) == 0 {
		return
	}
	w := newTextWriter(f)
	defer w.done()
	names := slices.Sorted(maps.Keys(byName))
	width := 0
	for _, v := range names {
		width = max(width, utf8.RuneCountInString(v))
	}
	if g.defsPath() == "" {
		w.b.WriteString("// schemaSet shares the compiled nodes of the package's schemas.\nvar schemaSet " + f.ident(pkgImpl, "SchemaSet"))
		f.text(w.b.String())
		w.b.Reset()
	}
	if g.xmlBodies {
		w.b.WriteString("// Output schemas of the operations, and the schemas of their XML bodies.\nvar (\n")
	} else {
		w.b.WriteString("// Output schemas of the operations.\nvar (\n")
	}
	schemaType := f.ident(pkgImpl, "Schema")
	for _, v := range names {
		w.b.WriteString("\t" + v + strings.Repeat(" ", width-utf8.RuneCountInString(v)+1) + "= " + schemaType + "{JSON: " + jsonString(byName[v]))
		if deps := g.directDefs(g.schemaVarOf[v]); len(deps) > 0 {
			w.b.WriteString(", Defs: " + defRefList(f, deps, func(d *ir.Def) string { return g.defMarker(f, d) }) + ", Set: " + g.setRef(f))
		}
		w.b.WriteString("}\n")
	}
	w.b.WriteString(")")
	f.text(w.b.String())
}

// validatorImports imports into f the validators the schemas docs need:
// runtime/fullschema for keywords the runtime's walker does not check,
// runtime/pattern for patterns.
func (g *gen) validatorImports(f *generatedFile, docs []string) {
	if opsgenimpl.NeedsFullValidator(docs...) {
		f.anon(pkgFullSchema)
	}
	if hasPattern(docs) {
		f.anon(pkgPattern)
	}
}

// ensureDefSet fills defSet, the defs of the service, once.
func (g *gen) ensureDefSet() {
	if g.defSet == nil {
		g.defSet = make(map[*ir.Def]bool, len(g.svc.Defs))
		for _, d := range g.svc.Defs {
			g.defSet[d] = true
		}
	}
}

// bundle returns schema with the defs it needs (transitively) under
// "$defs", so that it stands alone (for runtime.OperationSpec); "" for nil.
// An input schema (input set) has the defs' input schemas (ir.Def.Input,
// where required write-only members stay required) under their names.
func (g *gen) bundle(schema *ir.Schema, input bool) string {
	if schema == nil {
		return ""
	}
	g.ensureDefSet()
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

// schemaDocs are the package's schemas besides its defs: those of the
// schema vars, and with a registry every operation's. When they (or the
// defs) use keywords the runtime's walker does not check, the package
// imports runtime/fullschema, which validates them; when they have
// patterns, runtime/pattern (programs whose schemas do not need them do
// not link them, nor pay for their package initialisation).
func (g *gen) schemaDocs(byName map[string]string) []string {
	docs := slices.Collect(maps.Values(byName))
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
