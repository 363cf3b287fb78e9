package callproto_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/golden/openapi/responses"
	rt "github.com/opsgen/opsgen/runtime"
)

// The tests below check that a call through the call protocol returns the
// envelope and the error a local call returns: the warnings of a drifting
// result, and the typed error of an HTTP failure (status, headers, body,
// typed Body, issues), through a generated client configured WithRemote
// and through CallAs.

// apiServer is the HTTP API behind the hub's generated clients. The
// response of GET /a (responses.statuses) is chosen by mode; GET
// /items/{id} (e2ehttp.getItem) answers an item whose size drifts (an
// integer where the schema says string).
func apiServer(t testing.TB, mode *atomic.Value) *httptest.Server {
	mode.Store("404")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h["Date"] = nil // the same headers for every call
		h.Set("X-Request-Kind", "test")
		switch {
		case strings.HasPrefix(r.URL.Path, "/items/"):
			h.Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":%s,"name":"lamp","size":5}`, strings.TrimPrefix(r.URL.Path, "/items/"))
		case r.URL.Path == "/ticks":
			h.Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"n\":1}\n\ndata: {\"n\":\"two\"}\n\n")
		case r.URL.Path == "/a":
			switch mode.Load().(string) {
			case "404":
				h.Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"reason":"gone"}`)
			case "404-drift":
				h.Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				io.WriteString(w, `{"reason":5}`)
			case "503":
				h.Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusServiceUnavailable)
				io.WriteString(w, "down for maintenance\n")
			case "418":
				h.Set("Content-Type", "application/problem+json")
				h.Add("X-Multi", "a")
				h.Add("X-Multi", "b")
				w.WriteHeader(http.StatusTeapot)
				io.WriteString(w, "{\n  \"title\": \"teapot\"\n}") // not compact: its bytes must survive
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// apiRegistry registers the generated clients of the API at url, as the
// hub does.
func apiRegistry(t testing.TB, url string) *rt.Registry {
	reg := rt.NewRegistry(nil)
	if err := e2ehttp.NewClient(e2ehttp.WithBaseURL(url), e2ehttp.WithBearer("t")).Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := responses.NewClient(responses.WithBaseURL(url)).Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// A hub and a spoke in one process, over an embedded NATS server.
func TestEnvelopeOverNATS(t *testing.T) {
	var mode atomic.Value
	srv := apiServer(t, &mode)
	local := apiRegistry(t, srv.URL)
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	hub, err := callproto.NewCallHandler(apiRegistry(t, srv.URL), hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	checkEnvelopes(t, hubBus.URL(), srv.URL, local, &mode)
}

// The hub in a process of its own, as a user deploys it.
func TestEnvelopeAcrossProcesses(t *testing.T) {
	var mode atomic.Value
	srv := apiServer(t, &mode)
	local := apiRegistry(t, srv.URL)
	ns, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer ns.Shutdown()
	t.Setenv("ENVELOPE_API", srv.URL) // the hub's API (TestHelperProcess)
	child(t, "envelope-hub", ns.ClientURL())
	checkEnvelopes(t, ns.ClientURL(), srv.URL, local, &mode)
}

// checkEnvelopes calls the API through spokes on the NATS server at
// natsURL, whose hub registered the clients of the API at apiURL, and
// compares each result with the local registry's.
func checkEnvelopes(t *testing.T, natsURL, apiURL string, local *rt.Registry, mode *atomic.Value) {
	t.Helper()
	bus, err := natsbus.Connect(natsbus.Options{URL: natsURL})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	// spoke types HTTP failures with the generated packages' TypedError;
	// plain does not.
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{
		TypedErrors: []func(*rt.CallError) error{e2ehttp.TypedError, responses.TypedError},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	plain, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	t.Run("warnings", func(t *testing.T) {
		in := callproto.Input{Params: e2ehttp.GetItemParams{ID: 7}}
		want, err := rt.ExecuteAs[e2ehttp.Item](ctx, local, "e2ehttp.getItem", in)
		if err != nil {
			t.Fatal(err)
		}
		if len(want.Warnings) == 0 || want.Data.ID != 7 {
			t.Fatalf("the local call has no warnings, nothing to compare: %+v", want)
		}
		remote := e2ehttp.NewClient(e2ehttp.WithRemote(spoke))
		viaClient, err := remote.GetItem(ctx, e2ehttp.GetItemParams{ID: 7})
		if err != nil {
			t.Fatal(err)
		}
		sameEnvelope(t, "WithRemote", want, viaClient)
		viaCallAs, err := callproto.CallAs[e2ehttp.Item](ctx, spoke, "e2ehttp.getItem", in)
		if err != nil {
			t.Fatal(err)
		}
		sameEnvelope(t, "CallAs", want, viaCallAs)
		untyped, err := spoke.Call(ctx, "e2ehttp.getItem", in)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(untyped.Warnings, want.Warnings) {
			t.Errorf("Call: warnings %v, want %v", untyped.Warnings, want.Warnings)
		}
	})

	t.Run("stream warnings", func(t *testing.T) {
		in := callproto.Input{Params: e2ehttp.TicksParams{}}
		var want []rt.ResponseEnvelope[e2ehttp.Tick]
		for env, err := range local.Subscribe(ctx, "e2ehttp.ticks", in) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, rt.ResponseEnvelope[e2ehttp.Tick]{Data: env.Data.(e2ehttp.Tick), Meta: env.Meta, Warnings: env.Warnings})
		}
		if len(want) != 2 || len(want[0].Warnings) != 0 || len(want[1].Warnings) == 0 {
			t.Fatalf("local stream: %+v", want)
		}
		i := 0
		for env, err := range e2ehttp.NewClient(e2ehttp.WithRemote(spoke)).Ticks(ctx, e2ehttp.TicksParams{}) {
			if err != nil {
				t.Fatal(err)
			}
			if i < len(want) {
				sameEnvelope(t, fmt.Sprintf("WithRemote event %d", i), want[i], env)
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("WithRemote: %d events, want %d", i, len(want))
		}
		i = 0
		for env, err := range callproto.SubscribeAs[e2ehttp.Tick](ctx, spoke, "e2ehttp.ticks", in) {
			if err != nil {
				t.Fatal(err)
			}
			if i < len(want) {
				sameEnvelope(t, fmt.Sprintf("SubscribeAs event %d", i), want[i], env)
			}
			i++
		}
		if i != len(want) {
			t.Fatalf("SubscribeAs: %d events, want %d", i, len(want))
		}
	})

	cases := []struct {
		mode  string
		check func(t *testing.T, local, remote error, how string)
	}{
		{"404", sameTypedError[*responses.StatusesNotFound]},
		{"404-drift", sameTypedError[*responses.StatusesNotFound]},
		{"503", sameTypedError[*responses.StatusesStatus5XX]},
		{"418", sameTypedError[*responses.StatusesDefault]},
	}
	for _, c := range cases {
		t.Run("error "+c.mode, func(t *testing.T) {
			mode.Store(c.mode)
			_, want := rt.ExecuteAs[json.RawMessage](ctx, local, "responses.statuses", nil)
			if want == nil {
				t.Fatal("the local call did not fail")
			}
			if issues := callErrorOf(t, want).Issues; (c.mode == "404-drift") != (len(issues) > 0) {
				t.Fatalf("local issues %v", issues)
			}
			_, viaClient := responses.NewClient(responses.WithRemote(spoke)).Statuses(ctx)
			c.check(t, want, viaClient, "WithRemote")
			// WithRemote types the error itself: the spoke need not.
			_, viaPlainClient := responses.NewClient(responses.WithRemote(plain)).Statuses(ctx)
			c.check(t, want, viaPlainClient, "WithRemote (plain spoke)")
			_, viaCallAs := callproto.CallAs[json.RawMessage](ctx, spoke, "responses.statuses", nil)
			c.check(t, want, viaCallAs, "CallAs")
			_, viaCall := spoke.Call(ctx, "responses.statuses", nil)
			c.check(t, want, viaCall, "Call")
			// Without TypedErrors, CallAs has the HTTP failure untyped.
			_, untyped := callproto.CallAs[json.RawMessage](ctx, plain, "responses.statuses", nil)
			var ce *rt.CallError
			if !errors.As(untyped, &ce) || ce.HTTP == nil {
				t.Fatalf("plain CallAs: %T %v, want a *CallError with HTTP", untyped, untyped)
			}
			sameCallError(t, "plain CallAs", callErrorOf(t, want), ce)
		})
	}
	if t.Failed() {
		return
	}
	// A direct call of the client names the operation by its own name;
	// the rest is the same.
	mode.Store("404")
	_, direct := responses.NewClient(responses.WithBaseURL(apiURL)).Statuses(ctx)
	var nf *responses.StatusesNotFound
	if !errors.As(direct, &nf) || nf.OperationID != "statuses" || *nf.Body.Reason != "gone" {
		t.Errorf("direct call: %T %v", direct, direct)
	}
}

// sameEnvelope fails unless got (through the call protocol) has want's
// data, meta and warnings.
func sameEnvelope[T any](t *testing.T, how string, want, got rt.ResponseEnvelope[T]) {
	t.Helper()
	if !reflect.DeepEqual(got.Data, want.Data) {
		t.Errorf("%s: data %+v, want %+v", how, got.Data, want.Data)
	}
	if !reflect.DeepEqual(got.Meta, want.Meta) {
		t.Errorf("%s: meta %+v, want %+v", how, got.Meta, want.Meta)
	}
	if !reflect.DeepEqual(got.Warnings, want.Warnings) {
		t.Errorf("%s: warnings %v, want %v", how, got.Warnings, want.Warnings)
	}
}

// sameTypedError fails unless local and remote are both E (a generated
// error type) with the same CallError and the same typed Body.
func sameTypedError[E error](t *testing.T, local, remote error, how string) {
	t.Helper()
	var l, r E
	if !errors.As(local, &l) {
		t.Fatalf("the local error %T %v is not %T", local, local, l)
	}
	if !errors.As(remote, &r) {
		t.Fatalf("%s: %T %v is not %T", how, remote, remote, r)
	}
	if local.Error() != remote.Error() {
		t.Errorf("%s: %q, want %q", how, remote.Error(), local.Error())
	}
	sameCallError(t, how, callErrorOf(t, local), callErrorOf(t, remote))
	lb := reflect.ValueOf(l).Elem().FieldByName("Body").Interface()
	rb := reflect.ValueOf(r).Elem().FieldByName("Body").Interface()
	if !reflect.DeepEqual(lb, rb) {
		t.Errorf("%s: Body %+v, want %+v", how, rb, lb)
	}
	if lt, rtyped := callErrorOf(t, local).HTTP.Typed, callErrorOf(t, remote).HTTP.Typed; !reflect.DeepEqual(lt, rtyped) {
		t.Errorf("%s: HTTP.Typed %+v, want %+v", how, rtyped, lt)
	}
}

func callErrorOf(t *testing.T, err error) *rt.CallError {
	t.Helper()
	var ce *rt.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("%T %v is no CallError", err, err)
	}
	return ce
}

// sameCallError compares what the wire carries of a CallError.
func sameCallError(t *testing.T, how string, want, got *rt.CallError) {
	t.Helper()
	if got.Code != want.Code || got.Message != want.Message || got.OperationID != want.OperationID {
		t.Errorf("%s: %s %q %q, want %s %q %q", how, got.Code, got.Message, got.OperationID, want.Code, want.Message, want.OperationID)
	}
	if want.OperationID != "responses.statuses" {
		t.Errorf("the local error names %q, want the registry id", want.OperationID)
	}
	if !reflect.DeepEqual(got.Issues, want.Issues) {
		t.Errorf("%s: issues %v, want %v", how, got.Issues, want.Issues)
	}
	if got.HTTP == nil || want.HTTP == nil {
		t.Fatalf("%s: HTTP %v, want %v", how, got.HTTP, want.HTTP)
	}
	g, w := *got.HTTP, *want.HTTP
	g.Typed, w.Typed = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: HTTP\n%+v\nwant\n%+v", how, g, w)
	}
}

// The new members (call.responded's and call.yielded's warnings,
// call.error's http) match the events schema, leave the envelope's own
// wire form as it was, and are ignored by a peer that does not know them;
// events without them decode as before.
func TestEnvelopeMembersCompatible(t *testing.T) {
	var mode atomic.Value
	srv := apiServer(t, &mode)
	base, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	bus := &tap{Bus: base}
	hub, err := callproto.NewCallHandler(apiRegistry(t, srv.URL), bus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{TypedErrors: []func(*rt.CallError) error{responses.TypedError}})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	env, err := spoke.Call(ctx, "e2ehttp.getItem", callproto.Input{Params: e2ehttp.GetItemParams{ID: 3}})
	if err != nil || len(env.Warnings) == 0 {
		t.Fatalf("getItem: %v %v", env.Warnings, err)
	}
	for _, m := range []string{"404", "418", "503"} {
		mode.Store(m)
		if _, err := spoke.Call(ctx, "responses.statuses", nil); err == nil {
			t.Fatalf("statuses %s did not fail", m)
		}
	}
	bus.mu.Lock()
	msgs := bus.msg
	bus.mu.Unlock()

	// What a peer of the previous protocol decodes.
	type oldIssue struct {
		OperationID string `json:"operationId,omitempty"`
		Pointer     string `json:"pointer,omitempty"`
		Message     string `json:"message"`
	}
	type oldEvent struct {
		Type      string          `json:"type"`
		RequestID string          `json:"requestId"`
		Output    json.RawMessage `json:"output"`
		Error     *struct {
			Code        string     `json:"code"`
			Message     string     `json:"message,omitempty"`
			OperationID string     `json:"operationId,omitempty"`
			Issues      []oldIssue `json:"issues,omitempty"`
		} `json:"error"`
	}
	var warned, failed, bodies int
	for _, m := range msgs {
		if err := callproto.ValidateEvent(m); err != nil {
			t.Errorf("%s: %v", m, err)
		}
		var ev map[string]any
		if err := json.Unmarshal(m, &ev); err != nil {
			t.Fatal(err)
		}
		if out, ok := ev["output"].(map[string]any); ok {
			if _, has := out["warnings"]; has {
				t.Errorf("the envelope's wire form has warnings: %s", m)
			}
		}
		_, hasWarnings := ev["warnings"]
		e, _ := ev["error"].(map[string]any)
		_, hasHTTP := e["http"]
		if hasWarnings {
			warned++
			delete(ev, "warnings")
		}
		if hasHTTP {
			failed++
			h := e["http"].(map[string]any)
			for _, k := range []string{"body", "bodyText", "bodyBase64"} {
				if _, ok := h[k]; ok {
					bodies++
				}
			}
			delete(e, "http")
		}
		if !hasWarnings && !hasHTTP {
			continue
		}
		// An old peer decodes the event as it decodes the event without
		// the new members.
		stripped, _ := json.Marshal(ev)
		var withNew, without oldEvent
		if err := json.Unmarshal(m, &withNew); err != nil {
			t.Fatalf("an old peer cannot decode %s: %v", m, err)
		}
		if err := json.Unmarshal(stripped, &without); err != nil {
			t.Fatal(err)
		}
		withNew.Output, without.Output = compactJSON(t, withNew.Output), compactJSON(t, without.Output)
		if !reflect.DeepEqual(withNew, without) {
			t.Errorf("an old peer reads %+v, want %+v", withNew, without)
		}
	}
	if warned != 1 || failed != 3 || bodies != 3 {
		t.Fatalf("%d events with warnings, %d with http, %d bodies; want 1, 3 and 3", warned, failed, bodies)
	}

	for _, bad := range []string{
		`{"type":"call.error","requestId":"r","error":{"code":"EXECUTION_ERROR","http":{"statusCode":404,"body":{},"bodyText":"{}"}}}`,
		`{"type":"call.error","requestId":"r","error":{"code":"EXECUTION_ERROR","http":{"headers":{"A":["b"]}}}}`,
		`{"type":"call.responded","requestId":"r","warnings":[{"pointer":"/a"}],"output":{"data":1,"meta":{"source":"local","operationId":"a.b","timestamp":1}}}`,
	} {
		if callproto.ValidateEvent([]byte(bad)) == nil {
			t.Errorf("%s passed the schema", bad)
		}
	}

	// A hub of the previous protocol: no warnings, no http.
	old := map[string]string{
		"old.get":  `{"type":"call.responded","requestId":%q,"output":{"data":{"id":1,"name":"lamp"},"meta":{"source":"local","operationId":"old.get","timestamp":1}}}`,
		"old.fail": `{"type":"call.error","requestId":%q,"error":{"code":"EXECUTION_ERROR","message":"HTTP 404 Not Found","operationId":"old.fail"}}`,
	}
	sub, err := base.Subscribe(callproto.SubjectsFor("old").Requested, "", func(data []byte) {
		var r callproto.Requested
		json.Unmarshal(data, &r)
		base.Publish(context.Background(), r.ReplyTo, fmt.Appendf(nil, old[r.OperationID], r.RequestID))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	typedCalls := 0
	oldSpoke, err := callproto.NewPendingRequestMap(base, callproto.SpokeOptions{Prefix: "old", TypedErrors: []func(*rt.CallError) error{
		func(ce *rt.CallError) error { typedCalls++; return responses.TypedError(ce) },
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer oldSpoke.Close()
	item, err := callproto.CallAs[e2ehttp.Item](ctx, oldSpoke, "old.get", nil)
	if err != nil || item.Data.Name != "lamp" || item.Warnings != nil {
		t.Fatalf("old.get: %+v %v", item, err)
	}
	_, err = callproto.CallAs[e2ehttp.Item](ctx, oldSpoke, "old.fail", nil)
	var ce *rt.CallError
	if !errors.As(err, &ce) || ce.Code != rt.CodeExecution || ce.Message != "HTTP 404 Not Found" || ce.HTTP != nil || typedCalls != 0 {
		t.Fatalf("old.fail: %T %v (typed %d times)", err, err, typedCalls)
	}
}

func compactJSON(t *testing.T, b json.RawMessage) json.RawMessage {
	t.Helper()
	if len(b) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}
