package generator

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// TestKinRecursiveRef generates kin-openapi's own multi-file test document
// (openapi3/testdata/recursiveRef, from the module cache): its
// components/Cat.yml refers back to itself through the main document, and
// kin-openapi leaves that property's schema unresolved. Generation used to
// panic on it in a goroutine, killing the process; it generates (the
// property untyped) and the client vets.
func TestKinRecursiveRef(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/getkin/kin-openapi").Output()
	if err != nil {
		t.Fatalf("go list kin-openapi: %v", err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(strings.TrimSpace(string(out)), "openapi3", "testdata", "recursiveRef"))); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "recursive", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "openapi.yml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"recursive": filesOf(res, nil)}, []string{"vet", "./recursive"})
}
