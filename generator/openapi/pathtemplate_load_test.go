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

// TestQueryObjects: arrays of objects in a query are sent as the AWS query
// protocols send them for APIs.guru's AWS query services; elsewhere no
// style serializes them, so the parameter (or, required, its operation) is
// left out at generation with a diagnostic at its JSON pointer.
func TestQueryObjects(t *testing.T) {
	const tmpl = `openapi: 3.0.3
info: {title: T, version: "1", x-providerName: amazonaws.com, x-serviceName: SERVICE}
paths:
  /#Action=AssumeRole:
    get:
      operationId: assumeRole
      parameters:
        - {name: Action, in: query, required: true, schema: {type: string, enum: [AssumeRole]}}
        - {name: Version, in: query, required: true, schema: {type: string, enum: ["2011-06-15"]}}
        - {name: RoleArn, in: query, required: true, schema: {type: string}}
        - {name: PolicyArns, in: query, schema: {type: array, items: {$ref: "#/components/schemas/Policy"}}}
      responses: {"200": {description: ok}}
  /markers:
    get:
      operationId: markers
      parameters:
        - {name: timeline, in: query, schema: {type: array, items: {$ref: "#/components/schemas/Policy"}}}
        - {name: limit, in: query, schema: {type: integer}}
      responses: {"200": {description: ok}}
  /search:
    get:
      operationId: search
      parameters:
        - {name: filters, in: query, required: true, schema: {type: object, properties: {tags: {type: array, items: {type: string}}}}}
      responses: {"200": {description: ok}}
components:
  schemas:
    Policy: {type: object, properties: {arn: {type: string}}}
`
	for service, style := range map[string]string{"sts": "awsQuery", "ec2": "awsEC2"} {
		spec := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(spec, []byte(strings.Replace(tmpl, "SERVICE", service, 1)), 0o644); err != nil {
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
		if strings.Join(ids, ",") != "assumeRole,markers" {
			t.Errorf("%s: operations %v, want assumeRole and markers (search left out)", service, ids)
		}
		for _, p := range op(t, svc, "assumeRole").Params {
			want := "form"
			if p.Name == "PolicyArns" {
				want = style
			}
			if p.Style != want {
				t.Errorf("%s: %s in style %s, want %s", service, p.Name, p.Style, want)
			}
		}
		if ps := op(t, svc, "markers").Params; len(ps) != 1 || ps[0].Name != "limit" {
			t.Errorf("%s: markers' parameters %v, want limit only", service, ps)
		}
		want := map[string]string{
			"/paths/~1markers/get/parameters/0": `query parameter "timeline" is left out: it is an array of arrays or objects`,
			"/paths/~1search/get":               `operation search is left out: its required query parameter "filters" is an object whose member "tags" is an array or an object`,
		}
		for _, d := range diags {
			if m, ok := want[d.Pos.Pointer]; ok && strings.Contains(d.Message, m) {
				delete(want, d.Pos.Pointer)
			}
		}
		for ptr, m := range want {
			t.Errorf("%s: no diagnostic at %s saying %q: %v", service, ptr, m, diags)
		}
	}
}
