package openapi_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/openapi"
)

// warnings renders diagnostics as "file:line:col pointer: message".
func warnings(diags diag.List) []string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s:%d:%d %s: %s", filepath.Base(d.Pos.File), d.Pos.Line, d.Pos.Col, d.Pos.Pointer, d.Message))
	}
	return out
}

// TestWrongTypeAnnotations (issue 11): annotations of the wrong JSON type
// (APIs.guru's api.video has a numeric schema pattern, codat.io/assess an
// object as a schema's examples) are ignored with a warning naming their
// place, instead of costing the whole document; names that happen to be
// annotation keywords (a property or a parameter called "description") are
// left alone.
func TestWrongTypeAnnotations(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: lenient, version: "1", description: fine}
paths:
  /v:
    get:
      operationId: getV
      deprecated: "yes"
      parameters:
        - $ref: "#/components/parameters/description"
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Video"}}}}
components:
  parameters:
    description: {name: q, in: query, schema: {type: string, pattern: 42}}
  schemas:
    Video:
      type: object
      description: [not, text]
      examples: {a: 1}
      properties:
        description: {type: string, maxLength: 10}
        timecode: {type: string, pattern: 12, example: "00:01"}
`
	svc, diags, err := openapi.LoadData(context.Background(), []byte(spec), "video.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "warnings", warnings(diags), []string{
		`video.yaml:7:7 /paths/~1v/get/deprecated: "deprecated" is a string where a boolean belongs; it only annotates or documents, and is ignored`,
		`video.yaml:14:62 /components/parameters/description/schema/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
		`video.yaml:18:7 /components/schemas/Video/description: "description" is a list where a string belongs; it only annotates or documents, and is ignored`,
		`video.yaml:19:7 /components/schemas/Video/examples: "examples" is an object where a list belongs; it only annotates or documents, and is ignored`,
		`video.yaml:22:34 /components/schemas/Video/properties/timecode/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
	})
	equalSlice(t, "Video fields", fields(typ(t, svc, "Video")), []string{"Description:description:string", "Timecode:timecode:string"})
	get := op(t, svc, "getV")
	if len(get.Params) != 1 || get.Params[0].Name != "q" || ts(get.Params[0].Type) != "string" {
		t.Errorf("params = %+v", get.Params)
	}
	if !strings.Contains(typ(t, svc, "Video").Def.Schema.String(), `"maxLength":10`) {
		t.Errorf("Video's schema lost its other keywords: %s", typ(t, svc, "Video").Def.Schema)
	}

	// The same in JSON, as api.video and codat.io/assess write it.
	const js = `{"openapi": "3.0.0", "info": {"title": "j", "version": "1"}, "paths": {},
"components": {"schemas": {"T": {"type": "string", "pattern": 7, "examples": {"x": {"value": "a"}}}}}}`
	_, diags, err = openapi.LoadData(context.Background(), []byte(js), "t.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "JSON warnings", warnings(diags), []string{
		`t.json:2:52 /components/schemas/T/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
		`t.json:2:66 /components/schemas/T/examples: "examples" is an object where a list belongs; it only annotates or documents, and is ignored`,
	})
}

// TestWrongTypeAnnotationsInOtherFiles checks the files a document's $refs
// reach, and Swagger 2.0 documents.
func TestWrongTypeAnnotationsInOtherFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"spec.yaml": strings.Replace(refSpec, "REF", "defs.yaml#/Secret", 1),
		"defs.yaml": "Secret:\n  type: string\n  pattern: 5\n",
		"swagger.yaml": `swagger: "2.0"
info: {title: s, version: "1"}
paths:
  /s:
    get:
      operationId: getS
      parameters: [{name: q, in: query, type: string, pattern: 5}]
      responses: {"200": {description: ok, schema: {type: string, description: 12}}}
`,
	})
	_, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "spec.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "warnings", warnings(diags), []string{
		`defs.yaml:3:3 /Secret/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
	})
	svc, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "swagger.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "Swagger warnings", warnings(diags), []string{
		`swagger.yaml:7:55 /paths/~1s/get/parameters/0/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
		`swagger.yaml:8:67 /paths/~1s/get/responses/200/schema/description: "description" is a number where a string belongs; it only annotates or documents, and is ignored`,
	})
	equal(t, "operations", len(svc.Operations), 1)
}

// TestWrongTypeKeywordThatMatters checks that a keyword of the wrong type
// that is not an annotation still fails the document.
func TestWrongTypeKeywordThatMatters(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: strict, version: "1"}
paths: {}
components:
  schemas:
    T: {type: object, required: yes, pattern: 5}
`
	_, _, err := openapi.LoadData(context.Background(), []byte(spec), "strict.yaml", openapi.Options{})
	if err == nil || !strings.Contains(err.Error(), "strict.yaml") || !strings.Contains(err.Error(), "required") {
		t.Fatalf("err = %v, want a failure naming required", err)
	}
}

// TestWrongTypeAnnotationsJSONFileAndAliases checks a JSON file reached by
// a $ref (keys found by the JSON scanner, columns counted in characters)
// and a YAML file whose wrong annotation is reached through an alias: it
// is disabled where the anchor writes it, and named where it is used.
func TestWrongTypeAnnotationsJSONFileAndAliases(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"json.yaml": strings.Replace(refSpec, "REF", "defs.json#/Secret", 1),
		"defs.json": `{"Secret": {"type": "object", "title": ["x"],
  "properties": {"é": {"type": "string", "description": 1, "pattern": 2}}}}`,
		"alias.yaml":   strings.Replace(refSpec, "REF", "anchors.yaml#/Secret", 1),
		"anchors.yaml": "x-shared: &bad {type: string, pattern: 5}\nSecret:\n  type: object\n  properties:\n    a: *bad\n",
	})
	_, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "json.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "JSON file warnings", warnings(diags), []string{
		`defs.json:1:31 /Secret/title: "title" is a list where a string belongs; it only annotates or documents, and is ignored`,
		`defs.json:2:42 /Secret/properties/é/description: "description" is a number where a string belongs; it only annotates or documents, and is ignored`,
		`defs.json:2:60 /Secret/properties/é/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
	})
	svc, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "alias.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalSlice(t, "alias warnings", warnings(diags), []string{
		`anchors.yaml:1:31 /Secret/properties/a/pattern: "pattern" is a number where a string belongs; it only annotates or documents, and is ignored`,
	})
	equalSlice(t, "Secret fields", fields(typ(t, svc, "Secret")), []string{"A:a:string"})
}
