package callproto

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// SpokeOptions configure a PendingRequestMap.
type SpokeOptions struct {
	// Prefix of the subjects (see SubjectsFor); "" means DefaultPrefix.
	Prefix string
	// Identity is sent with every request unless a call says otherwise.
	Identity *Identity
	// Window is how many subscription envelopes may be in flight beyond
	// the ones consumed (0: DefaultWindow). The spoke buffers at most
	// this many per subscription; the hub waits for acks beyond it.
	Window int
	// Heartbeat is the keepalive period (0: 5s; negative: none). Hubs
	// cancel the requests of a spoke silent for three periods, and
	// keepalives repeat subscription acks a broker outage lost. Hubs send
	// call.alive for the requests they run at the same period: a request
	// no hub has spoken of for three periods (no hub took it, or its hub
	// died) fails with TRANSPORT_ERROR.
	Heartbeat time.Duration
	// Pipeline converts envelopes for CallAs and SubscribeAs; nil is the
	// zero Pipeline (warn mode).
	Pipeline *runtime.Pipeline
	// TypedErrors rebuild the typed errors of HTTP failures: a call.error
	// carrying the hub's HTTP response (status, headers, body) becomes
	// the *runtime.CallError a direct call's transport makes, which each
	// function is given in turn; the first non-nil result is the call's
	// error. A generated client package (registry: true) provides one,
	// its TypedError, which returns the operation's generated error type
	// for the status (errors.As(err, &notFound) then works through Call
	// and CallAs as in process). A generated client configured
	// WithRemote types its errors itself.
	TypedErrors []func(*runtime.CallError) error
}

// PendingRequestMap is the calling side of the call protocol (the seeds'
// PendingRequestMap), the "spoke": it publishes call.requested, and matches
// the answers, which arrive on its own reply subject, to the waiting calls
// by request id. Answers for requests no longer waiting (late, after a
// deadline or cancellation) and duplicates are dropped. It is safe for
// concurrent use.
type PendingRequestMap struct {
	bus      Bus
	subj     Subjects
	id       string
	replyTo  string
	identity *Identity
	window   int64
	beat     time.Duration
	p        *runtime.Pipeline
	typed    []func(*runtime.CallError) error

	// skew is how far this spoke's wall clock is off, added where a
	// deadline is stamped on a request (the one place a spoke's clock
	// crosses the wire): zero but in tests of clock skew (export_test.go).
	skew time.Duration

	seq     atomic.Uint64
	mu      sync.Mutex
	pending map[string]*pending
	closed  bool
	sub     Subscription
	ctl     chan Control // keepalives and cancels, for sender
	stop    chan struct{}
	wg      sync.WaitGroup
}

// maxControlQueue bounds the control events waiting for the sender.
const maxControlQueue = 1024

// pending is one request waiting for answers.
type pending struct {
	ch       chan answer   // buffered: 1 for a call, window+2 for a subscription
	failed   chan struct{} // closed by fail: the request cannot be answered
	reason   string        // why, set before failed is closed
	once     sync.Once
	heard    atomic.Int64 // when a hub last spoke of it (Unix ns)
	stream   bool
	consumed atomic.Int64 // subscription envelopes consumed (for keepalive acks)
	received int64        // highest call.yielded seq received (onAnswer's goroutine only)
}

// NewPendingRequestMap subscribes to a fresh reply subject and returns the
// spoke. Close it when done.
func NewPendingRequestMap(bus Bus, opts SpokeOptions) (*PendingRequestMap, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	m := &PendingRequestMap{
		bus:      bus,
		subj:     SubjectsFor(opts.Prefix),
		id:       hex.EncodeToString(b[:]),
		identity: opts.Identity,
		window:   int64(opts.Window),
		beat:     opts.Heartbeat,
		p:        opts.Pipeline,
		typed:    opts.TypedErrors,
		pending:  map[string]*pending{},
		ctl:      make(chan Control, maxControlQueue),
		stop:     make(chan struct{}),
	}
	if m.window <= 0 {
		m.window = DefaultWindow
	}
	m.window = min(m.window, maxWindow)
	if m.beat == 0 {
		m.beat = 5 * time.Second
	}
	m.replyTo = m.subj.Reply(m.id)
	s, err := bus.Subscribe(m.replyTo, "", m.onAnswer)
	if err != nil {
		return nil, fmt.Errorf("callproto: subscribe %s: %w", m.replyTo, err)
	}
	m.sub = s
	m.wg.Add(1)
	go m.sender()
	if m.beat > 0 {
		m.wg.Add(1)
		go m.keepalive()
	}
	return m, nil
}

// ID returns the spoke's id (its reply subject's last token).
func (m *PendingRequestMap) ID() string { return m.id }

// Close unsubscribes; calls still waiting fail with TRANSPORT_ERROR.
func (m *PendingRequestMap) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	for _, p := range m.pending {
		p.fail("the spoke closed")
	}
	m.mu.Unlock()
	close(m.stop)
	m.wg.Wait()
	return m.sub.Unsubscribe()
}

// Pending returns the number of requests waiting for answers.
func (m *PendingRequestMap) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.pending)
}

// fail ends the request: the caller gets a TRANSPORT_ERROR saying why.
func (p *pending) fail(reason string) {
	p.once.Do(func() {
		p.reason = reason
		close(p.failed)
	})
}

func (m *PendingRequestMap) onAnswer(data []byte) {
	var a answer
	if err := decodeAnswer(data, &a); err != nil {
		return // not ours to answer; nothing waits on garbage
	}
	if a.Type == TypeAlive {
		now := time.Now().UnixNano()
		m.mu.Lock()
		for _, id := range a.RequestIDs {
			if p := m.pending[id]; p != nil {
				p.heard.Store(now)
				// Answers arrive in order: what the hub had sent before
				// this event has arrived, unless it was lost.
				if n := a.Sent[id]; n > p.received {
					p.fail(fmt.Sprintf("lost subscription events %d to %d", p.received+1, n))
				}
			}
		}
		m.mu.Unlock()
		return
	}
	m.mu.Lock()
	p := m.pending[a.RequestID]
	m.mu.Unlock()
	if p == nil {
		return // late, duplicate or unknown
	}
	p.heard.Store(time.Now().UnixNano())
	if a.Type == TypeYielded && a.Seq > p.received {
		p.received = a.Seq
	}
	select {
	case p.ch <- a:
	default:
		if p.stream {
			p.fail("subscription buffer overrun: the hub ignored the window") // end rather than grow
		}
		// a call's second answer: a duplicate, dropped
	}
}

func (m *PendingRequestMap) keepalive() {
	defer m.wg.Done()
	t := time.NewTicker(m.beat)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			c := Control{Type: TypeKeepalive, ReplyTo: m.replyTo}
			silent := time.Now().Add(-3 * m.beat).UnixNano()
			m.mu.Lock()
			if len(m.pending) == 0 {
				m.mu.Unlock()
				continue // nothing running: hubs need not hear from us
			}
			for id, p := range m.pending {
				if p.heard.Load() < silent {
					// No hub took the request, or its hub died.
					p.fail(fmt.Sprintf("no hub has answered or sent call.alive for %v", 3*m.beat))
				}
				if p.stream {
					if c.Acks == nil {
						c.Acks = map[string]int64{}
					}
					c.Acks[id] = p.consumed.Load()
				}
			}
			m.mu.Unlock()
			m.send(c)
		}
	}
}

// sender publishes the control events that keepalive and cancelRemote
// queue, so that a Publish that blocks (a bus reconnecting through a
// partition) holds up neither the liveness check, which would then fail
// the requests of silent hubs only once the bus is back, nor a caller's
// error. At Close it publishes what is queued, then ends.
func (m *PendingRequestMap) sender() {
	defer m.wg.Done()
	for {
		select {
		case c := <-m.ctl:
			m.control(c)
		case <-m.stop:
			for {
				select {
				case c := <-m.ctl:
					m.control(c)
				default:
					return
				}
			}
		}
	}
}

// send queues c for sender. With maxControlQueue events waiting already
// (the bus has blocked for that long), c is dropped: a keepalive is sent
// again next period, and a hub ends a dropped cancel's handler at its
// deadline or when the spoke's keepalives stop.
func (m *PendingRequestMap) send(c Control) {
	select {
	case m.ctl <- c:
	default:
	}
}

func (m *PendingRequestMap) control(c Control) {
	b, _ := json.Marshal(c)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	m.bus.Publish(ctx, m.subj.Control, b)
}

// CallOption changes one call.
type CallOption func(*Requested)

// WithIdentity sends who instead of the spoke's identity.
func WithIdentity(who *Identity) CallOption { return func(r *Requested) { r.Identity = who } }

// WithParent sets the request's parentRequestId (a call made while
// serving another).
func WithParent(requestID string) CallOption {
	return func(r *Requested) { r.ParentRequestID = requestID }
}

// WithRequestID sends the call with requestID instead of a fresh id, so
// that the id serves as an idempotency key: a caller that cannot tell
// whether a call ran (a TRANSPORT_ERROR, or its own deadline passed
// before the answer came) calls again with the same id, and the hub does
// not run it twice. A hub answers a duplicate of a finished request with
// the first's answer (within its HandlerOptions.DedupeWindow; whichever
// hub of the group gets it, given HandlerOptions.SharedDedupe), and
// ignores one that arrives while the first runs, whose answer then ends
// the call. Retry from the same spoke (a hub answers a duplicate only on
// the first's reply subject), and use ids no other call uses (a UUID, or
// the id of the call retried). An id pending on this spoke is refused.
func WithRequestID(requestID string) CallOption {
	return func(r *Requested) { r.RequestID = requestID }
}

// WithIdempotencyKey sends the call with key as its idempotency key,
// instead of the key of the call's context (runtime.WithIdempotencyKey),
// which Call sends by default (Subscribe does not: a stream is not
// deduplicated by key). Hubs dedupe on the key rather than on the
// request id, whichever spoke, reply subject or request id the call comes
// with: a duplicate is answered with the first's final event (see
// HandlerOptions.DedupeWindow), sent with its own request id, also when it
// arrives while the first runs. The hub's handler context carries the
// key, so that the calls it makes for this one send it too.
func WithIdempotencyKey(key string) CallOption {
	return func(r *Requested) { r.IdempotencyKey = key }
}

// start registers a pending request and publishes call.requested.
func (m *PendingRequestMap) start(ctx context.Context, id string, input any, stream bool, opts []CallOption) (string, *pending, error) {
	raw, err := inputJSON(input)
	if err != nil {
		return "", nil, runtime.NewError(runtime.CodeValidation, id, "input is not JSON", err)
	}
	reqID := m.id + "-" + strconv.FormatUint(m.seq.Add(1), 36)
	req := Requested{Type: TypeRequested, RequestID: reqID, OperationID: id, Input: raw, Identity: m.identity, ReplyTo: m.replyTo}
	if !stream {
		// A stream is not deduplicated by key: only its final event
		// would be replayed.
		req.IdempotencyKey = runtime.IdempotencyKeyFrom(ctx)
	}
	if d, ok := ctx.Deadline(); ok {
		req.Deadline = d.Add(m.skew).UnixMilli()
	}
	if m.beat > 0 {
		req.Heartbeat = m.beat.Milliseconds()
	}
	p := &pending{ch: make(chan answer, 1), failed: make(chan struct{}), stream: stream}
	p.heard.Store(time.Now().UnixNano())
	if stream {
		req.Window = m.window
		req.Subscribe = true
		p.ch = make(chan answer, m.window+2) // the window, then completion or error
	}
	for _, o := range opts {
		o(&req)
	}
	if req.RequestID == "" {
		return "", nil, runtime.Errorf(runtime.CodeValidation, id, "empty request id")
	}
	reqID = req.RequestID // WithRequestID
	b, err := encodeRequested(&req)
	if err != nil {
		return "", nil, runtime.NewError(runtime.CodeValidation, id, "request is not JSON", err)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return "", nil, runtime.Errorf(runtime.CodeTransport, id, "the spoke is closed")
	}
	if _, dup := m.pending[reqID]; dup {
		m.mu.Unlock()
		return "", nil, runtime.Errorf(runtime.CodeValidation, id, "request id %q is pending on this spoke already", reqID)
	}
	m.pending[reqID] = p
	m.mu.Unlock()
	if err := m.bus.Publish(ctx, m.subj.Requested, b); err != nil {
		m.forget(reqID)
		if ce := opsgenimpl.ContextError(ctx, id, err); ce != nil {
			return "", nil, ce
		}
		return "", nil, runtime.NewError(runtime.CodeTransport, id, "publishing call.requested", err)
	}
	return reqID, p, nil
}

func (m *PendingRequestMap) forget(reqID string) {
	m.mu.Lock()
	delete(m.pending, reqID)
	m.mu.Unlock()
}

// cancelRemote tells the hubs to stop reqID's handler (through sender:
// the caller does not wait for the bus).
func (m *PendingRequestMap) cancelRemote(reqID string) {
	m.send(Control{Type: TypeCanceled, RequestID: reqID})
}

// Call runs a query or mutation on a hub and returns its envelope, from
// call.responded, or the CallError of call.error. input is JSON ([]byte,
// json.RawMessage) or any value encoding/json marshals; nil means {}.
// ctx's deadline travels with the request (the hub's handler context ends
// then); when ctx ends first, the hub is told to cancel and Call returns
// TIMEOUT or CANCELED.
func (m *PendingRequestMap) Call(ctx context.Context, id string, input any, opts ...CallOption) (runtime.ResponseEnvelope[any], error) {
	out, warnings, err := m.call(ctx, id, input, opts)
	if err != nil {
		return runtime.ResponseEnvelope[any]{}, err
	}
	// Unmarshal refuses what is not an envelope.
	// (UnmarshalJSON directly: json.Unmarshal would scan the bytes once
	// more before calling it.)
	var env runtime.ResponseEnvelope[any]
	if err := env.UnmarshalJSON(out); err != nil {
		return runtime.ResponseEnvelope[any]{}, runtime.NewError(runtime.CodeDecode, id, "call.responded output is not a ResponseEnvelope", err)
	}
	env.Warnings = warnings
	return env, nil
}

// call returns the raw output of call.responded and the envelope's
// warnings.
func (m *PendingRequestMap) call(ctx context.Context, id string, input any, opts []CallOption) (json.RawMessage, []runtime.Warning, error) {
	reqID, p, err := m.start(ctx, id, input, false, opts)
	if err != nil {
		return nil, nil, err
	}
	defer m.forget(reqID)
	select {
	case a := <-p.ch:
		switch a.Type {
		case TypeResponded:
			return a.Output, warningsOf(a.Warnings), nil
		case TypeError:
			return nil, nil, m.callError(a.Error, id)
		}
		return nil, nil, runtime.Errorf(runtime.CodeDecode, id, "unexpected %s answer to a call", a.Type)
	case <-p.failed:
		// No call.canceled: no hub has spoken of the request for three
		// periods (or the spoke closed). A hub that has it, cut off from
		// us, runs it to its end (or its deadline) and records the answer,
		// which a retry with the same request id (WithRequestID) gets;
		// cancelled, it would answer the retry CANCELED, for a call that
		// may never have run.
		return nil, nil, runtime.Errorf(runtime.CodeTransport, id, "%s", p.reason)
	case <-ctx.Done():
		m.cancelRemote(reqID)
		return nil, nil, opsgenimpl.ContextError(ctx, id, nil)
	}
}

// callError is the Go error of call.error's error w: a *runtime.CallError,
// or what the first of SpokeOptions.TypedErrors makes of it.
func (m *PendingRequestMap) callError(w *WireError, id string) error {
	if w == nil {
		return runtime.Errorf(runtime.CodeDecode, id, "call.error without error")
	}
	ce := w.callError()
	if ce.OperationID == "" {
		ce.OperationID = id
	}
	if ce.HTTP != nil {
		for _, f := range m.typed {
			if err := f(ce); err != nil {
				return err
			}
		}
	}
	return ce
}

// Subscribe runs a subscription on a hub and yields its envelopes in
// order, one per call.yielded. The sequence ends after call.completed, or
// with one error: the CallError of call.error, TIMEOUT or CANCELED when ctx
// ends (the hub is told to cancel), TRANSPORT_ERROR when events were lost
// (a gap in the sequence numbers, e.g. across a broker restart). Stopping
// the loop early cancels the subscription on the hub. At most the window
// (SpokeOptions.Window) of envelopes is buffered: a slow consumer slows
// the hub's handler down instead of growing memory.
//
// Subscribing to a query or mutation yields its one envelope.
func (m *PendingRequestMap) Subscribe(ctx context.Context, id string, input any, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[any], error] {
	return func(yield func(runtime.ResponseEnvelope[any], error) bool) {
		for out, err := range m.subscribe(ctx, id, input, opts) {
			var env runtime.ResponseEnvelope[any]
			if err == nil {
				if derr := json.Unmarshal(out.output, &env); derr != nil {
					err = runtime.NewError(runtime.CodeDecode, id, "call.yielded output", derr)
				}
				env.Warnings = out.warnings
			}
			if !yield(env, err) || err != nil {
				return
			}
		}
	}
}

// yieldedOutput is the raw output of call.yielded (or call.responded)
// and the envelope's warnings.
type yieldedOutput struct {
	output   json.RawMessage
	warnings []runtime.Warning
}

// subscribe yields the raw outputs of call.yielded.
func (m *PendingRequestMap) subscribe(ctx context.Context, id string, input any, opts []CallOption) iter.Seq2[yieldedOutput, error] {
	return func(yield func(yieldedOutput, error) bool) {
		var none yieldedOutput
		reqID, p, err := m.start(ctx, id, input, true, opts)
		if err != nil {
			yield(none, err)
			return
		}
		defer m.forget(reqID)
		done := false // the hub has finished; nothing to cancel
		defer func() {
			if !done {
				m.cancelRemote(reqID)
			}
		}()
		var got, acked int64
		for {
			var a answer
			select {
			case a = <-p.ch:
			case <-p.failed:
				yield(none, runtime.Errorf(runtime.CodeTransport, id, "%s", p.reason))
				return
			case <-ctx.Done():
				yield(none, opsgenimpl.ContextError(ctx, id, nil))
				return
			}
			switch a.Type {
			case TypeYielded:
				switch {
				case a.Seq <= got:
					continue // duplicate
				case a.Seq > got+1:
					yield(none, runtime.Errorf(runtime.CodeTransport, id, "lost subscription events %d to %d", got+1, a.Seq-1))
					return
				}
				got = a.Seq
				if !yield(yieldedOutput{a.Output, warningsOf(a.Warnings)}, nil) {
					return
				}
				p.consumed.Store(got)
				if got-acked >= max(m.window/2, 1) {
					acked = got
					m.control(Control{Type: TypeAck, RequestID: reqID, Seq: got})
				}
			case TypeCompleted, TypeError, TypeResponded:
				done = true
				if a.Seq > got {
					yield(none, runtime.Errorf(runtime.CodeTransport, id, "lost subscription events %d to %d", got+1, a.Seq))
					return
				}
				switch a.Type {
				case TypeError:
					yield(none, m.callError(a.Error, id))
				case TypeResponded:
					yield(yieldedOutput{a.Output, warningsOf(a.Warnings)}, nil)
				}
				return
			}
		}
	}
}

// CallAs is Call with the envelope's data decoded into Out, the generated
// package's type of the remote operation's output: across the wire as in
// process. A value Out cannot hold is dropped with a warning, as the
// runtime pipeline does (a CallError in strict mode).
func CallAs[Out any](ctx context.Context, m *PendingRequestMap, id string, input any, opts ...CallOption) (runtime.ResponseEnvelope[Out], error) {
	out, warnings, err := m.call(ctx, id, input, opts)
	if err != nil {
		return runtime.ResponseEnvelope[Out]{}, err
	}
	return envelopeAs[Out](ctx, m.p, id, out, warnings)
}

// SubscribeAs is Subscribe with each envelope's data decoded into Out.
func SubscribeAs[Out any](ctx context.Context, m *PendingRequestMap, id string, input any, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[Out], error] {
	return func(yield func(runtime.ResponseEnvelope[Out], error) bool) {
		for out, err := range m.subscribe(ctx, id, input, opts) {
			var env runtime.ResponseEnvelope[Out]
			if err == nil {
				env, err = envelopeAs[Out](ctx, m.p, id, out.output, out.warnings)
			}
			if !yield(env, err) || err != nil {
				return
			}
		}
	}
}

// Input is the input of an HTTP operation a generated client registered
// (its Register method): the parameters struct and the body, as the
// generated method takes them. (An MCP tool's input is its arguments
// struct itself.) Use it with Call and CallAs:
//
//	callproto.CallAs[api.Pet](ctx, spoke, "petstore.getPet", callproto.Input{Params: api.GetPetParams{PetID: 1}})
type Input struct {
	Params any `json:"params,omitempty"`
	Body   any `json:"body,omitempty"`
}

func inputJSON(input any) (json.RawMessage, error) {
	switch v := input.(type) {
	case nil:
		return nil, nil
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

// envelopeAs decodes an envelope's wire form with its data as Out, and
// the warnings that came beside it first among the envelope's.
func envelopeAs[Out any](ctx context.Context, p *runtime.Pipeline, id string, out json.RawMessage, warnings []runtime.Warning) (runtime.ResponseEnvelope[Out], error) {
	// An envelope whose data Out holds as it is decodes in one step, to
	// the same value (and numbers exact): the pipeline's path below would
	// detect it (decoding it whole), decode its data as any, encode that
	// again and decode it into Out; it is for what Out cannot hold.
	var env runtime.ResponseEnvelope[Out]
	if env.UnmarshalJSON(out) == nil {
		env.Warnings = warnings
		return env, nil
	}
	if !opsgenimpl.IsResponseEnvelope(out) {
		return runtime.ResponseEnvelope[Out]{}, runtime.Errorf(runtime.CodeDecode, id, "output is not a ResponseEnvelope")
	}
	if len(warnings) == 0 {
		return opsgenimpl.ProcessAs[Out](ctx, p, id, nil, out)
	}
	var untyped runtime.ResponseEnvelope[any]
	if err := untyped.UnmarshalJSON(out); err != nil {
		return runtime.ResponseEnvelope[Out]{}, runtime.NewError(runtime.CodeDecode, id, "output is not a ResponseEnvelope", err)
	}
	untyped.Warnings = warnings
	return opsgenimpl.ProcessAs[Out](ctx, p, id, nil, untyped)
}

// CallJSON is Call returning the envelope's wire form undecoded (the
// output of call.responded), for callers that decode it themselves: a
// transport hook of generated clients, a proxy. It takes no CallOptions, so
// that a *PendingRequestMap is a opsgenimpl.Remote (a generated client's
// WithRemote): the spoke's identity goes with every call.
func (m *PendingRequestMap) CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error) {
	out, _, err := m.CallJSONWarnings(ctx, id, input)
	return out, err
}

// CallJSONWarnings is CallJSON also returning the envelope's warnings,
// which call.responded carries beside it (opsgenimpl.WarningsRemote): a
// generated client configured WithRemote returns them as a direct call
// does.
func (m *PendingRequestMap) CallJSONWarnings(ctx context.Context, id string, input any) (json.RawMessage, []runtime.Warning, error) {
	out, warnings, err := m.call(ctx, id, input, nil)
	if err != nil {
		return nil, nil, err
	}
	if !opsgenimpl.IsResponseEnvelope(out) {
		return nil, nil, runtime.Errorf(runtime.CodeDecode, id, "call.responded output is not a ResponseEnvelope")
	}
	return out, warnings, nil
}

// SubscribeJSON is Subscribe yielding each envelope's wire form undecoded.
func (m *PendingRequestMap) SubscribeJSON(ctx context.Context, id string, input any) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		for out, err := range m.SubscribeJSONWarnings(ctx, id, input) {
			if !yield(out.JSON, err) || err != nil {
				return
			}
		}
	}
}

// SubscribeJSONWarnings is SubscribeJSON yielding each envelope's warnings
// too, which call.yielded carries beside it (opsgenimpl.WarningsRemote).
func (m *PendingRequestMap) SubscribeJSONWarnings(ctx context.Context, id string, input any) iter.Seq2[opsgenimpl.RemoteEnvelope, error] {
	return func(yield func(opsgenimpl.RemoteEnvelope, error) bool) {
		for out, err := range m.subscribe(ctx, id, input, nil) {
			if err == nil && !opsgenimpl.IsResponseEnvelope(out.output) {
				err = runtime.Errorf(runtime.CodeDecode, id, "call.yielded output is not a ResponseEnvelope")
			}
			if !yield(opsgenimpl.RemoteEnvelope{JSON: out.output, Warnings: out.warnings}, err) || err != nil {
				return
			}
		}
	}
}
