package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrorCode classifies a CallError. The set is open: servers and handlers
// may use codes of their own.
type ErrorCode string

// The error codes opsgen itself produces.
const (
	// CodeOperationNotFound: no such operation (unknown registry id, unknown MCP tool).
	CodeOperationNotFound ErrorCode = "OPERATION_NOT_FOUND"
	// CodeValidation: the input, or in strict mode the output, does not match its schema.
	CodeValidation ErrorCode = "VALIDATION_ERROR"
	// CodeExecution: the operation ran and failed (HTTP status outside 2xx, handler error or panic).
	CodeExecution ErrorCode = "EXECUTION_ERROR"
	// CodeTimeout: the context's deadline passed.
	CodeTimeout ErrorCode = "TIMEOUT"
	// CodeAccessDenied: the caller may not run the operation (HTTP 401 and 403 among others).
	CodeAccessDenied ErrorCode = "ACCESS_DENIED"
	// CodeCanceled: the context was canceled.
	CodeCanceled ErrorCode = "CANCELED"
	// CodeTransport: the request never got an answer (connection refused or closed, protocol error).
	CodeTransport ErrorCode = "TRANSPORT_ERROR"
	// CodeDecode: the answer could not be read (malformed body, body over the size cap).
	CodeDecode ErrorCode = "DECODE_ERROR"
)

// Sentinel errors, one per code, for errors.Is: errors.Is(err,
// runtime.ErrTimeout) is true for any *CallError whose Code is CodeTimeout.
var (
	ErrOperationNotFound = &CallError{Code: CodeOperationNotFound}
	ErrValidation        = &CallError{Code: CodeValidation}
	ErrExecution         = &CallError{Code: CodeExecution}
	ErrTimeout           = &CallError{Code: CodeTimeout}
	ErrAccessDenied      = &CallError{Code: CodeAccessDenied}
	ErrCanceled          = &CallError{Code: CodeCanceled}
	ErrTransport         = &CallError{Code: CodeTransport}
	ErrDecode            = &CallError{Code: CodeDecode}
)

// CallError is the Go error of every failed call: transport and protocol
// failures, HTTP statuses outside 2xx, validation failures, handler errors.
// (An MCP result with isError set is not a CallError: it is a result.)
type CallError struct {
	Code ErrorCode
	// Message says what happened, for people.
	Message string
	// OperationID names the operation ("namespace.name", the HTTP operationId, or the MCP tool).
	OperationID string
	// HTTP is set when the failure is an HTTP response.
	HTTP *HTTPFailure
	// Issues lists schema mismatches for CodeValidation.
	Issues []Warning
	// Cause is the underlying error, if any; Unwrap returns it.
	Cause error
}

// HTTPFailure is what an HTTP response outside 2xx said.
type HTTPFailure struct {
	StatusCode int
	Headers    http.Header
	// Body is a copy of the response body, at most 64 KiB;
	// Truncated says whether there was more.
	Body      []byte
	Truncated bool
	// ContentType is the response's Content-Type.
	ContentType string
	// Typed is the body decoded into the type the spec declares for this
	// status (or for default), or nil. ErrorBody returns it typed.
	Typed any
}

// Error implements error.
func (e *CallError) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.OperationID != "" {
		b.WriteString(" ")
		b.WriteString(e.OperationID)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Cause != nil && (e.Message == "" || !strings.Contains(e.Message, e.Cause.Error())) {
		b.WriteString(": ")
		b.WriteString(e.Cause.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Cause }

// Is reports whether target is a *CallError with the same code and no
// message of its own (the sentinels), so errors.Is(err, ErrTimeout) works.
func (e *CallError) Is(target error) bool {
	t, ok := target.(*CallError)
	return ok && t.Message == "" && t.Code == e.Code
}

// NewError returns a CallError.
func NewError(code ErrorCode, operationID, message string, cause error) *CallError {
	return &CallError{Code: code, OperationID: operationID, Message: message, Cause: cause}
}

// Errorf returns a CallError with a formatted message.
func Errorf(code ErrorCode, operationID, format string, args ...any) *CallError {
	return &CallError{Code: code, OperationID: operationID, Message: fmt.Sprintf(format, args...)}
}

// contextError is opsgenimpl.ContextError.
func contextError(ctx context.Context, operationID string, err error) *CallError {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &CallError{Code: CodeTimeout, OperationID: operationID, Message: "deadline exceeded", Cause: firstNonNil(err, ctx.Err())}
	case errors.Is(ctx.Err(), context.Canceled):
		return &CallError{Code: CodeCanceled, OperationID: operationID, Message: "canceled", Cause: firstNonNil(err, ctx.Err())}
	}
	return nil
}

func firstNonNil(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// ErrorBody returns the typed body of an HTTP failure in err's chain when
// the spec declared one of type T for its status.
func ErrorBody[T any](err error) (T, bool) {
	var ce *CallError
	if errors.As(err, &ce) && ce.HTTP != nil {
		switch v := ce.HTTP.Typed.(type) {
		case T:
			return v, true
		case *T:
			if v != nil {
				return *v, true
			}
		}
	}
	var zero T
	return zero, false
}

// StatusCode returns the HTTP status of an HTTP failure in err's chain, or 0.
func StatusCode(err error) int {
	var ce *CallError
	if errors.As(err, &ce) && ce.HTTP != nil {
		return ce.HTTP.StatusCode
	}
	return 0
}
