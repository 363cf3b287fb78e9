package generator

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/output"
)

func TestModulePathOf(t *testing.T) {
	for gomod, want := range map[string]string{
		"module example.com/m\n\ngo 1.26\n":             "example.com/m",
		"// a comment\nmodule \"example.com/q\" // x\n": "example.com/q",
		"go 1.26\n": "",
	} {
		if got := modulePathOf([]byte(gomod)); got != want {
			t.Errorf("modulePathOf(%q) = %q, want %q", gomod, got, want)
		}
	}
}

// splitConfig is a config of the split test spec in dir, forced to split,
// read from dir/opsgen.yaml.
func splitConfig(t *testing.T, dir, extra string) Options {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "specs", "openapi", "split.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "split.yaml"), string(b))
	file := filepath.Join(dir, "opsgen.yaml")
	writeFile(t, file, "package: store\noutput: gen/store\nsplit: tags\nregistry: true\n"+extra+"sources:\n  - openapi: split.yaml\n")
	cfg, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return Options{Config: cfg, ConfigDir: dir}
}

// TestSplitImportPath: the operation packages import the root by the
// import path derived from the go.mod above the output directory, or the
// config's importPath; without either, the error names the config file.
func TestSplitImportPath(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/shop\n\ngo 1.26\n")
	res, _, err := Write(context.Background(), splitConfig(t, dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "gen", "store", "pets", "client.go"))
	if err != nil || !strings.Contains(string(b), "\"example.com/shop/gen/store\"\n") {
		t.Errorf("pets/client.go: %v\n%s", err, b)
	}
	var names []string
	for _, f := range res.Files {
		names = append(names, f.Name)
	}
	if !slices.Contains(names, "petstoys/operations.go") || res.Manifest.Outputs["petstoys/operations.go"] == "" {
		t.Errorf("files %v, manifest %v", names, res.Manifest.Outputs)
	}
	// check: current; then a package's file removed is reported missing.
	rep, _, err := Check(context.Background(), splitConfig(t, dir, ""))
	if err != nil || !rep.Current() {
		t.Fatalf("check after generate: %+v, %v", rep, err)
	}
	if err := os.Remove(filepath.Join(dir, "gen", "store", "users", "operations.go")); err != nil {
		t.Fatal(err)
	}
	rep, _, err = Check(context.Background(), splitConfig(t, dir, ""))
	if err != nil || len(rep.Problems) != 1 || rep.Problems[0].Name != "users/operations.go" || rep.Problems[0].Kind != output.Missing {
		t.Errorf("check without users/operations.go: %+v, %v", rep, err)
	}

	// importPath wins over go.mod.
	res, err = Generate(context.Background(), splitConfig(t, dir, "importPath: example.org/elsewhere/store\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if f.Name == "users/client.go" && !strings.Contains(string(f.Content), "\"example.org/elsewhere/store\"\n") {
			t.Errorf("users/client.go:\n%s", f.Content)
		}
	}

	// Neither: the error says what to set, and where.
	bare := t.TempDir()
	if _, err := importPath(bare); err == nil {
		t.Skip("a go.mod above the temporary directory")
	}
	opts := splitConfig(t, bare, "")
	_, err = Generate(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "importPath in "+filepath.ToSlash(filepath.Join(bare, "opsgen.yaml"))) || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("err = %v", err)
	}
}
