package openapi_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// shuffle reorders the entries of every mapping in the tree.
func shuffle(n *yaml.Node, r *rand.Rand) {
	if n.Kind == yaml.MappingNode {
		pairs := len(n.Content) / 2
		perm := r.Perm(pairs)
		out := make([]*yaml.Node, 0, len(n.Content))
		for _, i := range perm {
			out = append(out, n.Content[2*i], n.Content[2*i+1])
		}
		n.Content = out
	}
	for _, c := range n.Content {
		shuffle(c, r)
	}
}

func messages(diags diag.List) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Pos.Pointer+": "+d.Message)
	}
	slices.Sort(out)
	return out
}

// TestStableUnderReordering shuffles every mapping of several specs and
// checks that the IR (all names, types, operations, schemas) is unchanged.
func TestStableUnderReordering(t *testing.T) {
	for _, name := range []string{"petstore.json", "composition.yaml", "params.yaml", "responses.yaml", "bodies.yaml", "schemas31.yaml", "github-issues.json"} {
		data, err := os.ReadFile(specDir + name)
		if err != nil {
			t.Fatal(err)
		}
		checkStable(t, name, data, 5)
	}
}

// checkStable loads the spec data (file name) as it is and shuffled n
// times, and fails when the IR or the diagnostics differ.
func checkStable(t *testing.T, name string, data []byte, n int) {
	t.Helper()
	base := strings.TrimSuffix(name, filepath.Ext(name)) + ".yaml"
	want, wantDiags, err := openapi.LoadData(context.Background(), data, base, openapi.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r := rand.New(rand.NewSource(int64(len(name))))
	for i := 0; i < n; i++ {
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			t.Fatal(err)
		}
		shuffle(&root, r)
		shuffled, err := yaml.Marshal(&root)
		if err != nil {
			t.Fatal(err)
		}
		got, gotDiags, err := openapi.LoadData(context.Background(), shuffled, base, openapi.Options{})
		if err != nil {
			t.Fatalf("%s shuffled: %v", name, err)
		}
		if d1, d2 := dump(want), dump(got); d1 != d2 {
			t.Fatalf("%s: IR changed after shuffling:\n--- original\n%s\n--- shuffled\n%s", name, d1, d2)
		}
		equalSlice(t, name+" diagnostics", messages(gotDiags), messages(wantDiags))
	}
}

// TestManyIdenticalOperationIDs: thousands of operations with one id get
// unique ids and Go names, each with a warning, deterministically.
func TestManyIdenticalOperationIDs(t *testing.T) {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n")
	const n = 2000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  /p%d:\n    get:\n      operationId: same\n      responses:\n        '204': {description: none}\n", i)
	}
	svc, diags, err := openapi.LoadData(context.Background(), []byte(b.String()), "many.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "operations", len(svc.Operations), n)
	equal(t, "warnings", len(diags), n-1)
	ids, names := map[string]bool{}, map[string]bool{}
	for _, o := range svc.Operations {
		if ids[o.ID] || names[o.GoName] {
			t.Fatalf("duplicate id %q or name %q", o.ID, o.GoName)
		}
		ids[o.ID], names[o.GoName] = true, true
	}
	// Paths are visited in sorted order: /p0 keeps the id.
	for _, o := range svc.Operations {
		if o.Path == "/p0" && (o.ID != "same" || o.GoName != "Same") {
			t.Errorf("/p0 got %s %s", o.ID, o.GoName)
		}
	}
}

func TestFilter(t *testing.T) {
	ids := func(f ir.Filter) []string {
		svc, _ := load(t, "petstore.json", openapi.Options{Filter: f})
		var out []string
		for _, o := range svc.Operations {
			out = append(out, o.ID)
		}
		return out
	}
	equalSlice(t, "include tags", ids(ir.Filter{IncludeTags: []string{"pets"}}), []string{"createPet", "listPets"})
	equalSlice(t, "exclude tags", ids(ir.Filter{ExcludeTags: []string{"pets"}}), []string{"DeletePetsPetID", "showPetById"})
	equalSlice(t, "include ops", ids(ir.Filter{IncludeOperations: []string{"showPetById"}}), []string{"showPetById"})
	equalSlice(t, "exclude ops", ids(ir.Filter{ExcludeOperations: []string{"showPetById", "createPet"}}), []string{"DeletePetsPetID", "listPets"})
	equalSlice(t, "path prefix", ids(ir.Filter{IncludePaths: []string{"/pets/*"}}), []string{"DeletePetsPetID", "showPetById"})
	equalSlice(t, "exact path", ids(ir.Filter{ExcludePaths: []string{"/pets"}}), []string{"DeletePetsPetID", "showPetById"})
}

func TestNameOverrides(t *testing.T) {
	svc, diags := load(t, "petstore.json", openapi.Options{Names: map[string]string{
		"listPets":                   "AllPets",
		"#/components/schemas/Pet":   "Animal",
		"#/components/schemas/Error": "Client", // reserved: gets a suffix and a warning
	}})
	list := op(t, svc, "listPets")
	equal(t, "GoName", list.GoName, "AllPets")
	equal(t, "ParamsName", list.ParamsName, "AllPetsParams")
	animal := typ(t, svc, "Animal")
	// Inline children take the new name.
	equal(t, "owner", field(t, animal, "owner").Type.Name, "AnimalOwner")
	typ(t, svc, "Client2")
	found := false
	for _, d := range diags {
		if d.Pos.Pointer == "/components/schemas/Error" && strings.Contains(d.Message, `name "Client" is taken; using "Client2"`) && d.Pos.Line > 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("missing taken-name warning with position: %v", diags)
	}
	equalJSON(t, "output", list.OutputSchema, `{"type":"array","items":{"$ref":"#/$defs/Animal"}}`)
}

// TestInventedNamesDoNotCollide: an operation's invented names yield to
// component schemas that already use them.
func TestInventedNamesDoNotCollide(t *testing.T) {
	spec := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a/{id}:
    post:
      operationId: make
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {a: {type: string}}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {b: {type: string}}}
components:
  schemas:
    MakeParams: {type: string}
    MakeBody: {type: string}
    MakeResponse: {type: string}
    Client: {type: string}
`
	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "c.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := op(t, svc, "make")
	equal(t, "ParamsName", o.ParamsName, "MakeParams2")
	equal(t, "Body.Name", o.Body.Name, "MakeBody2")
	equal(t, "Result type", o.Result.Type.Name, "MakeResponse2")
	typ(t, svc, "MakeParams")
	typ(t, svc, "Client2")
}
