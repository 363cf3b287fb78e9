package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// generatedFile is one output file under construction, after protogen's
// GeneratedFile: all of its code goes through it, in order. It owns the
// imports: a qualified identifier is resolved once per file (ident, Qual,
// typeText) and the import block is written once, by render. Declarations
// are text already in gofmt's form (the bulk: structs, enums, methods;
// written as they are) or jennifer code, formatted by go/format one pass
// per run of consecutive jennifer declarations. A run is formatted in its
// own goroutine as soon as it is closed (by the next text declaration, or
// by render), while the file is still being built: on GitHub's description
// types.go had 257 runs (1.4 MB of formatted code, before unions were
// written as text), which formatted one after the other at render time
// were the last 0.1 to 0.3 s of emitting, on one core. Nothing is replaced after formatting: render writes the
// parts in order. One go/format pass over whole files was measured and
// rejected: on GitHub's description (71,000 lines of output) it costs 0.4
// to 0.6 s, about as much as the rest of emitting and half of a whole
// generation.
type generatedFile struct {
	pkg     string
	header  []string // comment lines above the package doc
	pkgDoc  []string // the package doc comment's lines
	imports map[string]importSpec
	parts   []filePart
	// open is the run of jennifer declarations still being added to (the
	// last part), nil when the last part is text.
	open *formatRun
}

// importSpec is how a file refers to an imported package.
type importSpec struct {
	name  string
	alias bool // written in the import block ("_" for a blank import)
}

// filePart is a top-level declaration in gofmt's form (text, its comment
// included), or a run of consecutive jennifer declarations (run != nil).
type filePart struct {
	text string
	run  *formatRun
}

// formatRun is a run of jennifer declarations (each with its comment),
// formatted in its own goroutine once closed: out and err are set when
// done is closed.
type formatRun struct {
	decls [][]jen.Code
	done  chan struct{}
	out   string
	err   error
}

// formatSlots bounds the runs being formatted at once, across files: each
// holds its source, syntax tree and output in memory.
var formatSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// knownImports are the non-standard packages generated code imports by
// their own names, without an alias.
var knownImports = map[string]bool{pkgRuntime: true, pkgHTTP: true, pkgMCPClient: true, pkgMCP: true}

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

// importName chooses the name of an import as jennifer does: the package's
// own name for the standard library and the runtime packages, otherwise a
// name guessed from the path and written as an alias; a number is added
// when the name is taken.
func (f *generatedFile) importName(importPath string) importSpec {
	name, alias := path.Base(importPath), false
	if major := strings.TrimLeft(strings.TrimPrefix(name, "v"), "0123456789"); stdImport(importPath) && major == "" && name != "v" {
		name = path.Base(path.Dir(importPath)) // math/rand/v2
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

// guessImportName is jennifer's guess of a package name from its path: the
// last element, lower-cased, letters and digits only, no leading digits.
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

// Qual is jennifer code for the qualified identifier ident returns.
func (f *generatedFile) Qual(importPath, name string) *jen.Statement {
	return jen.Id(f.ident(importPath, name))
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

// typeCode returns t as jennifer code.
func (f *generatedFile) typeCode(t goType) *jen.Statement { return jen.Id(f.typeText(t)) }

// anon adds a blank import.
func (f *generatedFile) anon(importPath string) {
	f.imports[importPath] = importSpec{name: "_", alias: true}
}

// text adds a declaration (its doc comment included) in gofmt's form.
func (f *generatedFile) text(s string) {
	f.closeRun()
	f.parts = append(f.parts, filePart{text: strings.Trim(s, "\n")})
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

// decl adds jennifer code preceded by the doc comment d (nil: none).
func (f *generatedFile) decl(d *doc, code ...jen.Code) {
	var all []jen.Code
	if d != nil {
		for _, l := range commentLines(d.lines(), true) {
			all = append(all, jen.Comment(l))
		}
	}
	f.addCode(append(all, code...))
}

// commented adds jennifer code preceded by a one-line comment.
func (f *generatedFile) commented(comment string, code ...jen.Code) {
	f.addCode(append([]jen.Code{lineComment(comment)}, code...))
}

// addCode adds a jennifer declaration to the open run, opening one if the
// last part is text.
func (f *generatedFile) addCode(code []jen.Code) {
	if f.open == nil {
		f.open = &formatRun{done: make(chan struct{})}
		f.parts = append(f.parts, filePart{run: f.open})
	}
	f.open.decls = append(f.open.decls, code)
}

// closeRun starts formatting the open run, if any. The run's code must not
// change afterwards: nothing appends to jennifer code once it is added.
func (f *generatedFile) closeRun() {
	r := f.open
	if r == nil {
		return
	}
	f.open = nil
	go func() {
		formatSlots <- struct{}{}
		r.out, r.err = f.formatCode(r.decls)
		<-formatSlots
		r.decls = nil
		close(r.done)
	}()
}

// lineComment is a comment line in jennifer code.
func lineComment(text string) jen.Code { return jen.Comment(commentLine(text)) }

// render returns the file's content: header, package doc and clause,
// imports, then the declarations in order, one blank line apart. errs are
// formatting failures (bugs): the code in question is then left
// unformatted, so that the compiler can point at the problem. It waits for
// the file's runs of jennifer code to be formatted.
func (f *generatedFile) render() (out []byte, errs []error) {
	f.closeRun()
	size := 0
	for _, p := range f.parts {
		if p.run != nil {
			<-p.run.done
			if p.run.err != nil {
				errs = append(errs, p.run.err)
			}
			size += len(p.run.out)
		}
		size += len(p.text) + 2
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
	for _, p := range f.parts {
		b.WriteByte('\n')
		if p.run != nil {
			b.WriteString(p.run.out)
		} else {
			b.WriteString(p.text)
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), errs
}

// formatCode renders a run of jennifer declarations, one blank line apart,
// and formats them in one go/format pass.
func (f *generatedFile) formatCode(decls [][]jen.Code) (string, error) {
	jf := jen.NewFile(f.pkg)
	jf.NoFormat = true
	for _, d := range decls {
		for _, c := range d {
			jf.Add(c)
		}
		jf.Line()
	}
	var src bytes.Buffer
	if err := jf.Render(&src); err != nil {
		return "", fmt.Errorf("generated code could not be rendered: %v", firstLine(err.Error()))
	}
	// Qualified names are resolved by the file (Qual), never by jennifer:
	// what it renders is the package clause and the declarations.
	clause := []byte("package " + f.pkg + "\n\n")
	body, ok := bytes.CutPrefix(src.Bytes(), clause)
	if !ok || bytes.HasPrefix(body, []byte("import")) {
		return src.String(), fmt.Errorf("generated code imports packages by itself (jen.Qual)")
	}
	formatted, err := format.Source(src.Bytes())
	if err != nil {
		return string(bytes.Trim(body, "\n")), fmt.Errorf("generated code could not be formatted: %v", firstLine(err.Error()))
	}
	return string(bytes.Trim(bytes.TrimPrefix(formatted, clause), "\n")), nil
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
