package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Receiver holds what every webhook endpoint of a service shares: the
// Verifier, the ReplayStore, the body limit, the result pipeline, and the
// subscribers of each operation's events. Create one with New; Handle
// makes the http.Handler of one operation. A Receiver is safe for
// concurrent use.
type Receiver struct {
	verifier Verifier
	replay   ReplayStore
	window   time.Duration
	maxBody  int64
	buffer   int
	pipeline *runtime.Pipeline
	now      func() time.Time
	onError  func(context.Context, Operation, error)
	onSub    func(id string, subscribers int)

	mu    sync.Mutex
	feeds map[string]*feed
}

// An Option configures a Receiver.
type Option func(*Receiver)

// DefaultMaxBodyBytes is the largest body a Receiver reads by default.
const DefaultMaxBodyBytes = 1 << 20

// DefaultReplayWindow is how long a Receiver remembers a delivery id by
// default: twice DefaultTolerance, so that a delivery whose timestamp is
// still within the tolerance is always recognised when it comes again.
const DefaultReplayWindow = 2 * DefaultTolerance

// WithReplayStore sets where delivery ids are recorded, and for how long
// (window <= 0: DefaultReplayWindow). The window should be at least twice
// the Verifier's tolerance. The default is a MemoryReplayStore of
// DefaultReplayMax ids, which protects one process.
func WithReplayStore(s ReplayStore, window time.Duration) Option {
	return func(r *Receiver) {
		r.replay = s
		if window > 0 {
			r.window = window
		}
	}
}

// WithMaxBodyBytes sets the largest body read (default
// DefaultMaxBodyBytes); a larger one is answered 413.
func WithMaxBodyBytes(n int64) Option { return func(r *Receiver) { r.maxBody = n } }

// WithPipeline sets the result pipeline payloads go through: the
// validation mode, the logger and the warning hook (default: the zero
// Pipeline, warn mode).
func WithPipeline(p *runtime.Pipeline) Option { return func(r *Receiver) { r.pipeline = p } }

// WithClock sets the clock that signed timestamps and replay windows are
// measured by (default time.Now).
func WithClock(now func() time.Time) Option { return func(r *Receiver) { r.now = now } }

// WithSubscriberBuffer sets how many events a subscriber (see
// Subscription) may fall behind before its subscription ends with
// ErrLagged (default 64).
func WithSubscriberBuffer(n int) Option { return func(r *Receiver) { r.buffer = max(n, 1) } }

// WithErrorHook sets a function called with the error (or the
// *runtime.PanicError) of a handler that failed; the sender is answered
// 500 without it.
func WithErrorHook(f func(ctx context.Context, op Operation, err error)) Option {
	return func(r *Receiver) { r.onError = f }
}

// WithSubscribeHook sets a function called when a subscription (see
// Subscription) of operation id starts or ends, with the number of
// subscribers the operation has then.
func WithSubscribeHook(f func(id string, subscribers int)) Option {
	return func(r *Receiver) { r.onSub = f }
}

// New returns a Receiver that verifies deliveries with v. v is required:
// use Unsigned for a sender that signs nothing.
func New(v Verifier, opts ...Option) *Receiver {
	if v == nil {
		panic("webhook: New: nil Verifier (use webhook.Unsigned{} for a sender that signs nothing)")
	}
	r := &Receiver{verifier: v, window: DefaultReplayWindow, maxBody: DefaultMaxBodyBytes, buffer: 64, now: time.Now, feeds: map[string]*feed{}}
	for _, o := range opts {
		o(r)
	}
	if r.replay == nil {
		r.replay = NewMemoryReplayStore(0)
	}
	return r
}

// BodyKind is how an operation's payload is decoded.
type BodyKind uint8

const (
	// BodyJSON payloads (application/json and +json media types) are
	// decoded through the result pipeline into the handler's type.
	BodyJSON BodyKind = iota
	// BodyText payloads are a string, of any text/* media type.
	BodyText
	// BodyBytes payloads are the body's bytes, of any media type.
	BodyBytes
)

// Operation describes a webhook or callback operation. Generated code
// declares one per operation of the spec.
type Operation struct {
	// ID is the operation's "namespace.name" id, as warnings and
	// CallErrors name it and a Registry registers it.
	ID string
	// Name is the webhook's name, or the callback's "operation/callback"
	// name; envelopes carry it as HTTPMeta.EventType.
	Name string
	// Method is the HTTP method the sender uses; other methods are
	// answered 405. "" accepts any.
	Method string
	// Kind is how the payload is decoded.
	Kind BodyKind
	// Schema is the payload's JSON Schema; nil means the payload is not
	// normalized or validated.
	Schema *opsgenimpl.Schema
}

// Handle returns the http.Handler of one operation. For each request it
//
//  1. answers 405 when the method is not op.Method;
//  2. reads the body, at most the Receiver's limit (413 beyond it);
//  3. verifies the signature (400 for a missing or malformed signature
//     header, 401 for a signature that does not match or a timestamp
//     outside the tolerance);
//  4. claims the delivery id in the ReplayStore: a delivery seen within the
//     window is answered 200 "duplicate delivery" and not handled again
//     (the sender, which may be retrying after a lost answer, stops);
//  5. decodes the payload through the result pipeline, as a client decodes
//     a response: undeclared members dropped, defaults filled in, drift and
//     mismatches kept as the envelope's Warnings (415 for a media type the
//     operation does not take, 400 for malformed JSON, 422 for a mismatch
//     in strict mode);
//  6. calls h with the envelope, whose Meta is an *runtime.HTTPMeta with
//     the request's headers and content type, EventType op.Name,
//     LastEventID the delivery id, and StatusCode 200, the status
//     answered when h succeeds;
//  7. sends the envelope to the operation's subscribers (see Subscription)
//     and answers 204; an error or a panic of h is answered 500, so the
//     sender retries, and the delivery id is released for that retry.
//
// Every 4xx and 5xx answer is text/plain and names what is wrong. h may be
// nil when the events are only consumed through Subscription.
func Handle[T any](r *Receiver, op Operation, h func(context.Context, runtime.ResponseEnvelope[T]) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.serve(w, req, op, func(ctx context.Context, body []byte, meta *runtime.HTTPMeta) (runtime.ResponseEnvelope[any], error) {
			env := runtime.ResponseEnvelope[T]{Meta: meta}
			if err := r.decode(ctx, op, body, meta.ContentType, &env.Data, &env.Warnings); err != nil {
				return runtime.ResponseEnvelope[any]{}, err
			}
			if h != nil {
				if err := callHandler(ctx, r, op, h, env); err != nil {
					return runtime.ResponseEnvelope[any]{}, err
				}
			}
			return runtime.ResponseEnvelope[any]{Data: env.Data, Meta: env.Meta, Warnings: env.Warnings}, nil
		})
	})
}

// httpError is an answer other than 204.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func (r *Receiver) serve(w http.ResponseWriter, req *http.Request, op Operation, run func(context.Context, []byte, *runtime.HTTPMeta) (runtime.ResponseEnvelope[any], error)) {
	if op.Method != "" && !strings.EqualFold(req.Method, op.Method) {
		w.Header().Set("Allow", op.Method)
		fail(w, &httpError{http.StatusMethodNotAllowed, fmt.Sprintf("webhook %s: method %s not allowed (want %s)", op.Name, req.Method, op.Method)})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, r.maxBody))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			fail(w, &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("webhook %s: body larger than %d bytes", op.Name, r.maxBody)})
		} else {
			fail(w, &httpError{http.StatusBadRequest, fmt.Sprintf("webhook %s: reading body: %v", op.Name, err)})
		}
		return
	}
	now := r.now()
	id, err := r.verifier.Verify(req.Header, body, now)
	if err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, ErrMalformed) {
			status = http.StatusBadRequest
		}
		fail(w, &httpError{status, err.Error()})
		return
	}
	ctx := req.Context()
	if id != "" {
		fresh, err := r.replay.Claim(ctx, id, now.Add(r.window))
		if err != nil {
			fail(w, &httpError{http.StatusServiceUnavailable, fmt.Sprintf("webhook %s: replay store: %v", op.Name, err)})
			return
		}
		if !fresh {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			fmt.Fprintf(w, "duplicate delivery %q: handled already\n", id)
			return
		}
	}
	meta := &runtime.HTTPMeta{StatusCode: http.StatusOK, Headers: headerMap(req.Header), ContentType: req.Header.Get("Content-Type"), EventType: op.Name, LastEventID: id}
	env, err := run(ctx, body, meta)
	if err != nil {
		if id != "" {
			// A failed delivery may come again; the context may be done.
			_ = r.replay.Release(context.WithoutCancel(ctx), id)
		}
		fail(w, err)
		return
	}
	r.publish(op.ID, env)
	w.WriteHeader(http.StatusNoContent)
}

// decode puts the payload into out, through the pipeline for JSON.
func (r *Receiver) decode(ctx context.Context, op Operation, body []byte, contentType string, out any, warnings *[]runtime.Warning) error {
	media, _, _ := mime.ParseMediaType(contentType)
	switch op.Kind {
	case BodyJSON:
		if media != "application/json" && !strings.HasSuffix(media, "+json") {
			return &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("webhook %s: content type %q is not JSON", op.Name, contentType)}
		}
		ws, err := opsgenimpl.DecodeInto(ctx, r.pipeline, op.ID, op.Schema, body, out)
		if ce, ok := errors.AsType[*runtime.CallError](err); ok {
			status := http.StatusBadRequest
			if ce.Code == runtime.CodeValidation {
				status = http.StatusUnprocessableEntity
			}
			return &httpError{status, fmt.Sprintf("webhook %s: payload: %s", op.Name, ce.Message)}
		} else if err != nil {
			return &httpError{http.StatusBadRequest, fmt.Sprintf("webhook %s: payload: %v", op.Name, err)}
		}
		*warnings = ws
	case BodyText:
		if !strings.HasPrefix(media, "text/") {
			return &httpError{http.StatusUnsupportedMediaType, fmt.Sprintf("webhook %s: content type %q is not text", op.Name, contentType)}
		}
		return assign(op, out, string(body))
	default:
		return assign(op, out, body)
	}
	return nil
}

// assign stores v in out, which a generated handler types as v's type.
func assign[V any](op Operation, out any, v V) error {
	switch p := out.(type) {
	case *V:
		*p = v
	case *any:
		*p = v
	default:
		return &httpError{http.StatusInternalServerError, fmt.Sprintf("webhook %s: handler type %T cannot hold a %T payload", op.Name, out, v)}
	}
	return nil
}

// callHandler runs h, turning an error or a panic into a 500 answer. The
// handler's error goes to the error hook, not to the sender: it may tell
// internals the sender must not see.
func callHandler[T any](ctx context.Context, r *Receiver, op Operation, h func(context.Context, runtime.ResponseEnvelope[T]) error, env runtime.ResponseEnvelope[T]) (err error) {
	defer func() {
		if v := recover(); v != nil {
			r.report(ctx, op, &runtime.PanicError{Value: v, Stack: debug.Stack()})
			err = &httpError{http.StatusInternalServerError, fmt.Sprintf("webhook %s: handler panicked", op.Name)}
		}
	}()
	if err := h(ctx, env); err != nil {
		r.report(ctx, op, err)
		return &httpError{http.StatusInternalServerError, fmt.Sprintf("webhook %s: handler failed", op.Name)}
	}
	return nil
}

func (r *Receiver) report(ctx context.Context, op Operation, err error) {
	if r.onError != nil {
		r.onError(ctx, op, err)
	}
}

func fail(w http.ResponseWriter, err error) {
	he, ok := err.(*httpError)
	if !ok {
		he = &httpError{http.StatusInternalServerError, err.Error()}
	}
	http.Error(w, he.msg, he.status)
}

// headerMap is the HTTPMeta form of h: lower-case names, values joined
// with ", ".
func headerMap(h http.Header) map[string]string {
	m := make(map[string]string, len(h))
	for k, vs := range h {
		m[strings.ToLower(k)] = strings.Join(vs, ", ")
	}
	return m
}
