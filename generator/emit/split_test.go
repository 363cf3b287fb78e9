package emit

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// opAt is an operation with id, path and tags (a GET without parameters
// or responses).
func opAt(id, path string, tags ...string) *ir.Operation {
	return &ir.Operation{ID: id, GoName: strings.ToUpper(id[:1]) + id[1:], Kind: ir.HTTPCall, Method: "get", Path: path, Tags: tags,
		Pos: diag.Pos{File: "api.yaml", Pointer: "/paths/" + strings.ReplaceAll(path, "/", "~1") + "/get"}}
}

func TestGroupDir(t *testing.T) {
	g := newGen(&ir.Service{Kind: ir.OpenAPI}, Options{Package: "graph"})
	for _, tc := range []struct {
		op        *ir.Operation
		mode, dir string
	}{
		{opAt("a", "/users/{id}", "users.calendar"), SplitTags, "userscalendar"},
		{opAt("b", "/users/{id}", "Users.Calendar.Events"), SplitTags, "userscalendarevents"},
		{opAt("c", "/users/{id}", "users.calendar"), SplitPaths, "users"},
		{opAt("d", "/v1.0/users", ""), SplitTags, "users"},         // an empty tag: by path
		{opAt("e", "/api/v2beta/{org}/repos"), SplitTags, "repos"}, // version and parameter segments skipped
		{opAt("f", "/users(id='{id}')/x"), SplitPaths, "x"},        // a segment holding a parameter is not literal
		{opAt("g", "/", "!!!"), SplitTags, ""},                     // nothing to make a name of
		{opAt("h", "/x", "type"), SplitTags, "typeops"},            // a keyword
		{opAt("i", "/x", "Graph"), SplitTags, "graphops"},          // the root's name
		{opAt("j", "/internal/x"), SplitPaths, "internalops"},      // the go command's
		{opAt("k", "/2fa/x"), SplitPaths, "fa"},                    // no leading digit
		{opAt("l", "/$batch"), SplitPaths, "batch"},
		{opAt("m", "/pets", "pets..toys"), SplitTags, "petstoys"},
		{opAt("n", "/x", "Default"), SplitTags, "defaultops"},
	} {
		if dir, _ := g.groupDir(tc.op, tc.mode); dir != tc.dir {
			t.Errorf("%s %q tags %q: dir %q, want %q", tc.mode, tc.op.Path, tc.op.Tags, dir, tc.dir)
		}
	}
}

// splitService is an API of n operations, spread over three tags, and one
// at "/" that no package takes.
func splitService(n int) *ir.Service {
	svc := &ir.Service{Kind: ir.OpenAPI, Title: "Big", Source: "api.yaml"}
	for i := range n {
		tag := []string{"users", "groups.sites", "drives"}[i%3]
		svc.Operations = append(svc.Operations, opAt(fmt.Sprintf("op%04d", i), "/"+tag, tag))
	}
	svc.Operations = append(svc.Operations, opAt("ping", "/"))
	return svc
}

func TestSplitThreshold(t *testing.T) {
	opts := Options{Package: "big", ImportPath: "example.com/big"}
	// At the threshold: one package, as without the option.
	one, _ := emit(t, splitService(SplitThreshold-1), opts)
	if names := fileNames(one); !slices.Equal(names, []string{"client.go", "operations.go", "schemas.go"}) {
		t.Errorf("at the threshold: %v", names)
	}
	none, _ := emit(t, splitService(SplitThreshold-1), Options{Package: "big"})
	for i := range one {
		if !bytes.Equal(one[i].Content, none[i].Content) {
			t.Errorf("%s differs with an import path", one[i].Name)
		}
	}
	// Above it: split by tag; the operation no package takes stays in the
	// root, with a warning at its position.
	files, diags := emit(t, splitService(SplitThreshold), opts)
	want := []string{"client.go", "drives/client.go", "drives/operations.go", "groupssites/client.go", "groupssites/operations.go",
		"internal/schemas/schemas.go", "operations.go", "schemas.go", "users/client.go", "users/operations.go"}
	if names := fileNames(files); !slices.Equal(names, want) {
		t.Errorf("above the threshold: %v\nwant %v", names, want)
	}
	if !slices.ContainsFunc(diags, func(d diag.Diagnostic) bool {
		return d.Pos.Pointer == "/paths/~1/get" && strings.Contains(d.Message, `"ping"`) && strings.Contains(d.Message, "root package")
	}) {
		t.Errorf("no warning for the operation left in the root: %v", diags)
	}
	for _, f := range files {
		if f.Name == "operations.go" && (!bytes.Contains(f.Content, []byte("func (c *Client) Ping(")) || bytes.Contains(f.Content, []byte("Op0000"))) {
			t.Errorf("root operations.go:\n%s", f.Content)
		}
		if f.Name == "groupssites/client.go" && (!bytes.Contains(f.Content, []byte("package groupssites\n")) || !bytes.Contains(f.Content, []byte(`"example.com/big"`))) {
			t.Errorf("groupssites/client.go:\n%s", f.Content)
		}
	}
	// Forced off.
	opts.Split = SplitNone
	if files, _ := emit(t, splitService(SplitThreshold), opts); len(files) != 3 {
		t.Errorf("split none: %v", fileNames(files))
	}
	// An MCP listing is never split.
	if files, _ := emit(t, mcpService(), Options{Package: "m", Split: SplitTags, ImportPath: "example.com/m"}); slices.ContainsFunc(files, func(f File) bool { return strings.Contains(f.Name, "/") }) {
		t.Errorf("an MCP client was split: %v", fileNames(files))
	}
}

func TestSplitNeedsImportPath(t *testing.T) {
	_, _, err := Emit(splitService(3), Options{Package: "big", Split: SplitTags})
	if !errors.Is(err, ErrNoImportPath) || !strings.Contains(err.Error(), "api.yaml") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := Emit(splitService(3), Options{Package: "big", Split: "folders"}); err == nil || !strings.Contains(err.Error(), `"folders"`) {
		t.Errorf("bad mode: %v", err)
	}
}

// TestSplitCompiles builds and vets the petstore fixture split by paths:
// every construct's operations in packages that refer to the root's types.
func TestSplitCompiles(t *testing.T) {
	mod, rel := writePackage(t, nil, nil)
	files, _ := emit(t, petstore(), Options{Package: "pets", Registry: true, Split: SplitPaths, ImportPath: path.Join("github.com/opsgen/opsgen", rel)})
	if !slices.ContainsFunc(files, func(f File) bool { return strings.Contains(f.Name, "/") }) {
		t.Fatalf("not split: %v", fileNames(files))
	}
	writeFiles(t, filepath.Join(mod, filepath.FromSlash(rel)), files)
	goCmd(t, mod, "vet", rel+"/...")
}

// TestSplitDeterministic: the layout and the files do not depend on the
// order of the IR's operations and types.
func TestSplitDeterministic(t *testing.T) {
	opts := Options{Package: "p", Registry: true, Split: SplitPaths, ImportPath: "example.com/p"}
	first, _ := emit(t, petstore(), opts)
	for seed := uint64(1); seed <= 3; seed++ {
		again, _ := emit(t, shuffled(petstore(), seed), opts)
		if !slices.Equal(fileNames(again), fileNames(first)) {
			t.Fatalf("seed %d: files %v, want %v", seed, fileNames(again), fileNames(first))
		}
		for i := range first {
			if !bytes.Equal(first[i].Content, again[i].Content) {
				t.Errorf("seed %d: %s differs", seed, first[i].Name)
			}
		}
	}
}
