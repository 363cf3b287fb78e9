package openapi_test

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// sharedSpec has error responses that refer to component responses whose
// names need work to read well in Go, one pinned by x-go-name, and a
// component schema that takes the name one of them wants.
const sharedSpec = `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "204": {description: none}
        "404": {$ref: "#/components/responses/not_found"}
        "4XX": {$ref: "#/components/responses/error"}
        "5XX": {$ref: "#/components/responses/error"}
        default: {$ref: "#/components/responses/ODataErrorResponse"}
  /b:
    post:
      operationId: postB
      responses:
        "204": {description: none}
        "404": {$ref: "#/components/responses/not_found"}
        "409": {$ref: "#/components/responses/validation_failed"}
        "410": {$ref: "#/components/responses/gone"}
        "422": {description: inline, content: {application/json: {schema: {$ref: "#/components/schemas/NotFoundError"}}}}
        "500": {$ref: "#/components/responses/error"}
        "503": {$ref: "#/components/responses/pinned"}
components:
  responses:
    not_found: {description: Not found., content: {application/json: {schema: {$ref: "#/components/schemas/NotFoundError"}}}}
    error: {description: Error., content: {application/json: {schema: {type: object, properties: {code: {type: string}}}}}}
    ODataErrorResponse: {description: OData.}
    validation_failed: {description: Invalid., content: {text/plain: {schema: {type: string}}}}
    gone: {description: Gone.}
    pinned: {description: Pinned., x-go-name: Unavailable}
  schemas:
    NotFoundError: {type: object, properties: {message: {type: string}}}
`

// sharedNames maps each operation's error statuses to their error type
// names, and the shared ones to their component: "getA 404" ->
// "NotFoundError2 not_found".
func sharedNames(svc *ir.Service) map[string]string {
	out := map[string]string{}
	for _, o := range svc.Operations {
		for _, r := range o.Responses {
			if r.ErrorName == "" {
				continue
			}
			v := r.ErrorName
			if r.Shared != nil {
				v += " " + r.Shared.Component
			}
			out[o.ID+" "+r.Status] = v
		}
	}
	return out
}

// TestSharedErrorNames: one error type per component response, named
// after it (Error or Response appended), yielding to component schemas,
// pinned by x-go-name or Options.Names; inline responses keep their own.
func TestSharedErrorNames(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(sharedSpec), "shared.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := sharedNames(svc)
	want := map[string]string{
		"getA 404":     "NotFoundError2 not_found", // the component schema keeps NotFoundError
		"getA 4XX":     "ErrorResponse error",
		"getA 5XX":     "ErrorResponse error",
		"getA default": "ODataErrorResponse ODataErrorResponse",
		"postB 404":    "NotFoundError2 not_found",
		"postB 409":    "ValidationFailedError validation_failed",
		"postB 410":    "GoneError gone",
		"postB 422":    "PostBUnprocessableEntity",
		"postB 500":    "ErrorResponse error",
		"postB 503":    "Unavailable pinned",
	}
	for k, v := range want {
		equal(t, k, got[k], v)
	}
	equal(t, "error statuses", len(got), len(want))
	// One record per component, with its description.
	a, b := op(t, svc, "getA"), op(t, svc, "postB")
	if a.Responses[1].Shared != b.Responses[1].Shared || a.Responses[1].Shared.Doc.Description != "Not found." {
		t.Errorf("not_found: %+v and %+v are not one record with the component's description", a.Responses[1].Shared, b.Responses[1].Shared)
	}
	// The inline body schema of a component response is named after it.
	for _, r := range a.Responses {
		if r.Status == "4XX" {
			equal(t, "error body", r.Type.Name, "ErrorResponseBody")
		}
	}

	// Options.Names pins by the component's pointer, over x-go-name.
	svc, _, err = openapi.LoadData(context.Background(), []byte(sharedSpec), "shared.yaml", openapi.Options{Names: map[string]string{
		"#/components/responses/not_found": "Missing",
		"#/components/responses/pinned":    "Down",
	}})
	if err != nil {
		t.Fatal(err)
	}
	got = sharedNames(svc)
	equal(t, "pinned not_found", got["postB 404"], "Missing not_found")
	equal(t, "pinned over x-go-name", got["postB 503"], "Down pinned")
}

// TestSharedErrorNamesSwagger: Swagger 2.0's #/responses/NAME shares a
// type too, pinned by either document's pointer.
func TestSharedErrorNamesSwagger(t *testing.T) {
	const spec = `swagger: "2.0"
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200": {description: ok}
        "404": {$ref: "#/responses/NotFound"}
        default: {$ref: "#/responses/Problem"}
  /b:
    get:
      operationId: getB
      responses:
        "200": {description: ok}
        "404": {$ref: "#/responses/NotFound"}
        default: {$ref: "#/responses/Problem"}
responses:
  NotFound: {description: Not found.}
  Problem: {description: Problem.}
`
	svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "sw.yaml", openapi.Options{Names: map[string]string{"#/responses/Problem": "Failure"}})
	if err != nil {
		t.Fatal(err)
	}
	got := sharedNames(svc)
	for _, id := range []string{"getA", "getB"} {
		equal(t, id+" 404", got[id+" 404"], "NotFoundError NotFound")
		equal(t, id+" default", got[id+" default"], "Failure Problem")
	}
}

// TestSharedErrorsStableUnderReordering: the shared names do not depend
// on the order of the document (which operation refers first).
func TestSharedErrorsStableUnderReordering(t *testing.T) {
	checkStable(t, "shared.yaml", []byte(sharedSpec), 8)
}
