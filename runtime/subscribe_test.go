package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

func countTo(ctx context.Context, input []byte) iter.Seq2[any, error] {
	var in struct {
		N        int    `json:"n"`
		Envelope bool   `json:"envelope"`
		Fail     string `json:"fail"`
		Panic    bool   `json:"panic"`
		Forever  bool   `json:"forever"`
	}
	json.Unmarshal(input, &in)
	return func(yield func(any, error) bool) {
		for i := 0; in.Forever || i < in.N; i++ {
			if ctx.Err() != nil {
				return // stops when the context ends, as the contract says
			}
			var v any = map[string]any{"i": i, "extra": "dropped"}
			if in.Envelope {
				v = opsgenimpl.HTTP(map[string]any{"i": i}, runtime.HTTPMeta{StatusCode: 200, ContentType: "text/event-stream", EventType: "tick"})
			}
			if !yield(v, nil) {
				return
			}
		}
		if in.Panic {
			panic("overflow")
		}
		if in.Fail != "" {
			yield(nil, errors.New(in.Fail))
		}
	}
}

func newSubRegistry(t *testing.T) *runtime.Registry {
	t.Helper()
	r := runtime.NewRegistry(quiet)
	err := r.RegisterSubscription(runtime.OperationSpec{
		ID:           "math.count",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":0}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"i":{"type":"integer"}}}`),
	}, countTo)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Register(runtime.OperationSpec{ID: "math.add", Kind: runtime.KindMutation}, addHandler); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRegistrySubscribe runs in a synctest bubble, whose clock moves only
// when the test sleeps: each value's timestamp is the fake time it was
// produced at, 2 ms after the one before.
func TestRegistrySubscribe(t *testing.T) {
	synctest.Test(t, testRegistrySubscribe)
}

func testRegistrySubscribe(t *testing.T) {
	r := newSubRegistry(t)
	ctx := context.Background()
	if k, ok := r.Kind("math.count"); !ok || k != runtime.KindSubscription {
		t.Fatalf("kind = %q %v", k, ok)
	}
	if k, _ := r.Kind("math.add"); k != runtime.KindMutation {
		t.Fatalf("kind = %q", k)
	}
	if spec, _ := r.Lookup("math.count"); spec.Kind != runtime.KindSubscription {
		t.Fatalf("spec kind = %q", spec.Kind)
	}
	var stamps []int64
	n := 0
	for env, err := range r.Subscribe(ctx, "math.count", map[string]int{"n": 3}) {
		if err != nil {
			t.Fatal(err)
		}
		m := runtime.LocalMetaOf(env.Meta)
		if m == nil || m.OperationID != "math.count" || m.Timestamp == 0 {
			t.Fatalf("meta = %#v", env.Meta)
		}
		stamps = append(stamps, m.Timestamp)
		// The pipeline ran on each value: "extra" is not declared.
		b, _ := json.Marshal(env.Data)
		if want := `{"i":` + string(rune('0'+n)) + `}`; string(b) != want {
			t.Fatalf("data = %s, want %s", b, want)
		}
		n++
		time.Sleep(2 * time.Millisecond) // the bubble's clock: no wall time passes
	}
	if n != 3 || stamps[1]-stamps[0] != 2 || stamps[2]-stamps[1] != 2 {
		t.Fatalf("n = %d, stamps %v: want 3 values stamped 2 ms apart (fresh timestamps)", n, stamps)
	}
	// Envelopes pass with their meta.
	for env, err := range r.Subscribe(ctx, "math.count", map[string]any{"n": 1, "envelope": true}) {
		if err != nil {
			t.Fatal(err)
		}
		if m := runtime.HTTPMetaOf(env.Meta); m == nil || m.EventType != "tick" {
			t.Fatalf("meta = %#v", env.Meta)
		}
	}
}

func lastErr(seq iter.Seq2[runtime.ResponseEnvelope[any], error]) (n int, err error) {
	for _, e := range seq {
		if e != nil {
			return n, e
		}
		n++
	}
	return n, nil
}

func TestRegistrySubscribeErrors(t *testing.T) {
	r := newSubRegistry(t)
	ctx := context.Background()
	for _, tc := range []struct {
		id    string
		input any
		n     int
		code  runtime.ErrorCode
		msg   string
	}{
		{"math.none", nil, 0, runtime.CodeOperationNotFound, "math.none"},
		{"math.count", map[string]int{"n": -1}, 0, runtime.CodeValidation, "/n"},
		{"math.count", map[string]any{"n": 2, "fail": "broken"}, 2, runtime.CodeExecution, "broken"},
		{"math.count", map[string]any{"n": 1, "panic": true}, 1, runtime.CodeExecution, "overflow"},
	} {
		n, err := lastErr(r.Subscribe(ctx, tc.id, tc.input))
		var ce *runtime.CallError
		if n != tc.n || !errors.As(err, &ce) || ce.Code != tc.code || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s %v: %d values, err %v; want %d, %s mentioning %q", tc.id, tc.input, n, err, tc.n, tc.code, tc.msg)
		}
	}
	// A panic carries the PanicError.
	_, err := lastErr(r.Subscribe(ctx, "math.count", map[string]any{"panic": true}))
	var pe *runtime.PanicError
	if !errors.As(err, &pe) || pe.Value != "overflow" {
		t.Fatalf("err = %v, want a PanicError", err)
	}
	// Execute refuses a subscription; Subscribe runs a query once.
	if _, err := r.Execute(ctx, "math.count", nil); !errors.Is(err, runtime.ErrExecution) || !strings.Contains(err.Error(), "Subscribe") {
		t.Fatalf("Execute(subscription) = %v", err)
	}
	var got []any
	for env, err := range r.Subscribe(ctx, "math.add", map[string]int{"a": 1, "b": 2}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data)
	}
	if len(got) != 1 || got[0].(map[string]any)["sum"] != 3.0 {
		t.Fatalf("Subscribe(query) = %v", got)
	}
	// A context that ends stops the handler and says why.
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	var end error
	for _, err := range r.Subscribe(cctx, "math.count", map[string]any{"forever": true}) {
		if err != nil {
			end = err
			break
		}
		if n++; n == 5 {
			cancel()
		}
	}
	if !errors.Is(end, runtime.ErrCanceled) || n != 5 {
		t.Fatalf("after cancel: n = %d, err = %v", n, end)
	}
	// Breaking out early stops the handler (no panic, no more values).
	n = 0
	for range r.Subscribe(ctx, "math.count", map[string]any{"forever": true}) {
		if n++; n == 3 {
			break
		}
	}
}

func TestRegisterKinds(t *testing.T) {
	r := runtime.NewRegistry(quiet)
	if err := r.Register(runtime.OperationSpec{ID: "a.b", Kind: runtime.KindSubscription}, addHandler); err == nil || !strings.Contains(err.Error(), "RegisterSubscription") {
		t.Fatalf("err = %v", err)
	}
	if err := r.Register(runtime.OperationSpec{ID: "a.b", Kind: "stream"}, addHandler); err == nil || !strings.Contains(err.Error(), `unknown kind "stream"`) {
		t.Fatalf("err = %v", err)
	}
	if err := r.RegisterSubscription(runtime.OperationSpec{ID: "a.b"}, nil); err == nil {
		t.Fatal("nil subscription handler accepted")
	}
	if err := r.RegisterSubscription(runtime.OperationSpec{ID: "bad"}, countTo); err == nil {
		t.Fatal("malformed id accepted")
	}
	if err := r.RegisterSubscription(runtime.OperationSpec{ID: "a.b"}, countTo); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(runtime.OperationSpec{ID: "a.b"}, addHandler); err == nil {
		t.Fatal("duplicate id accepted")
	}
}
