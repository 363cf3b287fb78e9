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
