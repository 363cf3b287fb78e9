package runtime

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"strings"
)

// Kind is what an operation does, as the call protocol dispatches on it:
// a query or a mutation runs once and returns one result; a subscription
// streams results.
type Kind string

// The operation kinds. The zero Kind is KindQuery.
const (
	KindQuery        Kind = "query"
	KindMutation     Kind = "mutation"
	KindSubscription Kind = "subscription"
)

// kindOf returns k, with "" read as KindQuery.
func kindOf(k Kind) Kind {
	if k == "" {
		return KindQuery
	}
	return k
}

// SubscriptionHandler runs a subscription on its JSON input and yields its
// results: raw values (each wrapped as a Local envelope with a fresh
// timestamp) or envelopes (passed through with their meta, as a generated
// client's Stream yields them). A non-nil error ends the subscription with
// that error. The sequence must stop when ctx is done.
type SubscriptionHandler func(ctx context.Context, input []byte) iter.Seq2[any, error]

// RegisterSubscription adds a subscription: an operation whose handler
// streams results, called with Subscribe. spec.Kind is set to
// KindSubscription. It fails as Register does.
func (r *Registry) RegisterSubscription(spec OperationSpec, h SubscriptionHandler) error {
	if h == nil {
		return fmt.Errorf("opsgen: register %s: nil subscription handler", spec.ID)
	}
	spec.Kind = KindSubscription
	return r.register(spec, nil, h)
}

// Kind returns the kind of an operation, and whether there is one.
func (r *Registry) Kind(id string) (Kind, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	op, ok := r.op[id]
	if !ok {
		return "", false
	}
	return kindOf(op.spec.Kind), true
}

// Subscribe runs a subscription: it validates input against the input
// schema, calls the handler when iteration starts, and yields one envelope
// per value the handler yields, each through the result pipeline with the
// output schema (a raw value is wrapped with Local and a fresh timestamp;
// an envelope passes with its meta). input is as for Execute.
//
// Errors are yielded with a zero envelope and end the sequence: the
// CallErrors of Execute (OPERATION_NOT_FOUND, VALIDATION_ERROR,
// EXECUTION_ERROR for a handler error or panic; TIMEOUT or CANCELED when
// ctx ends the subscription), plus EXECUTION_ERROR when id is not a
// subscription. A pipeline error (strict mode) is yielded and the
// subscription goes on if the caller continues. Stopping the loop early
// stops the handler (its iteration's yield returns false).
//
// A query or mutation called with Subscribe yields its one envelope.
func (r *Registry) Subscribe(ctx context.Context, id string, input any) iter.Seq2[ResponseEnvelope[any], error] {
	return func(yield func(ResponseEnvelope[any], error) bool) {
		var zero ResponseEnvelope[any]
		r.mu.RLock()
		op, ok := r.op[id]
		r.mu.RUnlock()
		if !ok {
			yield(zero, Errorf(CodeOperationNotFound, id, "no operation %q is registered", id))
			return
		}
		if op.sub == nil {
			yield(r.Execute(ctx, id, input))
			return
		}
		raw, err := inputJSON(input)
		if err != nil {
			yield(zero, NewError(CodeValidation, id, "input is not JSON", err))
			return
		}
		if op.input != nil {
			if err := validateInput(op.input, raw, id); err != nil {
				yield(zero, err)
				return
			}
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		for v, err := range runSub(ctx, op.sub, raw, id) {
			if err != nil {
				yield(zero, handlerError(ctx, id, err))
				return
			}
			env, err := r.p.process(ctx, id, op.output, v)
			if !yield(env, err) {
				return
			}
		}
		// A handler that stopped because ctx ended says so.
		if ce := contextError(ctx, id, nil); ce != nil {
			yield(zero, ce)
		}
	}
}

// handlerError is the CallError of a failed handler (see Execute).
//
// A CallError naming the operation by its own name ("getPet", as a
// generated client's transport does) is renamed to its registry id
// ("petstore.getPet"), issues included: the id the caller used, whatever
// carried the call (in process, the call protocol, an MCP server).
func handlerError(ctx context.Context, id string, err error) error {
	var ce *CallError
	if errors.As(err, &ce) {
		if short := ce.OperationID; short != "" && short != id && strings.HasSuffix(id, "."+short) {
			ce.OperationID = id
			for i := range ce.Issues {
				if ce.Issues[i].OperationID == short {
					ce.Issues[i].OperationID = id
				}
			}
		}
		return err
	}
	if cerr := contextError(ctx, id, err); cerr != nil && errors.Is(err, ctx.Err()) {
		return cerr
	}
	return NewError(CodeExecution, id, "", err)
}

// runSub iterates h's sequence, turning a panic of the handler (while
// starting or while producing a value) into an EXECUTION_ERROR. A panic
// raised by the consumer's own loop body propagates unchanged.
func runSub(ctx context.Context, h SubscriptionHandler, input []byte, id string) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		inYield := false
		defer func() {
			if inYield {
				return // the consumer's panic: let it through
			}
			if v := recover(); v != nil {
				pe := &PanicError{Value: v, Stack: debug.Stack()}
				yield(nil, &CallError{Code: CodeExecution, OperationID: id, Message: pe.Error(), Cause: pe})
			}
		}()
		seq := h(ctx, input)
		if seq == nil {
			return
		}
		for v, err := range seq {
			inYield = true
			more := yield(v, err)
			inYield = false
			if !more || err != nil {
				return
			}
		}
	}
}
