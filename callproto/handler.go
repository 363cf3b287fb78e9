package callproto

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// DefaultWindow is how many subscription envelopes a hub sends beyond the
// last one the spoke acknowledged, when the request does not say.
const DefaultWindow = 64

// maxWindow caps a request's window, so that a spoke cannot make a hub
// (or itself) buffer without bound.
const maxWindow = 4096

// HandlerOptions configure a CallHandler.
type HandlerOptions struct {
	// Prefix of the subjects (see SubjectsFor); "" means DefaultPrefix.
	Prefix string
	// Policy decides access per operation; nil means AllowAll.
	Policy Policy
	// MaxConcurrent bounds the handlers running at once (0: 1024). A
	// request beyond it waits in the bus's own buffer.
	MaxConcurrent int
	// Logger receives what cannot be answered (malformed requests, publish
	// failures); nil means slog.Default().
	Logger *slog.Logger
	// DedupeWindow is how long the hub remembers a finished request, so
	// that a duplicate call.requested (the same requestId) does not run
	// the operation again: it is answered with the request's recorded final
	// event (call.responded, call.error or call.completed) when it names
	// the same replyTo, and dropped otherwise. 0 means DefaultDedupeWindow;
	// negative, nothing is remembered (a duplicate after the first
	// finished runs again). A duplicate while the first runs is always
	// ignored.
	DedupeWindow time.Duration
	// DedupeEntries bounds how many finished requests are remembered (0:
	// 10000): beyond it the oldest are forgotten first.
	DedupeEntries int
	// DedupeBytes bounds the bytes of the final events kept for replay
	// (0: 16 MiB): beyond it the oldest events are let go first, and a
	// duplicate of their request is dropped instead of answered (it still
	// does not run again).
	DedupeBytes int
	// SharedDedupe, when set, is a duplicate record shared by the hubs of
	// the queue group (natsbus.NewDedupe, redisbus.NewDedupe): each
	// request is claimed in it before it runs, and its final event kept
	// there for DedupeWindow, so that a duplicate is answered (or, while
	// the first runs, ignored) whichever hub gets it. Final events over
	// DedupeBytes are not kept (the duplicate is dropped). The per-hub
	// record stays in front of it. When the store cannot be reached the
	// request runs (logged): the store's outage does not stop the hubs.
	// nil: the per-hub record only. Unused when DedupeWindow is negative.
	SharedDedupe SharedDedupe
}

// DefaultDedupeWindow is how long a hub remembers finished requests when
// HandlerOptions.DedupeWindow is 0.
const DefaultDedupeWindow = 2 * time.Minute

// CallHandler is the serving side of the call protocol (the seeds'
// CallHandler): it takes call.requested events from the bus (in the hubs'
// queue group, so that several hubs share the load) and for each one looks
// the operation up in its Registry (OPERATION_NOT_FOUND), asks the Policy
// (ACCESS_DENIED), then runs it through the Registry, which validates the
// input, runs the handler and applies the result pipeline. A query or
// mutation answers with one call.responded; a subscription with one
// call.yielded per envelope, then call.completed. Any failure, a handler's
// error or panic included, is a call.error; an envelope whose MCP meta says
// isError is a response, not an error.
//
// The request's deadline and the spoke's call.canceled end the handler's
// context; so does the spoke's silence for three heartbeat periods (a
// spoke that died). Every heartbeat period the handler tells each spoke
// which of its requests are still running (call.alive), so that spokes
// notice a hub that died. A duplicate request id is ignored while the
// first is running, and answered with the first's final event after it
// finished (HandlerOptions.DedupeWindow; WIRE.md, "Duplicate requests"),
// by this hub or, given a shared record (HandlerOptions.SharedDedupe), by
// any hub of its queue group.
type CallHandler struct {
	reg    *runtime.Registry
	bus    Bus
	subj   Subjects
	policy Policy
	log    *slog.Logger
	sem    chan struct{}
	run    func(task func()) // runs a request: on a worker, or inline on a WorkerSubscriber's goroutine

	mu       sync.Mutex
	inflight map[string]*serving
	done     dedupe               // finished requests, for duplicates
	shared   SharedDedupe         // the queue group's record, or nil
	seen     map[string]time.Time // reply subject -> last keepalive
	told     map[string]time.Time // reply subject -> last call.alive sent
	closed   bool
	running  map[string]*serving // requests with an idempotency key, by key, while they run

	subs   []Subscription
	wg     sync.WaitGroup
	stop   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
}

// serving is one request being served.
type serving struct {
	cancel    context.CancelFunc
	replyTo   string
	heartbeat time.Duration
	started   time.Time

	sent  atomic.Int64 // call.yielded published
	final []byte       // the final event published (under CallHandler.mu), for duplicates

	// key is the request's key in the duplicate records: its
	// idempotencyKey (keyPrefix added) when it has one, else its requestId.
	key string
	// waiters are the requests with the same idempotency key that came
	// while it ran (under CallHandler.mu): each gets its final event.
	waiters []Requested

	claimed   bool // taken in the shared record: final (or finish) records it there
	recorded  bool // the shared record holds its final event
	duplicate bool // another hub took it (shared record): not run, not recorded here

	mu    sync.Mutex
	acked int64
	ackCh chan struct{} // signalled when acked grows; nil unless the request subscribes
}

// NewCallHandler subscribes to the bus and serves reg's operations until
// Close. The Registry may gain operations afterwards.
func NewCallHandler(reg *runtime.Registry, bus Bus, opts HandlerOptions) (*CallHandler, error) {
	n := opts.MaxConcurrent
	if n <= 0 {
		n = 1024
	}
	h := &CallHandler{
		reg:      reg,
		bus:      bus,
		subj:     SubjectsFor(opts.Prefix),
		policy:   opts.Policy,
		log:      opts.Logger,
		sem:      make(chan struct{}, n),
		inflight: map[string]*serving{},
		running:  map[string]*serving{},
		seen:     map[string]time.Time{},
		told:     map[string]time.Time{},
		stop:     make(chan struct{}),
	}
	if h.policy == nil {
		h.policy = AllowAll
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.done = newDedupe(opts.DedupeWindow, opts.DedupeEntries, opts.DedupeBytes)
	h.shared = opts.SharedDedupe
	h.ctx, h.cancel = context.WithCancel(context.Background())
	var s Subscription
	var err error
	if ws, ok := bus.(WorkerSubscriber); ok {
		h.run = func(task func()) { task() }
		s, err = ws.SubscribeWorkers(h.subj.Requested, h.subj.Hubs, h.onRequest)
	} else {
		h.run = newWorkers(h.stop).run
		s, err = bus.Subscribe(h.subj.Requested, h.subj.Hubs, h.onRequest)
	}
	if err != nil {
		return nil, fmt.Errorf("callproto: subscribe %s: %w", h.subj.Requested, err)
	}
	h.subs = append(h.subs, s)
	c, err := bus.Subscribe(h.subj.Control, "", h.onControl)
	if err != nil {
		s.Unsubscribe()
		return nil, fmt.Errorf("callproto: subscribe %s: %w", h.subj.Control, err)
	}
	h.subs = append(h.subs, c)
	h.wg.Add(1)
	go h.reaper()
	return h, nil
}

// Close unsubscribes, cancels the running handlers and waits for them.
func (h *CallHandler) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	h.mu.Unlock()
	var errs []error
	for _, s := range h.subs {
		errs = append(errs, s.Unsubscribe())
	}
	close(h.stop)
	h.cancel()
	h.wg.Wait()
	return errors.Join(errs...)
}

// Inflight returns the number of requests being served.
func (h *CallHandler) Inflight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.inflight)
}

func (h *CallHandler) onRequest(data []byte) {
	var req Requested
	if err := decodeRequested(data, &req); err != nil || req.Type != TypeRequested || req.RequestID == "" || req.ReplyTo == "" {
		h.log.Warn("callproto: dropping malformed call.requested", "err", err, "len", len(data))
		return
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	if _, dup := h.inflight[req.RequestID]; dup {
		h.mu.Unlock()
		return
	}
	key := dedupeKey(&req)
	if first := h.running[key]; first != nil {
		// The same logical call under another request id: it gets the
		// first's answer.
		if final := first.final; final != nil {
			h.mu.Unlock()
			h.replay(&req, doneRecord{replyTo: req.ReplyTo, final: final})
			return
		}
		first.waiters = append(first.waiters, req)
		h.mu.Unlock()
		return
	}
	if rec, dup := h.done.get(key, time.Now()); dup {
		h.mu.Unlock()
		h.replay(&req, rec)
		return
	}
	ctx, cancel := requestContext(h.ctx, req.Deadline)
	sv := &serving{cancel: cancel, replyTo: req.ReplyTo, heartbeat: time.Duration(req.Heartbeat) * time.Millisecond, started: time.Now(), key: key}
	if key != req.RequestID {
		h.running[key] = sv
		ctx = runtime.WithIdempotencyKey(ctx, req.IdempotencyKey)
	}
	if req.Subscribe {
		sv.ackCh = make(chan struct{}, 1) // only streams wait for acks
	}
	h.inflight[req.RequestID] = sv
	if sv.heartbeat > 0 {
		if _, ok := h.seen[req.ReplyTo]; !ok {
			h.seen[req.ReplyTo] = sv.started
		}
	}
	h.wg.Add(1)
	h.mu.Unlock()
	select {
	case h.sem <- struct{}{}:
	case <-h.stop:
		h.finish(req.RequestID, sv)
		h.wg.Done()
		return
	}
	h.run(func() {
		defer h.wg.Done()
		defer func() { <-h.sem }()
		defer h.finish(req.RequestID, sv)
		if h.shared != nil && h.done.window > 0 && !h.claim(&req, sv) {
			return
		}
		h.serve(ctx, &req, sv)
	})
}

// requestContext is the context of a request with deadline (Unix ms, 0:
// none): one context, not a cancelable one under a deadline.
func requestContext(parent context.Context, deadline int64) (context.Context, context.CancelFunc) {
	if deadline > 0 {
		return context.WithDeadline(parent, time.UnixMilli(deadline))
	}
	return context.WithCancel(parent)
}

// finish forgets the request as running and records it as finished (in
// one step, so that a duplicate sees one or the other).
//
// A request claimed in the shared record is recorded there first; a
// duplicate another hub took is not recorded here.
func (h *CallHandler) finish(id string, sv *serving) {
	sv.cancel()
	if sv.claimed && !sv.recorded {
		h.record(sv, nil) // finished without a final event
	}
	h.mu.Lock()
	delete(h.inflight, id)
	if sv.key != id {
		delete(h.running, sv.key) // waiters without a final event are dropped
	}
	if !sv.duplicate {
		h.done.add(sv.key, sv.replyTo, sv.final, time.Now())
	}
	h.mu.Unlock()
}

// record records in the shared duplicate record that the request of sv
// finished with final (nil, or over DedupeBytes: not kept).
func (h *CallHandler) record(sv *serving, final []byte) {
	id := sv.key
	if len(final) > h.done.maxBytes {
		final = nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.shared.Finish(ctx, id, sv.replyTo, final, h.done.window); err != nil {
		h.log.Warn("callproto: recording a finished request in the shared duplicate record failed", "requestId", id, "err", err)
	}
	sv.recorded = true
}

// claim takes req in the shared duplicate record. It returns false when
// another hub of the group took the id: the request is a duplicate,
// answered from the record when that one finished (see replay), ignored
// while it runs.
func (h *CallHandler) claim(req *Requested, sv *serving) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, claimed, err := h.shared.Claim(ctx, sv.key, req.ReplyTo, h.done.window)
	switch {
	case err != nil:
		h.log.Warn("callproto: the shared duplicate record is unavailable; running the request", "requestId", req.RequestID, "err", err)
		return true
	case claimed:
		sv.claimed = true
		return true
	}
	sv.duplicate = true
	if rec.Done {
		h.replay(req, doneRecord{replyTo: rec.ReplyTo, final: rec.Final})
	}
	return false
}

// replay answers a duplicate of a finished request with its final event.
// A request with an idempotency key is the same logical call whatever its
// reply subject and request id: it gets the event with its own request id.
func (h *CallHandler) replay(req *Requested, rec doneRecord) {
	keyed := req.IdempotencyKey != "" && rec.final != nil
	if keyed {
		rec.replyTo = req.ReplyTo
		rec.final = withRequestID(rec.final, req.RequestID)
	}
	switch {
	case rec.replyTo != req.ReplyTo:
		// Another spoke reusing the id: never send it someone else's answer.
		h.log.Warn("callproto: dropping a duplicate request id from another reply subject", "requestId", req.RequestID, "replyTo", req.ReplyTo)
	case rec.final == nil:
		// Its final event was not kept (DedupeBytes) or never sent: drop.
	default:
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := h.bus.Publish(ctx, req.ReplyTo, rec.final); err != nil {
			h.log.Warn("callproto: publish failed", "subject", req.ReplyTo, "err", err)
		}
	}
}

// serve runs one request and publishes its answers. A panic outside the
// operation's handler (which the Registry recovers), in the Policy say,
// is answered as an EXECUTION_ERROR rather than crash the hub.
func (h *CallHandler) serve(ctx context.Context, req *Requested, sv *serving) {
	defer func() {
		if v := recover(); v != nil {
			h.log.Error("callproto: panic while serving", "operation", req.OperationID, "panic", v)
			h.fail(req, sv, runtime.Errorf(runtime.CodeExecution, req.OperationID, "hub panicked: %v", v), 0)
		}
	}()
	id := req.OperationID
	spec, ok := h.reg.Lookup(id)
	if !ok {
		h.fail(req, sv, runtime.Errorf(runtime.CodeOperationNotFound, id, "no operation %q is registered", id), 0)
		return
	}
	if err := h.policy(ctx, req.Identity, spec); err != nil {
		h.fail(req, sv, runtime.NewError(runtime.CodeAccessDenied, id, err.Error(), nil), 0)
		return
	}
	if ce := opsgenimpl.ContextError(ctx, id, nil); ce != nil {
		h.fail(req, sv, ce, 0)
		return
	}
	input := req.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	if spec.Kind == runtime.KindSubscription && !req.Subscribe {
		h.fail(req, sv, runtime.Errorf(runtime.CodeExecution, id, "operation %q is a subscription: call it with Subscribe", id), 0)
		return
	}
	if spec.Kind != runtime.KindSubscription {
		env, err := h.reg.Execute(ctx, id, input)
		if err != nil {
			h.fail(req, sv, err, 0)
			return
		}
		msg, err := respondedEnvelope(req.RequestID, env)
		if err != nil {
			h.fail(req, sv, err, 0)
			return
		}
		h.final(req, sv, msg)
		return
	}
	window := req.Window
	if window <= 0 {
		window = DefaultWindow
	}
	window = min(window, maxWindow)
	var seq int64
	for env, err := range h.reg.Subscribe(ctx, id, input) {
		if err != nil {
			h.fail(req, sv, err, seq)
			return
		}
		// Flow control: at most window envelopes beyond the last ack.
		for seq-sv.ackedSeq() >= window {
			select {
			case <-sv.ackCh:
			case <-ctx.Done():
				h.fail(req, sv, opsgenimpl.ContextError(ctx, id, nil), seq)
				return
			}
		}
		out, err := envelopeJSON(env)
		if err != nil {
			h.fail(req, sv, err, seq)
			return
		}
		seq++
		if err := h.bus.Publish(context.Background(), req.ReplyTo, encodeWarned(req.RequestID, seq, env.Warnings, out)); err != nil {
			h.log.Warn("callproto: publish failed", "subject", req.ReplyTo, "err", err)
			return
		}
		// Only once published: a call.alive reporting it must follow it.
		sv.sent.Store(seq)
	}
	h.finalEvent(req, sv, Completed{Type: TypeCompleted, RequestID: req.RequestID, Seq: seq})
}

func (sv *serving) ackedSeq() int64 {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.acked
}

func (sv *serving) ack(seq int64) {
	sv.mu.Lock()
	grew := seq > sv.acked
	if grew {
		sv.acked = seq
	}
	sv.mu.Unlock()
	if grew {
		select {
		case sv.ackCh <- struct{}{}:
		default:
		}
	}
}

// fail publishes call.error, the request's final event.
func (h *CallHandler) fail(req *Requested, sv *serving, err error, seq int64) {
	if err == nil {
		err = runtime.NewError(runtime.CodeCanceled, req.OperationID, "canceled", nil)
	}
	h.finalEvent(req, sv, ErrorEvent{Type: TypeError, RequestID: req.RequestID, Error: toWire(err, req.OperationID), Seq: seq})
}

// finalEvent publishes ev as the request's final event (see final).
func (h *CallHandler) finalEvent(req *Requested, sv *serving, ev any) {
	b, err := json.Marshal(ev)
	if err != nil {
		h.log.Warn("callproto: encoding an event failed", "type", fmt.Sprintf("%T", ev), "err", err)
		return
	}
	h.final(req, sv, b)
}

// final publishes msg, the request's final event (call.responded,
// call.error or call.completed), and keeps it for finish to record: a
// duplicate of the request is answered with it (see
// HandlerOptions.DedupeWindow).
//
// A request claimed in the shared duplicate record is recorded there
// first: a duplicate sent after its answer arrived is answered by any hub.
func (h *CallHandler) final(req *Requested, sv *serving, msg []byte) {
	h.mu.Lock()
	sv.final = msg
	waiters := sv.waiters
	sv.waiters = nil
	h.mu.Unlock()
	if sv.claimed {
		h.record(sv, msg)
	}
	if err := h.bus.Publish(context.Background(), req.ReplyTo, msg); err != nil {
		h.log.Warn("callproto: publish failed", "subject", req.ReplyTo, "err", err)
	}
	for i := range waiters {
		h.replay(&waiters[i], doneRecord{replyTo: waiters[i].ReplyTo, final: msg})
	}
}

// keyPrefix marks idempotency keys in the duplicate records, apart from
// request ids.
const keyPrefix = "idempotency-key:"

// dedupeKey is the key of req in the duplicate records: its idempotency
// key when it has one, else its request id.
func dedupeKey(req *Requested) string {
	if req.IdempotencyKey != "" {
		return keyPrefix + req.IdempotencyKey
	}
	return req.RequestID
}

// withRequestID returns the final event msg with requestId set to id, for
// another request of the same logical call; msg itself when it has id.
func withRequestID(msg []byte, id string) []byte {
	var ev map[string]json.RawMessage
	if json.Unmarshal(msg, &ev) != nil {
		return msg
	}
	var old string
	if json.Unmarshal(ev["requestId"], &old) == nil && old == id {
		return msg
	}
	ev["requestId"], _ = json.Marshal(id)
	out, err := json.Marshal(ev)
	if err != nil {
		return msg
	}
	return out
}

func (h *CallHandler) publish(subject string, ev any) error {
	b, err := json.Marshal(ev)
	if err == nil {
		err = h.bus.Publish(context.Background(), subject, b)
	}
	if err != nil {
		h.log.Warn("callproto: publish failed", "subject", subject, "err", err)
	}
	return err
}

func (h *CallHandler) onControl(data []byte) {
	var c Control
	if err := json.Unmarshal(data, &c); err != nil {
		h.log.Warn("callproto: dropping malformed control event", "err", err)
		return
	}
	h.mu.Lock()
	switch c.Type {
	case TypeCanceled:
		if sv := h.inflight[c.RequestID]; sv != nil {
			sv.cancel()
		}
	case TypeAck:
		if sv := h.inflight[c.RequestID]; sv != nil {
			defer sv.ack(c.Seq)
		}
	case TypeKeepalive:
		if _, ok := h.seen[c.ReplyTo]; ok {
			h.seen[c.ReplyTo] = time.Now()
		}
		for id, seq := range c.Acks {
			if sv := h.inflight[id]; sv != nil {
				defer sv.ack(seq)
			}
		}
	}
	h.mu.Unlock()
}

// reaper cancels the requests of spokes that stopped sending keepalives.
func (h *CallHandler) reaper() {
	defer h.wg.Done()
	t := time.NewTicker(50 * time.Millisecond) // heartbeats are meant to be >= 200ms
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case now := <-t.C:
			h.mu.Lock()
			live := map[string]bool{}
			alive := map[string][]string{} // reply subject -> requests to report
			sent := map[string]map[string]int64{}
			for id, sv := range h.inflight {
				if sv.heartbeat <= 0 {
					continue
				}
				live[sv.replyTo] = true
				if now.Sub(h.seen[sv.replyTo]) > 3*sv.heartbeat {
					sv.cancel()
				}
				if now.Sub(h.told[sv.replyTo]) >= sv.heartbeat && now.Sub(sv.started) >= sv.heartbeat {
					alive[sv.replyTo] = append(alive[sv.replyTo], id)
					if n := sv.sent.Load(); n > 0 {
						if sent[sv.replyTo] == nil {
							sent[sv.replyTo] = map[string]int64{}
						}
						sent[sv.replyTo][id] = n
					}
				}
			}
			for r := range h.seen {
				if !live[r] {
					delete(h.seen, r)
					delete(h.told, r)
				}
			}
			for r := range alive {
				h.told[r] = now
			}
			h.done.expire(now)
			h.mu.Unlock()
			for r, ids := range alive {
				sort.Strings(ids)
				h.publish(r, Alive{Type: TypeAlive, RequestIDs: ids, Sent: sent[r]})
			}
		}
	}
}

// Respond publishes call.responded for requestID to replyTo. output must
// be an envelope (a ResponseEnvelope, or its wire form as JSON or a
// decoded map): anything else is refused with an error, so that nothing
// reaches a caller without its meta. The warnings of a
// runtime.ResponseEnvelope[any] (or a pointer to one) go beside it.
func Respond(ctx context.Context, bus Bus, replyTo, requestID string, output any) error {
	var warnings []runtime.Warning
	switch e := output.(type) {
	case runtime.ResponseEnvelope[any]:
		warnings = e.Warnings
	case *runtime.ResponseEnvelope[any]:
		if e != nil {
			warnings = e.Warnings
		}
	}
	msg, err := respondedEvent(requestID, output, warnings)
	if err != nil {
		return err
	}
	return bus.Publish(ctx, replyTo, msg)
}

// respondedEvent encodes call.responded, with the envelope's warnings,
// refusing an output that is not an envelope.
func respondedEvent(requestID string, output any, warnings []runtime.Warning) ([]byte, error) {
	if !opsgenimpl.IsResponseEnvelope(output) {
		return nil, fmt.Errorf("callproto: respond %s: output is not a ResponseEnvelope (%T)", requestID, output)
	}
	out, err := envelopeJSON(output)
	if err != nil {
		return nil, err
	}
	return encodeWarned(requestID, 0, warnings, out), nil
}

// envelopeJSON returns the wire form of an envelope value.
func envelopeJSON(v any) (json.RawMessage, error) {
	switch e := v.(type) {
	case json.RawMessage:
		return compact(e)
	case []byte:
		return compact(e)
	case string:
		return compact([]byte(e))
	}
	var b []byte
	var err error
	if m, ok := v.(json.Marshaler); ok {
		// A ResponseEnvelope writes compact JSON already: skip the second
		// pass json.Marshal would make over it.
		b, err = m.MarshalJSON()
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, "", "envelope is not JSON", err)
	}
	return b, nil
}

// compact returns JSON b on one line (events are one JSON value each, and
// a line-oriented bus may rely on it).
func compact(b []byte) (json.RawMessage, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, "", "envelope is not JSON", err)
	}
	return buf.Bytes(), nil
}
