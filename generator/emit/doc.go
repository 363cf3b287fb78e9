package emit

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/ir"
)

// wrapAt is the width past which long description lines are wrapped.
const wrapAt = 80

// sanitize makes spec text safe for one line comment: valid UTF-8, no
// control characters (tabs and line breaks become spaces, other controls
// are dropped) and no invisible format characters (BOM, bidi overrides).
func sanitize(s string) string {
	if printableASCII(s) {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(neutralize(s, false))
}

// neutralize is sanitize without the trimming, keeping tabs if keepTabs.
func neutralize(s string, keepTabs bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' && keepTabs:
			return r
		case r == '\t', r == '\n', r == '\r':
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\u2028', r == '\u2029':
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}

// printableASCII reports whether s has only printable ASCII characters,
// which sanitize keeps (the common case, checked first for speed).
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// textLines splits spec text into comment lines: line breaks and blank
// lines (paragraphs) are kept, indented lines (code) are kept as they are,
// other long lines are wrapped at word boundaries.
func textLines(s string) []string {
	if len(s) <= wrapAt && printableASCII(s) && s != "" && s[0] != ' ' && s[len(s)-1] != ' ' {
		// One short line, as the loop below leaves it (the usual case).
		return []string{s}
	}
	if strings.Contains(s, "\r") {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for raw := range strings.SplitSeq(s, "\n") {
		indented := strings.HasPrefix(raw, " ") || strings.HasPrefix(raw, "\t")
		line := sanitize(raw)
		if indented && line != "" {
			// Keep the indentation of code blocks (tabs as spaces).
			lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
			line = strings.Repeat(" ", min(lead, 8)) + line
		}
		switch {
		case indented || len(line) <= wrapAt || utf8.RuneCountInString(line) <= wrapAt:
			out = append(out, line)
		case printableASCII(line) && !strings.Contains(line, "  "):
			out = wrapSimple(out, line)
		default:
			out = wrapWords(out, line)
		}
	}
	// Trim blank lines at both ends and collapse runs of blank lines.
	res := out[:0]
	for _, l := range out {
		if l == "" && (len(res) == 0 || res[len(res)-1] == "") {
			continue
		}
		res = append(res, l)
	}
	for len(res) > 0 && res[len(res)-1] == "" {
		res = res[:len(res)-1]
	}
	if len(res) == 0 {
		return nil
	}
	return res
}

// wrapWords appends line wrapped at wrapAt runes: its words (separated by
// any white space) on lines, joined by one space, each line as long as fits
// (a longer word on a line of its own).
func wrapWords(out []string, line string) []string {
	var cur strings.Builder
	n := 0 // runes in cur
	for _, w := range strings.Fields(line) {
		wn := utf8.RuneCountInString(w)
		if n > 0 && n+1+wn > wrapAt {
			out = append(out, cur.String())
			cur.Reset()
			n = 0
		}
		if n > 0 {
			cur.WriteByte(' ')
			n++
		}
		cur.WriteString(w)
		n += wn
	}
	return append(out, cur.String())
}

// wrapSimple is wrapWords for printable ASCII with single spaces between
// words and none at the ends (the usual case): the lines are parts of line.
func wrapSimple(out []string, line string) []string {
	if line == "" {
		return append(out, line)
	}
	for start := 0; start < len(line); {
		if len(line)-start <= wrapAt {
			return append(out, line[start:])
		}
		// The last space at most wrapAt bytes on ends the longest run of
		// words that fits.
		cut := strings.LastIndexByte(line[start:start+wrapAt+1], ' ')
		if cut < 0 {
			// The first word is longer than a line.
			if cut = strings.IndexByte(line[start:], ' '); cut < 0 {
				return append(out, line[start:])
			}
		}
		out = append(out, line[start:start+cut])
		start += cut + 1
	}
	return out
}

// doc is a doc comment under construction: paragraphs of lines.
type doc struct{ paras [][]string }

// para adds a paragraph of spec text (skipped when empty). A one-line
// paragraph gets a final period if it has no punctuation, or gofmt would
// turn it into a heading.
func (d *doc) para(text string) {
	lines := textLines(text)
	if len(lines) == 1 {
		if r, _ := utf8.DecodeLastRuneInString(lines[0]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			lines[0] += "."
		}
	}
	if len(lines) > 0 {
		d.paras = append(d.paras, lines)
	}
}

// raw adds a paragraph of spec text as it is.
func (d *doc) raw(text string) {
	if lines := textLines(text); len(lines) > 0 {
		d.paras = append(d.paras, lines)
	}
}

// spec adds what the spec says: summary, description and Deprecated.
func (d *doc) spec(s ir.Doc) {
	d.para(s.Summary)
	if strings.TrimSpace(s.Description) != strings.TrimSpace(s.Summary) {
		d.para(s.Description)
	}
	if s.Deprecated {
		d.para("Deprecated: the API marks this as deprecated.")
	}
}

// origin ends the comment with the node's origin line.
func (d *doc) origin(s ir.Doc) { d.raw(s.Origin) }

// lines returns the comment's lines, blank lines between paragraphs.
func (d *doc) lines() []string {
	var out []string
	for i, p := range d.paras {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, p...)
	}
	return out
}

// newDoc starts a doc comment with its first sentence.
func newDoc(first string) *doc {
	d := &doc{}
	d.para(first)
	return d
}

// jsonText renders a decoded JSON value (a default, an enum value) for a comment.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// quoted renders spec text as a Go-quoted string for a comment.
func quoted(s string) string { return strconv.Quote(s) }
