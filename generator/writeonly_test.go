package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// writeOnlySpec requires write-only members of request bodies: Pet's
// secret (the body a named type), Owner's token (a type Pet refers to),
// an inline body's attachment_id (bunq's attachment_id) and Pet's
// read-only id.
const writeOnlySpec = `openapi: 3.0.3
info: {title: Write-only, version: "1"}
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
  /attachments:
    post:
      operationId: attach
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [attachment_id, description]
              properties:
                attachment_id: {type: integer, writeOnly: true}
                description: {type: string}
      responses:
        "204": {description: Attached.}
components:
  schemas:
    Pet:
      type: object
      required: [id, name, secret]
      properties:
        id: {type: integer, format: int64, readOnly: true}
        name: {type: string}
        secret: {type: string, writeOnly: true}
        owner: {$ref: "#/components/schemas/Owner"}
    Owner:
      type: object
      required: [name, token]
      properties:
        name: {type: string}
        token: {type: string, writeOnly: true}
`

// writeOnlyClientTest calls the operations through the registry: an
// input without a required write-only member is refused before any
// request, one with it is sent, and the response, which leaves the
// write-only members out, is valid even in strict mode.
const writeOnlyClientTest = `package pets

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestWriteOnlyRequired(t *testing.T) {
	var sent []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Errorf("request body %q: %v", body, err)
		}
		sent = append(sent, m)
		if r.URL.Path == "/attachments" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(` + "`" + `{"id": 7, "name": "Rex", "owner": {"name": "Ann"}}` + "`" + `))
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(&runtime.Pipeline{Mode: runtime.ValidateStrict})
	if err := NewClient(WithBaseURL(srv.URL), WithValidation(runtime.ValidateStrict)).Register(reg); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	refused := []struct {
		id, input, member string
	}{
		{"pets.createPet", ` + "`" + `{"body": {"name": "Rex"}}` + "`" + `, "secret"},
		{"pets.createPet", ` + "`" + `{"body": {"name": "Rex", "secret": "s3", "owner": {"name": "Ann"}}}` + "`" + `, "token"},
		{"pets.attach", ` + "`" + `{"body": {"description": "scan"}}` + "`" + `, "attachment_id"},
	}
	for _, c := range refused {
		_, err := reg.Execute(ctx, c.id, json.RawMessage(c.input))
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || !strings.Contains(ce.Error(), c.member) {
			t.Errorf("%s %s: error %v, want a VALIDATION error naming %s", c.id, c.input, err, c.member)
		}
	}
	if len(sent) != 0 {
		t.Fatalf("refused inputs were sent: %v", sent)
	}
	env, err := reg.Execute(ctx, "pets.createPet", json.RawMessage(` + "`" + `{"body": {"name": "Rex", "secret": "s3", "owner": {"name": "Ann", "token": "t"}}}` + "`" + `))
	if err != nil {
		t.Fatalf("createPet: %v", err)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings on a response without the write-only members: %v", env.Warnings)
	}
	if _, err := reg.Execute(ctx, "pets.attach", json.RawMessage(` + "`" + `{"body": {"attachment_id": 5, "description": "scan"}}` + "`" + `)); err != nil {
		t.Fatalf("attach: %v", err)
	}
	if len(sent) != 2 {
		t.Fatalf("sent %v, want two requests", sent)
	}
	owner, _ := sent[0]["owner"].(map[string]any)
	if sent[0]["secret"] != "s3" || owner["token"] != "t" || sent[1]["attachment_id"] != float64(5) {
		t.Errorf("sent %v, want the write-only members", sent)
	}
	// The typed method sends what it is given, and its response is valid.
	secret, token := "s3", "t"
	pet, err := NewClient(WithBaseURL(srv.URL), WithValidation(runtime.ValidateStrict)).CreatePet(ctx, Pet{Name: "Rex", Secret: &secret, Owner: &Owner{Name: "Ann", Token: &token}})
	if err != nil || len(pet.Warnings) != 0 || pet.Data.Secret != nil {
		t.Errorf("CreatePet: %+v, %v", pet, err)
	}
}
`

// TestWriteOnlyRequiredOnInput: a member both required and write-only is
// required in a request (a server checks it there: bunq refuses an
// attachment without its attachment_id) and not in a response, which
// leaves it out. The registry's input schema keeps it required, in the
// body's own schema, in a type the body refers to and in an inline body;
// the shared schemas (responses) do not.
func TestWriteOnlyRequiredOnInput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), writeOnlySpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		t.Errorf("unexpected diagnostic: %s", d)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": writeOnlyClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
