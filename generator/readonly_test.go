package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// readOnlySpec has a pet whose id is read-only and whose secret is
// write-only, all three properties required.
const readOnlySpec = `openapi: 3.0.3
info: {title: Read-only, version: "1"}
paths:
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Pet"}
      responses:
        "201":
          description: The pet.
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
components:
  schemas:
    Pet:
      type: object
      required: [id, name, secret, tag]
      properties:
        id: {type: integer, format: int64, readOnly: true}
        name: {type: string}
        secret: {type: string, writeOnly: true}
        tag:
          allOf:
            - {type: string}
            - {description: Set by the server., readOnly: true}
`

// readOnlyClientTest calls createPet against a server that records the
// request body and answers the pet without its write-only secret.
const readOnlyClientTest = `package pets

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestCreatePet(t *testing.T) {
	var sent map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &sent); err != nil {
			t.Errorf("request body %q: %v", body, err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(` + "`" + `{"id": 7, "name": "Rex", "tag": "dog"}` + "`" + `))
	}))
	defer srv.Close()
	c := NewClient(WithBaseURL(srv.URL), WithValidation(runtime.ValidateStrict))
	secret := "s3"
	env, err := c.CreatePet(context.Background(), Pet{Name: "Rex", Secret: &secret})
	if err != nil {
		t.Fatalf("CreatePet: %v", err)
	}
	if _, ok := sent["id"]; ok {
		t.Errorf("the read-only id was sent: %v", sent)
	}
	if _, ok := sent["tag"]; ok {
		t.Errorf("the read-only tag was sent: %v", sent)
	}
	if sent["name"] != "Rex" || sent["secret"] != "s3" {
		t.Errorf("request body %v, want name and secret", sent)
	}
	// The response lacks the write-only secret: not an error, even strict.
	if env.Data.ID == nil || *env.Data.ID != 7 || env.Data.Tag == nil || *env.Data.Tag != "dog" || env.Data.Secret != nil || len(env.Warnings) != 0 {
		t.Errorf("data %+v, warnings %v", env.Data, env.Warnings)
	}
}
`

// TestReadOnlyNotSent generates a client whose body type has required
// read-only and write-only properties, compiles it and calls it: the
// read-only ones are not sent (they are optional in Go and in the JSON
// Schema), and a response without the write-only one is valid.
func TestReadOnlyNotSent(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), readOnlySpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": readOnlyClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
