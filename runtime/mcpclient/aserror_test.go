package mcpclient_test

import (
	"reflect"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// AsError rebuilds the CallError an opsgen server put in _meta (its
// MetaError, as decoded from JSON): code, message, operation id, issues and
// the upstream HTTP status (issue 25: the status was dropped).
func TestAsErrorServerDetail(t *testing.T) {
	isError := func(detail map[string]any) runtime.ResponseEnvelope[any] {
		return opsgenimpl.MCP[any](nil, runtime.MCPMeta{IsError: true, Tool: "pets_getPet", Meta: map[string]any{mcpclient.MetaError: detail}})
	}
	cases := []struct {
		name   string
		detail map[string]any
		want   *runtime.CallError
	}{
		{"http", map[string]any{"code": "EXECUTION_ERROR", "message": "HTTP 404 Not Found", "operationId": "pets.getPet", "status": float64(404)},
			&runtime.CallError{Code: runtime.CodeExecution, Message: "HTTP 404 Not Found", OperationID: "pets.getPet", HTTP: &runtime.HTTPFailure{StatusCode: 404}}},
		{"issues, no operation id", map[string]any{"code": "VALIDATION_ERROR", "message": "invalid input", "issues": []any{
			map[string]any{"pointer": "/petId", "message": "want integer"}, map[string]any{"pointer": "/x"}}},
			&runtime.CallError{Code: runtime.CodeValidation, Message: "invalid input", OperationID: "pets_getPet",
				Issues: []runtime.Warning{{OperationID: "pets_getPet", Pointer: "/petId", Message: "want integer"}}}},
		{"no status", map[string]any{"code": "EXECUTION_ERROR", "message": "disk full", "operationId": "x.y", "status": "404"},
			&runtime.CallError{Code: runtime.CodeExecution, Message: "disk full", OperationID: "x.y"}},
	}
	for _, c := range cases {
		got := mcpclient.AsError(isError(c.detail))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: AsError = %#v, want %#v", c.name, got, c.want)
		}
	}
}
