package generator_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/emit"
	"github.com/opsgen/opsgen/generator/openapi"
	"github.com/opsgen/opsgen/internal/corpus"
)

// Hostile specs: hand-made ones in testdata/hostile and huge ones made here.
// Each either generates code that builds and vets (checked in one go build
// batch by internal/corpus) or fails with an error naming the place; none
// panics, injects code or writes outside the output directory.

// hostileFails maps the specs that must be refused to a part of the error.
var hostileFails = map[string]string{
	"broken.yaml":          "broken.yaml:4:1: invalid YAML",
	"not-openapi.json":     "not an OpenAPI document",
	"ref-nowhere.yaml":     `ref-nowhere.yaml:4:108 (#/paths/~1a/get/responses/200/content/application~1json/schema): cannot resolve $ref "#/components/schemas/Missing"`,
	"ref-remote.yaml":      "remote $ref \"https://example.invalid/schemas.yaml\" refused",
	"ref-file-escape.yaml": `ref-file-escape.yaml:4:108 (#/paths/~1a/get/responses/200/content/application~1json/schema): cannot resolve $ref "../../../../../../etc/passwd#/x": local file "/etc/passwd" is outside the root directory`,
	"yaml-bomb.yaml":       "excessive aliasing",
}

// TestHostileHugeSpecs generates from specs too big to commit or to compile
// in a unit test: 3,000 operations with the same operationId, a schema
// nested 10,000 deep, an enum of 100,000 values. Each either generates Go
// that parses, with every operation, or is refused with a position.
func TestHostileHugeSpecs(t *testing.T) {
	write := func(name, spec string, nops int) {
		t.Run(name, func(t *testing.T) {
			svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), name, openapi.Options{})
			if nops < 0 {
				if err == nil || !strings.Contains(err.Error(), name+":1:") {
					t.Fatalf("err = %v, want a refusal with a position", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(svc.Operations) != nops {
				t.Errorf("%d operations, want %d", len(svc.Operations), nops)
			}
			if name == "dup-ids.json" && len(diags) != nops-1 {
				t.Errorf("%d warnings, want one per renamed operation", len(diags))
			}
			// 3,000 operations are split into packages (emit.SplitThreshold).
			files, _, err := emit.Emit(svc, emit.Options{Package: "huge", Registry: true, ImportPath: "example.com/huge"})
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			for _, f := range files {
				if _, err := parser.ParseFile(fset, f.Name, f.Content, parser.SkipObjectResolution); err != nil {
					t.Errorf("%s: %v", f.Name, err)
				}
			}
		})
	}
	const head = `{"openapi":"3.0.3","info":{"title":"huge","version":"1"},`
	resp := `"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/T"}}}}}`

	// 3,000 operations with the same operationId.
	var b strings.Builder
	b.WriteString(head + `"paths":{`)
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d":{"get":{"operationId":"dup","responses":{"204":{"description":"ok"}}}}`, i)
	}
	b.WriteString(`}}`)
	write("dup-ids.json", b.String(), 3000)

	// A schema nested 10,000 deep.
	b.Reset()
	b.WriteString(head + `"paths":{"/d":{"get":{"operationId":"deep",` + resp + `}}},"components":{"schemas":{"T":`)
	for range 10000 {
		b.WriteString(`{"type":"object","properties":{"a":`)
	}
	b.WriteString(`{"type":"string"}`)
	b.WriteString(strings.Repeat("}}", 10000))
	b.WriteString(`}}}`)
	// encoding/json refuses nesting over 10,000 levels, with the offset.
	write("deep.json", b.String(), -1)

	// An enum of 100,000 values.
	b.Reset()
	b.WriteString(head + `"paths":{"/e":{"get":{"operationId":"enum",` + resp + `}}},"components":{"schemas":{"T":{"type":"string","enum":[`)
	for i := range 100000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"v%d"`, i)
	}
	b.WriteString(`]}}}}`)
	write("enum.json", b.String(), 1)
}

// TestHostileSpecs runs the specs of testdata/hostile: those of hostileFails
// are refused with the expected error, the others generate, with every
// operation, packages that build, vet and hold no injected code.
func TestHostileSpecs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the generated packages")
	}
	dir := t.TempDir()
	files, err := filepath.Glob("../testdata/hostile/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wantOps := map[string]int{"names.yaml": 14, "injection.yaml": 1, "cyclic.yaml": 1, "ref-wrong-kind.yaml": 3}
	specs, err := corpus.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != len(hostileFails)+len(wantOps) {
		t.Fatalf("%d specs, want %d: %v", len(specs), len(hostileFails)+len(wantOps), specs)
	}
	work := filepath.Join(t.TempDir(), "mod")
	results, err := corpus.Run(t.Context(), specs, corpus.Options{Repo: "..", Work: work, Batch: len(specs)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		name := r.Spec.Name
		if want, ok := hostileFails[name]; ok {
			if r.Outcome != corpus.GenerateFailed || !strings.Contains(r.Reason, want) {
				t.Errorf("%s: %s: %s\nwant generate failed with %q", name, r.Outcome, r.Reason, want)
			}
			continue
		}
		if r.Outcome != corpus.OK {
			t.Errorf("%s: %s\n%s", name, r.Outcome, r.Reason)
			continue
		}
		if r.Ops != wantOps[name] {
			t.Errorf("%s: %d operations, want %d", name, r.Ops, wantOps[name])
		}
		// One warning per $ref of the wrong kind (a parameter and a
		// response used as schemas, a schema used as a response); refs
		// into a schema's properties or an allOf are followed.
		if name == "ref-wrong-kind.yaml" && r.Warnings != 3 {
			t.Errorf("%s: %d warnings, want 3", name, r.Warnings)
		}
		noInjection(t, filepath.Join(work, r.Package))
	}
}

// noInjection parses the generated package and checks that spec text
// reached it only as comments and literals: no identifier PWNED (the
// marker of every injection attempt), no init function, no directive, and
// the package clause the generator chose.
func noInjection(t *testing.T, dir string) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Errorf("%s: no Go files (%v)", dir, err)
		return
	}
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if f.Name.Name != filepath.Base(dir) {
			t.Errorf("%s: package %s", name, f.Name.Name)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				// Sanitized names derived from spec text (EvilFuncPWNED)
				// are fine; the injected code's own name is not.
				if n.Name == "PWNED" {
					t.Errorf("%s: identifier %s at %s", name, n.Name, fset.Position(n.Pos()))
				}
			case *ast.FuncDecl:
				if n.Name.Name == "init" {
					t.Errorf("%s: func init at %s", name, fset.Position(n.Pos()))
				}
			}
			return true
		})
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line ") || strings.HasPrefix(c.Text, "/*line ") {
					t.Errorf("%s: directive %q at %s", name, c.Text, fset.Position(c.Pos()))
				}
			}
		}
	}
}

// TestHostileOutputPaths generates from a spec whose title, tags and
// operation ids hold path separators and "..", and checks that every
// file lands in the output directory.
func TestHostileOutputPaths(t *testing.T) {
	root := t.TempDir()
	spec, err := os.ReadFile("../testdata/hostile/injection.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "in", "spec.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse("opsgen.yaml", []byte("package: evil\noutput: out\nregistry: true\nsources:\n  - openapi: spec.yaml\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := generator.Write(context.Background(), generator.Options{Config: cfg, ConfigDir: filepath.Join(root, "in")})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Name != filepath.Base(f.Name) || strings.ContainsAny(f.Name, `/\`) || strings.HasPrefix(f.Name, ".") && f.Name != ".opsgen.json" {
			t.Errorf("generated file name %q", f.Name)
		}
	}
	var got []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	for _, p := range got {
		if p != "in/spec.yaml" && !strings.HasPrefix(p, "in/out/") {
			t.Errorf("file written outside the output directory: %s", p)
		}
	}
	if len(got) < 5 {
		t.Errorf("files: %v", got)
	}
}

// FuzzGenerate mutates specs (seeded from testdata/specs/openapi and
// testdata/hostile) and runs the loader and the emitter: no panic, and
// whatever is generated parses as Go.
func FuzzGenerate(f *testing.F) {
	for _, pattern := range []string{"../testdata/specs/openapi/*", "../testdata/hostile/*"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if len(data) < 64<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return // as the seeds: large inputs only slow the fuzzer down
		}
		svc, _, err := openapi.LoadData(context.Background(), data, "fuzz.yaml", openapi.Options{})
		if err != nil {
			return
		}
		files, _, err := emit.Emit(svc, emit.Options{Package: "fuzz", Registry: true})
		if err != nil {
			return
		}
		fset := token.NewFileSet()
		for _, file := range files {
			if _, err := parser.ParseFile(fset, file.Name, file.Content, parser.ParseComments); err != nil {
				t.Fatalf("%s does not parse: %v\n%s", file.Name, err, file.Content)
			}
		}
	})
}
