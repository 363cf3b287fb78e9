package opsgenimpl

import (
	"reflect"

	"github.com/opsgen/opsgen/runtime"
)

var statusErrorType = reflect.TypeFor[runtime.StatusError]()

// TypedStatusError returns the declared error v (a pointer to a generated
// struct embedding StatusError, with its body in a field named Body, as
// made by a generated response table) for the failure ce, with body
// decoded into Body when decode is set (a JSON body). When v is not such
// a pointer it returns ce.
func TypedStatusError(v any, ce *runtime.CallError, body []byte, decode bool) error {
	rv := reflect.ValueOf(v)
	if ce == nil || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return ce
	}
	s := rv.Elem()
	se := s.FieldByName("StatusError")
	err, isErr := v.(error)
	if !se.IsValid() || se.Type() != statusErrorType || !isErr {
		return ce
	}
	se.Set(reflect.ValueOf(runtime.StatusError{CallError: ce}))
	b := s.FieldByName("Body")
	if !decode || !b.IsValid() {
		return err
	}
	out := b.Addr().Interface()
	warnings, derr := rt.DecodeFit(ce.OperationID, body, out)
	for i := range warnings {
		warnings[i].OperationID = ce.OperationID
	}
	ce.Issues = append(ce.Issues, warnings...)
	if derr != nil {
		ce.Issues = append(ce.Issues, runtime.Warning{OperationID: ce.OperationID, Message: "error body not decoded: " + derr.Error()})
	} else if ce.HTTP != nil {
		// ErrorBody reads the body here too.
		ce.HTTP.Typed = out
	}
	return err
}
