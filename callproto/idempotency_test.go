package callproto_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	rt "github.com/opsgen/opsgen/runtime"
)

// handledBus tells when the hub has handled each call.requested it got.
type handledBus struct {
	callproto.Bus
	handled chan struct{}
}

func (b *handledBus) Subscribe(subject, queue string, handler func([]byte)) (callproto.Subscription, error) {
	if queue == "" {
		return b.Bus.Subscribe(subject, queue, handler)
	}
	return b.Bus.Subscribe(subject, queue, func(data []byte) {
		handler(data)
		b.handled <- struct{}{}
	})
}

// A hub dedupes on the idempotency key: calls with one key from two
// spokes, with two request ids, run the handler once, whether the second
// comes while the first runs or after it finished; the handler's context
// carries the key.
func TestHubDedupesOnIdempotencyKey(t *testing.T) {
	var runs atomic.Int64
	started, release := make(chan struct{}, 1), make(chan struct{})
	var mu sync.Mutex
	var keys []string
	reg := rt.NewRegistry(nil)
	reg.Register(rt.OperationSpec{ID: "shop.order", Kind: rt.KindMutation}, func(ctx context.Context, in json.RawMessage) (any, error) {
		n := runs.Add(1)
		mu.Lock()
		keys = append(keys, rt.IdempotencyKeyFrom(ctx))
		mu.Unlock()
		if string(in) == `{"hold":true}` {
			started <- struct{}{}
			<-release
		}
		return map[string]int64{"run": n}, nil
	})
	nb, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer nb.Close()
	hubBus := &handledBus{Bus: nb, handled: make(chan struct{}, 100)}
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke := func() *callproto.PendingRequestMap {
		b, err := natsbus.Connect(natsbus.Options{URL: nb.URL()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		s, err := callproto.NewPendingRequestMap(b, callproto.SpokeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := spoke(), spoke()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	type result struct {
		run int64
		err error
	}
	call := func(s *callproto.PendingRequestMap, ctx context.Context, input any, opts ...callproto.CallOption) chan result {
		ch := make(chan result, 1)
		go func() {
			env, err := callproto.CallAs[map[string]int64](ctx, s, "shop.order", input, opts...)
			ch <- result{env.Data["run"], err}
		}()
		return ch
	}

	first := call(a, ctx, map[string]bool{"hold": true}, callproto.WithIdempotencyKey("key-1"))
	<-started
	<-hubBus.handled
	// The same logical call from another spoke while the first runs: it
	// waits for the first's answer (the context's key is sent by default).
	second := call(b, rt.WithIdempotencyKey(ctx, "key-1"), map[string]bool{"hold": true})
	<-hubBus.handled
	close(release)
	for i, ch := range []chan result{first, second} {
		if r := <-ch; r.err != nil || r.run != 1 {
			t.Fatalf("call %d: run %d, %v; want the first run's answer", i+1, r.run, r.err)
		}
	}
	// After it finished: answered from the hub's record.
	if r := <-call(a, ctx, map[string]bool{}, callproto.WithIdempotencyKey("key-1")); r.err != nil || r.run != 1 {
		t.Fatalf("a later duplicate: run %d, %v", r.run, r.err)
	}
	// Another key is another call.
	if r := <-call(b, ctx, map[string]bool{}, callproto.WithIdempotencyKey("key-2")); r.err != nil || r.run != 2 {
		t.Fatalf("another key: run %d, %v", r.run, r.err)
	}
	if runs.Load() != 2 {
		t.Errorf("the handler ran %d times, want 2", runs.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != 2 || keys[0] != "key-1" || keys[1] != "key-2" {
		t.Errorf("the handler's contexts carried %q", keys)
	}
}
