package jsonschema_test

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// orNullSpec holds Microsoft Graph's "X or null" idiom (anyOf of a
// reference and an open nullable object) beside the cases where the open
// branch accepts objects X does not hold, which stay unions.
const orNullSpec = `openapi: 3.0.3
info: {title: or null, version: "1"}
paths: {}
components:
  schemas:
    entity:
      type: object
      properties: {id: {type: string}}
    user:
      allOf:
        - $ref: "#/components/schemas/entity"
        - type: object
          required: ["@odata.type"]
          properties:
            "@odata.type": {type: string, default: "#microsoft.graph.user"}
            name: {type: string, nullable: true}
    strict:
      type: object
      required: [id]
      properties: {id: {type: string}}
    closed:
      type: object
      additionalProperties: false
      properties: {id: {type: string}}
    color: {type: string, enum: [red, blue]}
    holder:
      type: object
      properties:
        manager:
          anyOf: [{$ref: "#/components/schemas/user"}, {type: object, nullable: true}]
        owner:
          anyOf: [{type: object}, {$ref: "#/components/schemas/entity"}]
        strictOne:
          anyOf: [{$ref: "#/components/schemas/strict"}, {type: object, nullable: true}]
        closedOne:
          anyOf: [{$ref: "#/components/schemas/closed"}, {type: object, nullable: true}]
        colorOne:
          anyOf: [{$ref: "#/components/schemas/color"}, {type: object, nullable: true}]
        shapedOne:
          anyOf: [{$ref: "#/components/schemas/user"}, {type: object, nullable: true, properties: {x: {type: integer}}}]
`

// TestOrNullObject: anyOf [X, open object] is X (nullable when the open
// branch is) when X's struct takes any object, required members or not;
// additionalProperties: false, a non-object X or an open branch with
// properties of its own keep the union.
func TestOrNullObject(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(orNullSpec), "ornull.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	holder := typeOf(t, svc, "Holder")
	for _, c := range []struct {
		field    string
		kind     ir.Kind
		name     string // the type when it is not a union
		nullable bool   // of the field (a union's own Nullable is not checked)
	}{
		{"manager", ir.Struct, "User", true},
		{"owner", ir.Struct, "Entity", false},
		{"strictOne", ir.Struct, "Strict", true},
		{"closedOne", ir.Union, "", false},
		{"colorOne", ir.Union, "", false},
		{"shapedOne", ir.Union, "", false},
	} {
		f := fieldOf(t, holder, c.field)
		if f.Type.Kind != c.kind {
			t.Errorf("%s: kind %v, want %v", c.field, f.Type.Kind, c.kind)
			continue
		}
		if c.name != "" && f.Type.Name != c.name {
			t.Errorf("%s: type %s, want %s", c.field, f.Type.Name, c.name)
		}
		if f.Nullable != c.nullable {
			t.Errorf("%s: nullable %v, want %v", c.field, f.Nullable, c.nullable)
		}
	}
}
