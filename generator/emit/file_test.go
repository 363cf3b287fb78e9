package emit

import (
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
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
	f.decl(nil, jen.Var().Id("_").Op("=").Add(f.Qual("io", "EOF")))
	out, errs := f.render()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
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
	if out, _ := one.render(); string(out) != "package p\n\nimport \"io\"\n\nvar V = io.EOF\n" {
		t.Errorf("one import:\n%s", out)
	}
}

// TestGeneratedFileRefusesJenQual checks that jennifer's own import
// handling cannot slip past the file's: jen.Qual is reported.
func TestGeneratedFileRefusesJenQual(t *testing.T) {
	f := newGeneratedFile("p")
	f.decl(nil, jen.Var().Id("_").Op("=").Qual("io", "EOF"))
	if _, errs := f.render(); len(errs) != 1 || !strings.Contains(errs[0].Error(), "jen.Qual") {
		t.Errorf("errs = %v", errs)
	}
}
