package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// ValidationMode chooses what the pipeline does with schema mismatches.
type ValidationMode uint8

const (
	// ValidateWarn (the default) normalizes and validates; mismatches are warnings.
	ValidateWarn ValidationMode = iota
	// ValidateStrict normalizes and validates; a mismatch is a CallError (VALIDATION_ERROR).
	ValidateStrict
	// ValidateOff decodes only.
	ValidateOff
)

// String returns the mode's name: "warn", "strict" or "off".
func (m ValidationMode) String() string {
	switch m {
	case ValidateWarn:
		return "warn"
	case ValidateStrict:
		return "strict"
	case ValidateOff:
		return "off"
	}
	return fmt.Sprintf("ValidationMode(%d)", m)
}

// Warning is one mismatch between data and its schema, or another thing
// worth knowing about a result that did not fail the call.
type Warning struct {
	OperationID string
	// Pointer is the JSON pointer of the value in the data ("" for the root).
	Pointer string
	Message string
}

// String renders the warning as "operation /pointer: message".
func (w Warning) String() string {
	s := w.Message
	if w.Pointer != "" {
		s = w.Pointer + ": " + s
	}
	if w.OperationID != "" {
		s = w.OperationID + " " + s
	}
	return s
}

// Logger receives the warnings of a Pipeline at Warn level, the message
// with the attributes operation, pointer and message as key-value pairs:
// a *slog.Logger is one.
type Logger interface {
	WarnContext(ctx context.Context, msg string, args ...any)
}

// Pipeline holds the settings of the result pipeline. The zero value (and a
// nil *Pipeline) is warn mode, logging through package log (see Logger). A Pipeline
// is safe for concurrent use; do not change its fields while it is used.
//
// The pipeline (detect, wrap, normalize, validate) is described in package
// runtime/opsgenimpl, which generated code calls: what normalization cannot
// fix is a [Warning], and a value the Go type cannot hold is dropped with one.
type Pipeline struct {
	// Mode is what happens to schema mismatches.
	Mode ValidationMode
	// Logger receives each warning at Warn level (a *slog.Logger; set
	// slog.Default() for records of slog's default logger with their
	// attributes). nil means the default logger of package log, with a
	// line in the format of slog's default handler: "WARN opsgen: result
	// does not match its schema operation=... pointer=... message=...";
	// so a program that does not ask for log/slog does not link it.
	Logger Logger
	// OnWarning, if set, is called with each warning, after it is logged.
	OnWarning func(ctx context.Context, w Warning)
}

func (p *Pipeline) mode() ValidationMode {
	if p == nil {
		return ValidateWarn
	}
	return p.Mode
}

// Report logs each warning through the pipeline's Logger at Warn level
// (with its operation id, pointer and message) and passes it to OnWarning.
// Decode and Process report the warnings they return; transports call
// Report for warnings of their own, such as a skipped malformed SSE frame.
func (p *Pipeline) Report(ctx context.Context, warnings []Warning) {
	if len(warnings) == 0 {
		return
	}
	var logger Logger
	if p != nil && !isNilLogger(p.Logger) {
		logger = p.Logger
	}
	const msg = "opsgen: result does not match its schema"
	for _, w := range warnings {
		if logger != nil {
			logger.WarnContext(ctx, msg, "operation", w.OperationID, "pointer", w.Pointer, "message", w.Message)
		} else {
			conform.LogWarning(msg, "operation", w.OperationID, "pointer", w.Pointer, "message", w.Message)
		}
		if p != nil && p.OnWarning != nil {
			p.OnWarning(ctx, w)
		}
	}
}

// decodeInto is opsgenimpl.DecodeInto (see its doc).
func decodeInto(ctx context.Context, p *Pipeline, operationID string, schema *conform.Schema, body []byte, out any) ([]Warning, error) {
	if len(bytes.TrimLeft(body, " \t\r\n")) == 0 {
		return nil, decodeError(operationID, io.EOF)
	}
	if conform.Fused(fusedSchema(p, schema), body, out) {
		return nil, nil
	}
	var warnings []Warning
	if schema != nil && p.mode() != ValidateOff {
		var err error
		body, _, warnings, err = p.check(operationID, schema, body, !conform.StructTarget(reflect.TypeOf(out).Elem()))
		if err != nil {
			return nil, err
		}
	}
	drift, err := p.decode(operationID, body, out)
	if err != nil {
		return nil, err
	}
	warnings = withDrift(warnings, drift)
	p.Report(ctx, warnings)
	return warnings, nil
}

// decode decodes b into out with decodeFit: the values out's type cannot
// hold are dropped with warnings, or in strict mode fail the call with
// CodeValidation.
func (p *Pipeline) decode(operationID string, b []byte, out any) ([]Warning, error) {
	drift, err := decodeFit(operationID, b, out)
	if err != nil || len(drift) == 0 {
		return nil, err
	}
	for i := range drift {
		drift[i].OperationID = operationID
	}
	if p.mode() == ValidateStrict {
		reflect.ValueOf(out).Elem().SetZero()
		return nil, validationError(operationID, drift)
	}
	return drift, nil
}

// withDrift returns the schema's warnings followed by drift, the warnings
// of values the Go type cannot hold, one warning per drifting value: a
// drift warning replaces the schema's at its pointer, as it names the
// value and says what became of it (a date-time that is not RFC 3339 is
// not a valid date-time for the schema, and is read as RFC 3339 or dropped
// for the Go type).
func withDrift(warnings, drift []Warning) []Warning {
	if len(drift) == 0 {
		return warnings
	}
	at := make(map[string]bool, len(drift))
	for _, d := range drift {
		at[d.Pointer] = true
	}
	warnings = slices.DeleteFunc(warnings, func(w Warning) bool { return at[w.Pointer] })
	return append(warnings, drift...)
}

// validationError is the strict mode's CallError for issues.
func validationError(operationID string, issues []Warning) *CallError {
	first := issues[0]
	return &CallError{
		Code:        CodeValidation,
		OperationID: operationID,
		Message:     fmt.Sprintf("result does not match its schema (%d issues; first at %q: %s)", len(issues), first.Pointer, first.Message),
		Issues:      issues,
	}
}

func decodeError(operationID string, err error) *CallError {
	if err == io.EOF {
		return NewError(CodeDecode, operationID, "empty body", err)
	}
	return NewError(CodeDecode, operationID, "malformed JSON", err)
}

// check is the one implementation of normalize and validate: it walks body
// against schema and returns the body to decode (body itself when nothing
// changes, with changed false) and the warnings, with operationID set. In
// strict mode a mismatch is returned as a CallError instead.
func (p *Pipeline) check(operationID string, schema *conform.Schema, body []byte, dropUndeclared bool) (out []byte, changed bool, warnings []Warning, err error) {
	out, changed, issues, err := schema.Check(body, dropUndeclared)
	if unusable, ok := err.(*conform.UnusableError); ok {
		// The schema cannot be used at all: decode without it.
		cerr := unusable.Err
		w := Warning{OperationID: operationID, Message: "output schema is unusable, data not validated: " + cerr.Error()}
		if p.mode() == ValidateStrict {
			return nil, false, nil, &CallError{Code: CodeValidation, OperationID: operationID, Message: w.Message, Issues: []Warning{w}, Cause: cerr}
		}
		return body, false, []Warning{w}, nil
	}
	if err != nil {
		return nil, false, nil, decodeError(operationID, err)
	}
	warnings = warningsOf(issues)
	for i := range warnings {
		warnings[i].OperationID = operationID
	}
	if len(warnings) > 0 && p.mode() == ValidateStrict {
		return nil, false, nil, validationError(operationID, warnings)
	}
	return out, changed, warnings, nil
}

// process runs the result pipeline on a Go value, the result of a local
// handler or a stream event:
//
//  1. detect: a result that already is an envelope (a ResponseEnvelope of
//     any type, or a map or raw JSON for which opsgenimpl.IsResponseEnvelope is true)
//     passes through with its meta;
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
// except those the envelope already carries.
func (p *Pipeline) process(ctx context.Context, operationID string, schema *conform.Schema, result any) (ResponseEnvelope[any], error) {
	env, typed, err := detect(result, operationID)
	if err != nil {
		return ResponseEnvelope[any]{}, err
	}
	if schema == nil || p.mode() == ValidateOff || checked(env, typed) {
		return env, nil
	}
	raw, err := json.Marshal(env.Data)
	if err != nil {
		return ResponseEnvelope[any]{}, NewError(CodeDecode, operationID, "result data is not JSON", err)
	}
	t := reflect.TypeOf(env.Data)
	out, changed, warnings, err := p.check(operationID, schema, raw, !conform.StructTarget(t))
	if err != nil {
		return ResponseEnvelope[any]{}, err
	}
	if changed {
		var drift []Warning
		switch {
		case t == nil:
			var v any
			drift, err = p.decode(operationID, out, &v)
			env.Data = v
		case t == reflect.TypeFor[json.RawMessage]():
			env.Data = json.RawMessage(out)
		default:
			v := reflect.New(t)
			drift, err = p.decode(operationID, out, v.Interface())
			env.Data = v.Elem().Interface()
		}
		if err != nil {
			return ResponseEnvelope[any]{}, err
		}
		warnings = withDrift(warnings, drift)
	}
	var fresh []Warning
	for _, w := range warnings {
		if !containsWarning(env.Warnings, w) {
			fresh = append(fresh, w)
		}
	}
	env.Warnings = append(env.Warnings, fresh...)
	p.Report(ctx, fresh)
	return env, nil
}

// checked reports whether the envelope's data has nothing left for the
// pipeline to check (see Process). typed says it was a ResponseEnvelope
// value, not its wire form.
func checked(env ResponseEnvelope[any], typed bool) bool {
	switch m := env.Meta.(type) {
	case *MCPMeta:
		return typed || m.IsError
	case *HTTPMeta:
		switch m.StatusCode {
		case http.StatusNoContent, http.StatusResetContent, http.StatusNotModified:
			return true
		}
		return typed
	}
	return false
}

func containsWarning(list []Warning, w Warning) bool {
	for _, x := range list {
		if x.Pointer == w.Pointer && x.Message == w.Message {
			return true
		}
	}
	return false
}

// envelopeAs converts env's Data to T: used as is when it already is a
// T, else re-decoded from its JSON (see opsgenimpl.ProcessAs).
func envelopeAs[T any](ctx context.Context, p *Pipeline, env ResponseEnvelope[any], operationID string) (ResponseEnvelope[T], error) {
	out := ResponseEnvelope[T]{Meta: env.Meta, Warnings: env.Warnings}
	if d, ok := env.Data.(T); ok {
		out.Data = d
		return out, nil
	}
	// The warnings of one envelope carry one operation id: that of those
	// it has (a transport's), else the caller's.
	id := operationID
	if len(env.Warnings) > 0 && env.Warnings[0].OperationID != "" {
		id = env.Warnings[0].OperationID
	}
	w, err := p.convert(ctx, id, env.Data, &out.Data)
	if err != nil {
		return ResponseEnvelope[T]{}, err
	}
	out.Warnings = append(slices.Clip(out.Warnings), w...)
	return out, nil
}

// convert decodes the JSON of data into out (a pointer), for envelopeAs:
// the values out's type cannot hold are dropped with warnings, which it
// reports.
func (p *Pipeline) convert(ctx context.Context, operationID string, data, out any) ([]Warning, error) {
	if data == nil {
		return nil, nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, NewError(CodeDecode, operationID, "result data is not JSON", err)
	}
	w, err := p.decode(operationID, b, out)
	if err != nil {
		return nil, err
	}
	p.Report(ctx, w)
	return w, nil
}

// detect returns result as an envelope: itself when it is one, else
// wrapped. typed says it was a ResponseEnvelope value (or a pointer to
// one), not a wire form.
func detect(result any, operationID string) (env ResponseEnvelope[any], typed bool, err error) {
	if env, ok := asEnvelope(result); ok {
		return env, true, nil
	}
	var raw []byte
	switch v := result.(type) {
	case map[string]any:
		if isEnvelopeMap(v) {
			b, err := json.Marshal(v)
			if err != nil {
				return ResponseEnvelope[any]{}, false, NewError(CodeDecode, operationID, "result envelope is not JSON", err)
			}
			raw = b
		}
	case json.RawMessage:
		if isEnvelopeJSON(v) {
			raw = v
		}
	case []byte:
		if isEnvelopeJSON(v) {
			raw = v
		}
	case string:
		if isEnvelopeJSON([]byte(v)) {
			raw = []byte(v)
		}
	}
	if raw == nil {
		return local(result, operationID), false, nil
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return ResponseEnvelope[any]{}, false, NewError(CodeDecode, operationID, "result envelope", err)
	}
	return env, false, nil
}
