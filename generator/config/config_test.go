package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

func TestParseOpenAPI(t *testing.T) {
	src := `package: petstore
output: ./petstore
registry: true
sources:
  - openapi: specs/petstore.yaml
    include: {tags: [pets], paths: ["/pets*"]}
    exclude: {operations: [deletePet]}
    names: {listPets: ListAllPets, "#/components/schemas/Pet": Animal}
client:
  validation: strict
`
	c, err := Parse("opsgen.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Package != "petstore" || c.Output != "./petstore" || !c.Registry || c.Client.Validation != "strict" {
		t.Errorf("config = %+v", c)
	}
	if c.Namespace != "petstore" {
		t.Errorf("namespace default = %q, want package name", c.Namespace)
	}
	s := c.Sources[0]
	if s.Kind() != ir.OpenAPI || s.Path() != "specs/petstore.yaml" {
		t.Errorf("source kind/path = %v %q", s.Kind(), s.Path())
	}
	if s.Pos.Line != 5 || s.Pos.Col != 5 || s.Pos.Pointer != "/sources/0" {
		t.Errorf("source pos = %+v", s.Pos)
	}
	want := ir.Filter{IncludeTags: []string{"pets"}, IncludePaths: []string{"/pets*"}, ExcludeOperations: []string{"deletePet"}}
	if f := s.Filter(); !reflect.DeepEqual(f, want) {
		t.Errorf("filter = %+v, want %+v", f, want)
	}
	if s.Names["#/components/schemas/Pet"] != "Animal" {
		t.Errorf("names = %v", s.Names)
	}
}

func TestParseMCP(t *testing.T) {
	src := `package: tools
output: out
sources:
  - mcp: tools.json
    convention: auto
    conventions: {read_graph: dotbot}
    outputSchemas:
      add: {type: object, properties: {sum: {type: integer, minimum: 0}}}
      mul: schemas/mul.json
`
	c, err := Parse("opsgen.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sources[0]
	if s.Kind() != ir.MCP || s.Path() != "tools.json" || s.Convention != "auto" || s.Conventions["read_graph"] != "dotbot" {
		t.Errorf("source = %+v", s)
	}
	var inline map[string]any
	if err := json.Unmarshal(s.OutputSchemas["add"].Inline, &inline); err != nil {
		t.Fatal(err)
	}
	sum := inline["properties"].(map[string]any)["sum"].(map[string]any)
	if sum["type"] != "integer" || sum["minimum"] != float64(0) {
		t.Errorf("inline schema = %s", s.OutputSchemas["add"].Inline)
	}
	if f := s.OutputSchemas["mul"]; f.File != "schemas/mul.json" || f.Inline != nil {
		t.Errorf("file schema = %+v", f)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown top-level key", "package: p\noutput: o\ncolour: red\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:3:1 (#/colour): error: unknown key "colour"`}},
		{"source key at the top level", "package: p\noutput: o\ntypes: {uuid: example.com/u.UUID}\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:3:1 (#/types): error: unknown key "types": types belongs to a source (sources[0].types)`}},
		{"top-level key in a source", "package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    registry: true\n",
			[]string{`opsgen.yaml:5:5 (#/sources/0/registry): error: unknown key "registry": registry belongs at the top level, not in a source`}},
		{"unknown nested key", "package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    include:\n      tag: [x]\n",
			[]string{`opsgen.yaml:6:7 (#/sources/0/include/tag): error: unknown key "tag"`}},
		{"wrong type", "package: p\noutput: o\nregistry: yes please\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:3:11 (#/registry): error:`, "want boolean"}},
		{"missing required", "output: o\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:1:1: error:`, "package"}},
		{"bad convention", "package: p\noutput: o\nsources:\n  - mcp: t.json\n    convention: magic\n",
			[]string{`opsgen.yaml:5:17 (#/sources/0/convention): error:`}},
		{"two sources", "package: p\noutput: o\nsources:\n  - openapi: a.yaml\n  - mcp: t.json\n",
			[]string{`opsgen.yaml:5:5 (#/sources/1): error: sources: one config makes one Go package`}},
		{"both kinds", "package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    mcp: t.json\n",
			[]string{`opsgen.yaml:4:5 (#/sources/0): error: source has both`}},
		{"mcp key on openapi", "package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    convention: auto\n",
			[]string{`opsgen.yaml:4:5 (#/sources/0): error: convention, conventions and outputSchemas apply to mcp sources only`}},
		{"keyword package", "package: func\noutput: o\nsources: [{openapi: a.yaml}]\n",
			[]string{`package "func" is not a valid Go package name`}},
		{"bad split", "package: p\noutput: o\nsplit: folders\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:3:8 (#/split): error:`}},
		{"bad importPath", "package: p\noutput: o\nimportPath: ../up\nsources: [{openapi: a.yaml}]\n",
			[]string{`opsgen.yaml:3:13 (#/importPath): error:`}},
		{"not yaml", "package: p\noutput: [\n", []string{"opsgen.yaml:3: error: did not find expected node content"}},
		{"empty", "", []string{"opsgen.yaml: empty config"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("opsgen.yaml", []byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestHash(t *testing.T) {
	a := "package: p\noutput: o\nsources: [{openapi: a.yaml, names: {x: X, y: Y}}]\n"
	b := "# a comment\nsources:\n  - names: {y: Y, x: X}\n    openapi: a.yaml\noutput: o\npackage: p\n"
	c := "package: p\noutput: o\nsources: [{openapi: b.yaml, names: {x: X, y: Y}}]\n"
	hash := func(src string) string {
		t.Helper()
		cfg, err := Parse("opsgen.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		h, err := cfg.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	if hash(a) != hash(b) {
		t.Error("formatting changed the hash")
	}
	if hash(a) == hash(c) {
		t.Error("a different source kept the hash")
	}
}

func TestCheckBuiltInCode(t *testing.T) {
	c := &Config{Package: "api", Output: "out", Sources: []Source{{OpenAPI: "a.yaml"}}}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if c.Namespace != "api" {
		t.Errorf("namespace = %q", c.Namespace)
	}
	bad := &Config{Package: "api", Output: "out", Sources: []Source{{MCP: "t.json", AllowRemoteRefs: true}}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "allowRemoteRefs applies to openapi sources only") {
		t.Errorf("err = %v", err)
	}
	for _, c := range []struct{ split, importPath, want string }{
		{"folders", "", `split must be auto, none, tags or paths, not "folders"`},
		{"tags", "example.com/a//b", `importPath "example.com/a//b" is not a Go import path`},
		{"paths", "/abs", `importPath "/abs" is not a Go import path`},
	} {
		bad := &Config{Package: "api", Output: "out", Split: c.split, ImportPath: c.importPath, Sources: []Source{{OpenAPI: "a.yaml"}}}
		if err := bad.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("split %q importPath %q: err = %v", c.split, c.importPath, err)
		}
	}
	good := &Config{Package: "api", Output: "out", Split: "tags", ImportPath: "example.com/m/v2/gen_api", Sources: []Source{{OpenAPI: "a.yaml"}}}
	if err := good.Check(); err != nil {
		t.Errorf("split tags with an import path: %v", err)
	}
	ok := &Config{Package: "api", Output: "out", Sources: []Source{{MCP: "t.json", Root: ".."}}}
	if err := ok.Check(); err != nil {
		t.Errorf("root on an mcp source: %v", err)
	}
}

// TestRootKey checks that root is read from the config, and refused empty
// by the schema.
func TestRootKey(t *testing.T) {
	c, err := Parse("opsgen.yaml", []byte("package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    root: ../shared\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Sources[0].Root != "../shared" {
		t.Errorf("root = %q", c.Sources[0].Root)
	}
	_, err = Parse("opsgen.yaml", []byte("package: p\noutput: o\nsources:\n  - openapi: a.yaml\n    root: \"\"\n"))
	if err == nil || !strings.Contains(err.Error(), "opsgen.yaml:5:11 (#/sources/0/root)") {
		t.Errorf("empty root: %v", err)
	}
}

func TestReadSchemaFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct{ name, content, want string }{
		{"tabs.json", "{\n\t\"type\": \"object\",\n\t\"maximum\": 9007199254740993\n}\n", `{"maximum":9007199254740993,"type":"object"}`},
		{"s.yaml", "type: object\nproperties:\n  sum: {type: number}\n", `{"properties":{"sum":{"type":"number"}},"type":"object"}`},
		{"true.json", "true", `true`},
	}
	for _, tt := range tests {
		got, err := readSchemaFile(write(tt.name, tt.content))
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
	for _, bad := range []string{"42", "- a\n- b\n", "type: [\n"} {
		if _, err := readSchemaFile(write("bad.yaml", bad)); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
	if _, err := readSchemaFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestParseOperations(t *testing.T) {
	src := `package: gh
output: ./gh
sources:
  - openapi: gh.json
client:
  timeout: 30s
operations:
  listEvents:
    timeout: 1m30s
    pagination: {cursor: after, next: /meta/next}
  search:
    pagination: {page: page, items: /items}
  "issues/list-for-repo":
    pagination: {disabled: true}
`
	c, err := Parse("opsgen.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Client.Timeout != "30s" || len(c.Operations) != 3 {
		t.Fatalf("config = %+v", c)
	}
	ev := c.Operations["listEvents"]
	if ev.Timeout != "1m30s" || *ev.Pagination != (Pagination{Cursor: "after", Next: "/meta/next"}) {
		t.Errorf("listEvents = %+v %+v", ev, ev.Pagination)
	}
	if ev.Pos.Line != 8 || ev.Pos.Col != 3 || ev.Pos.Pointer != "/operations/listEvents" {
		t.Errorf("listEvents pos = %+v", ev.Pos)
	}
	if p := c.Operations["issues/list-for-repo"].Pos.Pointer; p != "/operations/issues~1list-for-repo" {
		t.Errorf("pointer = %q", p)
	}
	if d, _ := ParseTimeout(ev.Timeout); d.Seconds() != 90 {
		t.Errorf("ParseTimeout = %v", d)
	}
}

func TestParseOperationsErrors(t *testing.T) {
	head := "package: gh\noutput: ./gh\nsources:\n  - openapi: gh.json\n"
	for _, tc := range []struct{ body, want string }{
		{"client: {timeout: soon}\n", "opsgen.yaml:5:"},
		{"operations:\n  op: {timeout: 0s}\n", `opsgen.yaml:6:3 (#/operations/op): error: operation "op": timeout "0s" is not a positive duration`},
		{"operations:\n  op:\n    pagination: {cursor: after}\n", `opsgen.yaml:6:3 (#/operations/op): error: operation "op": pagination: cursor and next go together`},
		{"operations:\n  op:\n    pagination: {link: true, page: p}\n", "set one of link, cursor (with next) or page"},
		{"operations:\n  op:\n    pagination: {}\n", "set one of link, cursor (with next) or page"},
		{"operations:\n  op:\n    pagination: {cursor: c, next: meta}\n", "opsgen.yaml:7:"},
		{"operations:\n  op:\n    pagination: {disabled: true, link: true}\n", "disabled excludes"},
		{"operations:\n  op:\n    pagination: {cursor: c, next: /n, items: /x}\n", "items goes with page"},
		{"operations:\n  op: {retries: 3}\n", `unknown key "retries"`},
	} {
		_, err := Parse("opsgen.yaml", []byte(head+tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.body, err, tc.want)
		}
	}
}

// readSchemaFile reads the file at path and parses it with ParseSchemaFile.
func readSchemaFile(path string) (json.RawMessage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSchemaFile(path, data)
}
