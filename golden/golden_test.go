package golden

import (
	"bytes"
	"context"
	"flag"
	"go/format"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/output"
)

var update = flag.Bool("update", false, "rewrite the golden packages from a fresh generation")

// goldenVersion is the opsgen version written into the goldens' headers and
// manifests, so that they do not change with every build.
const goldenVersion = "golden"

// root is the module root, relative to this package's directory (the
// directory go test runs the test in). Spec and output paths in the
// configs are relative to it, as in a config file at the module root.
const root = ".."

// kinds are the spec directories under testdata/specs that have goldens,
// by source kind; the golden package of testdata/specs/<kind>/<name>.<ext>
// is golden/<kind>/<package>, where the package name is the file name
// without its extension and without the characters Go does not allow
// (e2e-http.yaml: golden/openapi/e2ehttp).
var kinds = []string{"openapi", "mcp"}

// notSpecs are files in the spec directories that are not documents of
// their own (fragments that other specs $ref).
var notSpecs = map[string]bool{
	"testdata/specs/openapi/external-defs.yaml": true,
}

// noRegistry are the specs generated without -registry, so that the goldens
// also show a package without registry.go; all others have one.
// split are the split modes of some specs, so that the goldens show an API
// laid out in operation packages.
var split = map[string]string{
	"testdata/specs/openapi/split.yaml": "tags",
}

var noRegistry = map[string]bool{
	"testdata/specs/openapi/petstore.json": true,
	"testdata/specs/mcp/bare-array.json":   true,
}

// validation are the default validation modes (client.validation) of some
// specs, so that the goldens show the option; the others keep the default.
var validation = map[string]string{
	"testdata/specs/openapi/swagger.yaml": "strict",
}

// keepUnknown are the specs generated with keepUnknownMembers, so that the
// goldens show the AdditionalProperties it gives struct types.
var keepUnknown = map[string]bool{
	"testdata/specs/openapi/forwardcompat.yaml": true,
}

// operations are the operations settings (timeouts, declared pagination)
// of some specs, and clientTimeouts their client.timeout, so that the
// goldens show them.
var (
	operations = map[string]map[string]*config.Operation{
		"testdata/specs/openapi/paging.yaml": {
			"listEvents": {Timeout: "5s", Pagination: &config.Pagination{Cursor: "after", Next: "/next"}},
			"search":     {Pagination: &config.Pagination{Page: "page", Items: "/items"}},
		},
	}
	clientTimeouts = map[string]string{
		"testdata/specs/openapi/paging.yaml": "30s",
	}
	// idempotencyKeys are the specs whose config sets client.idempotencyKeys.
	idempotencyKeys = map[string]bool{
		"testdata/specs/openapi/callbacks.yaml": true,
	}
)

// goldenCase is one spec and the package generated from it.
type goldenCase struct {
	kind string // "openapi" or "mcp"
	spec string // slash path relative to the module root
	dir  string // slash path of the golden package relative to the module root
	pkg  string // Go package name
}

// cases lists every spec under testdata/specs/{openapi,mcp} that is
// neither negative nor a fragment.
func cases(t *testing.T) []goldenCase {
	t.Helper()
	var cs []goldenCase
	for _, kind := range kinds {
		entries, err := os.ReadDir(filepath.Join(root, "testdata", "specs", kind))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			spec := path.Join("testdata/specs", kind, e.Name())
			if _, neg := negatives[spec]; e.IsDir() || notSpecs[spec] || neg {
				continue
			}
			pkg := packageName(strings.TrimSuffix(e.Name(), path.Ext(e.Name())))
			c := goldenCase{kind: kind, spec: spec, dir: path.Join("golden", kind, pkg), pkg: pkg}
			for _, o := range cs {
				if o.dir == c.dir {
					t.Fatalf("%s and %s would both generate %s: rename one", o.spec, c.spec, c.dir)
				}
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// packageName makes a Go package name of a file stem: lower-case letters
// and digits only ("e2e-params" -> "e2eparams").
func packageName(stem string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(stem) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' && b.Len() > 0 {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// formatTypes is the types mapping (format -> Go type) of a spec's config.
var formatTypes = map[string]map[string]string{
	"testdata/specs/openapi/types.yaml": {"uuid": "github.com/opsgen/opsgen/internal/customtypes.UUID"},
}

// options is the generator's input for c, as `opsgen generate -config` at
// the module root would get it.
func (c goldenCase) options() generator.Options {
	src := config.Source{OpenAPI: c.spec}
	if c.kind == "mcp" {
		src = config.Source{MCP: c.spec}
	}
	src.Types = formatTypes[c.spec]
	src.KeepUnknownMembers = keepUnknown[c.spec]
	cfg := &config.Config{Package: c.pkg, Output: c.dir, Registry: !noRegistry[c.spec], Split: split[c.spec], Sources: []config.Source{src},
		Client: config.Client{Validation: validation[c.spec], Timeout: clientTimeouts[c.spec], IdempotencyKeys: idempotencyKeys[c.spec]}, Operations: operations[c.spec]}
	return generator.Options{Config: cfg, ConfigDir: root, Version: goldenVersion}
}

// TestGolden checks that golden/ holds exactly a fresh generation of every
// spec (run with -update to rewrite it), then builds and vets the goldens.
func TestGolden(t *testing.T) {
	cs := cases(t)
	if *update {
		for _, kind := range kinds {
			if err := os.RemoveAll(kind); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range cs {
			if _, _, err := generator.Write(context.Background(), c.options()); err != nil {
				t.Fatalf("%s: %v", c.spec, err)
			}
		}
	}

	want := map[string]bool{}
	for _, c := range cs {
		want[c.dir] = true
		t.Run(c.kind+"/"+path.Base(c.dir), func(t *testing.T) { checkCase(t, c) })
	}
	// A golden package whose spec is gone (or became negative) is a leftover.
	for _, kind := range kinds {
		entries, err := os.ReadDir(kind)
		if err != nil {
			t.Fatalf("%v (regenerate with make golden)", err)
		}
		for _, e := range entries {
			if dir := path.Join("golden", kind, e.Name()); !want[dir] {
				t.Errorf("%s: leftover: no spec in testdata/specs/%s generates it (regenerate with make golden)", dir, kind)
			}
		}
	}
	if t.Failed() {
		return
	}
	// The goldens are packages of this module: they must build and vet.
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s in golden/: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// checkCase compares the golden directory of c with a fresh generation:
// every generated file and the manifest byte for byte, and no other file.
func checkCase(t *testing.T, c goldenCase) {
	opts := c.options()
	res, err := generator.Generate(context.Background(), opts)
	if err != nil {
		t.Fatalf("generate %s: %v", c.spec, err)
	}
	// Every warning says what the generated code lost (the corpus report
	// counts them by kind, not by message).
	for _, d := range res.Diagnostics {
		if d.Severity == diag.Warning && d.Kind == diag.Unclassified {
			t.Errorf("%s: a warning without a kind: %s", c.spec, d)
		}
	}
	gen := map[string][]byte{output.ManifestName: res.Manifest.Marshal()}
	for _, f := range res.Files {
		gen[f.Name] = f.Content
		if src, err := format.Source(f.Content); err != nil || !bytes.Equal(src, f.Content) {
			t.Errorf("%s/%s is not gofmt'd (err %v)", c.dir, f.Name, err)
		}
	}
	dir := filepath.Join(root, filepath.FromSlash(c.dir))
	var onDisk []string
	// Every file, those of a split API's operation packages too.
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		name := filepath.ToSlash(rel)
		onDisk = append(onDisk, name)
		content, ok := gen[name]
		if err != nil || !ok {
			t.Errorf("%s/%s: leftover: not generated from %s (regenerate with make golden)", c.dir, name, c.spec)
			return nil
		}
		cur, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Equal(cur, content) {
			t.Errorf("%s/%s differs from a fresh generation from %s (regenerate with make golden and review the diff):\n%s",
				c.dir, name, c.spec, output.Unified(name+" (golden)", name+" (generated)", cur, content, output.MaxDiffLines))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%v (regenerate with make golden)", err)
	}
	for name := range gen {
		if !slices.Contains(onDisk, name) {
			t.Errorf("%s/%s: missing: generated from %s but not in golden/ (regenerate with make golden)", c.dir, name, c.spec)
		}
	}
}
