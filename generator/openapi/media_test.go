package openapi_test

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestWildcardMediaJSON: a body or response of any media type ("*/*",
// "application/*") whose schema is structured is JSON (telnyx's report
// request, seed 3141), sent as application/json; bytes otherwise.
func TestWildcardMediaJSON(t *testing.T) {
	const doc = `{"openapi": "3.0.0", "info": {"title": "x", "version": "1"},
	"paths": {
		"/a": {"post": {"operationId": "a",
			"requestBody": {"content": {"*/*": {"schema": {"$ref": "#/components/schemas/R"}}}},
			"responses": {"200": {"description": "ok", "content": {"application/*": {"schema": {"type": "array", "items": {"type": "string"}}}}}}}},
		"/b": {"post": {"operationId": "b",
			"requestBody": {"content": {"*/*": {"schema": {"type": "string", "format": "binary"}}}},
			"responses": {"200": {"description": "ok", "content": {"*/*": {"schema": {"type": "string"}}}}}}}},
	"components": {"schemas": {"R": {"type": "object", "properties": {"a": {"type": "string"}}}}}}`
	svc, _, err := openapi.LoadData(context.Background(), []byte(doc), "x.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := op(t, svc, "a"), op(t, svc, "b")
	equal(t, "a body kind", a.Body.Kind, ir.BodyJSON)
	equal(t, "a body media type", a.Body.MediaType, "application/json")
	equal(t, "a result kind", a.Result.Kind, ir.BodyJSON)
	equal(t, "a result media type", a.Result.MediaType, "application/*")
	equal(t, "b body kind", b.Body.Kind, ir.BodyBinary)
	equal(t, "b body media type", b.Body.MediaType, "*/*")
	equal(t, "b result kind", b.Result.Kind, ir.BodyBinary)
}
