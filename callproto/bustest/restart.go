package bustest

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/runtime"
)

// Restart runs a subscription between a hub on hubBus and a spoke on
// spokeBus, calls restart (which stops the broker and starts it again)
// after 50 values, and checks that the spoke gets every value in order, or
// a TRANSPORT_ERROR naming the lost events, never a duplicate or a silent
// gap; then that calls work again once the buses have reconnected, and
// that the hub's handler has stopped.
func Restart(t *testing.T, hubBus, spokeBus callproto.Bus, restart func()) {
	t.Helper()
	reg := runtime.NewRegistry(nil)
	reg.Register(runtime.OperationSpec{ID: "t.echo"}, func(_ context.Context, in json.RawMessage) (any, error) { return in, nil })
	reg.RegisterSubscription(runtime.OperationSpec{ID: "t.count"}, func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			for i := 0; ctx.Err() == nil && yield(i, nil); i++ {
			}
		}
	})
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{Prefix: "restart"})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{Prefix: "restart", Window: 16, Heartbeat: 300 * time.Millisecond})
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
			restart()
			restarted = true
		}
		if next == 400 {
			break
		}
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
