package jsonschema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// typelessSpec has schemas without type (slack's objs_conversation is
// {"items": {"anyOf": [objects]}}, and servers send the object).
const typelessSpec = `openapi: 3.0.3
info: {title: typeless, version: "1"}
paths: {}
components:
  schemas:
    Conv:
      items: {anyOf: [{type: object, properties: {id: {type: string}}}]}
    Ids: {type: array, items: {type: string}}
    Obj:
      properties: {id: {type: string}}
`

// TestTypelessItems: "items" without "type" constrains arrays only and
// allows any other kind of value, so no Go slice can hold every valid
// value: the schema is raw JSON, with a warning naming the place. "type:
// array" stays a slice, and object keywords without type keep their struct.
func TestTypelessItems(t *testing.T) {
	svc, diags, err := openapi.LoadData(context.Background(), []byte(typelessSpec), "typeless.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if k := typeOf(t, svc, "Conv").Kind; k != ir.Any {
		t.Errorf("Conv: kind %v, want Any", k)
	}
	if k := typeOf(t, svc, "Ids").Kind; k != ir.Array {
		t.Errorf("Ids: kind %v, want Array", k)
	}
	if k := typeOf(t, svc, "Obj").Kind; k != ir.Struct {
		t.Errorf("Obj: kind %v, want Struct", k)
	}
	found := false
	for _, d := range diags {
		if d.Pos.Pointer == "/components/schemas/Conv" && strings.Contains(d.Message, "raw JSON") {
			found = true
		}
	}
	if !found {
		t.Errorf("no raw JSON warning at /components/schemas/Conv in %v", diags)
	}
}

// nonObjectSpec has object schemas with and without "type", merged by
// allOf or not, and a property named like the field that keeps other values.
const nonObjectSpec = `openapi: 3.0.3
info: {title: nonobject, version: "1"}
paths: {}
components:
  schemas:
    Bare:
      properties: {nonObject: {type: string}, NonObject: {type: integer}}
    Typed: {type: object, properties: {id: {type: string}}}
    NullableTyped: {type: [object, "null"], properties: {id: {type: string}}}
    Merged:
      allOf: [{$ref: "#/components/schemas/Bare"}, {properties: {b: {type: string}}}]
    MergedTyped:
      allOf: [{$ref: "#/components/schemas/Bare"}, {$ref: "#/components/schemas/Typed"}]
    MergedTypedHere:
      type: object
      allOf: [{$ref: "#/components/schemas/Bare"}, {properties: {b: {type: string}}}]
    Dict:
      additionalProperties: {type: string}
`

// TestNonObjectStructs: a struct whose schema (with every part of its
// allOf) states no type accepts values that are not objects (NonObject);
// one that states "type: object" anywhere does not, nor does a map; the
// NonObject field name is kept free.
func TestNonObjectStructs(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(nonObjectSpec), "nonobject.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"Bare": true, "Typed": false, "NullableTyped": false, "Merged": true, "MergedTyped": false, "MergedTypedHere": false, "Dict": false} {
		if got := typeOf(t, svc, name).NonObject; got != want {
			t.Errorf("%s: NonObject %v, want %v", name, got, want)
		}
	}
	for _, f := range typeOf(t, svc, "Bare").Fields {
		if f.Name == ir.NonObjectField {
			t.Errorf("property %q has the field name %s", f.JSONName, f.Name)
		}
	}
}
