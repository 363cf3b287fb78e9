package opsgenimpl

import (
	"context"
	"io"

	"github.com/opsgen/opsgen/runtime"
)

// Decode decodes the JSON body into out, normalizing and validating it
// against schema first (see the package doc). It returns the warnings,
// which it has also reported (see runtime.Pipeline.Report); callers put them on the
// envelope's Warnings. With a nil schema, or in ValidateOff mode, it does
// not normalize or validate.
//
// Only a body that is not JSON fails to decode (a CallError with
// CodeDecode): a value out's Go type cannot hold (a date-time a time.Time
// cannot parse, a number out of a float32's range, invalid base64 for a
// []byte, an object where the type has a slice) is dropped, so that it
// decodes as the zero value, with a warning naming its JSON pointer, in
// every mode but ValidateStrict (out is then reset to its zero value before
// the rest is decoded into it). In ValidateStrict mode a mismatch, or a
// value out's type cannot hold, is a CallError with CodeValidation listing
// the Issues; out is then left untouched by a mismatch, or zero.
func Decode[T any](ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, body []byte, out *T) ([]runtime.Warning, error) {
	return rt.DecodeInto(ctx, p, operationID, schema, body, out)
}

// DecodeInto is Decode for an out given as any: it must be a non-nil
// pointer. Generic callers pass their *T to it so that one compiled copy
// serves every result type (see DecodeReaderInto).
func DecodeInto(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, body []byte, out any) ([]runtime.Warning, error) {
	return rt.DecodeInto(ctx, p, operationID, schema, body, out)
}

// DecodeReader is Decode reading the body from r: it reads the body to its
// end, then decodes it. (encoding/json's streaming decoder holds the whole
// value in memory too, and a value that does not fit the Go type can only
// be repaired from the bytes.) A failing read is a CallError with
// CodeTransport.
func DecodeReader[T any](ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, r io.Reader, out *T) ([]runtime.Warning, error) {
	return DecodeReaderInto(ctx, p, operationID, schema, r, out)
}

// DecodeReaderInto is DecodeReader for an out given as any: it must be a
// non-nil pointer. The generic functions are thin wrappers around it and
// DecodeInto: a generated package instantiates them once per result type,
// so the code that does the work is compiled once, not per type.
func DecodeReaderInto(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, r io.Reader, out any) ([]runtime.Warning, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, runtime.NewError(runtime.CodeTransport, operationID, "reading body", err)
	}
	return rt.DecodeInto(ctx, p, operationID, schema, b, out)
}

// Process runs the result pipeline of p on a Go value, the result of a
// local handler or a stream event:
//
//  1. detect: a result that already is an envelope (a ResponseEnvelope of
//     any type, or a map or raw JSON for which IsResponseEnvelope
//     is true) passes through with its meta;
//  2. wrap: any other result becomes Local(result, operationID);
//  3. normalize and 4. validate Data against schema, as Decode does.
//
// Steps 3 and 4 are skipped when schema is nil, in ValidateOff mode, and
// when there is nothing (left) to check:
//
//   - the result is a transport's envelope, a ResponseEnvelope value whose
//     Meta is an *HTTPMeta or *MCPMeta, as generated clients return: its
//     transport decoded it through the pipeline (Decode) against the
//     schema of the response it got, and its Warnings are that pass's;
//   - the envelope's HTTPMeta has a status without a body (204, 205, 304);
//   - the envelope's MCPMeta says IsError.
//
// Data is checked as encoding/json marshals it, so an unset optional field
// of a Go struct must be absent, not null: give optional fields omitempty,
// as generated types do. When normalization changes Data, the new Data is
// decoded into a value of the old one's dynamic type (a struct stays that
// struct). Warnings are appended to the envelope's Warnings and reported,
// except those the envelope already carries. The Registry runs the same
// steps on what a handler returns.
func Process(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, result any) (runtime.ResponseEnvelope[any], error) {
	return rt.Process(ctx, p, operationID, schema, result)
}

// ProcessAs is Process with the envelope's Data converted to T: used as is
// when it already is a T, else re-decoded from its JSON. Like Decode, a
// value T cannot hold is dropped with a warning (in strict mode it is a
// CallError with CodeValidation).
func ProcessAs[T any](ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, result any) (runtime.ResponseEnvelope[T], error) {
	var env runtime.ResponseEnvelope[T]
	var err error
	env.Meta, env.Warnings, err = rt.ProcessInto(ctx, p, operationID, schema, result, &env.Data)
	if err != nil {
		return runtime.ResponseEnvelope[T]{}, err
	}
	return env, nil
}

// ProcessInto is ProcessAs for a result stored through out, a non-nil
// pointer to the data's type: it returns the envelope's meta and
// warnings, and leaves *out zero on error. One compiled copy serves every
// result type, which a generated package with hundreds of them would
// otherwise compile once each (ProcessAs is generic).
func ProcessInto(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, result, out any) (runtime.Meta, []runtime.Warning, error) {
	return rt.ProcessInto(ctx, p, operationID, schema, result, out)
}
