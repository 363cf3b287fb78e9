package bustest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"
	"testing"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/runtime"
)

// A duplicate call.requested (the same requestId) that arrives after the
// request finished does not run the operation again: the hub answers it
// with the request's recorded final event, byte for byte (call.responded,
// call.error, or call.completed for a subscription), and drops a duplicate
// that names another reply subject.
func testDuplicate(t *testing.T, connect Connect) {
	a, b := connect(t)
	var runs, fails, streams atomic.Int64
	reg := runtime.NewRegistry(nil)
	reg.Register(runtime.OperationSpec{ID: "bustest.once", Method: "POST"}, func(context.Context, json.RawMessage) (any, error) {
		return map[string]int64{"run": runs.Add(1)}, nil
	})
	reg.Register(runtime.OperationSpec{ID: "bustest.fail", Method: "POST"}, func(context.Context, json.RawMessage) (any, error) {
		fails.Add(1)
		return nil, errors.New("refused")
	})
	reg.Register(runtime.OperationSpec{ID: "bustest.ping"}, func(context.Context, json.RawMessage) (any, error) { return "pong", nil })
	reg.RegisterSubscription(runtime.OperationSpec{ID: "bustest.ticks"}, func(context.Context, []byte) iter.Seq2[any, error] {
		streams.Add(1)
		return func(yield func(any, error) bool) {
			for i := 0; i < 3 && yield(i, nil); i++ {
			}
		}
	})
	hub, err := callproto.NewCallHandler(reg, a, callproto.HandlerOptions{Prefix: "bustest"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	subj := callproto.SubjectsFor("bustest")
	var mine, other collector
	subscribe(t, b, subj.Reply("dup"), "", mine.handle)
	subscribe(t, b, subj.Reply("other"), "", other.handle)

	request := func(id, op, replyTo string, stream bool) []byte {
		sub := ""
		if stream {
			sub = `,"subscribe":true`
		}
		return fmt.Appendf(nil, `{"type":"call.requested","requestId":%q,"operationId":%q,"replyTo":%q%s}`, id, op, replyTo, sub)
	}
	pings := 0
	ask := func(msg []byte, want int) [][]byte {
		t.Helper()
		before := mine.count()
		publish(t, b, subj.Requested, msg)
		mine.waitFor(t, before+want)
		// Nothing more may come: a ping, sent after the request by the
		// same publisher, is answered after what the hub sent for it.
		pings++
		ping := fmt.Sprintf("ping-%d", pings)
		publish(t, b, subj.Requested, request(ping, "bustest.ping", subj.Reply("dup"), false))
		mine.waitFor(t, before+want+1)
		mine.mu.Lock()
		defer mine.mu.Unlock()
		if len(mine.msgs) != before+want+1 || !bytes.Contains(mine.msgs[before+want], []byte(`"`+ping+`"`)) {
			t.Fatalf("got %d answers, want %d, then the ping's", len(mine.msgs)-before, want)
		}
		return mine.msgs[before : before+want]
	}

	// A mutation: the duplicate gets the same call.responded.
	req := request("dup-1", "bustest.once", subj.Reply("dup"), false)
	first := ask(req, 1)[0]
	if !bytes.Contains(first, []byte(`"call.responded"`)) || !bytes.Contains(first, []byte(`{"run":1}`)) {
		t.Fatalf("first answer: %s", first)
	}
	again := ask(req, 1)[0]
	if !bytes.Equal(again, first) {
		t.Fatalf("duplicate answered\n%s\nnot as the first\n%s", again, first)
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the handler ran %d times", n)
	}

	// The same id from another reply subject: dropped, not run, and not
	// answered there. (A fresh request after it shows the hub went on.)
	publish(t, b, subj.Requested, request("dup-1", "bustest.once", subj.Reply("other"), false))
	if fresh := ask(request("dup-2", "bustest.once", subj.Reply("dup"), false), 1)[0]; !bytes.Contains(fresh, []byte(`{"run":2}`)) {
		t.Fatalf("fresh request: %s", fresh)
	}
	if other.count() != 0 || runs.Load() != 2 {
		t.Fatalf("the duplicate from another reply subject got %d answers, the handler ran %d times", other.count(), runs.Load())
	}

	// A failure: the duplicate gets the same call.error.
	req = request("dup-3", "bustest.fail", subj.Reply("dup"), false)
	first = ask(req, 1)[0]
	if !bytes.Contains(first, []byte(`"call.error"`)) {
		t.Fatalf("failure answered %s", first)
	}
	if again := ask(req, 1)[0]; !bytes.Equal(again, first) || fails.Load() != 1 {
		t.Fatalf("duplicate of a failure: %s (handler ran %d times)", again, fails.Load())
	}

	// A subscription: the duplicate gets call.completed alone (the
	// envelopes are not kept), which tells a spoke still listening that
	// it missed them.
	req = request("dup-4", "bustest.ticks", subj.Reply("dup"), true)
	evs := ask(req, 4)
	if !bytes.Contains(evs[3], []byte(`"call.completed"`)) {
		t.Fatalf("stream ended with %s", evs[3])
	}
	if again := ask(req, 1)[0]; !bytes.Equal(again, evs[3]) || streams.Load() != 1 {
		t.Fatalf("duplicate of a subscription: %s (handler ran %d times)", again, streams.Load())
	}
}
