package mcpserver_test

import (
	"bytes"
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsapi"
)

var update = flag.Bool("update", false, "rewrite internal/petsapi, internal/petsmcp and its tools.json from a fresh generation and snapshot")

// genVersion is the opsgen version written into the generated headers.
const genVersion = "mcpserver"

const (
	petsapiConfig = "internal/petsapi/opsgen.yaml"
	petsmcpConfig = "internal/petsmcp/opsgen.yaml"
	petsmcpTools  = "internal/petsmcp/tools.json"
)

// generate generates the package of the config at path, as `opsgen
// generate -config` does, failing on any diagnostic; with -update it
// writes it first.
func generate(t *testing.T, path string) *generator.Result {
	t.Helper()
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	opts := generator.Options{Config: cfg, ConfigDir: filepath.Dir(path), Version: genVersion}
	if *update {
		if _, _, err := generator.Write(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
	}
	res, err := generator.Generate(context.Background(), opts)
	if err != nil {
		t.Fatalf("generate %s: %v", path, err)
	}
	for _, d := range res.Diagnostics {
		t.Errorf("generate %s: unexpected diagnostic (warning) %s", path, d)
	}
	return res
}

// checkFresh fails unless the directory of res holds exactly its Go files.
func checkFresh(t *testing.T, dir string, res *generator.Result) {
	t.Helper()
	var want []string
	for _, f := range res.Files {
		want = append(want, f.Name)
		got, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Errorf("%v (run go test ./runtime/mcpserver -run TestGenerated -update)", err)
			continue
		}
		if !bytes.Equal(got, f.Content) {
			t.Errorf("%s/%s differs from a fresh generation (run go test ./runtime/mcpserver -run TestGenerated -update)", dir, f.Name)
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

// petsServer serves the registry of a petsapi client of baseURL as an MCP
// server over streamable HTTP.
func petsServer(t *testing.T, baseURL string, opts *mcpserver.Options) (*mcpserver.Server, *httptest.Server) {
	t.Helper()
	reg := runtime.NewRegistry(nil)
	if err := petsapi.NewClient(petsapi.WithBaseURL(baseURL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return srv, hs
}

// TestGenerated checks that the committed packages of the round trip are
// what opsgen makes now: petsapi from pets.yaml, tools.json from a
// snapshot of the MCP server serving petsapi's registry, petsmcp from
// tools.json. -update rewrites them.
func TestGenerated(t *testing.T) {
	checkFresh(t, filepath.Dir(petsapiConfig), generate(t, petsapiConfig))

	_, hs := petsServer(t, "http://127.0.0.1:1", &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: true}}) // listing only: no upstream call
	listing, err := mcpsnapshot.Snapshot(context.Background(), mcpsnapshot.SnapshotOptions{URL: hs.URL})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(petsmcpTools, listing, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(petsmcpTools)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, listing) {
		t.Errorf("%s differs from a fresh snapshot (run with -update):\n%s", petsmcpTools, listing)
	}
	checkFresh(t, filepath.Dir(petsmcpConfig), generate(t, petsmcpConfig))
}
