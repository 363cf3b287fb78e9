package generator

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/diag"
)

// headerParamsSpec has a DELETE whose required header parameters include
// Content-Type, accept and Authorization, which OpenAPI says to ignore,
// beside a path parameter and an ordinary header.
const headerParamsSpec = `openapi: 3.0.3
info: {title: Header params, version: "1"}
paths:
  /pets/{id}:
    delete:
      operationId: deletePet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: Content-Type, in: header, required: true, schema: {type: string, enum: [application/json]}}
        - {name: accept, in: header, required: true, schema: {type: string}}
        - {name: Authorization, in: header, required: true, schema: {type: string}}
        - {name: X-Trace, in: header, schema: {type: string}}
      responses:
        "204": {description: Deleted.}
`

// headerParamsClientTest calls deletePet against a server that records the
// request's headers.
const headerParamsClientTest = `package pets

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

func TestDeletePet(t *testing.T) {
	var got http.Header
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, path = r.Header.Clone(), r.URL.Path
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var fields []string
	for f := range reflect.TypeFor[DeletePetParams]().Fields() {
		if f.IsExported() { // not the opsgenimpl.NotComparable marker
			fields = append(fields, f.Name)
		}
	}
	if !reflect.DeepEqual(fields, []string{"ID", "XTrace"}) {
		t.Errorf("DeletePetParams has fields %v, want [ID XTrace]", fields)
	}
	trace := "t1"
	if _, err := NewClient(WithBaseURL(srv.URL)).DeletePet(context.Background(), DeletePetParams{ID: "7", XTrace: &trace}); err != nil {
		t.Fatalf("DeletePet: %v", err)
	}
	if path != "/pets/7" || got.Get("X-Trace") != "t1" {
		t.Errorf("path %q, X-Trace %q", path, got.Get("X-Trace"))
	}
	for _, h := range []string{"Content-Type", "Authorization"} {
		if v, ok := got[h]; ok {
			t.Errorf("header %s sent: %q", h, v)
		}
	}
}
`

// TestHeaderParamsIgnoredByOpenAPI generates a client for an operation with
// header parameters named Accept, Content-Type and Authorization: they are
// left out with a warning naming each (OpenAPI 3: such a parameter
// definition SHALL be ignored), the params struct has no field for them,
// and a call sends none of them.
func TestHeaderParamsIgnoredByOpenAPI(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), headerParamsSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"Content-Type", "accept", "Authorization"} {
		want := "/paths/~1pets~1{id}/delete/parameters/" + string(rune('1'+i))
		found := false
		for _, d := range res.Diagnostics {
			if d.Pos.Pointer == want && d.Kind == diag.LeftOut && d.Pos.Line == 9+i && strings.Contains(d.Message, `header parameter "`+name+`" is ignored`) {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning for %s at %s line %d; diagnostics:\n%v", name, want, 9+i, res.Diagnostics)
		}
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": headerParamsClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
