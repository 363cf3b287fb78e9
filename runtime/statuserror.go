package runtime

// StatusError is an HTTP failure whose status the operation declares, with
// the body decoded into the declared type. Generated clients declare one
// type per operation and declared error status that embeds it:
//
//	type ShowPetByIDNotFound struct{ runtime.StatusError[Error] }
//
// so that the error is reached the Go way and its body is typed:
//
//	var nf *petstore.ShowPetByIDNotFound
//	if errors.As(err, &nf) {
//		log.Print(nf.HTTP.StatusCode, nf.Body.Message)
//	}
//
// Each such type belongs to one operation, so asking for a status (and so a
// body type) the operation does not declare does not compile against its
// generated name. The embedded *CallError is the failure as every other
// HTTP failure reports it (code, status, headers, raw body): errors.As with
// a *CallError, errors.Is with the sentinels, ErrorBody and StatusCode keep
// working. A status the operation does not declare stays a plain *CallError.
//
// A body that does not fit the declared type is drift: the parts that do
// not fit are dropped, each with a warning in CallError.Issues, and Body
// holds the rest (the zero value when nothing fits, or the body is not
// JSON; CallError.HTTP.Typed is then nil).
type StatusError[T any] struct {
	*CallError
	// Body is the response body decoded into the type the operation
	// declares for this status.
	Body T
}

// Unwrap returns the CallError, so errors.As and errors.Is see it.
func (e *StatusError[T]) Unwrap() error { return e.CallError }

// attach makes e the typed form of ce, decoding body (JSON) into Body when
// decode is set.
func (e *StatusError[T]) attach(ce *CallError, body []byte, decode bool) {
	e.CallError = ce
	if !decode {
		return
	}
	warnings, err := decodeFit(ce.OperationID, body, &e.Body)
	for i := range warnings {
		warnings[i].OperationID = ce.OperationID
	}
	ce.Issues = append(ce.Issues, warnings...)
	if err != nil {
		ce.Issues = append(ce.Issues, Warning{OperationID: ce.OperationID, Message: "error body not decoded: " + err.Error()})
	} else if ce.HTTP != nil {
		// ErrorBody reads the body here too.
		ce.HTTP.Typed = &e.Body
	}
}

// statusError is implemented by pointers to types that embed a StatusError.
type statusError interface {
	error
	attach(ce *CallError, body []byte, decode bool)
}

// TypedStatusError returns the declared error v (a pointer to a generated
// type embedding StatusError, as made by a generated response table) for
// the failure ce, with body decoded into it when decode is set (a JSON
// body). When v is not such a pointer it returns ce.
func TypedStatusError(v any, ce *CallError, body []byte, decode bool) error {
	se, ok := v.(statusError)
	if !ok || ce == nil {
		return ce
	}
	se.attach(ce, body, decode)
	return se
}
