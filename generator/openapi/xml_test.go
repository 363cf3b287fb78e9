package openapi_test

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestXMLBodies checks which XML bodies are typed (BodyXML: a structured
// schema), which stay text or bytes, and that xml objects reach the JSON
// Schemas, OpenAPI 3.2's nodeType included.
func TestXMLBodies(t *testing.T) {
	const doc = `{"openapi": "3.1.0", "info": {"title": "x", "version": "1"},
	"paths": {"/a": {"post": {"operationId": "a",
		"requestBody": {"content": {"application/atom+xml": {"schema": {"$ref": "#/components/schemas/feed"}}}},
		"responses": {
			"200": {"description": "ok", "content": {"text/xml": {"schema": {"type": "array", "items": {"type": "string", "xml": {"name": "s"}}}}}},
			"201": {"description": "ok", "content": {"text/xml": {"schema": {"type": "string"}}}},
			"202": {"description": "ok", "content": {"application/xml": {}}},
			"203": {"description": "ok", "content": {"text/plain": {"schema": {"type": "string"}}, "application/xml": {"schema": {"type": "object"}}}}}}},
	"/b": {"put": {"operationId": "b", "requestBody": {"content": {"application/xml": {"schema": {"type": "integer"}}}}, "responses": {"204": {"description": "none"}}}},
	"/c": {"put": {"operationId": "c", "requestBody": {"content": {"text/xml": {"schema": {"type": "object", "properties": {"feed": {"allOf": [{"$ref": "#/components/schemas/feed"}, {"description": "d"}]}}}}}}, "responses": {"204": {"description": "none"}}}},
	"/d": {"put": {"operationId": "d", "requestBody": {"content": {"text/xml": {"schema": {"type": "object", "properties": {"n": {"type": "string"}}}}}}, "responses": {"204": {"description": "none"}}}}},
	"components": {"schemas": {"feed": {"type": "object", "xml": {"namespace": "http://www.w3.org/2005/Atom"},
		"properties": {"title": {"type": "string", "xml": {"nodeType": "text"}}}}}}}`
	svc, _, err := openapi.LoadData(context.Background(), []byte(doc), "x.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := op(t, svc, "a")
	equal(t, "a body kind", a.Body.Kind, ir.BodyXML)
	equalJSON(t, "a body schema", a.Body.Schema, `{"$ref":"#/$defs/Feed","xml":{"name":"feed"}}`)
	kinds := map[string]ir.BodyKind{}
	for _, r := range a.Responses {
		kinds[r.Status] = r.Kind
	}
	// An array is typed; a string or no schema is text (text/xml) or bytes;
	// text/plain wins over XML, as before.
	for status, want := range map[string]ir.BodyKind{"200": ir.BodyXML, "201": ir.BodyText, "202": ir.BodyBinary, "203": ir.BodyText} {
		equal(t, "response "+status+" kind", kinds[status], want)
	}
	equal(t, "b body kind", op(t, svc, "b").Body.Kind, ir.BodyBinary)
	equal(t, "b body schema", op(t, svc, "b").Body.Schema, (*ir.Schema)(nil))
	// An inline object whose one property is an object: that property's
	// element is the document's (APIs.guru's AWS REST-XML bodies); with a
	// string property, the object keeps its element.
	equalJSON(t, "c body schema", op(t, svc, "c").Body.Schema, `{"$ref":"#/$defs/CBody","xml":{"nodeType":"none"}}`)
	equalJSON(t, "d body schema", op(t, svc, "d").Body.Schema, `{"$ref":"#/$defs/DBody"}`)
	equalJSON(t, "Feed schema", svc.Def("Feed"),
		`{"type":"object","xml":{"namespace":"http://www.w3.org/2005/Atom"},"properties":{"title":{"type":"string","xml":{"nodeType":"text"}}}}`)
}
