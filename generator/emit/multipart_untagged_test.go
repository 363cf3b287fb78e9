package emit

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// TestMultipartUntaggedRegistryWarns: the registry's input of a multipart
// body with a file field is an anonymous struct, which cannot read a
// property whose name cannot be a struct tag; that is left out with a
// warning naming the property (it used to be silent).
func TestMultipartUntaggedRegistryWarns(t *testing.T) {
	const spec = `openapi: 3.0.3
info: {title: up, version: "1"}
paths:
  /upload:
    post:
      operationId: upload
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              properties:
                file: {type: string, format: binary}
                "size, in cm": {type: number}
                title: {type: string}
      responses:
        "204": {description: done}
`
	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "up.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, diags := emit(t, svc, Options{Package: "up", Version: "v0.1.0", Registry: true})
	var found []string
	for _, d := range diags {
		if strings.Contains(d.Message, "struct tag") {
			found = append(found, d.String())
		}
	}
	if len(found) != 1 || !strings.Contains(found[0], `"size, in cm"`) || !strings.Contains(found[0], "upload") {
		t.Errorf("warnings about untagged properties: %q (all: %v)", found, diags)
	}
	_, diags = emit(t, svc, Options{Package: "up", Version: "v0.1.0"})
	for _, d := range diags {
		if strings.Contains(d.Message, "struct tag") {
			t.Errorf("without a registry: %s", d)
		}
	}
}
