package emit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// tiny is a one-operation service for the golden test.
func tiny() *ir.Service {
	color := &ir.Type{Name: "Color", Kind: ir.Enum, Base: ir.String, Doc: ir.Doc{Description: "A color.", Origin: "#/components/schemas/Color"},
		Values: []*ir.EnumValue{{Name: "ColorRed", Value: "red"}, {Name: "ColorBlue", Value: "blue"}}}
	toy := &ir.Type{Name: "Toy", Kind: ir.Struct, Doc: ir.Doc{Summary: "A toy.", Origin: "#/components/schemas/Toy"}, Fields: []*ir.Field{
		{Name: "Name", JSONName: "name", Type: &ir.Type{Kind: ir.String}, Required: true},
		{Name: "Color", JSONName: "color", Type: color, Doc: ir.Doc{Description: "Its color."}},
	}}
	defs := testDefs{}
	defs.declare(color, toy)
	color.Def.Schema = defs.schema(`{"type":"string","enum":["red","blue"]}`)
	toy.Def.Schema = defs.schema(`{"type":"object","properties":{"name":{"type":"string"},"color":{"$ref":"#/$defs/Color"}},"required":["name"]}`)
	resp := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: toy, Schema: ir.RefTo(toy.Def)}
	return &ir.Service{
		Kind: ir.OpenAPI, Source: "specs/toys.yaml", Title: "Toys", Version: "2.0",
		Servers:         []ir.Server{{URL: "https://toys.example/api"}},
		Types:           []*ir.Type{color, toy},
		Defs:            defs.list(),
		SecuritySchemes: []*ir.SecurityScheme{{Name: "key", GoName: "APIKey", Type: "apiKey", In: "query", ParamName: "key"}},
		Security:        [][]string{{"key"}},
		Operations: []*ir.Operation{{
			ID: "getToy", GoName: "GetToy", Method: "GET", Path: "/toys/{id}", ParamsName: "GetToyParams",
			Doc: ir.Doc{Summary: "Get a toy.", Origin: "GET /toys/{id}"},
			Params: []*ir.Param{
				{Name: "id", GoName: "ID", In: ir.InPath, Style: "simple", Required: true, Type: &ir.Type{Kind: ir.String}},
				{Name: "color", GoName: "Color", In: ir.InQuery, Style: "form", Explode: true, Type: color},
			},
			Responses:    []*ir.Response{resp},
			Result:       resp,
			InputSchema:  defs.schema(`{"type":"object","properties":{"params":{"type":"object","properties":{"id":{"type":"string"},"color":{"$ref":"#/$defs/Color"}},"required":["id"]}},"required":["params"]}`),
			OutputSchema: ir.RefTo(toy.Def),
		}},
	}
}

func TestGolden(t *testing.T) {
	files, diags := emit(t, tiny(), Options{Package: "toys", Version: "v0.0.0-test", Registry: true})
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	dir := filepath.Join("testdata", "toys")
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name+".golden")
		if *update {
			if err := os.WriteFile(path, f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (regenerate with go test ./generator/emit -update)", err)
		}
		if string(want) != string(f.Content) {
			t.Errorf("%s differs from %s (regenerate with -update and review the diff):\n%s", f.Name, path, f.Content)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("%s holds %d files, Emit wrote %d", dir, len(entries), len(files))
	}
}
