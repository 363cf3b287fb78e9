package generator

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// TestNoOperations: a document without operations (adyen's
// ManagementNotificationService, webhooks only) gives a client and a
// registry that build and vet (an import recorded for code that is not
// written does not compile).
func TestNoOperations(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "empty.yaml"), `openapi: 3.1.0
info: {title: webhooks only, version: "1"}
webhooks:
  ping:
    post:
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {id: {type: string}}}
      responses:
        "200": {description: ok}
components:
  schemas:
    Event: {type: object, properties: {kind: {type: string}}}
`)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "empty", Output: "out", Registry: true, Sources: []config.Source{{OpenAPI: "empty.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"empty": filesOf(res, nil)}, []string{"vet", "./empty"})
}
