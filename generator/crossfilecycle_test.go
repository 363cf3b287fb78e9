package generator

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/diag"
)

// TestKinRecursiveRef generates kin-openapi's own multi-file test document
// (openapi3/testdata/recursiveRef, from the module cache): its
// components/Cat.yml refers back to itself through the main document, and
// kin-openapi leaves that property's schema unresolved. Generation used to
// panic on it in a goroutine, killing the process, then typed the property
// as raw JSON without a word; the loader now follows the $ref to the
// component, so Cat's property is a *Cat, and the client vets.
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
	files := filesOf(res, nil)
	if !regexp.MustCompile(`(?m)^\s+Cat \*Cat\s+` + "`" + `json:"cat,omitempty"` + "`").Match(files["types.go"]) {
		t.Errorf("Cat's property cat is not a *Cat:\n%s", files["types.go"])
	}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "Cat") {
			t.Errorf("diagnostic about the cycle: %s", d)
		}
	}
	goInModule(t, map[string]map[string][]byte{"recursive": files}, []string{"vet", "./recursive"})
}

// TestCrossFileCycleUnresolved: a $ref that closes a cycle through another
// file at a place other than a component schema (here a property of one)
// stays untyped, as kin-openapi leaves it, but with a warning that names
// the file and the $ref instead of in silence.
func TestCrossFileCycleUnresolved(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"openapi.yml": `openapi: "3.0.3"
info: {title: t, version: "1"}
paths: {}
components:
  schemas:
    Wrapper:
      type: object
      properties:
        cat: {$ref: ./cat.yml}
`,
		"cat.yml": `type: object
properties:
  again: {$ref: ./openapi.yml#/components/schemas/Wrapper/properties/cat}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "cycle", Output: "out", Sources: []config.Source{{OpenAPI: "openapi.yml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, d := range res.Diagnostics {
		if d.Kind == diag.UntypedRef && filepath.Base(d.Pos.File) == "cat.yml" && strings.Contains(d.Message, `"./openapi.yml#/components/schemas/Wrapper/properties/cat" was not resolved`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no untyped-$ref warning on cat.yml; diagnostics: %v", res.Diagnostics)
	}
	files := filesOf(res, nil)
	goInModule(t, map[string]map[string][]byte{"cycle": files}, []string{"vet", "./cycle"})
}
