package callproto_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/internal/leakcheck"
	rt "github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

type pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// testRegistry holds the operations the tests call. started and stopped
// count handler runs, so that tests can see the hub's handlers end.
type counters struct {
	started, stopped, produced atomic.Int64
	once, startOnce            sync.Once
	start                      chan struct{}
	// late, when closed, lets pets.stubborn answer (after the caller's
	// deadline, which it ignores).
	late chan struct{}
}

// began returns a channel closed when a handler that counts starts
// first runs.
func (c *counters) began() <-chan struct{} {
	c.once.Do(func() { c.start = make(chan struct{}) })
	return c.start
}

// starting counts a handler's start and closes began's channel.
func (c *counters) starting() {
	c.started.Add(1)
	c.began()
	c.startOnce.Do(func() { close(c.start) })
}

func testRegistry(t testing.TB, c *counters) *rt.Registry {
	t.Helper()
	reg := rt.NewRegistry(nil)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Register(rt.OperationSpec{
		ID:           "pets.get",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}},"required":["id","name"]}`),
	}, func(ctx context.Context, in json.RawMessage) (any, error) {
		var q struct{ ID int64 }
		json.Unmarshal(in, &q)
		return map[string]any{"id": q.ID, "name": fmt.Sprintf("pet%d", q.ID), "extra": true}, nil
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.echo"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return in, nil
	}))
	must(reg.Register(rt.OperationSpec{ID: "admin.drop", Kind: rt.KindMutation}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return "dropped", nil
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.fail"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return nil, errors.New("the shelter is closed")
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.panic"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		panic("kaboom")
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.mcperror"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return opsgenimpl.MCP[any](nil, rt.MCPMeta{IsError: true, Content: []rt.ContentBlock{{Type: "text", Text: "no such pet"}}}), nil
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.slow"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		c.starting()
		defer c.stopped.Add(1)
		<-ctx.Done() // runs until the deadline or cancellation stops it
		return nil, ctx.Err()
	}))
	must(reg.Register(rt.OperationSpec{ID: "pets.stubborn"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		<-c.late // ignores its context: answers when the test says, late
		return "late", nil
	}))
	must(reg.RegisterSubscription(rt.OperationSpec{ID: "pets.count"}, func(ctx context.Context, in []byte) iter.Seq2[any, error] {
		var q struct {
			N     int  `json:"n"`
			Fail  bool `json:"fail"`
			Panic bool `json:"panic"`
		}
		json.Unmarshal(in, &q)
		return func(yield func(any, error) bool) {
			c.starting()
			defer c.stopped.Add(1)
			for i := 0; q.N == 0 || i < q.N; i++ {
				if ctx.Err() != nil {
					return
				}
				c.produced.Add(1)
				if !yield(i, nil) {
					return
				}
			}
			if q.Panic {
				panic("stream kaboom")
			}
			if q.Fail {
				yield(nil, errors.New("stream broke"))
			}
		}
	}))
	return reg
}

// setup starts an embedded NATS server, a hub and a spoke on it.
func setup(t testing.TB, hopts callproto.HandlerOptions, sopts callproto.SpokeOptions) (*callproto.CallHandler, *callproto.PendingRequestMap, *counters) {
	t.Helper()
	base := runtime.NumGoroutine()
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	c := &counters{late: make(chan struct{})}
	hub, err := callproto.NewCallHandler(testRegistry(t, c), hubBus, hopts)
	if err != nil {
		t.Fatal(err)
	}
	spoke, err := callproto.NewPendingRequestMap(spokeBus, sopts)
	if err != nil {
		t.Fatal(err)
	}
	hubURLs[hub] = hubBus.URL()
	t.Cleanup(func() {
		delete(hubURLs, hub)
		spoke.Close()
		hub.Close()
		spokeBus.Close()
		hubBus.Close()
		settle(t, base)
	})
	return hub, spoke, c
}

// settle fails when the goroutine count does not come back to base.
func settle(t testing.TB, base int) {
	t.Helper()
	leakcheck.Settle(t, base)
}

// waitFor polls cond, for what another process (a child spoke or hub) or
// the hub's bookkeeping does without telling; its 30 s are a bound for a
// failure, not a timing assertion.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

func code(err error) rt.ErrorCode {
	var ce *rt.CallError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

func TestCall(t *testing.T) {
	_, spoke, _ := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{})
	ctx := context.Background()

	env, err := spoke.Call(ctx, "pets.get", map[string]any{"id": 7})
	if err != nil {
		t.Fatal(err)
	}
	lm, ok := env.Meta.(*rt.LocalMeta)
	if !ok || lm.OperationID != "pets.get" || lm.Timestamp == 0 {
		t.Fatalf("meta = %#v, want local meta of pets.get", env.Meta)
	}
	// The hub ran the pipeline: "extra" is not in the output schema.
	if got, _ := json.Marshal(env.Data); string(got) != `{"id":7,"name":"pet7"}` {
		t.Fatalf("data = %s", got)
	}

	typed, err := callproto.CallAs[pet](ctx, spoke, "pets.get", map[string]any{"id": 8})
	if err != nil {
		t.Fatal(err)
	}
	if typed.Data != (pet{ID: 8, Name: "pet8"}) {
		t.Fatalf("typed data = %+v", typed.Data)
	}

	mcp, err := spoke.Call(ctx, "pets.mcperror", nil)
	if err != nil {
		t.Fatalf("an isError envelope is a response, got error %v", err)
	}
	if m, ok := mcp.Meta.(*rt.MCPMeta); !ok || !m.IsError || len(m.Content) != 1 || m.Content[0].Text != "no such pet" {
		t.Fatalf("meta = %#v", mcp.Meta)
	}

	for _, tc := range []struct {
		id    string
		input any
		code  rt.ErrorCode
		msg   string
	}{
		{"pets.nope", nil, rt.CodeOperationNotFound, "pets.nope"},
		{"pets.get", map[string]any{"id": "x"}, rt.CodeValidation, "/id"},
		{"pets.fail", nil, rt.CodeExecution, "the shelter is closed"},
		{"pets.panic", nil, rt.CodeExecution, "kaboom"},
		{"pets.count", nil, rt.CodeExecution, "Subscribe"},
	} {
		_, err := spoke.Call(ctx, tc.id, tc.input)
		if code(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want %s mentioning %q", tc.id, err, tc.code, tc.msg)
		}
	}
}

func TestAccessControl(t *testing.T) {
	policy := callproto.Rules(
		callproto.Rule{Operation: "pets.*", Roles: []string{"reader"}},
		callproto.Rule{Operation: "admin.drop", Roles: []string{"admin"}},
	)
	_, spoke, _ := setup(t, callproto.HandlerOptions{Policy: policy}, callproto.SpokeOptions{Identity: &callproto.Identity{Subject: "ann", Roles: []string{"reader"}}})
	ctx := context.Background()
	if _, err := spoke.Call(ctx, "pets.echo", map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	_, err := spoke.Call(ctx, "admin.drop", nil)
	if code(err) != rt.CodeAccessDenied || !errors.Is(err, rt.ErrAccessDenied) || !strings.Contains(err.Error(), `"ann" may not call admin.drop`) {
		t.Fatalf("err = %v, want ACCESS_DENIED", err)
	}
	env, err := spoke.Call(ctx, "admin.drop", nil, callproto.WithIdentity(&callproto.Identity{Subject: "root", Roles: []string{"admin"}}))
	if err != nil || env.Data != "dropped" {
		t.Fatalf("admin call: %v %v", env.Data, err)
	}
	_, err = spoke.Call(ctx, "pets.echo", nil, callproto.WithIdentity(nil))
	if code(err) != rt.CodeAccessDenied {
		t.Fatalf("anonymous call: err = %v, want ACCESS_DENIED", err)
	}
}

func TestDeadline(t *testing.T) {
	hub, spoke, c := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := spoke.Call(ctx, "pets.slow", nil)
	if code(err) != rt.CodeTimeout {
		t.Fatalf("err = %v, want TIMEOUT", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("call returned after %v", d)
	}
	// The deadline travelled: the hub's handler stopped too.
	waitFor(t, "the hub's handler to stop", func() bool { return c.started.Load() == 1 && c.stopped.Load() == 1 && hub.Inflight() == 0 })

	// A handler that ignores its context answers late; the answer is dropped.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	if _, err := spoke.Call(ctx2, "pets.stubborn", nil); code(err) != rt.CodeTimeout {
		t.Fatalf("err = %v, want TIMEOUT", err)
	}
	close(c.late)
	waitFor(t, "the stubborn handler to finish", func() bool { return hub.Inflight() == 0 })
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d after a late answer", spoke.Pending())
	}
	// The spoke still works, and the late answer did not land on a new call.
	env, err := spoke.Call(context.Background(), "pets.echo", json.RawMessage(`{"n":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(env.Data); string(b) != `{"n":1}` {
		t.Fatalf("data = %s", b)
	}
}

func TestCancel(t *testing.T) {
	hub, spoke, c := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-c.began()
		cancel()
	}()
	if _, err := spoke.Call(ctx, "pets.slow", nil); code(err) != rt.CodeCanceled {
		t.Fatalf("err = %v, want CANCELED", err)
	}
	waitFor(t, "the hub's handler to stop", func() bool { return c.stopped.Load() == 1 && hub.Inflight() == 0 })
}

func TestSubscribe(t *testing.T) {
	hub, spoke, c := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{Window: 4})
	ctx := context.Background()
	var got []int
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "pets.count", map[string]int{"n": 10}) {
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := env.Meta.(*rt.LocalMeta); !ok || m.OperationID != "pets.count" {
			t.Fatalf("meta = %#v", env.Meta)
		}
		got = append(got, env.Data)
	}
	if fmt.Sprint(got) != "[0 1 2 3 4 5 6 7 8 9]" {
		t.Fatalf("got %v", got)
	}

	// An error after some yields ends the stream with that error.
	n := 0
	var last error
	for _, err := range spoke.Subscribe(ctx, "pets.count", map[string]any{"n": 3, "fail": true}) {
		if err != nil {
			last = err
			break
		}
		n++
	}
	if n != 3 || code(last) != rt.CodeExecution || !strings.Contains(last.Error(), "stream broke") {
		t.Fatalf("n = %d, err = %v", n, last)
	}
	// So does a panic.
	n, last = 0, nil
	for _, err := range spoke.Subscribe(ctx, "pets.count", map[string]any{"n": 2, "panic": true}) {
		if err != nil {
			last = err
			break
		}
		n++
	}
	if n != 2 || code(last) != rt.CodeExecution || !strings.Contains(last.Error(), "stream kaboom") {
		t.Fatalf("n = %d, err = %v", n, last)
	}

	// Breaking out of an endless stream stops the hub's handler.
	before := c.stopped.Load()
	for env, err := range spoke.Subscribe(ctx, "pets.count", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if env.Data.(float64) == 5 {
			break
		}
	}
	waitFor(t, "the endless handler to stop", func() bool { return c.stopped.Load() == before+1 && hub.Inflight() == 0 })

	// Subscribing to a query yields its one envelope.
	var envs []rt.ResponseEnvelope[any]
	for env, err := range spoke.Subscribe(ctx, "pets.echo", json.RawMessage(`"hi"`)) {
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, env)
	}
	if len(envs) != 1 || envs[0].Data != "hi" {
		t.Fatalf("envs = %+v", envs)
	}
}

// A slow subscriber holds the hub's handler back: it never runs more than
// the window ahead, so neither side buffers without bound.
func TestSlowSubscriber(t *testing.T) {
	const window = 8
	_, spoke, c := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{Window: window})
	ctx := context.Background()
	consumed := int64(0)
	maxAhead := int64(0)
	for _, err := range spoke.Subscribe(ctx, "pets.count", map[string]int{"n": 200}) {
		if err != nil {
			t.Fatal(err)
		}
		consumed++
		if consumed%20 == 0 && consumed <= 200-window {
			// A slow consumer: the producer runs ahead until the window
			// stops it (it must get there) ...
			waitFor(t, "the producer to run ahead", func() bool { return c.produced.Load()-consumed >= window/2 })
		}
		// ... and never further than the window and the value it yields
		// while the hub waits for credit.
		maxAhead = max(maxAhead, c.produced.Load()-consumed)
	}
	if consumed != 200 {
		t.Fatalf("consumed %d", consumed)
	}
	// Produced beyond consumed: the window, plus one value the handler
	// yields while the hub waits for credit.
	if maxAhead > window+1 {
		t.Fatalf("the handler ran %d values ahead of the consumer; window is %d", maxAhead, window)
	}
	if maxAhead < window/2 {
		t.Fatalf("the handler ran only %d ahead: flow control too tight to test", maxAhead)
	}
}

func TestRespondRefusesRawValues(t *testing.T) {
	bus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	ctx := context.Background()
	for _, v := range []any{42, map[string]any{"data": 1}, json.RawMessage(`{"data":1,"meta":{"source":"ftp"}}`), nil} {
		if err := callproto.Respond(ctx, bus, "x.reply", "r1", v); err == nil || !strings.Contains(err.Error(), "not a ResponseEnvelope") {
			t.Errorf("Respond(%v) = %v, want a refusal", v, err)
		}
	}
	if err := callproto.Respond(ctx, bus, "x.reply", "r1", opsgenimpl.Local(1, "a.b")); err != nil {
		t.Fatal(err)
	}
}

// tap records every message published through it.
type tap struct {
	callproto.Bus
	mu      sync.Mutex
	msg     [][]byte
	types   map[string]bool
	changed chan struct{} // a token after each message: await looks again
}

func (t *tap) Publish(ctx context.Context, subject string, data []byte) error {
	var e struct{ Type string }
	json.Unmarshal(data, &e)
	t.mu.Lock()
	t.msg = append(t.msg, append([]byte(nil), data...))
	if t.types == nil {
		t.types = map[string]bool{}
	}
	t.types[e.Type] = true
	t.mu.Unlock()
	select {
	case t.changed <- struct{}{}:
	default:
	}
	return t.Bus.Publish(ctx, subject, data)
}

// await returns once an event of each of the types has been published,
// and fails tb after 30 s without one.
func (t *tap) await(tb testing.TB, types ...string) {
	tb.Helper()
	timeout := time.After(30 * time.Second)
	for {
		t.mu.Lock()
		var missing []string
		for _, ty := range types {
			if !t.types[ty] {
				missing = append(missing, ty)
			}
		}
		t.mu.Unlock()
		if len(missing) == 0 {
			return
		}
		select {
		case <-t.changed:
		case <-timeout:
			tb.Fatalf("no %v event was published", missing)
		}
	}
}

// Every message either side sends matches the published events schema.
func TestEventsMatchSchema(t *testing.T) {
	base, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	bus := &tap{Bus: base, changed: make(chan struct{}, 1)}
	c := &counters{}
	hub, err := callproto.NewCallHandler(testRegistry(t, c), bus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Window: 2, Heartbeat: 50 * time.Millisecond, Identity: &callproto.Identity{Subject: "s", Roles: []string{"r"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx := context.Background()
	spoke.Call(ctx, "pets.get", map[string]any{"id": 1}, callproto.WithParent("p-1"))
	spoke.Call(ctx, "pets.get", map[string]any{"id": "bad"})
	spoke.Call(ctx, "pets.mcperror", nil)
	first := true
	for range spoke.Subscribe(ctx, "pets.count", map[string]any{"n": 5}) {
		if first { // a subscription held open: keepalives and call.alive flow
			bus.await(t, callproto.TypeKeepalive, callproto.TypeAlive)
			first = false
		}
	}
	for range spoke.Subscribe(ctx, "pets.count", map[string]any{"n": 1, "fail": true}) {
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		<-c.began()
		cancel() // the hub has not answered: the spoke must send call.canceled
	}()
	spoke.Call(cctx, "pets.slow", nil)
	bus.await(t, callproto.TypeRequested, callproto.TypeResponded, callproto.TypeError, callproto.TypeYielded, callproto.TypeCompleted, callproto.TypeCanceled, callproto.TypeAck, callproto.TypeKeepalive, callproto.TypeAlive)
	bus.mu.Lock()
	defer bus.mu.Unlock()
	types := map[string]int{}
	for _, m := range bus.msg {
		if err := callproto.ValidateEvent(m); err != nil {
			t.Errorf("%s: %v", m, err)
		}
		var e struct{ Type string }
		json.Unmarshal(m, &e)
		types[e.Type]++
	}
	for _, ty := range []string{callproto.TypeRequested, callproto.TypeResponded, callproto.TypeError, callproto.TypeYielded, callproto.TypeCompleted, callproto.TypeCanceled, callproto.TypeAck, callproto.TypeKeepalive, callproto.TypeAlive} {
		if types[ty] == 0 {
			t.Errorf("no %s event was sent (%v)", ty, types)
		}
	}
	// The schema rejects what is not an event.
	for _, bad := range []string{`{"type":"call.responded","requestId":"r","output":42}`, `{"type":"call.nope"}`, `{"type":"call.yielded","requestId":"r","seq":0,"output":{"data":1,"meta":{"source":"local","operationId":"a.b","timestamp":1}}}`} {
		if callproto.ValidateEvent([]byte(bad)) == nil {
			t.Errorf("%s passed the schema", bad)
		}
	}
}

// Answers written by other implementations (other key order, escapes,
// whitespace) decode as well as this package's own.
func TestForeignAnswers(t *testing.T) {
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	// A hand-written hub: answers every request with JSON in its own style.
	answers := map[string]func(reqID string) []string{
		"x.pretty": func(id string) []string {
			return []string{fmt.Sprintf("{\n \"output\": {\"meta\": {\"timestamp\": 1, \"operationId\": \"x.pretty\", \"source\": \"local\"}, \"data\": \"a\\\"b\"},\n \"requestId\": %q, \"type\": \"call.responded\"}", id)}
		},
		"x.stream": func(id string) []string {
			return []string{
				fmt.Sprintf(`{"requestId":%q,"type":"call.yielded","output":{"data":1,"meta":{"source":"local","operationId":"x.stream","timestamp":1}},"seq":1}`, id),
				fmt.Sprintf(`{"type":"call.yielded","requestId":%q,"seq":1,"output":{"data":1,"meta":{"source":"local","operationId":"x.stream","timestamp":1}}}`, id), // duplicate
				fmt.Sprintf(`{"type":"call.yielded","requestId":%q,"seq":2,"output":{"data":2,"meta":{"source":"local","operationId":"x.stream","timestamp":1}}}`, id),
				fmt.Sprintf(`{"type":"call.completed","requestId":%q,"seq":2}`, id),
			}
		},
		"x.gap": func(id string) []string {
			return []string{
				fmt.Sprintf(`{"type":"call.yielded","requestId":%q,"seq":1,"output":{"data":1,"meta":{"source":"local","operationId":"x.gap","timestamp":1}}}`, id),
				fmt.Sprintf(`{"type":"call.completed","requestId":%q,"seq":3}`, id),
			}
		},
		"x.raw": func(id string) []string {
			return []string{fmt.Sprintf(`{"type":"call.responded","requestId":%q,"output":{"data":1}}`, id)}
		},
	}
	sub, err := hubBus.Subscribe(callproto.SubjectsFor("").Requested, "", func(data []byte) {
		var r callproto.Requested
		json.Unmarshal(data, &r)
		for _, a := range answers[r.OperationID](r.RequestID) {
			hubBus.Publish(context.Background(), r.ReplyTo, []byte(a))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	spoke, err := callproto.NewPendingRequestMap(hubBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	env, err := spoke.Call(ctx, "x.pretty", nil)
	if err != nil || env.Data != `a"b` {
		t.Fatalf("x.pretty: %v %v", env.Data, err)
	}
	var got []int
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "x.stream", nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data)
	}
	if fmt.Sprint(got) != "[1 2]" {
		t.Fatalf("x.stream: %v", got)
	}
	var last error
	for _, err := range spoke.Subscribe(ctx, "x.gap", nil) {
		last = err
	}
	if code(last) != rt.CodeTransport || !strings.Contains(last.Error(), "lost subscription events 2 to 3") {
		t.Fatalf("x.gap: %v", last)
	}
	if _, err := spoke.Call(ctx, "x.raw", nil); code(err) != rt.CodeDecode {
		t.Fatalf("x.raw: %v, want DECODE_ERROR (not an envelope)", err)
	}
	if _, err := callproto.CallAs[int](ctx, spoke, "x.raw", nil); code(err) != rt.CodeDecode {
		t.Fatalf("x.raw typed: %v, want DECODE_ERROR (not an envelope)", err)
	}
}

func TestJSONForms(t *testing.T) {
	_, spoke, _ := setup(t, callproto.HandlerOptions{}, callproto.SpokeOptions{})
	ctx := context.Background()
	out, err := spoke.CallJSON(ctx, "pets.get", map[string]int{"id": 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := opsgenimpl.ValidateEnvelopeJSON(out); err != nil || !strings.HasPrefix(string(out), `{"data":{"id":2,"name":"pet2"},"meta":{"source":"local"`) {
		t.Fatalf("out = %s, %v", out, err)
	}
	n := 0
	for out, err := range spoke.SubscribeJSON(ctx, "pets.count", map[string]int{"n": 3}) {
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(out), fmt.Sprintf(`{"data":%d,"meta":`, n)) {
			t.Fatalf("out = %s", out)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("n = %d", n)
	}
}

// A Policy that panics denies nothing and crashes nothing: the call fails.
func TestPolicyPanic(t *testing.T) {
	policy := func(context.Context, *callproto.Identity, rt.OperationSpec) error { panic("bad policy") }
	_, spoke, _ := setup(t, callproto.HandlerOptions{Policy: policy, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, callproto.SpokeOptions{})
	_, err := spoke.Call(context.Background(), "pets.echo", nil)
	if code(err) != rt.CodeExecution || !strings.Contains(err.Error(), "bad policy") {
		t.Fatalf("err = %v", err)
	}
	if _, err := spoke.Call(context.Background(), "pets.echo", nil); code(err) != rt.CodeExecution {
		t.Fatalf("second call: %v (the hub must still serve)", err)
	}
}
