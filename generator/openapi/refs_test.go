package openapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

func TestExternalRefs(t *testing.T) {
	svc, diags := load(t, "external.yaml", openapi.Options{})
	// The same file reached as "./external-defs.yaml" and "external-defs.yaml"
	// gives one type, and the warning inside it is reported once, in that file.
	if len(diags) != 1 || !hasDiag(diags, "external-defs.yaml", 9, "/Owner/properties/weird", "not/if/then/else") {
		t.Errorf("diagnostics = %v", diags)
	}
	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	equalSlice(t, "types", names, []string{"Address", "Local", "Owner"})
	owner := typ(t, svc, "Owner")
	equal(t, "Owner file", owner.Pos.File, specDir+"external-defs.yaml")
	// The doc origin names the file relative to the source document, not to
	// the working directory.
	equal(t, "Owner origin", owner.Doc.Origin, "external-defs.yaml#/Owner")
	equal(t, "Local.owner", field(t, typ(t, svc, "Local"), "owner").Type, owner)
	equal(t, "Owner.address", field(t, owner, "address").Type, typ(t, svc, "Address"))
	equalJSON(t, "output", op(t, svc, "listOwners").OutputSchema, `{"type":"array","items":{"$ref":"#/$defs/Owner"}}`)
}

func TestRemoteRefs(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/thing.yaml" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("Thing:\n  type: object\n  properties:\n    id:\n      type: string\n"))
	}))
	defer srv.Close()
	spec := strings.ReplaceAll(`openapi: 3.0.3
info: {title: r, version: "1"}
paths:
  /x:
    get:
      operationId: getX
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "URL/thing.yaml#/Thing"
`, "URL", srv.URL)

	_, _, err := openapi.LoadData(context.Background(), []byte(spec), "remote.yaml", openapi.Options{})
	if err == nil || !strings.Contains(err.Error(), "remote.yaml:13:17 (#/paths/~1x/get/responses/200/content/application~1json/schema): cannot resolve $ref") || !strings.Contains(err.Error(), "AllowRemoteRefs") {
		t.Fatalf("remote ref without permission: err = %v", err)
	}

	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "remote.yaml", openapi.Options{AllowRemoteRefs: true})
	if err != nil {
		t.Fatalf("remote ref with permission: %v", err)
	}
	equalSlice(t, "fields", fields(typ(t, svc, "Thing")), []string{"ID:id:string"})
}

func TestNegative(t *testing.T) {
	tests := []struct{ file, want string }{
		{"not-openapi.yaml", `not-openapi.yaml:1:1: not an OpenAPI document: no "openapi" or "swagger" field`},
		{"broken.yaml", "broken.yaml:7:1: invalid YAML: did not find expected ',' or ']'"},
		{"broken.json", "broken.json:4:14: invalid JSON: invalid character ',' looking for beginning of object key string"},
		{"bad-ref.yaml", `bad-ref.yaml:14:17 (#/paths/~1x/get/responses/200/content/application~1json/schema): cannot resolve $ref "#/components/schemas/Nowhere"`},
		{"remote-ref.yaml", `remote-ref.yaml:14:17 (#/paths/~1x/get/responses/200/content/application~1json/schema): cannot resolve $ref "https://example.com/schemas/thing.yaml#/Thing": remote $ref "https://example.com/schemas/thing.yaml" refused`},
	}
	for _, tt := range tests {
		_, _, err := openapi.Load(context.Background(), specDir+tt.file, openapi.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), specDir+tt.want) {
			t.Errorf("%s: err = %v\nwant prefix %s", tt.file, err, specDir+tt.want)
		}
	}
	for _, tt := range []struct{ data, want string }{
		{"", "x.yaml:1:1: not an OpenAPI document"},
		{"[1, 2]", "x.yaml:1:1: not an OpenAPI document"},
		{"openapi: 2.5\n", `x.yaml:1:1: unsupported OpenAPI version "2.5"`},
		{"swagger: '1.2'\n", `x.yaml:1:1: unsupported Swagger version "1.2"`},
		{"just text", "x.yaml:1:1: not an OpenAPI document"},
		// yaml.v3 counts parser errors' lines from 0 and scanner errors' from 1.
		{`{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {"responses": {"default": {"$ref": "#/nowhere"}}}}}}`,
			`x.yaml:1:114 (#/paths/~1x/get/responses/default): cannot resolve $ref "#/nowhere"`},
		{"openapi: 3.0.3\npaths:\n  /x: [a\n", "x.yaml:3:1: invalid YAML: did not find expected ',' or ']'"},
		{"openapi: 3.0.3\npaths:\n\t/x: 1\n", "x.yaml:3:1: invalid YAML: found character that cannot start any token"},
	} {
		_, _, err := openapi.LoadData(context.Background(), []byte(tt.data), "x.yaml", openapi.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("LoadData(%q): err = %v, want prefix %s", tt.data, err, tt.want)
		}
	}
	if _, _, err := openapi.Load(context.Background(), specDir+"missing.yaml", openapi.Options{}); !os.IsNotExist(err) {
		t.Errorf("missing file: err = %v", err)
	}
}
