package e2e_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
)

var updateMCP = flag.Bool("update-mcp", false, "rewrite internal/e2e/mcpgen from a fresh generation")

// mcpVersion is the opsgen version written into mcpgen's headers, so that
// they do not change with every build.
const mcpVersion = "e2e"

// mcpgenConfig is the config of the committed client of internal/mcptest.
const mcpgenConfig = "mcpgen/opsgen.yaml"

// generateMCP generates the package of the config at path, through the
// same calls as `opsgen generate -config`.
func generateMCP(t *testing.T, path string) *generator.Result {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := generator.Generate(context.Background(), generator.Options{Config: cfg, ConfigDir: filepath.Dir(path), Version: mcpVersion})
	if err != nil {
		t.Fatalf("generate %s: %v", path, err)
	}
	for _, d := range res.Diagnostics {
		t.Errorf("generate %s: unexpected diagnostic %s", path, d)
	}
	return res
}

// TestMCPGenerated checks that mcpgen, the client the MCP end-to-end tests
// call, is what opsgen generates from the committed listing and config
// (byte for byte, no missing or leftover Go files). -update-mcp rewrites it.
func TestMCPGenerated(t *testing.T) {
	if *updateMCP {
		cfg, err := config.Load(mcpgenConfig)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := generator.Write(context.Background(), generator.Options{Config: cfg, ConfigDir: filepath.Dir(mcpgenConfig), Version: mcpVersion}); err != nil {
			t.Fatal(err)
		}
	}
	res := generateMCP(t, mcpgenConfig)
	dir := filepath.Dir(mcpgenConfig)
	var want []string
	for _, f := range res.Files {
		want = append(want, f.Name)
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Errorf("%v (run go test ./internal/e2e -run TestMCPGenerated -update-mcp)", err)
			continue
		}
		if !bytes.Equal(got, f.Content) {
			t.Errorf("%s/%s differs from a fresh generation (run go test ./internal/e2e -run TestMCPGenerated -update-mcp)", dir, f.Name)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !slices.Contains(want, e.Name()) {
			t.Errorf("%s/%s is not generated any more", dir, e.Name())
		}
	}
}
