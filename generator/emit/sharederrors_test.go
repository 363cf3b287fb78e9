package emit

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// sharedErrorsSpec30 has two operations whose error responses refer to
// the same component responses: not_found (404 of both) and error (5XX
// and default of one, 500 of the other, with an inline body schema), and
// one inline error response (409), which keeps a type of its own.
const sharedErrorsSpec30 = `openapi: 3.0.3
info: {title: shared, version: "1"}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
        "404": {$ref: "#/components/responses/not_found"}
        "5XX": {$ref: "#/components/responses/error"}
        default: {$ref: "#/components/responses/error"}
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
        "404": {$ref: "#/components/responses/not_found"}
        "409": {description: Conflict., content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}}
        "500": {$ref: "#/components/responses/error"}
components:
  responses:
    not_found:
      description: The pet is not there.
      content: {application/json: {schema: {$ref: "#/components/schemas/Problem"}}}
    error:
      description: The service failed.
      content:
        application/json:
          schema: {type: object, required: [code, message], properties: {code: {type: integer}, message: {type: string}}}
  schemas:
    Pet: {type: object, required: [id], properties: {id: {type: string}}}
    Problem: {type: object, required: [message], properties: {message: {type: string}}}
`

// sharedErrorsSpec20 is sharedErrorsSpec30 in Swagger 2.0, whose shared
// responses are #/responses/NAME (no status ranges: default and 500).
const sharedErrorsSpec20 = `swagger: "2.0"
info: {title: shared, version: "1"}
produces: [application/json]
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{name: id, in: path, required: true, type: string}]
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/Pet"}}
        "404": {$ref: "#/responses/not_found"}
        default: {$ref: "#/responses/error"}
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok, schema: {type: array, items: {$ref: "#/definitions/Pet"}}}
        "404": {$ref: "#/responses/not_found"}
        "409": {description: Conflict., schema: {$ref: "#/definitions/Problem"}}
        "500": {$ref: "#/responses/error"}
responses:
  not_found:
    description: The pet is not there.
    schema: {$ref: "#/definitions/Problem"}
  error:
    description: The service failed.
    schema: {type: object, required: [code, message], properties: {code: {type: integer}, message: {type: string}}}
definitions:
  Pet: {type: object, required: [id], properties: {id: {type: string}}}
  Problem: {type: object, required: [message], properties: {message: {type: string}}}
`

// sharedErrorsTest runs in the generated package: both operations fail
// with the shared types, their bodies decoded, against a real server;
// the inline 409 has its own type; TypedError (a spoke's) rebuilds the
// shared type from the *runtime.CallError.
const sharedErrorsTest = `package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestSharedErrors(t *testing.T) {
	var status atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		s := int(status.Load())
		w.WriteHeader(s)
		fmt.Fprintf(w, ` + "`" + `{"code":%d,"message":"%s %d"}` + "`" + `, s/100, r.URL.Path, s)
	}))
	defer srv.Close()
	ctx := context.Background()
	c := NewClient(WithBaseURL(srv.URL))
	reg := runtime.NewRegistry(&runtime.Pipeline{})
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{"/pets/7": "shared.getPet", "/pets": "shared.listPets"}
	calls := map[string]func() error{
		"/pets/7": func() error { _, err := c.GetPet(ctx, GetPetParams{ID: "7"}); return err },
		"/pets":   func() error { _, err := c.ListPets(ctx); return err },
	}
	for path, call := range calls {
		status.Store(404)
		err := call()
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Body.Message != path+" 404" || nf.HTTP.StatusCode != 404 {
			t.Fatalf("%s: 404: %T %v: not a *NotFoundError with its body", path, err, err)
		}
		// A hub runs the operation from its registry; a spoke gets the
		// CallError's status and body, and TypedError types it again.
		_, err = reg.Execute(ctx, ids[path], json.RawMessage(` + "`" + `{"params":{"id":"7"}}` + "`" + `))
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.HTTP == nil {
			t.Fatalf("%s: 404 from the registry: no HTTP *runtime.CallError in %v", path, err)
		}
		received := &runtime.CallError{Code: ce.Code, OperationID: ce.OperationID, Message: ce.Message,
			HTTP: &runtime.HTTPFailure{StatusCode: ce.HTTP.StatusCode, Headers: ce.HTTP.Headers, ContentType: ce.HTTP.ContentType, Body: ce.HTTP.Body}}
		if typed, ok := TypedError(received).(*NotFoundError); !ok || typed.Body.Message != path+" 404" {
			t.Errorf("%s: TypedError = %#v, not a *NotFoundError with its body", path, TypedError(received))
		}
		status.Store(500)
		err = call()
		var se *ErrorResponse
		if !errors.As(err, &se) || se.Body.Code != 5 || se.Body.Message != path+" 500" || se.HTTP.StatusCode != 500 {
			t.Errorf("%s: 500: %T %v: not an *ErrorResponse with its body", path, err, err)
		}
	}
	status.Store(503) // getPet's 5XX (Swagger: default)
	_, err := c.GetPet(ctx, GetPetParams{ID: "7"})
	var se *ErrorResponse
	if !errors.As(err, &se) || se.Body.Message != "/pets/7 503" || se.HTTP.StatusCode != 503 {
		t.Errorf("503: %T %v: not an *ErrorResponse with its body", err, err)
	}
	status.Store(409)
	_, err = c.ListPets(ctx)
	var conflict *ListPetsConflict
	if !errors.As(err, &conflict) || conflict.Body.Message != "/pets 409" {
		t.Errorf("409: %T %v: not a *ListPetsConflict with its body", err, err)
	}
}
`

// TestSharedErrorTypes: the error responses that refer to one component
// response share one type, named after the component and declared once
// in errors.go; the operations' response tables point at it, and a real
// call of each of two operations fails with it, its body decoded, in
// OpenAPI 3.0 and in Swagger 2.0.
func TestSharedErrorTypes(t *testing.T) {
	for name, spec := range map[string]string{"openapi30": sharedErrorsSpec30, "swagger20": sharedErrorsSpec20} {
		t.Run(name, func(t *testing.T) {
			svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "shared.yaml", openapi.Options{})
			if err != nil {
				t.Fatal(err)
			}
			shared := map[string]*ir.ErrorType{}
			for _, op := range svc.Operations {
				for _, r := range op.Responses {
					if r.Shared == nil {
						continue
					}
					if prev := shared[r.Shared.Component]; prev != nil && prev != r.Shared {
						t.Errorf("component response %q has two error types", r.Shared.Component)
					}
					shared[r.Shared.Component] = r.Shared
					if r.ErrorName != r.Shared.Name {
						t.Errorf("%s %s: ErrorName %q, shared type %q", op.GoName, r.Status, r.ErrorName, r.Shared.Name)
					}
				}
			}
			if len(shared) != 2 || shared["not_found"] == nil || shared["not_found"].Name != "NotFoundError" ||
				shared["error"] == nil || shared["error"].Name != "ErrorResponse" {
				t.Fatalf("shared error types: %v", shared)
			}
			files, diags := emit(t, svc, Options{Package: "shared", Version: "v0.1.0", Registry: true})
			for _, d := range diags {
				t.Errorf("warning: %s", d)
			}
			all := ""
			for _, f := range files {
				all += string(f.Content)
				if f.Name == "errors.go" {
					errs := string(f.Content)
					for _, want := range []string{
						"type NotFoundError struct {\n\truntime.StatusError\n\tBody Problem\n}",
						"type ErrorResponse struct {\n\truntime.StatusError\n\tBody ErrorResponseBody\n}",
						`refers to the component response "not_found"`,
						"StatusCode tells them apart",
					} {
						if !strings.Contains(errs, want) {
							t.Errorf("errors.go lacks %q:\n%s", want, errs)
						}
					}
				}
			}
			types := regexp.MustCompile(`(?m)^type (\w+) struct \{\n\truntime\.StatusError`).FindAllStringSubmatch(all, -1)
			var names []string
			for _, m := range types {
				names = append(names, m[1])
			}
			if got := strings.Join(names, " "); got != "ErrorResponse NotFoundError ListPetsConflict" {
				t.Errorf("error types declared: %s", got)
			}
			for _, want := range []string{"Error: (*NotFoundError)(nil)", "Error: (*ErrorResponse)(nil)"} {
				if n := strings.Count(all, want); n < 2 {
					t.Errorf("%q in %d response rows, want the rows of both operations", want, n)
				}
			}
			root, rel := writePackage(t, files, map[string]string{"shared_test.go": sharedErrorsTest})
			goCmd(t, root, "vet", rel)
			goCmd(t, root, "test", "-count=1", rel)
		})
	}
}
