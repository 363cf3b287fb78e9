package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// notRefSpec forbids values with a not whose schema is a $ref: to a schema
// used nowhere else (written inline), and to a named type (a $ref to
// $defs), and a cycle that cannot be written inline (left out).
const notRefSpec = `openapi: 3.0.3
info: {title: not ref, version: "1"}
paths:
  /act:
    post:
      operationId: act
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              properties:
                mcc: {type: integer, not: {$ref: "#/components/schemas/Reserved"}}
                pet: {not: {$ref: "#/components/schemas/Pet"}}
                owner: {$ref: "#/components/schemas/Pet"}
                loop: {not: {properties: {next: {$ref: "#/paths/~1act/post/requestBody/content/application~1json/schema/properties/loop/not"}}}}
      responses:
        "204": {description: done}
components:
  schemas:
    Reserved: {minimum: 800, maximum: 899}
    Pet: {type: object, required: [name], properties: {name: {type: string}}}
`

const notRefClientTest = `package pets

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestNotRef(t *testing.T) {
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent++
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(nil)
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	ok := map[string]any{"body": map[string]any{"mcc": 700, "pet": "x", "owner": map[string]any{"name": "o"}}}
	if _, err := reg.Execute(context.Background(), "pets.act", ok); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	for name, bad := range map[string]map[string]any{
		"a value the inline not forbids": {"mcc": 850},
		"a value the named not forbids":  {"pet": map[string]any{"name": "p"}},
	} {
		_, err := reg.Execute(context.Background(), "pets.act", map[string]any{"body": bad})
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation {
			t.Errorf("%s: %v, want a VALIDATION_ERROR", name, err)
		}
	}
	if sent != 1 {
		t.Errorf("%d requests sent, want 1", sent)
	}
}
`

// TestNotRef: a not whose schema is a $ref is enforced on input.
func TestNotRef(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), notRefSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": notRefClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
