package openapi_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/openapi"
)

// badRefSpec has local $refs that point at the wrong kind of object (a
// response where a schema belongs, twice; the info) and at a map of
// schemas; one into a header, which kin-openapi follows in the document
// read untyped, is kept.
const badRefSpec = `openapi: 3.0.3
info: {title: bad refs, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/responses/R"}
        "201":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/responses/R"}
components:
  schemas:
    Thing:
      type: object
      properties:
        id: {type: string}
        h: {$ref: "#/components/headers/H/schema"}
        i: {$ref: "#/info"}
        all: {$ref: "#/components/schemas"}
        ok: {$ref: "#/components/schemas/Thing/properties/id"}
  headers:
    H: {schema: {type: integer}}
  responses:
    R: {description: r}
`

// TestBadRefs checks that a $ref to the wrong kind of object, or to where
// it cannot be followed, is left out with one warning per $ref (placed at
// its first use in the text, counting its uses), what it stood for untyped,
// and that a $ref to nowhere fails the document with its place.
func TestBadRefs(t *testing.T) {
	for _, c := range []struct{ name, spec string }{
		{"bad.yaml", badRefSpec},
		{"bad.json", yamlToJSON(t, badRefSpec)},
	} {
		path := filepath.Join(t.TempDir(), c.name)
		if err := os.WriteFile(path, []byte(c.spec), 0o644); err != nil {
			t.Fatal(err)
		}
		svc, diags, err := openapi.Load(context.Background(), path, openapi.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := []string{
			`bad.yaml:12:24 /paths/~1a/get/responses/200/content/application~1json/schema: $ref "#/components/responses/R" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 2 place(s)`,
			`bad.yaml:25:13 /components/schemas/Thing/properties/i: $ref "#/info" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 1 place(s)`,
			`bad.yaml:26:15 /components/schemas/Thing/properties/all: $ref "#/components/schemas" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 1 place(s)`,
		}
		if c.name == "bad.json" {
			want = []string{
				`bad.json:19:14 /components/schemas/Thing/properties/all: $ref "#/components/schemas" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 1 place(s)`,
				`bad.json:25:14 /components/schemas/Thing/properties/i: $ref "#/info" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 1 place(s)`,
				`bad.json:52:20 /paths/~1a/get/responses/200/content/application~1json/schema: $ref "#/components/responses/R" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 2 place(s)`,
			}
		}
		equalSlice(t, c.name+" warnings", warnings(diags), want)
		thing := typ(t, svc, "Thing")
		equalSlice(t, c.name+" fields", fields(thing), []string{"All:all:any", "H:h:Schema", "I:i:any", "ID:id:string", "Ok:ok:string"})
		equal(t, c.name+" result", ts(op(t, svc, "getA").Result.Type), "any")
	}
	nowhere := strings.Replace(badRefSpec, "#/components/schemas/Thing/properties/id", "#/components/schemas/Thing/properties/nope", 1)
	_, _, err := openapi.LoadData(context.Background(), []byte(nowhere), "bad.yaml", openapi.Options{})
	if want := `bad.yaml:27:14 (#/components/schemas/Thing/properties/ok): cannot resolve $ref "#/components/schemas/Thing/properties/nope"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("$ref to nowhere: err = %v, want prefix %s", err, want)
	}
}

// yamlToJSON converts a YAML document to indented JSON.
func yamlToJSON(t *testing.T, doc string) string {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
