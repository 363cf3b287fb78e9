package httpclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// What a generated client declares for one operation's error statuses.
type getThingNotFound struct {
	runtime.StatusError
	Body apiError
}

type getThingDefault struct {
	runtime.StatusError
	Body apiError
}

func newOf[T any]() any { return new(T) }

var getThingResponses = []httpclient.Response{
	{Status: "200", Kind: httpclient.BodyJSON},
	{Status: "404", Kind: httpclient.BodyJSON, NewError: newOf[getThingNotFound]},
	{Status: "default", Kind: httpclient.BodyJSON, NewError: newOf[getThingDefault]},
}

// getThingTable is getThingResponses in the form generated code writes:
// the error types as typed nil pointers (Response.Error).
var getThingTable = []httpclient.Response{
	{Status: "200", Kind: httpclient.BodyJSON},
	{Status: "404", Kind: httpclient.BodyJSON, Error: (*getThingNotFound)(nil)},
	{Status: "default", Kind: httpclient.BodyJSON, Error: (*getThingDefault)(nil)},
}

func TestDeclaredStatusIsTypedError(t *testing.T) {
	t.Run("NewError", func(t *testing.T) { testDeclaredStatus(t, getThingResponses) })
	t.Run("Error", func(t *testing.T) { testDeclaredStatus(t, getThingTable) })
}

func testDeclaredStatus(t *testing.T, responses []httpclient.Response) {
	var status int
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	defer srv.Close()
	c := httpclient.New(srv.URL, nil)
	call := func() error {
		_, err := httpclient.Do[map[string]any](context.Background(), c, c.NewRequest("getThing", "GET", "/thing"), responses)
		return err
	}

	status, body = 404, `{"code":404,"message":"no such thing"}`
	err := call()
	var nf *getThingNotFound
	if !errors.As(err, &nf) {
		t.Fatalf("404: errors.As(*getThingNotFound) failed on %T %v", err, err)
	}
	if nf.Body.Message != "no such thing" || nf.Body.Code != 404 || nf.HTTP.StatusCode != 404 {
		t.Fatalf("404: body %+v status %d", nf.Body, nf.HTTP.StatusCode)
	}
	var def *getThingDefault
	if errors.As(err, &def) {
		t.Fatal("404 also matched the default error type")
	}
	// The CallError stays reachable, and the older helpers still work.
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeExecution || ce.OperationID != "getThing" {
		t.Fatalf("CallError not reachable: %v", err)
	}
	if b, ok := runtime.ErrorBody[apiError](err); !ok || b.Message != "no such thing" {
		t.Fatalf("ErrorBody: %+v %v", b, ok)
	}
	if runtime.StatusCode(err) != 404 || !errors.Is(err, runtime.ErrExecution) {
		t.Fatalf("StatusCode %d, Is(ErrExecution) %v", runtime.StatusCode(err), errors.Is(err, runtime.ErrExecution))
	}

	// Any other status falls to default.
	status, body = 503, `{"code":503,"message":"later"}`
	if err := call(); !errors.As(err, &def) || def.Body.Message != "later" || def.HTTP.StatusCode != 503 {
		t.Fatalf("503: %T %v", err, err)
	}

	// A body that drifts from the declared type is repaired, with a warning.
	status, body = 404, `{"code":"four","message":"drift"}`
	err = call()
	if !errors.As(err, &nf) || nf.Body.Message != "drift" || nf.Body.Code != 0 || len(nf.Issues) == 0 {
		t.Fatalf("drift: %T %v body %+v issues %v", err, err, nf.Body, nf.Issues)
	}
	// A body that is not JSON leaves Body zero; the failure is still typed.
	status, body = 404, `not json`
	err = call()
	if !errors.As(err, &nf) || nf.Body != (apiError{}) || string(nf.HTTP.Body) != "not json" {
		t.Fatalf("non-JSON: %T %v", err, err)
	}
}

func TestUndeclaredStatusStaysCallError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	defer srv.Close()
	c := httpclient.New(srv.URL, nil)
	responses := []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}, {Status: "404", Kind: httpclient.BodyJSON, NewError: newOf[getThingNotFound]}}
	_, err := httpclient.Do[map[string]any](context.Background(), c, c.NewRequest("getThing", "GET", "/thing"), responses)
	if _, ok := err.(*runtime.CallError); !ok {
		t.Fatalf("418: got %T, want *runtime.CallError", err)
	}
}
