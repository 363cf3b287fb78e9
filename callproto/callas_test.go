package callproto_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	rt "github.com/opsgen/opsgen/runtime"
)

// CallAs decodes an envelope whose data fits Out in one step (integers
// beyond float64's 53 bits stay exact), and one whose data does not fit
// through the pipeline (warn mode: the value is dropped with a warning).
func TestCallAsDecoding(t *testing.T) {
	ctx := context.Background()
	reg := rt.NewRegistry(nil)
	const big = int64(1)<<60 + 1
	reg.Register(rt.OperationSpec{ID: "x.big"}, func(context.Context, json.RawMessage) (any, error) {
		return pet{ID: big, Name: "big"}, nil
	})
	reg.Register(rt.OperationSpec{ID: "x.drift"}, func(context.Context, json.RawMessage) (any, error) {
		return json.RawMessage(`{"data":{"id":"seven","name":"Rex"},"meta":{"source":"local","operationId":"x.drift","timestamp":1}}`), nil
	})
	spoke := serve(t, reg)

	env, err := callproto.CallAs[pet](ctx, spoke, "x.big", nil)
	if err != nil || env.Data != (pet{ID: big, Name: "big"}) || len(env.Warnings) != 0 {
		t.Fatalf("x.big: %+v %v %v", env.Data, env.Warnings, err)
	}
	if m := rt.LocalMetaOf(env.Meta); m == nil || m.OperationID != "x.big" {
		t.Fatalf("x.big meta: %#v", env.Meta)
	}
	env, err = callproto.CallAs[pet](ctx, spoke, "x.drift", nil)
	if err != nil || env.Data != (pet{Name: "Rex"}) || len(env.Warnings) != 1 || env.Warnings[0].Pointer != "/id" {
		t.Fatalf("x.drift: %+v %+v %v", env.Data, env.Warnings, err)
	}
}

// serve starts a hub serving reg and a spoke, on two connections to a
// fresh embedded NATS server; all close with the test.
func serve(t *testing.T, reg *rt.Registry) *callproto.PendingRequestMap {
	t.Helper()
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hubBus.Close() })
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spokeBus.Close() })
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spoke.Close() })
	return spoke
}
