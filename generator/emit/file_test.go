package emit

import (
	"strings"
	"testing"

	"go/format"
	"strconv"
)

// TestGeneratedFileImports checks the import block a file writes: names
// resolved once per path (the package's own name for the standard library
// and the runtime, an alias guessed from the path otherwise, a number when
// taken), standard library first, blank imports, one import without
// parentheses.
func TestGeneratedFileImports(t *testing.T) {
	f := newGeneratedFile("p")
	got := []string{
		f.ident("encoding/json", "Marshal"),
		f.ident("math/rand/v2", "N"),
		f.ident(pkgHTTP, "Client"),
		f.ident("example.com/my-types.v2/Custom_Types", "UUID"),
		f.ident("example.com/other/customtypes", "UUID"),
		f.ident("encoding/json", "RawMessage"),
		f.typeText(nullableOf(qual("time", "Time").ptr()).under("[]")),
	}
	want := []string{"json.Marshal", "rand.N", "httpclient.Client", "customtypes.UUID", "customtypes1.UUID", "json.RawMessage", "[]runtime.Nullable[*time.Time]"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("idents = %q, want %q", got, want)
	}
	f.anon(pkgFullSchema)
	f.write(nil, func(w *textWriter) { w.P("var _ = ", qual("io", "EOF")) })
	out := f.render()
	wantSrc := `package p

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"time"

	customtypes "example.com/my-types.v2/Custom_Types"
	customtypes1 "example.com/other/customtypes"
	"github.com/opsgen/opsgen/runtime"
	_ "github.com/opsgen/opsgen/runtime/fullschema"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

var _ = io.EOF
`
	if string(out) != wantSrc {
		t.Errorf("got:\n%s\nwant:\n%s", out, wantSrc)
	}

	one := newGeneratedFile("p")
	one.text("var V = " + one.ident("io", "EOF"))
	if out := one.render(); string(out) != "package p\n\nimport \"io\"\n\nvar V = io.EOF\n" {
		t.Errorf("one import:\n%s", out)
	}
}

// TestWriterP checks P: strings are written as they are, types qualified
// through the file (their imports recorded), anything else is a bug.
func TestWriterP(t *testing.T) {
	f := newGeneratedFile("p")
	w := newTextWriter(f)
	defer w.done()
	w.P("var x ", nullableOf(qual("example.com/a/json", "T")), " = ", qual("encoding/json", "Marshal"))
	if got, want := w.b.String(), "var x runtime.Nullable[json.T] = json1.Marshal\n"; got != want {
		t.Errorf("P wrote %q, want %q", got, want)
	}
	if s := f.imports["encoding/json"]; s.name != "json1" || !s.alias {
		t.Errorf("encoding/json imported as %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("P of an int did not panic")
		}
	}()
	w.P(1)
}

// TestKeyValuesAsGofmt checks the alignment of composite literals' keys
// against gofmt: short keys, keys longer than 40 bytes (aligned only with
// keys of similar sizes), non-ASCII keys (aligned by runes), one element,
// and an element too long to align.
func TestKeyValuesAsGofmt(t *testing.T) {
	long := func(n int) string { return strconv.Quote(strings.Repeat("k", n)) }
	for _, kvs := range [][]keyValue{
		{{"ID", `"a"`}, {"Description", `"b"`}, {"Kind", "runtime.KindQuery"}},
		{{"A", "1"}},
		{{long(130), "&v.A"}, {`"back` + "`" + `tick"`, "&v.D"}, {`"comma,omitempty"`, "&v.E"}, {`"quote\"d"`, "&v.C"}},
		{{`"a"`, "1"}, {long(45), "2"}, {long(50), "3"}, {`"b"`, "4"}, {long(200), "5"}, {long(60), "6"}},
		{{`"größe, cm"`, "&v.A"}, {`"weight, kg"`, "&v.B"}},
		{{long(45), "1"}, {long(50), "2"}, {long(100), "3"}, {long(130), "4"}, {long(20), "5"}, {long(10), "6"}, {long(41), "7"}, {`"ééééééééééééééééééééééééééééééééééééééééééé"`, "8"}},
		{{"X", "1"}, {"Y", strconv.Quote(strings.Repeat("v", 1e6))}, {"Zzz", "3"}},
	} {
		w := newTextWriter(newGeneratedFile("p"))
		w.P("var x = map[string]any{")
		w.keyValues("\t", kvs)
		w.P("}")
		src := "package p\n\n" + w.b.String()
		w.done()
		got, err := format.Source([]byte(src))
		if err != nil {
			t.Fatalf("%v:\n%.2000s", err, src)
		}
		if string(got) != src {
			t.Errorf("got:\n%.2000s\nwant (gofmt):\n%.2000s", src, got)
		}
	}
}
