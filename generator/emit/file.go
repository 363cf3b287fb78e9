package emit

import (
	"bytes"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"
)

// generatedFile is one output file under construction, after protogen's
// GeneratedFile: all of its code goes through it, in order, written by a
// textWriter (text.go) in exactly the form gofmt prints. It owns the
// imports: a qualified identifier (a goType naming an imported package's
// identifier, protogen's GoIdent) is resolved once per file when it is
// written (typeText, P), which records the import and picks the package's
// name or alias, and render writes the import block once. It holds the
// file's top-level declarations as text, each with its comment; render
// assembles them in order, one blank line apart. Nothing is formatted
// after: go/format over GitHub's 71,000 lines of output cost 0.4 to 0.6 s,
// about as much as the rest of emitting.
type generatedFile struct {
	pkg     string
	header  []string // comment lines above the package doc
	pkgDoc  []string // the package doc comment's lines
	imports map[string]importSpec
	decls   []string // the top-level declarations, in gofmt's form
	// names are the package names of generated packages the file imports
	// (a split API's root), written without an alias.
	names map[string]string
}

// importSpec is how a file refers to an imported package.
type importSpec struct {
	name  string
	alias bool // written in the import block ("_" for a blank import)
}

// knownImports are the non-standard packages generated code imports by
// their own names, without an alias.
var knownImports = map[string]bool{pkgRuntime: true, pkgImpl: true, pkgHTTP: true, pkgMCPClient: true, pkgMCP: true, pkgWebhook: true}

func newGeneratedFile(pkg string) *generatedFile {
	return &generatedFile{pkg: pkg, imports: map[string]importSpec{}}
}

// ident returns name qualified by the package at importPath
// ("json.Marshal"), recording the import.
func (f *generatedFile) ident(importPath, name string) string {
	spec, ok := f.imports[importPath]
	if !ok {
		spec = f.importName(importPath)
		f.imports[importPath] = spec
	}
	return spec.name + "." + name
}

// importName chooses the name of an import: the package's
// own name for the standard library and the runtime packages, otherwise a
// name guessed from the path and written as an alias; a number is added
// when the name is taken.
func (f *generatedFile) importName(importPath string) importSpec {
	name, alias := path.Base(importPath), false
	if major := strings.TrimLeft(strings.TrimPrefix(name, "v"), "0123456789"); stdImport(importPath) && major == "" && name != "v" {
		name = path.Base(path.Dir(importPath)) // math/rand/v2
	} else if n := f.names[importPath]; n != "" {
		name = n
	} else if !stdImport(importPath) && !knownImports[importPath] {
		name, alias = guessImportName(importPath), true
	}
	unique := name
	for i := 1; token.IsKeyword(unique) || f.nameTaken(unique); i++ {
		unique, alias = name+strconv.Itoa(i), true
	}
	return importSpec{name: unique, alias: alias}
}

// stdImport reports whether an import path is the standard library's: no
// dot in its first element.
func stdImport(importPath string) bool {
	first, _, _ := strings.Cut(importPath, "/")
	return !strings.Contains(first, ".")
}

func (f *generatedFile) nameTaken(name string) bool {
	for _, s := range f.imports {
		if s.name == name {
			return true
		}
	}
	return false
}

// guessImportName guesses a package's name from its path, as jennifer
// (which opsgen used to write code with) did: the last element,
// lower-cased, letters and digits only, no leading digits.
func guessImportName(importPath string) string {
	name := strings.ToLower(path.Base(strings.TrimSuffix(importPath, "/")))
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, name)
	name = strings.TrimLeft(name, "0123456789")
	if name == "" {
		return "pkg"
	}
	return name
}

// typeText returns t as Go source, recording the import it needs.
func (f *generatedFile) typeText(t goType) string {
	arg := ""
	if t.arg != nil {
		arg = "[" + f.typeText(*t.arg) + "]"
	}
	if t.pkg == "" {
		return t.prefix + t.name + arg
	}
	return t.prefix + f.ident(t.pkg, t.name) + arg
}

// anon adds a blank import.
func (f *generatedFile) anon(importPath string) {
	f.imports[importPath] = importSpec{name: "_", alias: true}
}

// text adds a declaration (its doc comment included) in gofmt's form.
func (f *generatedFile) text(s string) {
	f.decls = append(f.decls, strings.Trim(s, "\n"))
}

// write adds one declaration in gofmt's form, written by fn, after the doc
// comment d (nil: none).
func (f *generatedFile) write(d *doc, fn func(w *textWriter)) {
	w := newTextWriter(f)
	defer w.done()
	if d != nil {
		w.doc(d.lines())
	}
	fn(w)
	f.text(w.b.String())
}

// writeCommented adds one declaration written by fn after a one-line
// comment.
func (f *generatedFile) writeCommented(comment string, fn func(w *textWriter)) {
	w := newTextWriter(f)
	defer w.done()
	w.P(commentLine(comment))
	fn(w)
	f.text(w.b.String())
}

// render returns the file's content: header, package doc and clause,
// imports, then the declarations in order, one blank line apart.
func (f *generatedFile) render() []byte {
	size := 0
	for _, d := range f.decls {
		size += len(d) + 2
	}
	var b bytes.Buffer
	b.Grow(size + 1024)
	for _, l := range f.header {
		b.WriteString(l + "\n")
	}
	if len(f.header) > 0 {
		b.WriteString("\n")
	}
	for _, l := range f.pkgDoc {
		b.WriteString(l + "\n")
	}
	b.WriteString("package " + f.pkg + "\n")
	f.writeImports(&b)
	for _, d := range f.decls {
		b.WriteByte('\n')
		b.WriteString(d)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// writeImports writes the import block: the standard library's imports,
// then the others, each group sorted by path, as goimports groups them.
func (f *generatedFile) writeImports(b *bytes.Buffer) {
	var std, other []string
	for p := range f.imports {
		if stdImport(p) {
			std = append(std, p)
		} else {
			other = append(other, p)
		}
	}
	slices.Sort(std)
	slices.Sort(other)
	spec := func(p string) string {
		if s := f.imports[p]; s.alias {
			return s.name + " " + strconv.Quote(p)
		}
		return strconv.Quote(p)
	}
	switch len(std) + len(other) {
	case 0:
		return
	case 1:
		b.WriteString("\nimport " + spec(slices.Concat(std, other)[0]) + "\n")
		return
	}
	b.WriteString("\nimport (\n")
	for _, p := range std {
		b.WriteString("\t" + spec(p) + "\n")
	}
	if len(std) > 0 && len(other) > 0 {
		b.WriteString("\n")
	}
	for _, p := range other {
		b.WriteString("\t" + spec(p) + "\n")
	}
	b.WriteString(")\n")
}
