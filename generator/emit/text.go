package emit

import (
	"bytes"
	"fmt"
	"go/doc/comment"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// All generated code is written here, directly in the form gofmt prints:
// building a syntax (github.com/dave/jennifer, as opsgen once did) and
// formatting it with go/format took most of the generation time on large
// descriptions. Tests check that every generated file is unchanged by
// gofmt, and the goldens that the output is.

// textWriter writes declarations in gofmt's form for a file: code as it is
// (P), qualified identifiers through the file (goType, which records the
// import), spec text only as literals (litText, jsonString, tagText) and
// comments (doc, comment, commentLine), which it cannot break out of.
type textWriter struct {
	b bytes.Buffer
	f *generatedFile
}

// newTextWriter returns a writer for f whose memory is one a writer gave
// back (done): growing a buffer from nothing for each of thousands of
// declarations cost about a tenth of a large types.go's time. (A
// bytes.Buffer, unlike a strings.Builder, copies its text out, so its
// memory can be reused.)
func newTextWriter(f *generatedFile) *textWriter {
	w := &textWriter{f: f}
	w.b = *bytes.NewBuffer((*textBufs.Get().(*[]byte))[:0])
	return w
}

// done gives the writer's memory back; it is not used after.
func (w *textWriter) done() {
	w.b.Reset()
	s := w.b.Bytes()
	w.b = bytes.Buffer{}
	textBufs.Put(&s)
}

// textBufs holds the memory of the writers that are done.
var textBufs = sync.Pool{New: func() any { return new([]byte) }}

// typeText returns t's text, recording its import.
func (w *textWriter) typeText(t goType) string { return w.f.typeText(t) }

// doc writes a top-level doc comment.
func (w *textWriter) doc(lines []string) { w.comment("", lines) }

// comment writes the comment made by doc.lines, indented: the lines of
// commentLines, written piece by piece (this is the bulk of the output).
func (w *textWriter) comment(indent string, lines []string) {
	if docNeedsFormat(lines) {
		for _, l := range commentLines(lines, indent == "") {
			w.b.WriteString(indent)
			w.b.WriteString(l)
			w.b.WriteByte('\n')
		}
		return
	}
	for _, l := range lines {
		t := commentText(l)
		w.b.WriteString(indent)
		w.b.WriteString(commentPrefix(t))
		w.b.WriteString(t)
		w.b.WriteByte('\n')
	}
}

// commentLines returns the comment made by doc.lines ("//" lines) as gofmt
// prints it. gofmt reformats every comment opsgen writes (go/printer's
// formatDocComment applies to comments starting a line that abut the next
// token): lines that
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
		out[i] = commentLine(l)
	}
	return out
}

// commentLine is the one way text becomes a comment: a "//" line comment
// ("//" alone for "", "//\t..." for a code line). Whatever the text, it
// cannot end the comment or act as code: it is neutralized as sanitize
// does (line breaks become spaces; U+2028, U+2029, other control and
// format characters are dropped; invalid UTF-8 is replaced), "+build" is
// split (go vet reads it as a build
// constraint before the package clause), and "*/" is inert in a line
// comment (opsgen writes no block comments). Spec text is sanitized before
// (textLines), so on the usual path this changes nothing; it is the
// guarantee.
func commentLine(text string) string {
	text = commentText(text)
	return commentPrefix(text) + text
}

// commentText is text made safe for a comment line: neutralized, and
// without a build constraint.
func commentText(text string) string {
	if !printableASCII(text) {
		text = neutralize(text, true) // code lines are indented with tabs
	}
	if strings.Contains(text, "+build") {
		// Before the package clause, go vet takes it for a build constraint.
		text = strings.ReplaceAll(text, "+build", "+ build")
	}
	return text
}

// commentPrefix is what starts the comment line of text (commentText's):
// "//" before nothing or a tab, else "// ".
func commentPrefix(text string) string {
	if text == "" || text[0] == '\t' {
		return "//"
	}
	return "// "
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

// structDecl writes "type name struct {...}", a struct that is not
// comparable.
func (w *textWriter) structDecl(name string, fields []field) {
	sf := w.structFields(fields)
	// The object and parameter structs written here start with a
	// opsgenimpl.NotComparable (its doc says why), in a section of its own.
	w.b.WriteString("type " + name + " struct {\n\t_ " + w.typeText(qual(pkgImpl, "NotComparable")) + "\n")
	if len(sf) > 0 {
		w.b.WriteString("\n")
	}
	w.fieldLines("\t", sf)
	w.b.WriteString("}\n")
}

// plainStructDecl writes "type name struct {...}" with fields without
// tags.
func (w *textWriter) plainStructDecl(name string, fields []field) {
	if len(fields) == 0 {
		w.P("type ", name, " struct{}")
		return
	}
	sf := w.structFields(fields)
	w.P("type ", name, " struct {")
	w.fieldLines("\t", sf)
	w.P("}")
}

// structFields returns fields with their types' texts (recording their
// imports) and tags ("" for none).
func (w *textWriter) structFields(fields []field) []structField {
	sf := make([]structField, len(fields))
	for i, fl := range fields {
		typ, tag := w.typeText(fl.typ), ""
		if fl.tag != "" {
			tag = tagText(fl.tag)
		}
		sf[i] = structField{doc: fl.doc, name: fl.name, typ: typ, tag: tag,
			nameW: utf8.RuneCountInString(fl.name), tyW: utf8.RuneCountInString(typ)}
	}
	return sf
}

// fieldLines writes the fields of a struct type after indent, aligned in
// sections of fields without comment lines.
func (w *textWriter) fieldLines(indent string, sf []structField) {
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
			w.comment(indent, f.doc)
			w.b.WriteString(indent)
			w.b.WriteString(f.name)
			w.pad(nameW - f.nameW + 1)
			w.b.WriteString(f.typ)
			if f.tag != "" {
				w.pad(tyW - f.tyW + 1)
				w.b.WriteString(f.tag)
			}
			w.b.WriteByte('\n')
		}
		start = end
	}
}

// pad writes n spaces.
func (w *textWriter) pad(n int) {
	const spaces = "                                                                "
	for ; n > len(spaces); n -= len(spaces) {
		w.b.WriteString(spaces)
	}
	w.b.WriteString(spaces[:n])
}

// tagText is the struct tag `json:"value"`: backquoted, or quoted when it
// cannot be.
func tagText(value string) string {
	s := "json:" + strconv.Quote(value)
	if strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// litText is a literal of a built-in type (Go syntax, %#v; a float64 with
// a decimal point), the one way a string from the spec becomes code.
func litText(v any) string {
	s := fmt.Sprintf("%#v", v)
	if _, ok := v.(float64); ok && !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// P writes parts, then a line break, as protogen's GeneratedFile.P does:
// a string is Go code written as it is (constant code and checked names,
// never spec text: that goes through litText and the comment methods), a
// goType its text, qualified through the file (its import recorded).
func (w *textWriter) P(parts ...any) {
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			w.b.WriteString(p)
		case goType:
			w.b.WriteString(w.typeText(p))
		default:
			panic(fmt.Sprintf("emit: P of a %T", p))
		}
	}
	w.b.WriteByte('\n')
}

// keyValue is an element "key: value" of a composite literal.
type keyValue struct{ key, value string }

// keyValues writes the elements of a composite literal, one per line
// after indent, each followed by a comma, with the values aligned as
// gofmt aligns them (go/printer's exprList): in sections of lines whose
// keys have similar sizes (both at most 40 bytes, or within a ratio of
// 2.5 of the geometric mean of the section's sizes so far), the values
// start one space after the longest "key:" of the section.
func (w *textWriter) keyValues(indent string, kvs []keyValue) {
	const infinity = 1e6          // go/printer's limit of a line's size
	size := make([]int, len(kvs)) // the key's size; 0 if the element is too long to align
	for i, kv := range kvs {
		if len(kv.key)+2+len(kv.value) <= infinity {
			size[i] = len(kv.key)
		}
	}
	for start := 0; start < len(kvs); {
		end := start + 1
		if size[start] > 0 {
			// The mean is over the section's sizes (a section break resets it).
			lnsum, count := math.Log(float64(size[start])), 1
			for end < len(kvs) && size[end] > 0 {
				prev, s := size[end-1], size[end]
				if !(prev <= 40 && s <= 40) {
					ratio := float64(s) / math.Exp(lnsum/float64(count))
					if 2.5*ratio <= 1 || 2.5 <= ratio {
						break // a new section
					}
				}
				lnsum, count = lnsum+math.Log(float64(s)), count+1
				end++
			}
		}
		width := 0
		for _, kv := range kvs[start:end] {
			width = max(width, utf8.RuneCountInString(kv.key))
		}
		for _, kv := range kvs[start:end] {
			w.b.WriteString(indent)
			w.b.WriteString(kv.key)
			w.b.WriteByte(':')
			if len(kvs) > 1 && size[start] > 0 {
				w.pad(width - utf8.RuneCountInString(kv.key) + 1)
			} else {
				w.b.WriteByte(' ')
			}
			w.b.WriteString(kv.value)
			w.b.WriteString(",\n")
		}
		start = end
	}
}
