package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// allOfRequiredSpec requires, next to an allOf of one $ref, a property the
// referenced schema leaves optional (twinehealth's
// CreateCalendarEventResponseRequest: allOf [attributes], required
// [attendee, response_status]).
const allOfRequiredSpec = `openapi: 3.0.3
info: {title: allof required, version: "1"}
paths:
  /responses:
    post:
      operationId: create
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/CreateRequest"}
      responses:
        "204": {description: created}
components:
  schemas:
    CreateRequest:
      type: object
      properties:
        data:
          type: object
          properties:
            attributes:
              allOf: [{$ref: "#/components/schemas/Attributes"}]
              required: [attendee]
    Attributes:
      type: object
      properties:
        attendee: {type: object}
        note: {type: string}
`

// allOfRequiredClientTest sends an empty attendee object through the
// registry: being required, it is sent, where the referenced type alone
// (optional, omitempty) would leave it out.
const allOfRequiredClientTest = `package pets

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestRequiredBesideAllOf(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(nil)
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Execute(context.Background(), "pets.create", map[string]any{"body": map[string]any{"data": map[string]any{"attributes": map[string]any{"attendee": map[string]any{}}}}}); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if want := ` + "`" + `{"data":{"attributes":{"attendee":{}}}}` + "`" + `; body != want {
		t.Errorf("body %s, want %s", body, want)
	}
}
`

// TestAllOfRequired: required next to an allOf of one $ref makes the
// merged type's field required (sent even when empty); the merged type,
// inline, is declared with a name (not raw JSON).
func TestAllOfRequired(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), allOfRequiredSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range res.Diagnostics {
		t.Errorf("unexpected diagnostic: %s", d)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": allOfRequiredClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
