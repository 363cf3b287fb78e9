package opsgenimpl

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// notFound is what a generated client declares for an error status.
type notFound struct {
	runtime.StatusError
	Body struct {
		Message string `json:"message"`
	}
}

// TestStatusErrorMethodSet: a generated error type gets two promoted
// methods, on its pointer type only. Each promoted method is a wrapper the
// compiler writes for the type and one for its pointer type; with
// *runtime.CallError's methods promoted too (GitHub's API declares 1,116 error
// types) they were six per type.
func TestStatusErrorMethodSet(t *testing.T) {
	methods := func(rt reflect.Type) []string {
		var names []string
		for i := range rt.NumMethod() {
			names = append(names, rt.Method(i).Name)
		}
		return names
	}
	if got := methods(reflect.TypeFor[notFound]()); len(got) != 0 {
		t.Errorf("notFound has methods %v, want none", got)
	}
	if got, want := methods(reflect.TypeFor[*notFound]()), []string{"Error", "Unwrap"}; !slices.Equal(got, want) {
		t.Errorf("*notFound has methods %v, want %v", got, want)
	}
}

// TestStatusErrorReachesCallError: with nothing but Error and Unwrap, a
// declared error still reads as the runtime.CallError it wraps: its message,
// errors.Is with the sentinels, errors.As to *runtime.CallError and to itself, the
// runtime.CallError's fields through the embedding, and its JSON.
func TestStatusErrorReachesCallError(t *testing.T) {
	ce := runtime.NewError(runtime.CodeExecution, "getPet", "HTTP 404", nil)
	ce.HTTP = &runtime.HTTPFailure{StatusCode: 404}
	err := TypedStatusError(new(notFound), ce, []byte(`{"message":"no pet"}`), true)
	if err == ce {
		t.Fatal("TypedStatusError did not make the declared type")
	}
	var nf *notFound
	if !errors.As(err, &nf) {
		t.Fatalf("errors.As(*notFound) failed on %T", err)
	}
	if nf.HTTP.StatusCode != 404 || nf.Body.Message != "no pet" || nf.OperationID != "getPet" {
		t.Errorf("fields: status %d, body %+v, operation %q", nf.HTTP.StatusCode, nf.Body, nf.OperationID)
	}
	if err.Error() != ce.Error() {
		t.Errorf("Error() = %q, want the runtime.CallError's %q", err.Error(), ce.Error())
	}
	if !errors.Is(err, runtime.ErrExecution) || errors.Is(err, runtime.ErrTimeout) {
		t.Errorf("errors.Is: runtime.ErrExecution %v, runtime.ErrTimeout %v", errors.Is(err, runtime.ErrExecution), errors.Is(err, runtime.ErrTimeout))
	}
	var got *runtime.CallError
	if !errors.As(err, &got) || got != ce {
		t.Errorf("errors.As(*runtime.CallError) = %v, %p, want %p", errors.As(err, &got), got, ce)
	}
	b, jerr := json.Marshal(nf)
	if jerr != nil {
		t.Fatal(jerr)
	}
	for _, hidden := range []string{`"Error"`, `"Is"`, `"Unwrap"`} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("JSON of the error has %s: %s", hidden, b)
		}
	}
}
