package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// reservedPathSpec is Google's shape: "/v1/{+topic}:publish", where the
// topic is "projects/p/topics/t".
const reservedPathSpec = `openapi: 3.0.3
info: {title: reserved path, version: "1"}
paths:
  /v1/{+topic}:publish:
    post:
      operationId: publish
      parameters:
        - {name: topic, in: path, required: true, schema: {type: string}}
      responses:
        "204": {description: done}
`

const reservedPathClientTest = `package pets

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestReservedPath(t *testing.T) {
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.EscapedPath()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	if _, err := NewClient(WithBaseURL(srv.URL)).Publish(context.Background(), PublishParams{Topic: "projects/p 1/topics/t?"}); err != nil {
		t.Fatal(err)
	}
	if want := "/v1/projects/p%201/topics/t%3F:publish"; path != want {
		t.Errorf("path %s, want %s", path, want)
	}
}
`

// TestReservedPath: {+x} is RFC 6570's reserved expansion: "/" is sent
// as it is.
func TestReservedPath(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), reservedPathSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": reservedPathClientTest})},
		[]string{"test", "-count=1", "./pets"})
}
