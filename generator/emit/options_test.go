package emit

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runtimeOptions returns the exported With* functions of the runtime
// package in dir, each as its parameter list and result as a generated
// client would write them (the package's own names qualified by pkgName),
// skipping the names in skip.
func runtimeOptions(t *testing.T, dir, pkgName string, skip ...string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	local := map[string]bool{}
	var funcs []*ast.FuncDecl
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						local[ts.Name.Name] = true
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && strings.HasPrefix(d.Name.Name, "With") && !slices.Contains(skip, d.Name.Name) {
					funcs = append(funcs, d)
				}
			}
		}
	}
	out := map[string]string{}
	for _, fn := range funcs {
		typ := fn.Type
		// Qualify the package's own type names, as a client of it writes them.
		ast.Inspect(typ, func(n ast.Node) bool {
			if _, ok := n.(*ast.SelectorExpr); ok {
				return false // another package's name
			}
			if id, ok := n.(*ast.Ident); ok && local[id.Name] {
				id.Name = pkgName + "." + id.Name
			}
			return true
		})
		out[fn.Name.Name] = signatureText(t, fset, typ)
	}
	return out
}

// generatedOptions returns the With* declarations of a generated file,
// functions as their signature text and variables as "var".
func generatedOptions(t *testing.T, src []byte) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "client.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if strings.HasPrefix(d.Name.Name, "With") {
				// The generated client's own Option and CallOption are aliases
				// of the runtime's.
				sig := signatureText(t, fset, d.Type)
				for _, o := range []string{"Option", "CallOption"} {
					if strings.HasSuffix(sig, ") "+o) {
						sig = strings.TrimSuffix(sig, o) + "RUNTIME." + o
					}
				}
				out[d.Name.Name] = sig
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						if strings.HasPrefix(n.Name, "With") {
							out[n.Name] = "var"
						}
					}
				}
			}
		}
	}
	return out
}

func signatureText(t *testing.T, fset *token.FileSet, typ *ast.FuncType) string {
	t.Helper()
	var b strings.Builder
	if err := printer.Fprint(&b, fset, typ); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOptionsAreFunctions checks that a generated client declares every
// option of its runtime as a function with the runtime option's signature
// (so `go doc` shows it and it cannot be reassigned), and none as a
// variable.
func TestOptionsAreFunctions(t *testing.T) {
	root := moduleRoot(t)
	for _, c := range []struct {
		name, dir, pkg string
		files          []File
		skip           []string
	}{
		// WithCredential is wrapped by the security options (WithAPIKey...).
		{"http", "runtime/httpclient", "httpclient", must(emit(t, petstore(), Options{Package: "petstore", Version: "v0.1.0", Registry: true})), []string{"WithCredential"}},
		{"mcp", "runtime/mcpclient", "mcpclient", must(emit(t, mcpService(), Options{Package: "tools", Version: "v0.1.0", Registry: true})), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := runtimeOptions(t, filepath.Join(root, c.dir), c.pkg, c.skip...)
			if len(want) < 8 {
				t.Fatalf("found %d options in %s: %v", len(want), c.dir, want)
			}
			i := slices.IndexFunc(c.files, func(f File) bool { return f.Name == "client.go" })
			got := generatedOptions(t, c.files[i].Content)
			for name, sig := range want {
				sig = strings.ReplaceAll(sig, c.pkg+".Option", "RUNTIME.Option")
				sig = strings.ReplaceAll(sig, c.pkg+".CallOption", "RUNTIME.CallOption")
				if got[name] != sig {
					t.Errorf("%s: generated %q, runtime %q", name, got[name], sig)
				}
			}
			for name, sig := range got {
				if sig == "var" {
					t.Errorf("%s is a package variable", name)
				}
			}
		})
	}
}

func must[T, D any](v T, _ D) T { return v }
