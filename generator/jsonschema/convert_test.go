package jsonschema_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/mcptools"
	"github.com/opsgen/opsgen/generator/openapi"
)

// allOfSpec holds the allOf shapes of real specs: a $ref next to a part
// that only annotates it (AWS's), parts of the same type, and parts that
// disagree.
const allOfSpec = `openapi: 3.0.3
info: {title: allOf, version: "1"}
paths: {}
components:
  schemas:
    Name: {type: string, maxLength: 64}
    Status: {type: string, enum: [on, off]}
    Tags: {type: array, items: {type: string}}
    Pet: {type: object, properties: {id: {type: integer}}}
    Thing:
      type: object
      properties:
        name:
          allOf: [{$ref: "#/components/schemas/Name"}, {description: The thing's name.}]
        status:
          allOf: [{$ref: "#/components/schemas/Status"}, {description: Its status., default: "on"}]
        tags:
          allOf: [{$ref: "#/components/schemas/Tags"}, {title: Tags}]
        count:
          allOf: [{type: integer}, {minimum: 1}]
        code:
          allOf: [{$ref: "#/components/schemas/Name"}, {maxLength: 8}]
        owner:
          allOf: [{$ref: "#/components/schemas/Pet"}, {description: The owner., nullable: true}]
        merged:
          allOf: [{$ref: "#/components/schemas/Pet"}, {required: [id]}]
        mixed:
          allOf: [{$ref: "#/components/schemas/Name"}, {type: integer}]
    Alias:
      allOf: [{$ref: "#/components/schemas/Name"}, {description: A name of its own.}]
`

func fieldOf(t *testing.T, ty *ir.Type, name string) *ir.Field {
	t.Helper()
	for _, f := range ty.Fields {
		if f.JSONName == name {
			return f
		}
	}
	t.Fatalf("%s has no field %q", ty.Name, name)
	return nil
}

func typeOf(t *testing.T, svc *ir.Service, name string) *ir.Type {
	t.Helper()
	for _, ty := range svc.Types {
		if ty.Name == name {
			return ty
		}
	}
	t.Fatalf("no type %s", name)
	return nil
}

// TestAllOfAgreeingTypes: an allOf whose parts agree on a type has that
// type, in OpenAPI documents and in MCP tool schemas alike; parts that
// only annotate (description, default, nullable) do not disagree and give
// their annotations to the field.
func TestAllOfAgreeingTypes(t *testing.T) {
	svc, diags, err := openapi.LoadData(context.Background(), []byte(allOfSpec), "allof.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	thing := typeOf(t, svc, "Thing")
	for prop, want := range map[string]string{"name": "Name", "status": "Status", "tags": "Tags", "code": "Name", "owner": "Pet"} {
		if f := fieldOf(t, thing, prop); f.Type != typeOf(t, svc, want) {
			t.Errorf("%s: type %s (kind %v), want %s", prop, f.Type.Name, f.Type.Kind, want)
		}
	}
	if f := fieldOf(t, thing, "name"); f.Doc.Description != "The thing's name." {
		t.Errorf("name: doc %q", f.Doc.Description)
	}
	if f := fieldOf(t, thing, "status"); f.Default != "on" || f.Doc.Description != "Its status." {
		t.Errorf("status: default %v, doc %q", f.Default, f.Doc.Description)
	}
	if f := fieldOf(t, thing, "owner"); !f.Nullable || f.Doc.Description != "The owner." {
		t.Errorf("owner: nullable %v, doc %q", f.Nullable, f.Doc.Description)
	}
	if f := fieldOf(t, thing, "count"); f.Type.Kind != ir.Int || f.Type.Named() {
		t.Errorf("count: %+v", f.Type)
	}
	// Object parts still merge into a struct of their own.
	if m := fieldOf(t, thing, "merged").Type; m.Kind != ir.Struct || m.Name != "ThingMerged" || !fieldOf(t, m, "id").Required {
		t.Errorf("merged: %+v", m)
	}
	if m := fieldOf(t, thing, "mixed").Type; m.Kind != ir.Any {
		t.Errorf("mixed: kind %v, want Any", m.Kind)
	}
	// A component that is such an allOf is a type of its own, with its doc.
	if a := typeOf(t, svc, "Alias"); a.Kind != ir.String || a.Doc.Description != "A name of its own." {
		t.Errorf("Alias: %+v", a)
	}
	// Only the parts that disagree are reported.
	var got []string
	for _, d := range diags {
		got = append(got, d.Pos.Pointer+": "+d.Message)
	}
	if want := []string{"/components/schemas/Thing/properties/mixed/allOf/0: allOf part is not an object schema and the parts do not agree on a type; using raw JSON"}; !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The JSON Schema keeps every part, so validation checks them all.
	if s := thing.Def.Schema.String(); !strings.Contains(s, `"code":{"allOf":[{"$ref":"#/$defs/Name"},{"maxLength":8}]}`) {
		t.Errorf("Thing schema %s", s)
	}

	// The same schema stage serves MCP tool schemas.
	listing := `[{"name": "rename", "inputSchema": {"type": "object",
		"properties": {"name": {"allOf": [{"$ref": "#/$defs/Name"}, {"description": "The new name."}]}},
		"$defs": {"Name": {"type": "string", "maxLength": 64}}}}]`
	msvc, mdiags, err := mcptools.LoadData(context.Background(), []byte(listing), "tools.json", mcptools.LoadOptions{})
	if err != nil || len(mdiags) > 0 {
		t.Fatalf("MCP listing: %v %v", err, mdiags)
	}
	if f := fieldOf(t, typeOf(t, msvc, "RenameInput"), "name"); f.Type != typeOf(t, msvc, "RenameName") || f.Doc.Description != "The new name." {
		t.Errorf("MCP name: type %s, doc %q", f.Type.Name, f.Doc.Description)
	}
}

// TestReadOnlyNotRequired: required read-only and write-only properties
// are optional fields (left out of requests, or absent from responses);
// the JSON Schema of a response requires the read-only ones and not the
// write-only one, that of a request the reverse; the property's own
// keyword or an annotation part of its allOf says so.
func TestReadOnlyNotRequired(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: ro, version: "1"}
paths: {}
components:
  schemas:
    Pet:
      type: object
      required: [id, name, password, etag]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true}
        etag: {allOf: [{type: string}, {readOnly: true}]}
`
	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "ro.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	pet := typeOf(t, svc, "Pet")
	for name, want := range map[string]bool{"id": false, "name": true, "password": false, "etag": false} {
		if f := fieldOf(t, pet, name); f.Required != want {
			t.Errorf("%s: required %v, want %v", name, f.Required, want)
		}
	}
	if f := fieldOf(t, pet, "etag"); !f.ReadOnly {
		t.Error("etag is not read-only")
	}
	if s := pet.Def.Schema.String(); !strings.Contains(s, `"required":["id","name","etag"]`) {
		t.Errorf("Pet schema (responses) %s", s)
	}
	if pet.Def.Input == nil {
		t.Fatal("no request schema for Pet")
	}
	if s := pet.Def.Input.String(); !strings.Contains(s, `"required":["name","password"]`) {
		t.Errorf("Pet schema (requests) %s", s)
	}
}
