//lint:file-ignore SA1019 roots and sampling are deprecated in MCP 2026-07-28 but servers still list some tools only to clients that advertise them, so snapshot -capabilities must be able to

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/output"
)

// The test binary doubles as a stdio MCP server for mcp snapshot: when
// serverEnv is set, TestMain serves instead of testing (the listing changed
// by listingChanges[value], if any); when silentEnv is
// set, it reads its input and never answers.
const (
	serverEnv = "OPSGEN_CLI_TEST_SERVER"
	silentEnv = "OPSGEN_CLI_TEST_SILENT"
	cliEnv    = "OPSGEN_CLI_TEST_RUN" // run as the opsgen command
)

func TestMain(m *testing.M) {
	if v := os.Getenv(serverEnv); v != "" {
		s := testServer()
		if change := listingChanges[v]; change != nil {
			change(s)
		}
		if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		os.Exit(0)
	}
	if os.Getenv(silentEnv) != "" {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	if os.Getenv(cliEnv) != "" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

type echoIn struct {
	Text string `json:"text"`
}

type echoOut struct {
	Text string `json:"text"`
}

func testServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "opsgen-cli-test", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
			return nil, echoOut(in), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds."},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct{ A, B float64 }) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	// "summarize" is listed only to clients that support sampling.
	mcp.AddTool(s, &mcp.Tool{Name: "summarize", Description: "Summarizes with the client's model."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok {
				if caps := req.(*mcp.ListToolsRequest).ClientCapabilities(); caps == nil || caps.Sampling == nil {
					lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return t.Name == "summarize" })
				}
			}
			return res, err
		}
	})
	return s
}

// opsgen runs the command line in-process.
func opsgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// workdir copies the test specs into a temporary directory with config as
// its opsgen.yaml, and returns the directory.
func workdir(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"petstore.yaml", "pet.yaml", "tools.json", "add.schema.yaml"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "specs", "cli", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(dir, name), string(b))
	}
	write(t, filepath.Join(dir, "opsgen.yaml"), config)
	return dir
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func replaceIn(t *testing.T, path, old, new string) {
	t.Helper()
	s := read(t, path)
	if !strings.Contains(s, old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	write(t, path, strings.Replace(s, old, new, 1))
}

const petstoreConfig = `package: petstore
output: ./petstore
registry: true
sources:
  - openapi: petstore.yaml
`

const toolsConfig = `package: tools
output: gen/tools
sources:
  - mcp: tools.json
    convention: auto
    outputSchemas:
      add: add.schema.yaml
      echo: {type: object, properties: {text: {type: string}}}
`

// generated returns the names in dir, without the manifest.
func generated(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != output.ManifestName {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestUsageErrors(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	cfg := filepath.Join(dir, "opsgen.yaml")
	tests := []struct {
		args []string
		want string
	}{
		{nil, "usage: opsgen <command>"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"generate"}, "-config, -openapi or -mcp is required"},
		{[]string{"generate", "-nope"}, "flag provided but not defined: -nope"},
		{[]string{"generate", "-config", cfg, "-package", "x"}, "-package cannot be used with -config"},
		{[]string{"check", "-openapi", "a.yaml"}, "-package and -out are required without -config"},
		{[]string{"generate", "-openapi", "a.yaml", "-mcp", "t.json", "-package", "p", "-out", "o"}, "use -openapi or -mcp, not both"},
		{[]string{"generate", "-openapi", "a.yaml", "-package", "func", "-out", "o"}, `package "func" is not a valid Go package name`},
		{[]string{"generate", "-config", cfg, "extra"}, `unexpected argument "extra"`},
		{[]string{"init", "-openapi", "a", "-mcp", "b"}, "use -openapi or -mcp, not both"},
		{[]string{"init", "-package", "a-b"}, `-package "a-b" is not a valid Go package name`},
		{[]string{"version", "x"}, "usage: opsgen version"},
		{[]string{"schema", "x"}, "usage: opsgen schema"},
		{[]string{"mcp"}, "usage: opsgen mcp snapshot"},
		{[]string{"mcp", "snapshot"}, "give -url URL or -- COMMAND"},
		{[]string{"mcp", "snapshot", "-url", "http://x", "--", "server"}, "give -url URL or -- COMMAND"},
		{[]string{"mcp", "snapshot", "-capabilities", "sampling,telepathy", "-url", "http://x"}, `-capabilities: unknown client capability "telepathy"`},
		{[]string{"mcp", "check", "-url", "http://x"}, "-snapshot FILE is required"},
		{[]string{"mcp", "check", "-snapshot", "tools.json"}, "give -url URL or -- COMMAND"},
		{[]string{"mcp", "check", "-snapshot", "tools.json", "-url", "http://x", "-env", "A=b"}, "-env applies to a COMMAND only"},
		{[]string{"mcp", "check", "-snapshot", "tools.json", "-capabilities", "x", "-url", "http://x"}, `unknown client capability "x"`},
		{[]string{"mcp", "frobnicate"}, "opsgen mcp check -snapshot FILE"},
	}
	for _, tt := range tests {
		code, _, stderr := opsgen(t, tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("opsgen %q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
	if code, stdout, _ := opsgen(t, "help"); code != 0 || !strings.Contains(stdout, "commands:") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
	if code, _, stderr := opsgen(t, "generate", "-h"); code != 0 || !strings.Contains(stderr, "-allow-remote-refs") {
		t.Errorf("generate -h: exit %d, %q", code, stderr)
	}
}

func TestSchema(t *testing.T) {
	code, stdout, _ := opsgen(t, "schema")
	if code != 0 || stdout != string(config.Schema) {
		t.Errorf("schema: exit %d, %.80q", code, stdout)
	}
	if !json.Valid([]byte(stdout)) {
		t.Error("schema output is not JSON")
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := opsgen(t, "version")
	if code != 0 || stdout != "opsgen devel\n" {
		t.Errorf("version: exit %d, %q", code, stdout)
	}
}

func TestConfigErrorNamesLine(t *testing.T) {
	dir := workdir(t, "package: petstore\noutput: out\nsources:\n  - openapi: petstore.yaml\n    excludes: {tags: [x]}\n")
	cfg := filepath.Join(dir, "opsgen.yaml")
	code, _, stderr := opsgen(t, "generate", "-config", cfg)
	want := filepath.ToSlash(cfg) + `:5:5 (#/sources/0/excludes): error: unknown key "excludes"`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Errorf("output dir created for a bad config: %v", err)
	}
}

func TestLoadErrorFails(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	write(t, filepath.Join(dir, "petstore.yaml"), "openapi: 3.0.3\ninfo: [not, an, object]\npaths: {}\n")
	code, _, stderr := opsgen(t, "generate", "-config", filepath.Join(dir, "opsgen.yaml"))
	if code != 1 || !strings.Contains(stderr, "petstore.yaml") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "petstore")); !os.IsNotExist(err) {
		t.Errorf("output written for a broken spec: %v", err)
	}
}

// TestGenerateThenCheck covers the ways check finds stale code: each case
// starts from a fresh generation, breaks it, and expects exit 1 with a diff.
func TestGenerateThenCheck(t *testing.T) {
	tests := []struct {
		name    string
		breakIt func(t *testing.T, dir, out string)
		want    []string // in stdout
	}{
		{"one-byte hand edit", func(t *testing.T, dir, out string) {
			replaceIn(t, filepath.Join(out, "types.go"), "Pet", "Pat")
		}, []string{"types.go: hand-edited", "--- types.go (on disk)", "+++ types.go (generated)", "-// Pat ", "+// Pet "}},
		{"changed spec", func(t *testing.T, dir, out string) {
			replaceIn(t, filepath.Join(dir, "petstore.yaml"), "List all pets.", "List every pet.")
		}, []string{"operations.go: stale", "-// List all pets.", "+// List every pet."}},
		{"changed referenced file", func(t *testing.T, dir, out string) {
			replaceIn(t, filepath.Join(dir, "pet.yaml"), "tag: {type: string}", "tag: {type: string}\n    age: {type: integer}")
		}, []string{"types.go: stale", "+\tAge "}},
		{"changed config", func(t *testing.T, dir, out string) {
			replaceIn(t, filepath.Join(dir, "opsgen.yaml"), "registry: true", "registry: false")
		}, []string{"registry.go: leftover generated file", "+++ /dev/null"}},
		{"deleted file", func(t *testing.T, dir, out string) {
			if err := os.Remove(filepath.Join(out, "client.go")); err != nil {
				t.Fatal(err)
			}
		}, []string{"client.go: missing", "--- /dev/null", "+package petstore"}},
		{"leftover file", func(t *testing.T, dir, out string) {
			write(t, filepath.Join(out, "extra.go"), "// Code generated by opsgen devel. DO NOT EDIT.\n\npackage petstore\n")
		}, []string{"extra.go: leftover generated file", "-package petstore"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := workdir(t, petstoreConfig)
			cfg := filepath.Join(dir, "opsgen.yaml")
			out := filepath.Join(dir, "petstore")
			if code, _, stderr := opsgen(t, "generate", "-config", cfg); code != 0 {
				t.Fatalf("generate: exit %d: %s", code, stderr)
			}
			if code, stdout, stderr := opsgen(t, "check", "-config", cfg); code != 0 {
				t.Fatalf("check after generate: exit %d: %s%s", code, stdout, stderr)
			}
			tt.breakIt(t, dir, out)
			code, stdout, stderr := opsgen(t, "check", "-config", cfg)
			if code != 1 {
				t.Fatalf("check: exit %d, want 1; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			fix := "run: opsgen generate -config " + cfg
			if !strings.Contains(stderr, fix) {
				t.Errorf("stderr lacks %q: %s", fix, stderr)
			}
			// The suggested command fixes it.
			if code, _, stderr := opsgen(t, "generate", "-config", cfg); code != 0 {
				t.Fatalf("generate: exit %d: %s", code, stderr)
			}
			if code, stdout, stderr := opsgen(t, "check", "-config", cfg); code != 0 {
				t.Errorf("check after regenerating: exit %d: %s%s", code, stdout, stderr)
			}
		})
	}
}

func TestGenerateKeepsHandWrittenFiles(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	out := filepath.Join(dir, "petstore")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(out, "extra.go"), "package petstore\n\n// Hand written.\n")
	cfg := filepath.Join(dir, "opsgen.yaml")
	if code, _, stderr := opsgen(t, "generate", "-config", cfg); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if code, stdout, stderr := opsgen(t, "check", "-config", cfg); code != 0 {
		t.Errorf("check: exit %d: %s%s", code, stdout, stderr)
	}
	if got := read(t, filepath.Join(out, "extra.go")); got != "package petstore\n\n// Hand written.\n" {
		t.Errorf("hand-written file changed: %q", got)
	}
	// A hand-written file in the way of a generated one is not overwritten.
	write(t, filepath.Join(out, "client.go"), "package petstore\n")
	code, _, stderr := opsgen(t, "generate", "-config", cfg)
	if code != 1 || !strings.Contains(stderr, "client.go exists and was not generated by opsgen") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestWritesStayInOutputDir(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	out := filepath.Join(dir, "petstore")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	// client.go is a link to a generated-looking file outside the output dir.
	victim := filepath.Join(dir, "victim.go")
	const orig = "// Code generated by opsgen devel. DO NOT EDIT.\n\npackage victim\n"
	write(t, victim, orig)
	if err := os.Symlink(victim, filepath.Join(out, "client.go")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := opsgen(t, "generate", "-config", filepath.Join(dir, "opsgen.yaml"))
	if code != 1 || !strings.Contains(stderr, "client.go") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if got := read(t, victim); got != orig {
		t.Errorf("file outside the output dir changed: %q", got)
	}
	if got := generated(t, out); !slices.Equal(got, []string{"client.go"}) {
		t.Errorf("output dir holds %v after a failed generate", got)
	}
}

func TestFlagsWithoutConfig(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	t.Chdir(dir)
	args := []string{"-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets", "-registry", "-namespace", "store"}
	if code, _, stderr := opsgen(t, append([]string{"generate"}, args...)...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if got := generated(t, "gen/pets"); !slices.Contains(got, "registry.go") || !slices.Contains(got, "client.go") {
		t.Errorf("generated %v", got)
	}
	if s := read(t, "gen/pets/client.go"); !strings.Contains(s, "package pets") || !strings.Contains(s, "// Source: petstore.yaml") {
		t.Errorf("client.go:\n%s", s)
	}
	if s := read(t, "gen/pets/registry.go"); !strings.Contains(s, `"store.listPets"`) {
		t.Errorf("registry.go does not use the namespace:\n%s", s)
	}
	if code, stdout, stderr := opsgen(t, append([]string{"check"}, args...)...); code != 0 {
		t.Errorf("check: exit %d: %s%s", code, stdout, stderr)
	}
	// A check with other flags is a different config.
	code, stdout, _ := opsgen(t, "check", "-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets")
	if code != 1 || !strings.Contains(stdout, "registry.go: leftover generated file") {
		t.Errorf("check without -registry: exit %d: %s", code, stdout)
	}
}

// TestFlagsSplit: -split and -import-path lay the operations out in
// packages; check then compares them, and a generation without the split
// removes them.
func TestFlagsSplit(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	t.Chdir(dir)
	args := []string{"-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets", "-split", "paths", "-import-path", "example.com/shop/gen/pets"}
	if code, _, stderr := opsgen(t, append([]string{"generate"}, args...)...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	s := read(t, "gen/pets/petsops/client.go") // the root is pets: the package of /pets is petsops
	if !strings.Contains(s, "package petsops") || !strings.Contains(s, `"example.com/shop/gen/pets"`) {
		t.Errorf("petsops/client.go:\n%s", s)
	}
	if code, stdout, stderr := opsgen(t, append([]string{"check"}, args...)...); code != 0 {
		t.Errorf("check: exit %d: %s%s", code, stdout, stderr)
	}
	code, stdout, _ := opsgen(t, "check", "-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets", "-split", "none")
	if code != 1 || !strings.Contains(stdout, "petsops/operations.go: leftover generated file") {
		t.Errorf("check with -split none: exit %d: %s", code, stdout)
	}
	if code, _, stderr := opsgen(t, "generate", "-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets", "-split", "none"); code != 0 {
		t.Fatalf("generate -split none: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat("gen/pets/petsops"); !os.IsNotExist(err) {
		t.Errorf("gen/pets/petsops after -split none: %v", err)
	}
	if code, _, stderr := opsgen(t, "generate", "-openapi", "petstore.yaml", "-package", "pets", "-out", "gen/pets", "-split", "folders"); code != 2 || !strings.Contains(stderr, `split must be auto, none, tags or paths, not "folders"`) {
		t.Errorf("-split folders: exit %d: %s", code, stderr)
	}
}

func TestFlagsWithAbsolutePaths(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	t.Chdir(t.TempDir())
	out := filepath.Join(dir, "abs", "pets")
	args := []string{"-openapi", filepath.Join(dir, "petstore.yaml"), "-package", "pets", "-out", out}
	if code, _, stderr := opsgen(t, append([]string{"generate"}, args...)...); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if s := read(t, filepath.Join(out, "client.go")); !strings.Contains(s, "// Source: petstore.yaml\n") || strings.Contains(s, dir) {
		t.Errorf("client.go names the source by its absolute path:\n%s", s[:min(len(s), 200)])
	}
	if code, stdout, stderr := opsgen(t, append([]string{"check"}, args...)...); code != 0 {
		t.Errorf("check: exit %d: %s%s", code, stdout, stderr)
	}
	replaceIn(t, filepath.Join(dir, "pet.yaml"), "name: {type: string}", "name: {type: string, description: The name.}")
	if code, stdout, _ := opsgen(t, append([]string{"check"}, args...)...); code != 1 || !strings.Contains(stdout, "+\t// The name.") {
		t.Errorf("check after changing a referenced file: exit %d: %s", code, stdout)
	}
}

func TestMCPSource(t *testing.T) {
	dir := workdir(t, toolsConfig)
	cfg := filepath.Join(dir, "opsgen.yaml")
	if code, _, stderr := opsgen(t, "generate", "-config", cfg); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "gen", "tools")
	if got := generated(t, out); !slices.Contains(got, "tools.go") {
		t.Errorf("generated %v", got)
	}
	if !strings.Contains(read(t, filepath.Join(out, "types.go")), "Sum") {
		t.Error("the output schema file did not type the add tool")
	}
	if code, stdout, stderr := opsgen(t, "check", "-config", cfg); code != 0 {
		t.Errorf("check: exit %d: %s%s", code, stdout, stderr)
	}
	// The output schema file is an input: changing it makes the code stale.
	replaceIn(t, filepath.Join(dir, "add.schema.yaml"), "sum: {type: number}", "sum: {type: number}\n  carry: {type: boolean}")
	code, stdout, _ := opsgen(t, "check", "-config", cfg)
	if code != 1 || !strings.Contains(stdout, "+\tCarry ") {
		t.Errorf("check after changing the schema file: exit %d:\n%s", code, stdout)
	}
}

func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pet-store2")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := opsgen(t, "init", "-dir", dir)
	if code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "package petstore2") {
		t.Errorf("stdout %q", stdout)
	}
	gen := read(t, filepath.Join(dir, "generate.go"))
	if !strings.HasPrefix(gen, "package petstore2\n") || !strings.Contains(gen, "//go:generate go tool opsgen generate -config opsgen.yaml\n") {
		t.Errorf("generate.go:\n%s", gen)
	}
	yml := read(t, filepath.Join(dir, "opsgen.yaml"))
	if !strings.Contains(yml, "package: petstore2\n") || !strings.Contains(yml, `openapi: "openapi.yaml"`) {
		t.Errorf("opsgen.yaml:\n%s", yml)
	}
	// The schema the config's modeline names is next to it.
	if !strings.HasPrefix(yml, "# yaml-language-server: $schema=opsgen.schema.json\n") {
		t.Errorf("opsgen.yaml lacks the schema modeline:\n%s", yml)
	}
	if read(t, filepath.Join(dir, "opsgen.schema.json")) != string(config.Schema) {
		t.Error("opsgen.schema.json is not the config's schema")
	}

	// Refuses to overwrite, and writes nothing.
	write(t, filepath.Join(dir, "generate.go"), "package mine\n")
	os.Remove(filepath.Join(dir, "opsgen.yaml"))
	os.Remove(filepath.Join(dir, "opsgen.schema.json"))
	code, _, stderr = opsgen(t, "init", "-dir", dir, "-package", "other")
	if code != 1 || !strings.Contains(stderr, "generate.go already exists; not overwriting it") {
		t.Errorf("init over an existing file: exit %d, %q", code, stderr)
	}
	if read(t, filepath.Join(dir, "generate.go")) != "package mine\n" {
		t.Error("generate.go overwritten")
	}
	for _, name := range []string{"opsgen.yaml", "opsgen.schema.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s written although init failed: %v", name, err)
		}
	}

	// The starter config generates once the spec is there.
	dir2 := workdir(t, "")
	os.Remove(filepath.Join(dir2, "opsgen.yaml"))
	if code, _, stderr := opsgen(t, "init", "-dir", dir2, "-package", "pets", "-openapi", "petstore.yaml"); code != 0 {
		t.Fatalf("init: exit %d: %s", code, stderr)
	}
	if code, _, stderr := opsgen(t, "generate", "-config", filepath.Join(dir2, "opsgen.yaml")); code != 0 {
		t.Fatalf("generate from the starter config: exit %d: %s", code, stderr)
	}
	if read(t, filepath.Join(dir2, "generate.go")) != "package pets\n\n//go:generate go tool opsgen generate -config opsgen.yaml\n" {
		t.Error("generate.go changed by generate")
	}
	if got := generated(t, dir2); !slices.Contains(got, "client.go") {
		t.Errorf("dir holds %v", got)
	}
}

func TestMCPSnapshotStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "tools.json")
	code, _, stderr := opsgen(t, "mcp", "snapshot", "-o", out, "-env", serverEnv+"=1", "--", exe, "-test.run=^$")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var listing struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(read(t, out)), &listing); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range listing.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Equal(names, []string{"add", "echo"}) {
		t.Errorf("tools %v", names)
	}
}

func TestMCPSnapshotCapabilities(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer srv.Close()
	for _, tc := range []struct {
		args []string
		want bool // lists "summarize"
	}{
		{nil, false},
		{[]string{"-capabilities", "roots,elicitation"}, false},
		{[]string{"-capabilities", "sampling"}, true},
		{[]string{"-capabilities", "roots,sampling,elicitation"}, true},
	} {
		code, stdout, stderr := opsgen(t, append(append([]string{"mcp", "snapshot"}, tc.args...), "-url", srv.URL)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		if got := strings.Contains(stdout, `"name": "summarize"`); got != tc.want {
			t.Errorf("%v: summarize listed = %v, want %v", tc.args, got, tc.want)
		}
		if !strings.Contains(stdout, `"name": "opsgen-cli-test"`) || !strings.Contains(stdout, `"protocolVersion": "`) {
			t.Errorf("%v: no serverInfo or protocolVersion:\n%s", tc.args, stdout)
		}
	}
}

func TestMCPSnapshotURL(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer srv.Close()
	code, stdout, stderr := opsgen(t, "mcp", "snapshot", "-url", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"name": "echo"`) {
		t.Errorf("stdout:\n%s", stdout)
	}

	// A server that is not MCP: exit 1, nothing written.
	bad := httptest.NewServer(http.NotFoundHandler())
	defer bad.Close()
	out := filepath.Join(t.TempDir(), "x.json")
	code, _, stderr = opsgen(t, "mcp", "snapshot", "-url", bad.URL, "-o", out)
	if code != 1 || !strings.Contains(stderr, "opsgen mcp snapshot:") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output written after a failed snapshot: %v", err)
	}
}

// TestMCPSnapshotSilentServer: a server that never answers ends with an
// error naming the timeout, over stdio and over HTTP, and writes nothing.
func TestMCPSnapshotSilentServer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The handler also stops when the test ends: the client's last requests
	// (closing the session) need not be canceled.
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	out := filepath.Join(t.TempDir(), "tools.json")
	for _, server := range [][]string{
		{"-env", silentEnv + "=1", "--", exe, "-test.run=^$"},
		{"-url", srv.URL},
	} {
		args := append([]string{"mcp", "snapshot", "-timeout", "100ms", "-o", out}, server...)
		code, _, stderr := opsgen(t, args...)
		if code != 1 || !strings.Contains(stderr, "no answer within 100ms (-timeout)") {
			t.Errorf("opsgen %q: exit %d, stderr %q", args, code, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("output written after a timeout: %v", err)
		}
	}
}

// TestDeterministicAcrossProcesses generates the same packages in two
// processes, which hash maps with different seeds (and so iterate them in
// different orders), with different GOMAXPROCS, and compares every byte
// written, manifest included.
func TestDeterministicAcrossProcesses(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	specs := filepath.Join("..", "..", "testdata", "specs")
	for _, src := range []string{"openapi/composition.yaml", "openapi/e2e-http.yaml", "openapi/swagger.yaml", "mcp/mcptest-server.json"} {
		kind, name := filepath.Split(src)
		var trees []map[string]string
		for _, procs := range []string{"1", "2"} {
			dir := t.TempDir()
			write(t, filepath.Join(dir, name), read(t, filepath.Join(specs, src)))
			cmd := exec.Command(exe, "generate", "-q", "-"+strings.TrimSuffix(kind, "/"), name, "-package", "gen", "-out", "gen", "-registry")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), cliEnv+"=1", "GOMAXPROCS="+procs)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s with GOMAXPROCS=%s: %v\n%s", src, procs, err, out)
			}
			tree := map[string]string{}
			for _, e := range readDir(t, filepath.Join(dir, "gen")) {
				tree[e] = read(t, filepath.Join(dir, "gen", e))
			}
			trees = append(trees, tree)
		}
		if len(trees[0]) < 4 {
			t.Errorf("%s: generated only %d files", src, len(trees[0]))
		}
		names := slices.Sorted(maps.Keys(trees[0]))
		if other := slices.Sorted(maps.Keys(trees[1])); !slices.Equal(names, other) {
			t.Errorf("%s: two processes generated different files: %v and %v", src, names, other)
		}
		for _, name := range names {
			if trees[0][name] != trees[1][name] {
				t.Errorf("%s: %s differs between two processes", src, name)
			}
		}
	}
}

func readDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestCheckFromAnotherDirectory: code generated by go generate (in the
// config's directory) is current for a check run elsewhere (CI, from the
// module root), also when check has to regenerate to know.
func TestCheckFromAnotherDirectory(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	t.Chdir(dir)
	if code, _, stderr := opsgen(t, "generate", "-config", "opsgen.yaml"); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	// A comment changes the spec's hash but not the code: no fast path.
	write(t, "petstore.yaml", read(t, "petstore.yaml")+"# comment\n")
	t.Chdir(filepath.Dir(dir))
	cfg := filepath.Join(filepath.Base(dir), "opsgen.yaml")
	code, stdout, stderr := opsgen(t, "check", "-config", cfg)
	if code != 0 || !strings.Contains(stderr, "its manifest is not") {
		t.Errorf("check from the parent directory: exit %d, want 0 by the slow path\n%s%s", code, stdout, stderr)
	}
}

func TestWarnings(t *testing.T) {
	dir := workdir(t, petstoreConfig)
	replaceIn(t, filepath.Join(dir, "petstore.yaml"), "schema: {type: integer, format: int32}", "description: no schema")
	cfg := filepath.Join(dir, "opsgen.yaml")
	spec := filepath.ToSlash(filepath.Join(dir, "petstore.yaml"))
	want := spec + `:14:11 (#/paths/~1pets/get/parameters/0): warning: parameter "limit" has neither schema nor content; using string` + "\n"
	code, _, stderr := opsgen(t, "generate", "-config", cfg)
	if code != 0 || stderr != want {
		t.Errorf("generate: exit %d, stderr %q; want 0 and %q", code, stderr, want)
	}
	os.RemoveAll(filepath.Join(dir, "petstore"))
	code, _, stderr = opsgen(t, "generate", "-q", "-config", cfg)
	if code != 0 || stderr != "" {
		t.Errorf("generate -q: exit %d, stderr %q", code, stderr)
	}
	if got := generated(t, filepath.Join(dir, "petstore")); !slices.Contains(got, "client.go") {
		t.Errorf("generate -q wrote %v", got)
	}
}

// TestRoot checks that a $ref out of the spec's directory is refused, by
// default, with an error naming it and its place, and that the root key of
// a config and the -root flag let it through.
func TestRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "api"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "api", "spec.yaml"), `openapi: 3.0.3
info: {title: shared, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "../shared/defs.yaml#/Pet"}}}}
`)
	write(t, filepath.Join(dir, "shared", "defs.yaml"), "Pet:\n  type: object\n  description: A pet from the shared directory.\n  properties: {name: {type: string}}\n")
	cfg := filepath.Join(dir, "api", "opsgen.yaml")
	const base = "package: pets\noutput: out\nsources:\n  - openapi: spec.yaml\n"
	write(t, cfg, base)
	refused := `spec.yaml:8:72 (#/paths/~1pets/get/responses/200/content/application~1json/schema): cannot resolve $ref "../shared/defs.yaml#/Pet": local file`
	code, _, stderr := opsgen(t, "generate", "-config", cfg)
	if code != 1 || !strings.Contains(stderr, refused) || !strings.Contains(stderr, "is outside the root directory") {
		t.Errorf("generate without root: exit %d, stderr %s\nwant exit 1 and %q", code, stderr, refused)
	}
	write(t, cfg, base+"    root: ..\n")
	if code, _, stderr := opsgen(t, "generate", "-config", cfg); code != 0 {
		t.Fatalf("generate with root: ..: exit %d: %s", code, stderr)
	}
	if s := read(t, filepath.Join(dir, "api", "out", "types.go")); !strings.Contains(s, "A pet from the shared directory.") {
		t.Errorf("types.go lacks the shared type:\n%s", s)
	}

	t.Chdir(dir)
	args := []string{"generate", "-openapi", "api/spec.yaml", "-package", "pets", "-out", "flags"}
	if code, _, stderr := opsgen(t, args...); code != 1 || !strings.Contains(stderr, refused) {
		t.Errorf("generate -openapi without -root: exit %d, stderr %s", code, stderr)
	}
	if code, _, stderr := opsgen(t, append(args, "-root", ".")...); code != 0 {
		t.Errorf("generate -root .: exit %d: %s", code, stderr)
	}
	if code, _, stderr := opsgen(t, "generate", "-config", cfg, "-root", "."); code != 2 || !strings.Contains(stderr, "-root") {
		t.Errorf("generate -config -root: exit %d, %s; want a usage error", code, stderr)
	}
	// An MCP listing is read inside the root too: its directory by default.
	if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(`{"tools": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mcp := []string{"generate", "-mcp", "../tools.json", "-package", "p", "-out", "mcpout"}
	t.Chdir(filepath.Join(dir, "api"))
	if code, _, stderr := opsgen(t, append(mcp, "-root", ".")...); code != 1 || !strings.Contains(stderr, "outside the root directory") {
		t.Errorf("generate -mcp ../tools.json -root .: exit %d, stderr %s", code, stderr)
	}
	if code, _, stderr := opsgen(t, mcp...); code != 0 {
		t.Errorf("generate -mcp ../tools.json: exit %d: %s", code, stderr)
	}
}
