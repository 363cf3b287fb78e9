package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// A generated SSE operation registers as a subscription: Registry.Subscribe
// sends the request with the params of its JSON input and yields one
// envelope per event, with the event's HTTP meta.
func TestHTTPStreamRegistered(t *testing.T) {
	srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("from") == "9" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTeapot)
			io.WriteString(w, `{"title":"no"}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: tick\nid: 1\ndata: {\"n\":1}\n\ndata: {\"n\":2}\n\n")
	})
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"), quietHTTP)
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}
	if k, ok := reg.Kind("e2ehttp.ticks"); !ok || k != runtime.KindSubscription {
		t.Fatalf("kind = %q, %v", k, ok)
	}
	var ns []int64
	for env, err := range reg.Subscribe(context.Background(), "e2ehttp.ticks", json.RawMessage(`{"params":{"from":1}}`)) {
		if err != nil {
			t.Fatal(err)
		}
		m := runtime.HTTPMetaOf(env.Meta)
		if m == nil || m.ContentType != "text/event-stream" {
			t.Fatalf("meta = %#v", env.Meta)
		}
		tick, ok := env.Data.(e2ehttp.Tick)
		if !ok {
			t.Fatalf("data is %T, want e2ehttp.Tick", env.Data)
		}
		ns = append(ns, tick.N)
	}
	if len(ns) != 2 || ns[0] != 1 || ns[1] != 2 {
		t.Fatalf("ticks = %v", ns)
	}
	checkWireLine(t, srv.only(t), "GET", "/ticks?from=1")

	// A status error ends the subscription with the CallError.
	n := 0
	var end error
	for _, err := range reg.Subscribe(context.Background(), "e2ehttp.ticks", json.RawMessage(`{"params":{"from":9}}`)) {
		if err != nil {
			end = err
			break
		}
		n++
	}
	if n != 0 || !errors.Is(end, runtime.ErrExecution) || runtime.StatusCode(end) != http.StatusTeapot {
		t.Fatalf("n = %d, err = %v", n, end)
	}
	// Input that does not match the schema never reaches the server.
	for _, err := range reg.Subscribe(context.Background(), "e2ehttp.ticks", json.RawMessage(`{"params":{"from":"x"}}`)) {
		if !errors.Is(err, runtime.ErrValidation) {
			t.Fatalf("err = %v, want VALIDATION_ERROR", err)
		}
	}
}
