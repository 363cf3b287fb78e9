package redisbus_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/bustest"
	"github.com/opsgen/opsgen/callproto/redisbus"
	"github.com/opsgen/opsgen/runtime"
)

// startServer starts a redis-server for the test; without one installed the
// test is skipped, or fails under CI (CI installs it: make redis).
func startServer(t *testing.T) *redisbus.Server {
	t.Helper()
	srv, err := redisbus.StartServer(t.TempDir(), 0)
	if errors.Is(err, redisbus.ErrNoServer) && os.Getenv("CI") == "" {
		t.Skip("redis-server is not installed (make redis installs it)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

func connect(t *testing.T, addr string) *redisbus.Bus {
	t.Helper()
	b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestBus(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		srv := startServer(t)
		return connect(t, srv.Addr), connect(t, srv.Addr)
	})
}

func TestConnectRefused(t *testing.T) {
	if _, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: "127.0.0.1:1"}); err == nil {
		t.Fatal("connected to nothing")
	}
}

// Redis killed and restarted while a subscription streams: the spoke gets
// every value in order, or a TRANSPORT_ERROR naming the lost events; never
// a silent gap. Afterwards calls work again (the queue group re-registered).
func TestBrokerRestart(t *testing.T) {
	srv := startServer(t)
	hubBus, spokeBus := connect(t, srv.Addr), connect(t, srv.Addr)
	reg := runtime.NewRegistry(nil)
	reg.Register(runtime.OperationSpec{ID: "t.echo"}, func(_ context.Context, in json.RawMessage) (any, error) { return in, nil })
	reg.RegisterSubscription(runtime.OperationSpec{ID: "t.count"}, func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			for i := 0; ctx.Err() == nil && yield(i, nil); i++ {
			}
		}
	})
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{Window: 16, Heartbeat: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	next, restarted := 0, false
	var end error
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "t.count", nil) {
		if err != nil {
			end = err
			break
		}
		if env.Data != next {
			t.Fatalf("got %d, want %d (a duplicate or a silent gap)", env.Data, next)
		}
		next++
		if next == 50 {
			if err := srv.Restart(); err != nil {
				t.Fatal(err)
			}
			restarted = true
		}
		if next == 400 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if !restarted {
		t.Fatalf("stream ended at %d before the restart: %v", next, end)
	}
	var ce *runtime.CallError
	if end != nil && (!errors.As(end, &ce) || ce.Code != runtime.CodeTransport) {
		t.Fatalf("stream ended with %v; want values or a TRANSPORT_ERROR", end)
	}
	t.Logf("after the restart: %d values, then %v", next-50, end)
	deadline := time.Now().Add(10 * time.Second)
	for {
		cctx, ccancel := context.WithTimeout(ctx, 300*time.Millisecond)
		_, err := spoke.Call(cctx, "t.echo", map[string]int{"x": 1})
		ccancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("calls still fail after the restart: %v", err)
		}
	}
	for hub.Inflight() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the subscription's handler still runs")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A queue group's list is bounded: with no member taking messages, at most
// QueueLimit stay queued.
func TestQueueBounded(t *testing.T) {
	srv := startServer(t)
	b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr, QueueLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := make(chan string, 100)
	s, err := b.Subscribe("t.q", "g", func(d []byte) { got <- string(d) })
	if err != nil {
		t.Fatal(err)
	}
	s.Unsubscribe() // the group stays registered for GroupTTL, without a member
	time.Sleep(1100 * time.Millisecond)
	for i := range 50 {
		if err := b.Publish(context.Background(), "t.q", fmt.Appendf(nil, "%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := b.Client().LLen(context.Background(), "callproto:q:t.q:g").Result()
	if err != nil || n != 10 {
		t.Fatalf("queued %d (%v), want 10", n, err)
	}
	// A new member gets the newest 10, in order.
	if _, err := b.Subscribe("t.q", "g", func(d []byte) { got <- string(d) }); err != nil {
		t.Fatal(err)
	}
	for i := 40; i < 50; i++ {
		select {
		case d := <-got:
			if d != fmt.Sprint(i) {
				t.Fatalf("got %s, want %d", d, i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("message %d did not arrive", i)
		}
	}
}
