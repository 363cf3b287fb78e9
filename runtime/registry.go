package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// OperationSpec describes an operation of a Registry.
type OperationSpec struct {
	// ID is "namespace.name": letters, digits, '_' and '-' in each of at
	// least two dot-separated parts.
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
	// Title is a short human-readable name (an MCP tool's title); "" when
	// there is none.
	Title string `json:"title,omitempty"`
	// Method is the HTTP method ("GET", "POST", ...) of an operation that a
	// generated HTTP client registers; "" for other operations.
	Method string `json:"method,omitempty"`
	// Deprecated is set when the source marks the operation deprecated.
	Deprecated bool `json:"deprecated,omitempty"`
	// Hints say how the operation affects its environment, when the source
	// says so (an MCP tool's annotations) or the registrant knows; nil when
	// unknown. Servers (runtime/mcpserver) publish them as tool annotations.
	Hints *OperationHints `json:"hints,omitempty"`
	// InputSchema is the JSON Schema of the input, self-contained (its
	// refs point inside it). Empty means any input.
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// OutputSchema is the JSON Schema of the data, self-contained. Empty
	// means no output schema: the data is not normalized or validated.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Output, if set, is the compiled output schema (an *opsgenimpl.Schema)
	// and OutputSchema is only documentation. Generated code sets it to the
	// operation's output schema, which its calls compile and use too.
	Output *conform.Schema `json:"-"`
	// Kind is query (the default when empty), mutation or subscription.
	// RegisterSubscription sets it to subscription; Register refuses it.
	Kind Kind `json:"kind,omitempty"`
}

// OperationHints are the behaviour hints of an operation, those of MCP tool
// annotations. A nil field is unknown.
type OperationHints struct {
	// ReadOnly: the operation does not modify its environment.
	ReadOnly *bool `json:"readOnly,omitempty"`
	// Destructive: the operation may destroy or overwrite (meaningful when
	// not ReadOnly).
	Destructive *bool `json:"destructive,omitempty"`
	// Idempotent: calling it again with the same input has no further effect.
	Idempotent *bool `json:"idempotent,omitempty"`
	// OpenWorld: the operation interacts with an open world of external
	// entities (the web), not a closed domain.
	OpenWorld *bool `json:"openWorld,omitempty"`
}

// Handler runs an operation on its JSON input. It returns the data, or an
// envelope (a ResponseEnvelope, or its JSON), which passes through the
// pipeline's detection with its meta.
type Handler func(ctx context.Context, input json.RawMessage) (any, error)

// Registry holds operations by id, so that they can be called by name
// (by agents, glue code, or a call protocol) with JSON input. Generated
// clients register their remote operations; local Go handlers register
// beside them. It is safe for concurrent use.
//
// Each operation has a "namespace.name" id, JSON Schemas and a [Handler].
// [Registry.Execute] validates the input against the input schema, runs
// the handler (a panic becomes an EXECUTION_ERROR carrying a [*PanicError]),
// and runs the pipeline on the result, so that local and remote operations
// are called the same way:
//
//	env, err := reg.Execute(ctx, "petstore.getPet", map[string]any{"id": 7})
//
// Generated clients register all their operations with their Register
// method; [ExecuteAs] decodes the data into a T.
//
// One call is one pipeline pass, with one set of warnings of one
// operation id. The typed envelope a transport returns (a ResponseEnvelope
// value whose Meta is an *HTTPMeta or *MCPMeta: what a generated client's
// call, and so its registered handler, returns) has been through the
// pipeline already, in its transport, against the schema of the response
// actually received and in the client's validation mode; the Registry
// passes it through as it is: its Data is not checked again (the JSON of a
// typed Go value would differ from what the server sent: an absent
// required boolean marshals as false, an absent array as null), its
// Warnings are the transport's, under the transport's operation id, and
// they are not reported twice. So the client's mode, not the Registry's,
// decides about a remote result's mismatches. Everything else a handler
// returns is checked by the Registry: plain results, envelopes with
// LocalMeta, and envelopes in their wire form (a map or raw JSON, whose
// data is what was sent), except those of an HTTP response without a body.
type Registry struct {
	p  *Pipeline
	mu sync.RWMutex
	op map[string]*operation
}

type operation struct {
	spec    OperationSpec
	handler Handler
	sub     SubscriptionHandler // set for a subscription, instead of handler
	input   *conform.Schema     // nil: any input
	output  *conform.Schema
}

// NewRegistry returns an empty registry whose results go through p (nil
// means the zero Pipeline: warn mode).
func NewRegistry(p *Pipeline) *Registry {
	return &Registry{p: p, op: map[string]*operation{}}
}

// validOperationID reports whether id is dot-separated segments of
// [A-Za-z0-9_-], at least two: ^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$.
func validOperationID(id string) bool {
	segments, n := 1, 0
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case c == '.':
			if n == 0 {
				return false
			}
			segments, n = segments+1, 0
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
			n++
		default:
			return false
		}
	}
	return segments >= 2 && n > 0
}

// Register adds a query or mutation (spec.Kind empty, KindQuery or
// KindMutation). It fails when the id is malformed or taken, the handler
// is nil, the kind is a subscription (see RegisterSubscription), or a
// schema does not compile.
func (r *Registry) Register(spec OperationSpec, h Handler) error {
	if h == nil {
		return fmt.Errorf("opsgen: register %s: nil handler", spec.ID)
	}
	switch spec.Kind {
	case "", KindQuery, KindMutation:
	case KindSubscription:
		return fmt.Errorf("opsgen: register %s: a subscription is registered with RegisterSubscription", spec.ID)
	default:
		return fmt.Errorf("opsgen: register %s: unknown kind %q (want query, mutation or subscription)", spec.ID, spec.Kind)
	}
	return r.register(spec, h, nil)
}

func (r *Registry) register(spec OperationSpec, h Handler, sub SubscriptionHandler) error {
	if !validOperationID(spec.ID) {
		return fmt.Errorf("opsgen: register: operation id %q is not \"namespace.name\"", spec.ID)
	}
	op := &operation{spec: spec, handler: h, sub: sub, output: spec.Output}
	if len(bytes.TrimSpace(spec.InputSchema)) > 0 {
		in, err := compileInput(spec.InputSchema)
		if err != nil {
			return fmt.Errorf("opsgen: register %s: input schema: %w", spec.ID, err)
		}
		op.input = in
	}
	if op.output == nil && len(bytes.TrimSpace(spec.OutputSchema)) > 0 {
		op.output = conform.NewSchema(string(spec.OutputSchema))
	}
	if op.output != nil {
		if err := op.output.Compile(); err != nil {
			return fmt.Errorf("opsgen: register %s: output schema: %w", spec.ID, err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.op[spec.ID]; dup {
		return fmt.Errorf("opsgen: register: operation %q is already registered", spec.ID)
	}
	r.op[spec.ID] = op
	return nil
}

func compileInput(doc json.RawMessage) (*conform.Schema, error) {
	s := conform.NewSchema(string(doc))
	if err := s.Compile(); err != nil {
		return nil, err
	}
	return s, nil
}

// Lookup returns the spec of an operation, and whether there is one.
func (r *Registry) Lookup(id string) (OperationSpec, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	op, ok := r.op[id]
	if !ok {
		return OperationSpec{}, false
	}
	return op.spec, true
}

// Operations returns the specs of all operations, sorted by id.
func (r *Registry) Operations() []OperationSpec {
	r.mu.RLock()
	specs := make([]OperationSpec, 0, len(r.op))
	for _, op := range r.op {
		specs = append(specs, op.spec)
	}
	r.mu.RUnlock()
	sort.Slice(specs, func(i, j int) bool { return specs[i].ID < specs[j].ID })
	return specs
}

// PanicError is the cause of the CallError of a handler that panicked.
type PanicError struct {
	// Value is what the handler panicked with.
	Value any
	// Stack is the handler goroutine's stack at the panic.
	Stack []byte
}

// Error implements error.
func (e *PanicError) Error() string { return fmt.Sprintf("handler panicked: %v", e.Value) }

// Execute runs an operation: it validates input against the input schema,
// calls the handler, and runs the result pipeline (Pipeline.Process) on
// the result with the output schema; the typed envelope of a generated
// client's call has been through the pipeline in its transport, and passes
// as it is (one call, one pass, one set of warnings: see the package doc).
// input may be JSON ([]byte, json.RawMessage) or any value encoding/json
// can marshal; nil means {}.
//
// Errors are CallErrors: OPERATION_NOT_FOUND for an unknown id,
// VALIDATION_ERROR for input that does not match (Issues lists why),
// EXECUTION_ERROR for a handler that failed or panicked (a handler error
// that is a *CallError is returned as is, naming the registry's id where
// it named the operation without its namespace, as a generated client
// does: "pets.getPet", not "getPet"; one that is the context's error
// becomes TIMEOUT or CANCELED), and the pipeline's errors. A subscription
// is an EXECUTION_ERROR: call it with Subscribe.
func (r *Registry) Execute(ctx context.Context, id string, input any) (ResponseEnvelope[any], error) {
	r.mu.RLock()
	op, ok := r.op[id]
	r.mu.RUnlock()
	if !ok {
		return ResponseEnvelope[any]{}, Errorf(CodeOperationNotFound, id, "no operation %q is registered", id)
	}
	if op.sub != nil {
		return ResponseEnvelope[any]{}, Errorf(CodeExecution, id, "operation %q is a subscription: call it with Subscribe", id)
	}
	raw, err := inputJSON(input)
	if err != nil {
		return ResponseEnvelope[any]{}, NewError(CodeValidation, id, "input is not JSON", err)
	}
	if op.input != nil {
		if err := validateInput(op.input, raw, id); err != nil {
			return ResponseEnvelope[any]{}, err
		}
	}
	result, err := run(ctx, op.handler, raw, id)
	if err != nil {
		return ResponseEnvelope[any]{}, handlerError(ctx, id, err)
	}
	return r.p.process(ctx, id, op.output, result)
}

// ExecuteAs is Execute with the data converted to T: used as is when it
// already is a T, else re-decoded from its JSON, a value T cannot hold
// dropped with a warning (in strict mode a CallError with CodeValidation).
func ExecuteAs[T any](ctx context.Context, r *Registry, id string, input any) (ResponseEnvelope[T], error) {
	env, err := r.Execute(ctx, id, input)
	if err != nil {
		return ResponseEnvelope[T]{}, err
	}
	return envelopeAs[T](ctx, r.p, env, id)
}

func inputJSON(input any) (json.RawMessage, error) {
	switch v := input.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		if !json.Valid(v) {
			return nil, errors.New("malformed JSON")
		}
		return v, nil
	case []byte:
		if !json.Valid(v) {
			return nil, errors.New("malformed JSON")
		}
		return v, nil
	}
	return json.Marshal(input)
}

// validateInput checks raw against the input schema s, with the walker
// (and the FullValidator for keywords it does not check); input is not
// normalized.
func validateInput(s *conform.Schema, raw json.RawMessage, id string) *CallError {
	found, err := s.Issues(raw)
	if err != nil {
		return NewError(CodeValidation, id, "input is not JSON", err)
	}
	if len(found) == 0 {
		return nil
	}
	issues := warningsOf(found)
	msgs := make([]string, len(issues))
	for i := range issues {
		issues[i].OperationID = id
		msgs[i] = issues[i].Message
		if issues[i].Pointer != "" {
			msgs[i] = issues[i].Pointer + ": " + issues[i].Message
		}
	}
	// Issues carry the validator's findings; its error would repeat them.
	return &CallError{Code: CodeValidation, OperationID: id, Message: "invalid input: " + strings.Join(msgs, "; "), Issues: issues}
}

// run calls h, turning a panic into an EXECUTION_ERROR.
func run(ctx context.Context, h Handler, input json.RawMessage, id string) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			pe := &PanicError{Value: v, Stack: debug.Stack()}
			err = &CallError{Code: CodeExecution, OperationID: id, Message: pe.Error(), Cause: pe}
		}
	}()
	return h(ctx, input)
}
