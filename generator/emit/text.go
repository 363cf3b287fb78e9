package emit

import (
	"bytes"
	"cmp"
	"fmt"
	"go/doc/comment"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// The bulk of a large package's code is plain declarations: structs with
// tagged fields, enums with their constants and Known method, parameter
// structs. Rendering them through jennifer and go/format took most of the
// generation time on large specs, so they are written here directly, in
// exactly the form gofmt prints them; everything else stays jennifer code.
// A file is jennifer code in which a marker declaration stands for each text
// part; after go/format, the text parts replace the markers. Tests check that
// every generated file is unchanged by gofmt.

// partMarker is the declaration that marks the place of a text part in a
// file's jennifer code; gofmt prints it on a line of its own, and no spec
// text can produce that line (spec text only reaches comments and quoted
// literals).
const partMarker = `const _ = "opsgen:part"`

// file is a generated file under construction: jennifer code, with text
// parts (declarations in gofmt's form) at the places marked in the code. A
// large file is built in chunks (split): each is rendered in its own
// goroutine as soon as it is complete.
type file struct {
	*jen.File            // the code of the chunk being built
	texts     []textPart // the text parts of the chunk being built
	// imports maps the import paths the text parts use to one of the names
	// they use from it, so that jennifer writes the import block.
	imports map[string]string
	newCode func() *jen.File
	chunks  []*chunk // the complete chunks, rendering
	wg      sync.WaitGroup
}

// textPart is text in gofmt's form; glue says it is a doc comment, followed
// by the jennifer code of its declaration on the next line.
type textPart struct {
	s    string
	glue bool
}

// chunk is a rendered part of a file.
type chunk struct {
	prelude []byte // header comments, package clause and imports
	body    []byte // the declarations
	err     error
}

// Declarations per chunk of operations.go and types.go: a chunk of
// operations is about as much work to render as a chunk of types.
var opsPerChunk, typesPerChunk = 200, 1000

// makeFile returns a file whose chunks' code newCode begins.
func makeFile(newCode func() *jen.File) *file {
	f := &file{imports: map[string]string{}, newCode: newCode}
	f.start()
	return f
}

// start begins a chunk. Its first marker separates the prelude from the
// declarations.
func (f *file) start() {
	f.File, f.texts = f.newCode(), nil
	f.mark()
}

// mark adds a marker: the place of the next text part, or an end.
func (f *file) mark() {
	f.Add(jen.Const().Id("_").Op("=").Lit("opsgen:part"))
	f.Line()
}

// text adds a declaration written in gofmt's form.
func (f *file) text(s string) {
	f.mark()
	f.texts = append(f.texts, textPart{s: s})
}

// doc adds the doc comment of the declaration added next (as jennifer
// code): go/format spends most of its time on comments, so they are written
// as text.
func (f *file) doc(d *doc) {
	lines := d.lines()
	if len(lines) == 0 {
		return
	}
	w := &textWriter{}
	w.doc(lines)
	f.mark()
	f.texts = append(f.texts, textPart{s: strings.TrimSuffix(w.b.String(), "\n"), glue: true})
}

// split completes the current chunk, which starts rendering, and begins
// another.
func (f *file) split() {
	c, code, texts := &chunk{}, f.File, f.texts
	f.chunks = append(f.chunks, c)
	f.wg.Go(func() { c.render(code, texts, nil) })
	f.start()
}

// render completes the file and returns its content; errs are the chunks'
// rendering failures (bugs: the content is then unformatted, so that the
// compiler can point at the problem).
func (f *file) render() (out []byte, errs []error) {
	last := &chunk{}
	last.render(f.File, f.texts, f.imports)
	f.wg.Wait()
	chunks := append(f.chunks, last)
	var b bytes.Buffer
	size := 0
	for _, c := range chunks {
		size += len(c.prelude) + len(c.body) + 2
	}
	b.Grow(size + 1)
	if len(chunks) == 1 {
		b.Write(last.prelude)
	} else {
		b.Write(mergePreludes(chunks))
	}
	for _, c := range chunks {
		if c.err != nil {
			errs = append(errs, c.err)
		}
		if len(c.body) > 0 {
			b.WriteString("\n\n")
			b.Write(c.body)
		}
	}
	b.WriteByte('\n')
	return b.Bytes(), errs
}

// render formats code, adding an end marker and, for the last chunk, uses
// of the text parts' imports (dropped by the splice), and puts the text
// parts in.
func (c *chunk) render(code *jen.File, texts []textPart, imports map[string]string) {
	code.Add(jen.Const().Id("_").Op("=").Lit("opsgen:part"))
	for _, path := range sortedKeys(imports) {
		code.Var().Id("_").Qual(path, imports[path])
	}
	var b bytes.Buffer
	if err := code.Render(&b); err != nil {
		c.err = fmt.Errorf("generated code could not be formatted: %v", firstLine(err.Error()))
		b.Reset()
		code.NoFormat = true
		if err := code.Render(&b); err != nil {
			c.err = fmt.Errorf("generated code could not be rendered: %v", firstLine(err.Error()))
		}
	}
	if err := c.splice(b.Bytes(), texts); err != nil && c.err == nil {
		c.err = err
	}
}

// splice cuts the rendered code src at the markers and puts the text parts
// in their places, one blank line between declarations.
func (c *chunk) splice(src []byte, texts []textPart) error {
	pieces := bytes.Split(src, []byte("\n"+partMarker+"\n"))
	if len(pieces) != len(texts)+3 {
		c.body = src
		return fmt.Errorf("generated code could not be assembled: %d part markers, want %d", len(pieces)-1, len(texts)+2)
	}
	c.prelude = bytes.Trim(pieces[0], "\n")
	size := 0
	for _, t := range texts {
		size += len(t.s) + 2
	}
	for _, p := range pieces {
		size += len(p)
	}
	var b bytes.Buffer
	b.Grow(size)
	glue := false
	add := func(s []byte, glueNext bool) {
		s = bytes.Trim(s, "\n")
		if len(s) == 0 {
			return
		}
		if b.Len() > 0 {
			if glue {
				b.WriteByte('\n')
			} else {
				b.WriteString("\n\n")
			}
		}
		b.Write(s)
		glue = glueNext
	}
	add(pieces[1], false)
	for i, t := range texts {
		add([]byte(t.s), t.glue)
		add(pieces[i+2], false)
	}
	// The last piece, the imports' uses, is dropped.
	c.body = b.Bytes()
	return nil
}

// mergePreludes returns the first chunk's header and package clause with
// the imports of all the chunks, as gofmt writes them (sorted by path).
func mergePreludes(chunks []*chunk) []byte {
	var head []byte
	seen := map[string]bool{}
	var specs []string
	for i, c := range chunks {
		h, ss := splitImports(c.prelude)
		if i == 0 {
			head = h
		}
		for _, s := range ss {
			if !seen[s] {
				seen[s] = true
				specs = append(specs, s)
			}
		}
	}
	path := func(spec string) string { return spec[strings.IndexByte(spec, '"'):] }
	slices.SortFunc(specs, func(a, b string) int { return cmp.Or(cmp.Compare(path(a), path(b)), cmp.Compare(a, b)) })
	b := bytes.NewBuffer(slices.Clip(head))
	switch len(specs) {
	case 0:
	case 1:
		b.WriteString("\n\nimport " + specs[0])
	default:
		b.WriteString("\n\nimport (\n\t" + strings.Join(specs, "\n\t") + "\n)")
	}
	return b.Bytes()
}

// splitImports splits a gofmt'd prelude into what precedes its import
// declaration and its import specs.
func splitImports(prelude []byte) (head []byte, specs []string) {
	i := bytes.Index(prelude, []byte("\nimport "))
	if i < 0 {
		return prelude, nil
	}
	head, rest := bytes.TrimRight(prelude[:i], "\n"), string(prelude[i+len("\nimport "):])
	if block, ok := strings.CutPrefix(rest, "(\n"); ok {
		block, _, _ = strings.Cut(block, "\n)")
		for _, l := range strings.Split(block, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				specs = append(specs, l)
			}
		}
		return head, specs
	}
	return head, []string{strings.TrimSpace(rest)}
}

// textWriter writes declarations in gofmt's form.
type textWriter struct {
	b       strings.Builder
	imports map[string]string
}

// typeText returns t's text, recording its import.
func (w *textWriter) typeText(t goType) string { return t.text(w.imports) }

// doc writes a top-level doc comment.
func (w *textWriter) doc(lines []string) { w.comment("", lines) }

// comment writes the comment made by doc.lines, indented.
func (w *textWriter) comment(indent string, lines []string) {
	for _, l := range commentLines(lines, indent == "") {
		w.b.WriteString(indent + l + "\n")
	}
}

// commentLines returns the comment made by doc.lines ("//" lines) as gofmt
// prints it. gofmt reformats every comment opsgen writes (go/printer's
// formatDocComment applies to comments starting a line that abut the next
// token, and jennifer's unformatted output is not indented): lines that
// reformatting could change go through the same go/doc/comment parser and
// printer. A top-level comment is reformatted until it no longer changes,
// since gofmt would reformat it again in the generated file; an indented
// one (a field's, a constant's) is left alone by gofmt there.
func commentLines(lines []string, topLevel bool) []string {
	if docNeedsFormat(lines) {
		passes := 1
		if topLevel {
			passes = 4
		}
		lines = formatDoc(lines, passes)
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case l == "":
			out[i] = "//"
		case l[0] == '\t':
			out[i] = "//" + l
		default:
			out[i] = "// " + l
		}
	}
	return out
}

// docNeedsFormat reports whether go/doc/comment could print lines
// differently: code blocks and lists (indented lines), headings (new "# "
// style, and old style: a one-line paragraph ending in a letter or digit),
// link definitions ("[text]: URL") and the old quotes: two backquotes or
// two single quotes, printed as typographic quotes.
func docNeedsFormat(lines []string) bool {
	for i, l := range lines {
		if l == "" {
			continue
		}
		switch l[0] {
		case ' ', '\t', '[':
			return true
		case '#':
			if len(l) == 1 || l[1] == ' ' || l[1] == '\t' {
				return true
			}
		}
		if strings.Contains(l, "``") || strings.Contains(l, "''") {
			return true
		}
		if i > 0 && lines[i-1] == "" && i+1 < len(lines) && lines[i+1] == "" {
			if r, _ := utf8.DecodeLastRuneInString(l); unicode.IsLetter(r) || unicode.IsDigit(r) {
				return true
			}
		}
	}
	return false
}

// formatDoc reformats a doc comment's lines as go/printer does, up to
// passes times until they no longer change: one pass is not always a fixed
// point (a list after a code block gains indentation on the next pass). The
// result's lines are "" (blank), "\t..." (code) or text.
func formatDoc(lines []string, passes int) []string {
	for range passes {
		var text strings.Builder
		for _, l := range lines {
			text.WriteString(l)
			text.WriteByte('\n')
		}
		var p comment.Parser
		var pr comment.Printer
		out := strings.TrimSuffix(string(pr.Comment(p.Parse(text.String()))), "\n")
		var next []string
		if out != "" {
			next = strings.Split(out, "\n")
		}
		if slices.Equal(next, lines) {
			break
		}
		lines = next
	}
	return lines
}

// structField is a field in gofmt's form: comment lines, then name, type and
// tag in columns aligned over each run of fields without comments.
type structField struct {
	doc        []string
	name, typ  string
	tag        string
	nameW, tyW int
}

// structDecl writes "type name struct {...}".
func (w *textWriter) structDecl(name string, fields []field) {
	sf := make([]structField, len(fields))
	for i, fl := range fields {
		typ := w.typeText(fl.typ)
		sf[i] = structField{doc: fl.doc, name: fl.name, typ: typ, tag: tagText(fl.tag),
			nameW: utf8.RuneCountInString(fl.name), tyW: utf8.RuneCountInString(typ)}
	}
	if len(sf) == 0 {
		w.b.WriteString("type " + name + " struct{}\n")
		return
	}
	w.b.WriteString("type " + name + " struct {\n")
	for start := 0; start < len(sf); {
		// A section: the fields up to the next one with comment lines.
		end := start + 1
		for end < len(sf) && len(sf[end].doc) == 0 {
			end++
		}
		nameW, tyW := 0, 0
		for _, f := range sf[start:end] {
			nameW, tyW = max(nameW, f.nameW), max(tyW, f.tyW)
		}
		for _, f := range sf[start:end] {
			w.comment("\t", f.doc)
			w.b.WriteString("\t" + f.name)
			w.b.WriteString(strings.Repeat(" ", nameW-f.nameW+1))
			w.b.WriteString(f.typ)
			w.b.WriteString(strings.Repeat(" ", tyW-f.tyW+1))
			w.b.WriteString(f.tag + "\n")
		}
		start = end
	}
	w.b.WriteString("}\n")
}

// tagText is the struct tag `json:"value"` as jennifer writes it.
func tagText(value string) string {
	s := "json:" + strconv.Quote(value)
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// litText is a literal of a built-in type as jennifer's Lit writes it.
func litText(v any) string {
	switch v := v.(type) {
	case float64:
		s := fmt.Sprintf("%#v", v)
		if !strings.Contains(s, ".") && !strings.Contains(s, "e") {
			s += ".0"
		}
		return s
	default:
		return fmt.Sprintf("%#v", v)
	}
}
