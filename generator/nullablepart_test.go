package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// nullablePartSpec writes nullable as an allOf part of its own, as
// PandaScore's description does: description may be null, name may not.
const nullablePartSpec = `openapi: 3.0.0
info: {title: nullable part, version: "1"}
paths:
  /series:
    get:
      operationId: getSerie
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  description:
                    allOf: [{nullable: true}, {$ref: "#/components/schemas/SerieDescription"}]
                  name:
                    allOf: [{description: The name.}, {$ref: "#/components/schemas/SerieDescription"}]
components:
  schemas:
    SerieDescription: {type: string}
`

// nullablePartClientTest: null in the nullable member is no warning; null
// in the other is.
const nullablePartClientTest = `package pets

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestNullablePart(t *testing.T) {
	body := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	c := NewClient(WithBaseURL(srv.URL))
	body = ` + "`" + `{"description":null,"name":"n"}` + "`" + `
	env, err := c.GetSerie(context.Background())
	if err != nil || len(env.Warnings) != 0 {
		t.Errorf("null description: %v, warnings %v", err, env.Warnings)
	}
	body = ` + "`" + `{"description":"d","name":null}` + "`" + `
	env, err = c.GetSerie(context.Background())
	if err != nil || len(env.Warnings) == 0 {
		t.Errorf("null name: %v, no warning", err)
	}
}
`

// TestNullablePart: an allOf part {nullable: true} makes the member
// nullable in the validated schema too, not only in the Go type.
func TestNullablePart(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), nullablePartSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": nullablePartClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
