// Package bustest checks that a callproto.Bus adapter keeps the contract
// the protocol relies on (see callproto.Bus), and that the protocol runs
// over it. An adapter's test calls Run:
//
//	func TestBus(t *testing.T) {
//		bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
//			// two connections to one fresh broker
//		})
//	}
package bustest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	goruntime "runtime"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/runtime"
)

// Connect returns two connections (two clients, as two processes would
// have) to one broker that no other test uses. Closing them is the
// function's business (t.Cleanup).
type Connect func(t *testing.T) (a, b callproto.Bus)

// wait is how long a message may take to arrive.
const wait = 5 * time.Second

// Run runs the contract tests and a protocol round trip on buses from connect.
func Run(t *testing.T, connect Connect) {
	t.Run("Order", func(t *testing.T) { testOrder(t, connect) })
	t.Run("FanOut", func(t *testing.T) { testFanOut(t, connect) })
	t.Run("QueueGroup", func(t *testing.T) { testQueueGroup(t, connect) })
	t.Run("Unsubscribe", func(t *testing.T) { testUnsubscribe(t, connect) })
	t.Run("DataKept", func(t *testing.T) { testDataKept(t, connect) })
	t.Run("Protocol", func(t *testing.T) { testProtocol(t, connect) })
	t.Run("Duplicate", func(t *testing.T) { testDuplicate(t, connect) })
}

// collector gathers the messages a handler gets.
type collector struct {
	mu   sync.Mutex
	msgs [][]byte
	busy bool // a handler call is running (to catch concurrent calls)
	conc bool // two calls overlapped
	// got has a value when a message came since waitFor last looked.
	got chan struct{}
	// once makes got.
	once sync.Once
}

func (c *collector) init() { c.once.Do(func() { c.got = make(chan struct{}, 1) }) }

// signalTogether makes cs, before they get messages, signal one channel.
func signalTogether(cs ...*collector) {
	got := make(chan struct{}, 1)
	for _, c := range cs {
		c.once.Do(func() { c.got = got })
	}
}

func (c *collector) handle(data []byte) {
	c.init()
	c.mu.Lock()
	if c.busy {
		c.conc = true
	}
	c.busy = true
	c.mu.Unlock()
	// Let another handler call start now if the adapter would run one
	// concurrently, so that the overlap shows.
	goruntime.Gosched()
	c.mu.Lock()
	c.busy = false
	c.msgs = append(c.msgs, data)
	c.mu.Unlock()
	select {
	case c.got <- struct{}{}:
	default: // waitFor has yet to look at the one before
	}
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// waitFor waits until the collector has n messages (failing after wait).
func (c *collector) waitFor(t *testing.T, n int) {
	t.Helper()
	if !c.await(func() bool { return c.count() >= n }) {
		t.Fatalf("got %d messages, want %d", c.count(), n)
	}
}

// await waits until done reports true, checking it whenever a message
// comes; false when wait passes first.
func (c *collector) await(done func() bool) bool {
	c.init()
	timeout := time.NewTimer(wait)
	defer timeout.Stop()
	for !done() {
		select {
		case <-c.got:
		case <-timeout.C:
			return done()
		}
	}
	return true
}

// has reports whether the collector got a message with data msg.
func (c *collector) has(msg string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.msgs {
		if string(m) == msg {
			return true
		}
	}
	return false
}

func subscribe(t *testing.T, b callproto.Bus, subject, queue string, h func([]byte)) callproto.Subscription {
	t.Helper()
	s, err := b.Subscribe(subject, queue, h)
	if err != nil {
		t.Fatalf("Subscribe(%q, %q): %v", subject, queue, err)
	}
	t.Cleanup(func() { s.Unsubscribe() })
	return s
}

func publish(t *testing.T, b callproto.Bus, subject string, data []byte) {
	t.Helper()
	if err := b.Publish(context.Background(), subject, data); err != nil {
		t.Fatalf("Publish(%q): %v", subject, err)
	}
}

// Messages from one publisher to one subject arrive in order, one handler
// call at a time.
func testOrder(t *testing.T, connect Connect) {
	a, b := connect(t)
	var c collector
	subscribe(t, b, "bustest.order", "", c.handle)
	const n = 500
	for i := range n {
		publish(t, a, "bustest.order", fmt.Appendf(nil, "%d", i))
	}
	c.waitFor(t, n)
	for i, m := range c.msgs {
		if string(m) != fmt.Sprint(i) {
			t.Fatalf("message %d is %q: out of order", i, m)
		}
	}
	if c.conc {
		t.Fatal("the handler was called concurrently")
	}
}

// Every plain subscriber gets every message; subjects are exact.
func testFanOut(t *testing.T, connect Connect) {
	a, b := connect(t)
	var c1, c2, other collector
	subscribe(t, a, "bustest.fan", "", c1.handle)
	subscribe(t, b, "bustest.fan", "", c2.handle)
	subscribe(t, b, "bustest.fan.x", "", other.handle)
	for i := range 10 {
		publish(t, a, "bustest.fan", fmt.Appendf(nil, "%d", i))
	}
	c1.waitFor(t, 10)
	c2.waitFor(t, 10)
	// A marker on the other subject, from the same publisher, comes after
	// anything the adapter would have routed there wrongly.
	publish(t, a, "bustest.fan.x", []byte("marker"))
	other.waitFor(t, 1)
	if other.count() != 1 || !other.has("marker") {
		t.Fatalf("a subscriber of another subject got %d messages", other.count()-1)
	}
}

// Each message goes to one member of a queue group, and the group shares
// them; a plain subscriber beside the group still gets all.
func testQueueGroup(t *testing.T, connect Connect) {
	a, b := connect(t)
	var m1, m2, plain collector
	signalTogether(&m1, &m2) // so that one can wait for both
	subscribe(t, a, "bustest.queue", "workers", m1.handle)
	subscribe(t, b, "bustest.queue", "workers", m2.handle)
	subscribe(t, b, "bustest.queue", "", plain.handle)
	const n = 200
	for i := range n {
		publish(t, a, "bustest.queue", fmt.Appendf(nil, "%d", i))
	}
	plain.waitFor(t, n)
	if !m1.await(func() bool { return m1.count()+m2.count() >= n }) {
		t.Fatalf("the group got %d messages, want %d", m1.count()+m2.count(), n)
	}
	// Then a marker: the member that gets it has been passed what came
	// before it, duplicates included.
	publish(t, a, "bustest.queue", []byte("marker"))
	if !m1.await(func() bool { return m1.has("marker") || m2.has("marker") }) {
		t.Fatal("the group did not get the marker")
	}
	if got := m1.count() + m2.count() - 1; got != n {
		t.Fatalf("the group got %d messages, want %d (each exactly once)", got, n)
	}
	if m1.count() == 0 || m2.count() == 0 {
		t.Fatalf("the group did not share: %d and %d", m1.count(), m2.count())
	}
}

// No handler call starts after Unsubscribe returns.
func testUnsubscribe(t *testing.T, connect Connect) {
	a, b := connect(t)
	var c collector
	s := subscribe(t, b, "bustest.unsub", "", c.handle)
	publish(t, a, "bustest.unsub", []byte("1"))
	c.waitFor(t, 1)
	if err := s.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	// A witness on the same connection and subject: once it has the
	// message, the unsubscribed handler would have had it too.
	var witness collector
	subscribe(t, b, "bustest.unsub", "", witness.handle)
	publish(t, a, "bustest.unsub", []byte("2"))
	witness.waitFor(t, 1)
	if c.count() != 1 {
		t.Fatalf("got %d messages after Unsubscribe", c.count()-1)
	}
}

// A handler may keep the data slice: the adapter does not reuse it.
func testDataKept(t *testing.T, connect Connect) {
	a, b := connect(t)
	var c collector
	subscribe(t, b, "bustest.kept", "", c.handle)
	for i := range 50 {
		publish(t, a, "bustest.kept", fmt.Appendf(nil, "message %03d", i))
	}
	c.waitFor(t, 50)
	for i, m := range c.msgs {
		if string(m) != fmt.Sprintf("message %03d", i) {
			t.Fatalf("kept message %d is now %q", i, m)
		}
	}
}

// A hub on one connection serves a spoke on the other: a call, a denied
// call, and a flow-controlled subscription.
func testProtocol(t *testing.T, connect Connect) {
	a, b := connect(t)
	reg := runtime.NewRegistry(nil)
	reg.Register(runtime.OperationSpec{ID: "bustest.echo"}, func(_ context.Context, in json.RawMessage) (any, error) { return in, nil })
	reg.Register(runtime.OperationSpec{ID: "bustest.secret"}, func(context.Context, json.RawMessage) (any, error) { return "s", nil })
	reg.RegisterSubscription(runtime.OperationSpec{ID: "bustest.count"}, func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			for i := 0; i < 100 && yield(i, nil); i++ {
			}
		}
	})
	hub, err := callproto.NewCallHandler(reg, a, callproto.HandlerOptions{Prefix: "bustest", Policy: callproto.Rules(callproto.Rule{Operation: "bustest.echo", Roles: []string{"r"}}, callproto.Rule{Operation: "bustest.count", Roles: []string{"r"}})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	spoke, err := callproto.NewPendingRequestMap(b, callproto.SpokeOptions{Prefix: "bustest", Window: 8, Identity: &callproto.Identity{Subject: "t", Roles: []string{"r"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spoke.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	env, err := callproto.CallAs[map[string]int](ctx, spoke, "bustest.echo", map[string]int{"x": 1})
	if err != nil || env.Data["x"] != 1 {
		t.Fatalf("echo: %v %v", env.Data, err)
	}
	if _, err := spoke.Call(ctx, "bustest.secret", nil); !isCode(err, runtime.CodeAccessDenied) {
		t.Fatalf("secret: %v, want ACCESS_DENIED", err)
	}
	n := 0
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "bustest.count", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if env.Data != n {
			t.Fatalf("value %d at %d", env.Data, n)
		}
		n++
	}
	if n != 100 {
		t.Fatalf("got %d values", n)
	}
}

func isCode(err error, code runtime.ErrorCode) bool {
	var ce *runtime.CallError
	return errors.As(err, &ce) && ce.Code == code
}
