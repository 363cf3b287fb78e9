package runtime

// StatusError is embedded by the error types generated for the declared
// error statuses of operations, next to the typed body:
//
//	type ShowPetByIDNotFound struct {
//		runtime.StatusError
//		Body Error
//	}
//
// so that the failure is reached the Go way and its body is typed:
//
//	var nf *petstore.ShowPetByIDNotFound
//	if errors.As(err, &nf) {
//		log.Print(nf.HTTP.StatusCode, nf.Body.Message)
//	}
//
// An inline response's type belongs to one operation and status, so asking
// for a status (and so a body type) the operation does not declare does not
// compile against its generated name. A response that is a $ref to a
// component response (#/components/responses/not_found) has the
// component's type instead (NotFoundError), one type for every operation
// and status that refers to it, so that a large API (Microsoft Graph's
// 11,422 operations refer to one "error" response) declares it once; when
// it serves several statuses, StatusCode tells them apart. The embedded *CallError is the failure as every other
// HTTP failure reports it (code, status, headers, raw body): errors.As with
// a *CallError, errors.Is with the sentinels, ErrorBody and StatusCode keep
// working. A status the operation does not declare stays a plain *CallError.
//
// A body that does not fit the declared type is drift: the parts that do
// not fit are dropped, each with a warning in CallError.Issues, and Body
// holds the rest (the zero value when nothing fits, or the body is not
// JSON; CallError.HTTP.Typed is then nil).
//
// StatusError is not generic on purpose: a generic type embedded in
// hundreds of generated types (GitHub's API declares 930 error statuses)
// makes the compiler write a wrapper per type and instantiation; the body
// is decoded by reflection instead, once per failure.
//
// For the same reason its methods have pointer receivers and the methods of
// the embedded *CallError are not promoted: the compiler writes a wrapper
// for every method promoted into a type, and one more for its pointer
// type, so each method promoted into each generated error type costs
// compile time. As it is, a generated *T gets two (Error and Unwrap) and T
// none. Is is not among them: errors.Is reaches the CallError's through
// Unwrap.
type StatusError struct {
	hidden
	*CallError
}

// hidden has fields named like the methods of *CallError. At the same depth
// as the embedded *CallError, they make those selectors ambiguous, so none
// of its methods is promoted into StatusError (and so into the generated
// types). They take no space and are left out of JSON.
type hidden struct {
	Error  struct{} `json:"-"`
	Is     struct{} `json:"-"`
	Unwrap struct{} `json:"-"`
}

// Error implements error: the CallError's message. Error and Unwrap are
// not inlined: each generated error type promotes them through a wrapper
// of its own (GitHub's API declares 1,116), which then stays a jump.
//
//go:noinline
func (e *StatusError) Error() string { return e.CallError.Error() }

// Unwrap returns the CallError, so errors.As and errors.Is see it.
//
//go:noinline
func (e *StatusError) Unwrap() error { return e.CallError }
