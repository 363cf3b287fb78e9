package emit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
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
		"internal/schemas/schemas.go", "operations.go", "schemaset/schemaset.go", "users/client.go", "users/operations.go"}
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

// placeSpec has types of every placement: Pet (and the recursive Node it
// holds) used by the pets package's operations only, Conflict the body of
// an inline error of one of them; Address used by two packages; Legacy
// used by no operation, and Toy, which it and one package use; Problem
// the body of a shared error type; Status used by an operation no package
// takes; Order used by one package and by a webhook; New used by one
// package but named like an operation package's function.
const placeSpec = `openapi: 3.1.0
info: {title: place, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
        "409": {description: conflict, content: {application/json: {schema: {$ref: "#/components/schemas/Conflict"}}}}
  /users/{id}:
    get:
      operationId: getUser
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/User"}}}}
        "404": {$ref: "#/components/responses/NotFound"}
  /toys:
    get:
      operationId: listToys
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Toy"}}}}
  /orders:
    post:
      operationId: createOrder
      requestBody: {required: true, content: {application/json: {schema: {$ref: "#/components/schemas/Order"}}}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/New"}}}}
  /:
    get:
      operationId: status
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Status"}}}}
webhooks:
  orderPlaced:
    post:
      requestBody: {content: {application/json: {schema: {$ref: "#/components/schemas/Order"}}}}
      responses: {"200": {description: ok}}
components:
  responses:
    NotFound: {description: gone, content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
  schemas:
    Pet: {type: object, required: [id], properties: {id: {type: integer}, home: {$ref: "#/components/schemas/Address"}, tree: {$ref: "#/components/schemas/Node"}}}
    Node: {type: object, properties: {kids: {type: array, items: {$ref: "#/components/schemas/Node"}}}}
    Conflict: {type: object, properties: {reason: {type: string}}}
    User: {type: object, properties: {home: {$ref: "#/components/schemas/Address"}}}
    Address: {type: object, properties: {city: {type: string}}}
    Toy: {type: object, properties: {squeaks: {type: boolean}}}
    Legacy: {type: object, properties: {toy: {$ref: "#/components/schemas/Toy"}}}
    Problem: {type: object, properties: {message: {type: string}}}
    Status: {type: object, properties: {up: {type: boolean}}}
    Order: {type: object, properties: {id: {type: string}}}
    New: {type: object, properties: {id: {type: string}}}
`

// TestPlaceTypes: a split API's types are declared in the one operation
// package whose operations use them, in package unreferenced when none
// does, or else in the root; the packages vet (no import cycle) and do not
// depend on the order of the IR.
func TestPlaceTypes(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(placeSpec), "place.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mod, rel := writePackage(t, nil, nil)
	opts := Options{Package: "place", Registry: true, Split: SplitPaths, ImportPath: path.Join("github.com/opsgen/opsgen", rel)}
	files, _ := emit(t, svc, opts)
	declared := map[string]string{} // type name: file
	for _, f := range files {
		for _, m := range regexp.MustCompile(`(?m)^type (\w+) struct`).FindAllStringSubmatch(string(f.Content), -1) {
			declared[m[1]] = f.Name
		}
	}
	for name, file := range map[string]string{
		"Pet": "pets/types.go", "Node": "pets/types.go", "Conflict": "pets/types.go", "User": "users/types.go",
		"Address": "types.go", "Toy": "toys/types.go", "Legacy": "unreferenced/types.go", "Problem": "types.go", "Status": "types.go",
		"Order": "types.go", "New": "types.go",
	} {
		if declared[name] != file {
			t.Errorf("type %s declared in %q, want %q", name, declared[name], file)
		}
	}
	users := string(fileNamed(t, files, "users/operations.go"))
	if !strings.Contains(users, "runtime.ResponseEnvelope[User]") || !strings.Contains(users, "place.NotFoundError") {
		t.Errorf("users/operations.go does not use its own User and the root's NotFoundError:\n%s", users)
	}
	for seed := uint64(1); seed <= 2; seed++ {
		again, _ := emit(t, shuffled(svc, seed), opts)
		if !slices.EqualFunc(again, files, func(a, b File) bool { return a.Name == b.Name && bytes.Equal(a.Content, b.Content) }) {
			t.Errorf("seed %d: the output differs", seed)
		}
	}
	writeFiles(t, filepath.Join(mod, filepath.FromSlash(rel)), files)
	goCmd(t, mod, "vet", rel+"/...")
}

// fileNamed returns the content of the file of files called name.
func fileNamed(t *testing.T, files []File, name string) []byte {
	t.Helper()
	for _, f := range files {
		if f.Name == name {
			return f.Content
		}
	}
	t.Fatalf("no file %s in %v", name, fileNames(files))
	return nil
}

// TestSplitLarge: a path group of more than SplitGroupMax operations is
// split again by the second literal segment of its paths; an operation
// without one, or with an action there, stays in the group; a smaller
// group is not split.
func TestSplitLarge(t *testing.T) {
	svc := &ir.Service{Kind: ir.OpenAPI, Title: "Big", Source: "api.yaml"}
	add := func(n int, format string) {
		for i := range n {
			p := fmt.Sprintf(format, i)
			svc.Operations = append(svc.Operations, opAt(fmt.Sprintf("op%d%s", len(svc.Operations), strings.NewReplacer("/", "", "{", "", "}", "", ".", "", "(", "", ")", "").Replace(p)), p))
		}
	}
	add(SplitGroupMax/2, "/v1.0/users/{id}/calendar/events/%d")
	add(SplitGroupMax/2, "/v1.0/users/{id}/joined-teams/%d")
	add(2, "/v1.0/users/{id}/microsoft.graph.delta%d()")
	add(1, "/v1.0/users/%d")
	add(SplitGroupMax, "/groups/{id}/members/%d") // at the maximum: kept whole
	add(SplitThreshold, "/drives/%d")             // no second segment: kept whole
	g := newGen(svc, Options{Package: "big", Split: SplitPaths, ImportPath: "example.com/big"})
	sizes := map[string]int{}
	for _, grp := range g.split() {
		sizes[grp.dir] = len(grp.ops)
	}
	want := map[string]int{"userscalendar": SplitGroupMax / 2, "usersjoinedteams": SplitGroupMax / 2, "users": 3, "groups": SplitGroupMax, "drives": SplitThreshold}
	if !maps.Equal(sizes, want) {
		t.Errorf("groups %v, want %v", sizes, want)
	}
}
