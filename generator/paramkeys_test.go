package generator

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/openapi"
)

// paramKeysSpec declares "token" as both a path and a query parameter
// (Trello's /tokens/{token}?token=...): parameters are identified by name
// and location, so both must reach the server.
const paramKeysSpec = `openapi: 3.0.3
info: {title: param keys, version: "1"}
paths:
  /tokens/{token}:
    get:
      operationId: getToken
      parameters:
        - {name: token, in: path, required: true, schema: {type: string}}
        - {name: token, in: query, required: true, schema: {type: string}}
        - {name: query.token, in: header, schema: {type: string}}
      responses:
        "204": {description: done}
`

// paramKeysClientTest: the registry input names the query parameter
// "query.token2" (a header is named "query.token"), and all three are sent.
const paramKeysClientTest = `package pets

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestParamKeys(t *testing.T) {
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(nil)
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"params": map[string]any{"token": "p", "query.token2": "q", "query.token": "h"}}
	if _, err := reg.Execute(context.Background(), "pets.getToken", in); err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if got.URL.Path != "/tokens/p" || got.URL.RawQuery != "token=q" || got.Header.Get("query.token") != "h" {
		t.Errorf("sent %s?%s with header %q, want /tokens/p?token=q with header \"h\"", got.URL.Path, got.URL.RawQuery, got.Header.Get("query.token"))
	}
	if _, err := reg.Execute(context.Background(), "pets.getToken", map[string]any{"params": map[string]any{"token": "p"}}); err == nil {
		t.Error("an input without the required query token was accepted")
	}
}
`

// TestParamKeys: a path and a query parameter of one name both get a
// member of the registry input (the second "in.name"), in the published
// input schema and in the params struct, and both are sent.
func TestParamKeys(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), paramKeysSpec)
	svc, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "pets.yaml"), openapi.Options{})
	if err != nil {
		t.Fatal(err, diags)
	}
	var in struct {
		Properties struct {
			Params struct {
				Properties map[string]json.RawMessage
				Required   []string
			}
		}
	}
	if err := json.Unmarshal([]byte(svc.Operations[0].InputSchema.String()), &in); err != nil {
		t.Fatal(err)
	}
	p := in.Properties.Params
	if len(p.Properties) != 3 || p.Properties["token"] == nil || p.Properties["query.token"] == nil || p.Properties["query.token2"] == nil {
		t.Errorf("params members %v, want token, query.token, query.token2", p.Properties)
	}
	if len(p.Required) != 2 || p.Required[0] != "query.token2" || p.Required[1] != "token" {
		t.Errorf("required %v, want [query.token2 token]", p.Required)
	}
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": paramKeysClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
