package e2e_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// A spoke calls the hub's operations with the generated client's own
// methods and types (WithRemote), over the call protocol on NATS: the data,
// the HTTP meta and the errors are those of a direct call.
func TestGeneratedClientRemote(t *testing.T) {
	var httpCalls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpCalls++
		switch {
		case r.Method == "POST" && r.URL.Path == "/items":
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Query", r.URL.RawQuery)
			w.WriteHeader(201)
			// name echoes the body; size is extra data the type keeps
			io.WriteString(w, `{"id":7,"name":`+string(body[len(`{"name":`):len(body)-1])+`,"size":"L","drift":true}`)
		case r.URL.Path == "/items/9":
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(404)
			io.WriteString(w, `{"title":"no such item"}`)
		case r.URL.Path == "/ticks":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"n\":1}\n\ndata: {\"n\":2}\n\ndata: {\"n\":3}\n\n")
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	direct := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"), quietHTTP)
	reg := runtime.NewRegistry(nil)
	if err := direct.Register(reg); err != nil {
		t.Fatal(err)
	}
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer spokeBus.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	// No base URL, no credentials: only the hub can make these calls.
	remote := e2ehttp.NewClient(e2ehttp.WithRemote(spoke), e2ehttp.WithBaseURL("http://127.0.0.1:1"), quietHTTP)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dry := true
	want, err := direct.CreateItem(ctx, e2ehttp.CreateItemParams{DryRun: &dry}, e2ehttp.NewItem{Name: "box"})
	if err != nil {
		t.Fatal(err)
	}
	before := httpCalls
	got, err := remote.CreateItem(ctx, e2ehttp.CreateItemParams{DryRun: &dry}, e2ehttp.NewItem{Name: "box"})
	if err != nil {
		t.Fatal(err)
	}
	if httpCalls != before+1 {
		t.Fatalf("the remote call made %d HTTP calls, want 1 (the hub's)", httpCalls-before)
	}
	if !reflect.DeepEqual(got.Data, want.Data) || got.Data.Name != "box" || got.Data.Size == nil || *got.Data.Size != "L" {
		t.Fatalf("remote data %+v, direct %+v", got.Data, want.Data)
	}
	gm, wm := runtime.HTTPMetaOf(got.Meta), runtime.HTTPMetaOf(want.Meta)
	if gm == nil || gm.StatusCode != 201 || gm.StatusCode != wm.StatusCode || gm.Headers["x-query"] != "dry_run=true" {
		t.Fatalf("remote meta %#v, direct %#v", got.Meta, want.Meta)
	}

	// An error status is the same CallError code on both paths.
	_, derr := direct.GetItem(ctx, e2ehttp.GetItemParams{ID: 9})
	_, rerr := remote.GetItem(ctx, e2ehttp.GetItemParams{ID: 9})
	var dce, rce *runtime.CallError
	if !errors.As(derr, &dce) || !errors.As(rerr, &rce) || dce.Code != rce.Code || rce.OperationID == "" {
		t.Fatalf("direct error %v, remote error %v", derr, rerr)
	}

	// A stream is a subscription, yielding the same typed events.
	var ticks []int64
	for env, err := range remote.Ticks(ctx, e2ehttp.TicksParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if m := runtime.HTTPMetaOf(env.Meta); m == nil || m.ContentType != "text/event-stream" {
			t.Fatalf("tick meta %#v", env.Meta)
		}
		ticks = append(ticks, env.Data.N)
	}
	if !reflect.DeepEqual(ticks, []int64{1, 2, 3}) {
		t.Fatalf("ticks %v", ticks)
	}
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d", spoke.Pending())
	}
}
