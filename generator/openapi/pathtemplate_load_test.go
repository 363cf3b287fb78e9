package openapi_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestPathTemplates: the loader sends what the path templates mean (see
// planPath) and leaves out, with a diagnostic at the operation's JSON
// pointer, an operation whose template no request can carry.
func TestPathTemplates(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "spec.yaml")
	err := os.WriteFile(spec, []byte(`openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /docs{.format}:
    get:
      operationId: getDocs
      parameters:
        - {name: format, in: query, schema: {type: string}}
      responses: {"200": {description: Docs.}}
  /files/{name}{.format}:
    get:
      operationId: getFile
      parameters:
        - {name: name, in: path, required: true, schema: {type: string}}
        - {name: .format, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: A file.}}
  /v1/tags/{resourceArn}#tagKeys:
    delete:
      operationId: untag
      parameters:
        - {name: resourceArn, in: path, required: true, schema: {type: string}}
      responses: {"200": {description: ok}}
  /alerts?lat={lat}&units=metric:
    get:
      operationId: alerts
      parameters:
        - {name: lat, in: path, required: true, schema: {type: number}}
      responses: {"200": {description: ok}}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	svc, diags, err := openapi.Load(context.Background(), spec, openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, o := range svc.Operations {
		ids = append(ids, o.ID)
	}
	if strings.Join(ids, ",") != "alerts,getFile,untag" {
		t.Errorf("operations %v, want alerts, getFile and untag (getDocs left out)", ids)
	}
	found := false
	for _, d := range diags {
		if d.Pos.Pointer == "/paths/~1docs{.format}/get" && strings.Contains(d.Message, `"format" of {.format} is declared by no path parameter`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no diagnostic at /paths/~1docs{.format}/get: %v", diags)
	}
	for id, want := range map[string]string{"getFile": "/files/{name}{.format}", "untag": "/v1/tags/{resourceArn}", "alerts": "/alerts?units=metric"} {
		if got := op(t, svc, id).Path; got != want {
			t.Errorf("%s sends %q, want %q", id, got, want)
		}
	}
	format := op(t, svc, "getFile").Params[1]
	if format.Name != ".format" || format.In != ir.InPath || format.Style != "label" {
		t.Errorf("getFile's .format: %+v, want a path parameter in style label", format)
	}
	lat := op(t, svc, "alerts").Params[0]
	if lat.Name != "lat" || lat.In != ir.InQuery || lat.Style != "form" || !lat.Required {
		t.Errorf("alerts' lat: %+v, want a required form query parameter", lat)
	}
}
