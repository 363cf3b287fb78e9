package jsonschema_test

import (
	"context"
	"encoding/json"
	"slices"
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

// TestReadOnlyInSchemas: readOnly and writeOnly stay on the properties of
// the JSON Schemas the registry publishes (i-cue.solutions' NewUserRequest
// has a read-only isActive and additionalProperties: false; a caller that
// could not see readOnly sent it and the server refused the request). A
// read-only property reached by $ref keeps the mark too.
func TestReadOnlyInSchemas(t *testing.T) {
	const spec = `openapi: 3.1.0
info: {title: ro, version: "1"}
paths: {}
components:
  schemas:
    Flag: {type: boolean}
    NewUser:
      type: object
      additionalProperties: false
      required: [email, isActive]
      properties:
        email: {type: string}
        isActive: {type: boolean, readOnly: true}
        password: {type: string, writeOnly: true}
        flag: {$ref: "#/components/schemas/Flag", readOnly: true}
`
	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "ro.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal([]byte(svc.Def("NewUser").Schema.String()), &got); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"isActive": "readOnly", "password": "writeOnly", "flag": "readOnly"} {
		if got.Properties[name][want] != true {
			t.Errorf("%s: no %s in %v", name, want, got.Properties[name])
		}
	}
	if len(got.Properties["email"]) != 1 || !slices.Equal(got.Required, []string{"email", "isActive"}) {
		t.Errorf("email %v, required of a response %v", got.Properties["email"], got.Required)
	}
	// A request leaves the read-only isActive out: not required there.
	if err := json.Unmarshal([]byte(svc.Def("NewUser").Input.String()), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Required, []string{"email"}) {
		t.Errorf("required of a request %v", got.Required)
	}
}
