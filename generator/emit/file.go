package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"path"
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
// written as they are) or jennifer code (formatted by go/format when the
// file is rendered, one pass per run of consecutive jennifer declarations).
// Nothing is replaced after formatting: render writes the parts in order.
// One go/format pass over whole files was measured and rejected: on
// GitHub's description (71,000 lines of output) it costs 0.4 to 0.6 s, about
// as much as the rest of emitting and half of a whole generation.
type generatedFile struct {
	pkg     string
	header  []string // comment lines above the package doc
	pkgDoc  []string // the package doc comment's lines
	imports map[string]importSpec
	decls   []fileDecl
}

// importSpec is how a file refers to an imported package.
type importSpec struct {
	name  string
	alias bool // written in the import block ("_" for a blank import)
}

// fileDecl is a top-level declaration with its comment: text in gofmt's
// form, or jennifer code (code != nil).
type fileDecl struct {
	text string
	code []jen.Code
}

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
	f.decls = append(f.decls, fileDecl{text: strings.Trim(s, "\n")})
}

// decl adds jennifer code preceded by the doc comment d (nil: none).
func (f *generatedFile) decl(d *doc, code ...jen.Code) {
	var all []jen.Code
	if d != nil {
		for _, l := range commentLines(d.lines(), true) {
			all = append(all, jen.Comment(l))
		}
	}
	f.decls = append(f.decls, fileDecl{code: append(all, code...)})
}

// commented adds jennifer code preceded by a one-line comment.
func (f *generatedFile) commented(comment string, code ...jen.Code) {
	f.decls = append(f.decls, fileDecl{code: append([]jen.Code{lineComment(comment)}, code...)})
}

// lineComment is a comment line in jennifer code.
func lineComment(text string) jen.Code { return jen.Comment(commentLine(text)) }

// render returns the file's content: header, package doc and clause,
// imports, then the declarations in order, one blank line apart. errs are
// formatting failures (bugs): the code in question is then left
// unformatted, so that the compiler can point at the problem.
func (f *generatedFile) render() (out []byte, errs []error) {
	parts := make([]string, 0, len(f.decls))
	for i := 0; i < len(f.decls); {
		if f.decls[i].code == nil {
			parts = append(parts, f.decls[i].text)
			i++
			continue
		}
		end := i + 1
		for end < len(f.decls) && f.decls[end].code != nil {
			end++
		}
		s, err := f.formatCode(f.decls[i:end])
		if err != nil {
			errs = append(errs, err)
		}
		parts = append(parts, s)
		i = end
	}
	var b bytes.Buffer
	size := 0
	for _, p := range parts {
		size += len(p) + 2
	}
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
	for _, p := range parts {
		b.WriteString("\n" + p + "\n")
	}
	return b.Bytes(), errs
}

// formatCode renders a run of jennifer declarations, one blank line apart,
// and formats them in one go/format pass.
func (f *generatedFile) formatCode(decls []fileDecl) (string, error) {
	jf := jen.NewFile(f.pkg)
	jf.NoFormat = true
	for _, d := range decls {
		for _, c := range d.code {
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
