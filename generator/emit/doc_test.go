package emit

import (
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                  "plain",
		"  a\tb\nc\r\nd  ":       "a b c  d",
		"bell\a esc\x1b nul\x00": "bell esc nul",
		"bidi\u202eevil\ufeff":   "bidievil",
		"bad\xffutf8":            "bad\uFFFDutf8",
		"ls\u2028ps\u2029":       "lsps",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextLines(t *testing.T) {
	long := strings.Repeat("word ", 30)
	got := textLines("\n\nFirst line.\r\n\n\n\nSecond paragraph.\n    code  block\n" + long + "\n\n")
	if got[0] != "First line." || got[1] != "" || got[2] != "Second paragraph." || got[3] != "    code  block" {
		t.Errorf("textLines = %q", got)
	}
	for _, l := range got[4:] {
		if len(l) > wrapAt || l == "" {
			t.Errorf("wrapped line %q", l)
		}
	}
	if strings.Join(got[4:], " ") != strings.TrimSpace(long) {
		t.Errorf("wrapping lost words: %q", got[4:])
	}
}

func TestDocHeadingsAndOrigin(t *testing.T) {
	d := newDoc("Op calls it.")
	d.spec(ir.Doc{Summary: "List pets", Description: "Lists them.", Deprecated: true, Origin: "GET /pets"})
	d.origin(ir.Doc{Origin: "GET /pets"})
	want := []string{"Op calls it.", "", "List pets.", "", "Lists them.", "", "Deprecated: the API marks this as deprecated.", "", "GET /pets"}
	if got := d.lines(); !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

// FuzzTextLines checks textLines' one-line fast path against its general
// path: a final line break (which sends any text down the general path)
// changes nothing.
func FuzzTextLines(f *testing.F) {
	for _, s := range []string{"", "a", " a", "a ", "The id.", strings.Repeat("word ", 20), "x\ty", "é", "a  b", strings.Repeat("x", 81)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := textLines(s), textLines(s+"\n"); !slices.Equal(got, want) {
			t.Errorf("textLines(%q) = %q, with a final line break %q", s, got, want)
		}
	})
}
