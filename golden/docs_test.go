package golden

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocsDescribeGeneratedTypes checks, on every golden package, that the
// package doc describes the Go types the package actually uses (a type the
// doc does not name, or a doc naming the wrong one, misleads the reader),
// and that NewClient's doc does not repeat a paragraph of the package doc.
func TestDocsDescribeGeneratedTypes(t *testing.T) {
	dirs, err := filepath.Glob("*/*/client.go")
	if err != nil || len(dirs) < 10 {
		t.Fatalf("golden packages: %v, %v", dirs, err)
	}
	seen := map[string]bool{}
	for _, client := range dirs {
		dir := filepath.Dir(client)
		t.Run(dir, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, client, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			pkgDoc := oneLine(f.Doc.Text())
			var code strings.Builder
			for _, name := range []string{"types.go", "operations.go", "tools.go"} {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err == nil {
					code.Write(b)
				}
			}
			// What the package uses, and what its doc must then say.
			for use, says := range map[string]string{
				"runtime.Nullable[": "runtime.Nullable[T]",
				"runtime.Date":      "date runtime.Date",
				"time.Time":         "date-time is time.Time",
				" *":                "new(",
			} {
				if strings.Contains(code.String(), use) {
					seen[use] = true
					if !strings.Contains(pkgDoc, says) {
						t.Errorf("the package uses %q; its doc does not say %q", use, says)
					}
				}
			}
			for _, wrong := range []string{"date a string", "optional and nullable properties are pointers"} {
				if strings.Contains(pkgDoc, wrong) {
					t.Errorf("package doc says %q", wrong)
				}
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Name.Name != "NewClient" {
					continue
				}
				for _, para := range strings.Split(fn.Doc.Text(), "\n\n") {
					if para = oneLine(para); para != "" && strings.Contains(pkgDoc, para) {
						t.Errorf("NewClient's doc repeats the package doc's paragraph %q", para)
					}
				}
			}
		})
	}
	// The check above must have met each kind of type somewhere.
	for _, use := range []string{"runtime.Nullable[", "runtime.Date", "time.Time", " *"} {
		if !seen[use] {
			t.Errorf("no golden package uses %q: the test checks nothing for it", use)
		}
	}
}

// oneLine is s with its runs of white space made single spaces, as doc
// comments wrap text anywhere.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
