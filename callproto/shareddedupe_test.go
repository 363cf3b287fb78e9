package callproto_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/callproto/redisbus"
	rt "github.com/opsgen/opsgen/runtime"
)

// Two hubs in a queue group share a duplicate record: the same request id
// delivered to each runs the handler once, and every duplicate is
// answered with the first's final event (or ignored while it runs).

func TestSharedDedupeNATS(t *testing.T) {
	srv, err := natsbus.StartJetStreamServer("127.0.0.1", -1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	connect := func() callproto.Bus {
		b, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	store := func(b callproto.Bus) callproto.SharedDedupe {
		d, err := natsbus.NewDedupe(context.Background(), b.(*natsbus.Bus), natsbus.DedupeOptions{Bucket: "dedupe_test", Memory: true, MaxEntries: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	sharedDedupe(t, connect, store)
}

func TestSharedDedupeRedis(t *testing.T) {
	srv := startRedis(t)
	connect := func() callproto.Bus {
		b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	store := func(b callproto.Bus) callproto.SharedDedupe {
		return redisbus.NewDedupe(b.(*redisbus.Bus), redisbus.DedupeOptions{})
	}
	sharedDedupe(t, connect, store)
}

// startRedis starts a redis-server for the test, stopped at its end;
// without one installed the test is skipped, or fails under CI (make
// redis installs it).
func startRedis(t *testing.T) *redisbus.Server {
	t.Helper()
	srv, err := redisbus.StartServer(t.TempDir(), 0)
	if errors.Is(err, redisbus.ErrNoServer) && os.Getenv("CI") == "" {
		t.Skip("redis-server is not installed (make redis)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

// countingBus counts the call.requested messages its subscriptions in a
// queue group receive: which hub got what.
type countingBus struct {
	callproto.Bus
	got atomic.Int64
}

func (c *countingBus) Subscribe(subject, queue string, handler func([]byte)) (callproto.Subscription, error) {
	if queue == "" {
		return c.Bus.Subscribe(subject, queue, handler)
	}
	return c.Bus.Subscribe(subject, queue, func(data []byte) {
		c.got.Add(1)
		handler(data)
	})
}

func sharedDedupe(t *testing.T, connect func() callproto.Bus, store func(callproto.Bus) callproto.SharedDedupe) {
	var runs atomic.Int64
	release := make(chan struct{})
	reg := rt.NewRegistry(nil)
	reg.Register(rt.OperationSpec{ID: "shop.order", Method: "POST", Kind: rt.KindMutation}, func(ctx context.Context, in json.RawMessage) (any, error) {
		n := runs.Add(1)
		if string(in) == `{"hold":true}` {
			<-release
		}
		return map[string]int64{"run": n}, nil
	})
	reg.Register(rt.OperationSpec{ID: "shop.ping"}, func(context.Context, json.RawMessage) (any, error) { return "pong", nil })
	var hubs []*countingBus
	var handlers []*callproto.CallHandler
	for range 2 {
		b := &countingBus{Bus: connect()}
		h, err := callproto.NewCallHandler(reg, b, callproto.HandlerOptions{SharedDedupe: store(b.Bus)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		hubs = append(hubs, b)
		handlers = append(handlers, h)
	}
	spokeBus := connect()
	replyTo := callproto.SubjectsFor("").Reply("dedupe-spoke")
	var mu sync.Mutex
	var answers [][]byte
	arrived := make(chan struct{}, 1000)
	sub, err := spokeBus.Subscribe(replyTo, "", func(data []byte) {
		mu.Lock()
		answers = append(answers, data)
		mu.Unlock()
		arrived <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	ctx := context.Background()
	request := func(id, input string) []byte {
		return fmt.Appendf(nil, `{"type":"call.requested","requestId":%q,"operationId":"shop.order","input":%s,"replyTo":%q}`, id, input, replyTo)
	}
	wait := func(n int) [][]byte {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for range n {
			select {
			case <-arrived:
			case <-timeout:
				mu.Lock()
				t.Logf("%d answers, %d runs; the hubs got %d and %d requests", len(answers), runs.Load(), hubs[0].got.Load(), hubs[1].got.Load())
				mu.Unlock()
				t.Fatalf("timed out waiting for %d answers", n)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		got := answers
		answers = nil
		return got
	}
	// The subscriptions are in place once a ping round-trips.
	pong := make(chan struct{}, 100)
	warm, err := spokeBus.Subscribe(callproto.SubjectsFor("").Reply("warmup"), "", func([]byte) { pong <- struct{}{} })
	if err != nil {
		t.Fatal(err)
	}
	defer warm.Unsubscribe()
	waitFor(t, "the hubs to take requests", func() bool {
		spokeBus.Publish(ctx, callproto.SubjectsFor("").Requested, fmt.Appendf(nil, `{"type":"call.requested","requestId":"ping-%d","operationId":"shop.ping","replyTo":%q}`, time.Now().UnixNano(), callproto.SubjectsFor("").Reply("warmup")))
		select {
		case <-pong:
			return true
		case <-time.After(100 * time.Millisecond):
			return false
		}
	})
	before := []int64{hubs[0].got.Load(), hubs[1].got.Load()}

	// After the first finished: every duplicate is answered from the
	// record, whichever hub gets it.
	first := wait0(t, spokeBus, request("order-1", `{}`), wait)
	// (A duplicate that reaches the hub running the request before that
	// hub has let it go is ignored: the answer is on its way.)
	waitFor(t, "the hubs to finish", func() bool { return handlers[0].Inflight()+handlers[1].Inflight() == 0 })
	// One after the other, as a spoke re-sends a request whose answer it
	// did not get (a duplicate arriving while the hub that took it is
	// still answering the previous one is ignored, as while it runs).
	const dups = 40
	for i := range dups {
		if a := wait0(t, spokeBus, request("order-1", `{}`), wait); !bytes.Equal(a, first) {
			t.Fatalf("duplicate %d answered %s, want the first's answer %s", i, a, first)
		}
		waitFor(t, "the hubs to finish", func() bool { return handlers[0].Inflight()+handlers[1].Inflight() == 0 })
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the handler ran %d times, want 1", n)
	}
	for i, h := range hubs {
		if h.got.Load() == before[i] {
			t.Fatalf("hub %d got none of the %d duplicates: the test did not reach both hubs", i, dups)
		}
	}

	// While the first runs: duplicates are ignored on either hub, then
	// answered from the record once it finished.
	runs.Store(0)
	held := request("order-2", `{"hold":true}`)
	for range dups {
		if err := spokeBus.Publish(ctx, callproto.SubjectsFor("").Requested, held); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the held order to run", func() bool { return runs.Load() > 0 })
	close(release)
	got := wait(1)
	// Duplicates still in flight may be answered too, each the same; none
	// may be a second run. One more after the finish is answered.
	if err := spokeBus.Publish(ctx, callproto.SubjectsFor("").Requested, held); err != nil {
		t.Fatal(err)
	}
	got = append(got, wait(1)...)
	for _, a := range got {
		if !bytes.Equal(a, got[0]) {
			t.Fatalf("answers differ: %s and %s", a, got[0])
		}
	}
	if n := runs.Load(); n != 1 {
		t.Fatalf("the held order ran %d times, want 1", n)
	}
	var ev callproto.Responded
	if err := json.Unmarshal(got[0], &ev); err != nil || ev.Type != callproto.TypeResponded || ev.RequestID != "order-2" {
		t.Fatalf("answer %s: %v", got[0], err)
	}
}

// wait0 publishes msg and returns its one answer.
func wait0(t *testing.T, bus callproto.Bus, msg []byte, wait func(int) [][]byte) []byte {
	t.Helper()
	if err := bus.Publish(context.Background(), callproto.SubjectsFor("").Requested, msg); err != nil {
		t.Fatal(err)
	}
	return wait(1)[0]
}
