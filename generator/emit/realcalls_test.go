package emit

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// untaggedSpec has property names that cannot be Go struct tags (the
// OpenAPI Initiative's schema-types example: "size, in cm"), one of them
// required, and one in a struct with additional properties.
const untaggedSpec = `openapi: 3.0.3
info: {title: odd, version: "1"}
paths:
  /numbers:
    post:
      operationId: postNumbers
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Numbers"}
      responses:
        "200":
          description: echo
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Numbers"}
components:
  schemas:
    Numbers:
      type: object
      required: ["size, in cm"]
      properties:
        "size, in cm": {type: number}
        "weight, kg": {type: integer}
        name: {type: string}
    Extra:
      type: object
      properties:
        "a,b": {type: string}
        id: {type: integer}
      additionalProperties: {type: string}
`

// untaggedTest runs in the generated package: the untagged properties are
// read, written, sent in a request body and read from the response.
const untaggedTest = `package odd

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestUntagged(t *testing.T) {
	var n Numbers
	if err := json.Unmarshal([]byte(` + "`" + `{"size, in cm":2.5,"weight, kg":3,"name":"x"}` + "`" + `), &n); err != nil {
		t.Fatal(err)
	}
	if n.SizeInCm != 2.5 || n.WeightKg == nil || *n.WeightKg != 3 || n.Name == nil || *n.Name != "x" {
		t.Errorf("decoded %+v", n)
	}
	b, err := json.Marshal(Numbers{SizeInCm: 1})
	if err != nil || string(b) != ` + "`" + `{"size, in cm":1}` + "`" + ` {
		t.Errorf("marshal = %s, %v", b, err)
	}
	var e Extra
	in := ` + "`" + `{"a,b":"ab","id":7,"other":"o"}` + "`" + `
	if err := json.Unmarshal([]byte(in), &e); err != nil {
		t.Fatal(err)
	}
	if e.AB == nil || *e.AB != "ab" || e.ID == nil || *e.ID != 7 || !reflect.DeepEqual(e.AdditionalProperties, map[string]string{"other": "o"}) {
		t.Errorf("Extra decoded %+v", e)
	}
	out, _ := json.Marshal(e)
	var back, orig map[string]any
	json.Unmarshal(out, &back)
	json.Unmarshal([]byte(in), &orig)
	if !reflect.DeepEqual(back, orig) {
		t.Errorf("Extra round trip: %s", out)
	}

	var sent string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		sent = string(b)
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry(&runtime.Pipeline{})
	if err := NewClient(WithBaseURL(srv.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	env, err := reg.Execute(context.Background(), reg.Operations()[0].ID, json.RawMessage(` + "`" + `{"body":{"size, in cm":4.5}}` + "`" + `))
	if err != nil {
		t.Fatal(err)
	}
	if sent != ` + "`" + `{"size, in cm":4.5}` + "`" + ` {
		t.Errorf("sent %s", sent)
	}
	if len(env.Warnings) > 0 {
		t.Errorf("warnings %v", env.Warnings)
	}
	if d, _ := json.Marshal(env.Data); string(d) != sent {
		t.Errorf("data %s", d)
	}
}
`

// TestUntaggedProperties: property names that cannot be struct tags are
// written and read by the struct's MarshalJSON and UnmarshalJSON, without
// a warning, instead of being left out (Prism rejected the required one).
func TestUntaggedProperties(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(untaggedSpec), "odd.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, diags := emit(t, svc, Options{Package: "odd", Version: "v0.1.0", Registry: true})
	for _, d := range diags {
		t.Errorf("warning: %s", d)
	}
	root, rel := writePackage(t, files, map[string]string{"untagged_test.go": untaggedTest})
	goCmd(t, root, "vet", rel)
	goCmd(t, root, "test", "-count=1", rel)
}
