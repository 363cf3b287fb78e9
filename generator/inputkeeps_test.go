package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// inputKeepsSpec requires a member no property declares (GitHub's
// actionable_by: required [id, login], properties {login}) and forbids a
// range with not (an mcc "not {minimum: 800, maximum: 899}").
const inputKeepsSpec = `openapi: 3.0.3
info: {title: input keeps, version: "1"}
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
                actionable_by:
                  type: object
                  required: [id, login]
                  properties: {login: {type: string}}
                mcc: {type: integer, not: {minimum: 800, maximum: 899}}
                labels:
                  type: object
                  required: [kind]
                  properties: {name: {type: string}}
                  additionalProperties: {type: string}
      responses:
        "204": {description: done}
`

// inputKeepsClientTest: the undeclared required member reaches the server
// (it was decoded away), one missing is refused, and so is a value not
// forbids, before anything is sent.
const inputKeepsClientTest = `package pets

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestInputKeeps(t *testing.T) {
	var body string
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		body = string(b)
		sent++
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(nil)
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"body": map[string]any{"actionable_by": map[string]any{"id": "u1", "login": "a@b.c"}, "mcc": 700, "labels": map[string]any{"kind": "k", "name": "n"}}}
	if _, err := reg.Execute(context.Background(), "pets.act", in); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if want := ` + "`" + `{"actionable_by":{"id":"u1","login":"a@b.c"},"labels":{"kind":"k","name":"n"},"mcc":700}` + "`" + `; body != want {
		t.Errorf("body %s, want %s", body, want)
	}
	for name, bad := range map[string]map[string]any{
		"without the undeclared required member": {"actionable_by": map[string]any{"login": "a@b.c"}},
		"a value not forbids":                    {"mcc": 850},
	} {
		_, err := reg.Execute(context.Background(), "pets.act", map[string]any{"body": bad})
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation {
			t.Errorf("%s: %v, want a VALIDATION_ERROR", name, err)
		}
	}
	if sent != 1 {
		t.Errorf("%d requests sent, want 1 (refused inputs are not sent)", sent)
	}
}
`

// TestInputKeeps: a required member that no property declares is a field
// of the struct (any value), and validated; not is enforced on input.
func TestInputKeeps(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), inputKeepsSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": inputKeepsClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
