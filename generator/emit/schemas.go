package emit

import (
	"bytes"
	"encoding/json"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// defsPrefix starts the references into Service.Defs.
const defsPrefix = "#/$defs/"

// compact returns schema as compact JSON, or false when it is not JSON.
func compact(schema json.RawMessage) (string, bool) {
	var b bytes.Buffer
	if err := json.Compact(&b, schema); err != nil {
		return "", false
	}
	return b.String(), true
}

// schemaVar returns the name of the package-level *opsgenimpl.Schema var of
// schema, declaring it in schemas.go on first use. A schema that only refers
// to a named type is shared as refSchema<Type>; others take name. It returns
// "" (with a warning) when schema is not JSON.
func (g *gen) schemaVar(schema json.RawMessage, name string, pos diag.Pos) string {
	c, ok := compact(schema)
	if !ok {
		g.warn(diag.Other, pos, "schema is not valid JSON; the result is not validated")
		return ""
	}
	if v, ok := g.schemaVars[c]; ok {
		return v
	}
	var ref struct {
		Ref string `json:"$ref"`
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(schema, &probe) == nil && len(probe) == 1 && json.Unmarshal(schema, &ref) == nil &&
		strings.HasPrefix(ref.Ref, defsPrefix) && token.IsIdentifier(strings.TrimPrefix(ref.Ref, defsPrefix)) {
		name = "refSchema" + strings.TrimPrefix(ref.Ref, defsPrefix)
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
	var b strings.Builder
	size := 0
	for _, d := range g.svc.Defs {
		size += len(d)
	}
	b.Grow(size + 32*len(g.svc.Defs) + 16)
	b.WriteString(`{"$defs":{`)
	for i, k := range slices.Sorted(maps.Keys(g.svc.Defs)) {
		if i > 0 {
			b.WriteByte(',')
		}
		if plainKey(k) {
			b.WriteByte('"')
			b.WriteString(k)
			b.WriteByte('"')
		} else {
			key, _ := json.Marshal(k)
			b.Write(key)
		}
		b.WriteByte(':')
		if raw := g.svc.Defs[k]; g.svc.CompactDefs && len(raw) > 0 {
			b.Write(raw)
			continue
		}
		c, ok := compact(g.svc.Defs[k])
		if !ok {
			g.warn(diag.RawJSON, diag.Pos{File: g.svc.Source}, "schema of %s is not valid JSON; it accepts anything", quoted(k))
			c = "true"
		}
		b.WriteString(c)
	}
	b.WriteString(`}}`)
	return b.String()
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
		return f
	}
	names := slices.Sorted(maps.Keys(byName))
	width := 0
	for _, v := range names {
		width = max(width, utf8.RuneCountInString(v))
	}
	w.b.Reset()
	w.b.WriteString("// Output schemas of the operations.\nvar (\n")
	for _, v := range names {
		w.b.WriteString("\t" + v + strings.Repeat(" ", width-utf8.RuneCountInString(v)+1) + "= Schemas.Ref(" + jsonString(byName[v]) + ")\n")
	}
	w.b.WriteString(")")
	f.text(w.b.String())
	return f
}

// bundle returns schema with the defs it needs (transitively) under
// "$defs", so that it stands alone (for runtime.OperationSpec).
func (g *gen) bundle(schema json.RawMessage) string {
	c, ok := compact(schema)
	if !ok {
		return ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(schema, &obj) != nil {
		return c // true, false
	}
	need := map[string]bool{}
	var walk func(json.RawMessage)
	walk = func(raw json.RawMessage) {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return
		}
		eachObject(v, func(v map[string]any) {
			if r, ok := v["$ref"].(string); ok && strings.HasPrefix(r, defsPrefix) {
				name := jsonptr.Unescape(strings.TrimPrefix(r, defsPrefix))
				if d, ok := g.svc.Defs[name]; ok && !need[name] {
					need[name] = true
					walk(d)
				}
			}
		})
	}
	walk(schema)
	if len(need) == 0 {
		return c
	}
	defs := map[string]json.RawMessage{}
	for k := range need {
		defs[k] = g.svc.Defs[k]
	}
	obj["$defs"], _ = json.Marshal(defs)
	out, err := json.Marshal(obj)
	if err != nil {
		return c
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
func (g *gen) schemaDocs(defs string, byName map[string]string) []string {
	docs := append([]string{defs}, slices.Collect(maps.Values(byName))...)
	if g.opts.Registry {
		for _, op := range g.svc.Operations {
			docs = append(docs, string(op.InputSchema), string(op.OutputSchema))
		}
	}
	return docs
}

// hasPattern reports whether a schema of docs has a "pattern" keyword (a
// member "pattern" with a string value, in any object): the answer of
// decodePattern, from a scan of the text (scanPattern; GitHub's 2.9 MB of
// defs took 50 ms to decode into any, the scan a few). The documents are
// valid JSON (compact's or jsonschema.Marshal's output); on those the two
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
