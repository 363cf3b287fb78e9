package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPServerURL: without WithBaseURL calls go to the document's server
// URL with its variables' defaults; ServerURL fills in other values.
func TestHTTPServerURL(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `{"id":5,"name":"n"}`, ""))
	target, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	tr := &hostTransport{target: target}
	hc := &http.Client{Transport: tr}

	for _, tt := range []struct {
		opts []e2ehttp.Option
		want string
	}{
		{nil, "https://eu.e2e.example/v2/items/5"},
		{[]e2ehttp.Option{e2ehttp.WithBaseURL(e2ehttp.ServerURL(map[string]string{"region": "us"}))}, "https://us.e2e.example/v2/items/5"},
		{[]e2ehttp.Option{e2ehttp.WithBaseURL(e2ehttp.ServerURL(map[string]string{"base": "v3", "region": "us"}))}, "https://us.e2e.example/v3/items/5"},
	} {
		opts := append([]e2ehttp.Option{e2ehttp.WithHTTPClient(hc), e2ehttp.WithBearer("t")}, tt.opts...)
		env, err := e2ehttp.NewClient(opts...).GetItem(ctx, e2ehttp.GetItemParams{ID: 5})
		if err != nil {
			t.Fatal(err)
		}
		if env.Data.Name != "n" {
			t.Errorf("data = %+v", env.Data)
		}
		// The *http.Client given with WithHTTPClient sent the request.
		if asked := tr.take(); !slices.Equal(asked, []string{tt.want}) {
			t.Errorf("requested %q, want %q", asked, tt.want)
		}
	}
	if got := e2ehttp.ServerURL(nil); got != "https://eu.e2e.example/v2" {
		t.Errorf("ServerURL(nil) = %q", got)
	}
	// A value is not substituted again.
	if got := e2ehttp.ServerURL(map[string]string{"base": "{region}", "region": "{base}"}); got != "https://{base}.e2e.example/{region}" {
		t.Errorf("ServerURL with braces = %q", got)
	}
}

// TestHTTPRequestOptions covers the client's and the call's headers, the
// User-Agent, request editors and the per-call base URL.
func TestHTTPRequestOptions(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	other := newWireServer(t, nil)
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL+"/api/"), e2ehttp.WithHeader("X-Client", "c1"), e2ehttp.WithUserAgent("e2e/1.0"))

	_, err := c.GetNote(ctx,
		e2ehttp.WithRequestHeader("X-Call", "k1"),
		e2ehttp.WithRequestHeader("X-Client", "replaced"),
		e2ehttp.WithRequestEditor(func(r *http.Request) error {
			r.Header.Add("X-Edited", r.Method+" "+r.URL.Path)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/api/note")
	checkWireHeader(t, r, "X-Client", "replaced")
	checkWireHeader(t, r, "X-Call", "k1")
	checkWireHeader(t, r, "X-Edited", "GET /api/note")
	checkWireHeader(t, r, "User-Agent", "e2e/1.0")

	// Options of one call do not stick to the client.
	srv.reset()
	if _, err := c.GetNote(ctx); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireHeader(t, r, "X-Client", "c1")
	checkWireHeader(t, r, "X-Call")

	// WithCallBaseURL sends one call elsewhere.
	srv.reset()
	if _, err := c.GetNote(ctx, e2ehttp.WithCallBaseURL(other.URL+"/v9")); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, other.only(t), "GET", "/v9/note")
	if n := len(srv.requests()); n != 0 {
		t.Errorf("the default server got %d requests", n)
	}

	// An editor's error fails the call before it is sent.
	srv.reset()
	refuse := errors.New("refused by editor")
	_, err = c.GetNote(ctx, e2ehttp.WithRequestEditor(func(*http.Request) error { return refuse }))
	if !errors.Is(err, refuse) {
		t.Errorf("err = %v, want the editor's error", err)
	}
	wantCallError(t, err, runtime.CodeTransport)
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestHTTPValidationModes: a response that drifts from its schema (a
// property of the wrong type, a missing required one, an undeclared one) is
// kept with warnings in warn mode, reported through the logger and the
// hook, an error in strict mode, and silently decoded with validation off;
// the call's mode overrides the client's.
func TestHTTPValidationModes(t *testing.T) {
	ctx := context.Background()
	drift := `{"id":"seven","extra":1,"size":"L"}`
	srv := newWireServer(t, replyJSON(200, drift, ""))

	type result struct {
		env  runtime.ResponseEnvelope[e2ehttp.Item]
		err  error
		hook []runtime.Warning
		log  string
	}
	call := func(clientOpts []e2ehttp.Option, callOpts ...e2ehttp.CallOption) result {
		var res result
		var wl warningLog
		var buf bytes.Buffer
		opts := append([]e2ehttp.Option{e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("t"),
			e2ehttp.WithWarningHook(wl.hook), e2ehttp.WithLogger(slog.New(slog.NewTextHandler(&buf, nil)))}, clientOpts...)
		res.env, res.err = e2ehttp.NewClient(opts...).GetItem(ctx, e2ehttp.GetItemParams{ID: 7}, callOpts...)
		res.hook, res.log = wl.all(), buf.String()
		return res
	}
	pointers := func(ws []runtime.Warning) []string {
		var ps []string
		for _, w := range ws {
			ps = append(ps, w.Pointer)
		}
		slices.Sort(ps)
		return ps
	}

	t.Run("warn", func(t *testing.T) {
		res := call(nil)
		if res.err != nil {
			t.Fatal(res.err)
		}
		// The rest of the data survives the drift.
		if res.env.Data.Size == nil || *res.env.Data.Size != "L" || res.env.Data.ID != 0 {
			t.Errorf("data = %+v", res.env.Data)
		}
		if ps := pointers(res.env.Warnings); !slices.Equal(ps, []string{"", "/id"}) {
			t.Errorf("warning pointers = %q, want the root (name missing) and /id (wrong type)", ps)
		}
		if len(res.hook) != len(res.env.Warnings) {
			t.Errorf("hook got %d warnings, envelope has %d", len(res.hook), len(res.env.Warnings))
		}
		if !strings.Contains(res.log, "level=WARN") || !strings.Contains(res.log, "getItem") {
			t.Errorf("log = %q, want a WARN record naming getItem", res.log)
		}
		if httpMeta(t, res.env).StatusCode != 200 {
			t.Errorf("meta = %+v", res.env.Meta)
		}
	})
	t.Run("strict", func(t *testing.T) {
		res := call([]e2ehttp.Option{e2ehttp.WithValidation(runtime.ValidateStrict)})
		ce := wantCallError(t, res.err, runtime.CodeValidation)
		if !slices.Contains(pointers(ce.Issues), "/id") {
			t.Errorf("issues = %v", ce.Issues)
		}
	})
	t.Run("off", func(t *testing.T) {
		// Off decodes only (runtime.ValidateOff): no normalization, but a
		// property the Go type cannot hold is dropped with a warning, not
		// a DECODE_ERROR (issue 11)...
		res := call([]e2ehttp.Option{e2ehttp.WithValidation(runtime.ValidateOff)})
		if res.err != nil || res.env.Data.ID != 0 || res.env.Data.Size == nil || !slices.Equal(pointers(res.env.Warnings), []string{"/id"}) {
			t.Errorf("off, wrong type: %+v %v, %v", res.env.Data, res.env.Warnings, res.err)
		}
		// ...and a drift that decodes is taken as is, without warnings
		// (and without the schema's default for size).
		srv.setReply(replyJSON(200, `{"id":1,"extra":1}`, ""))
		defer srv.setReply(replyJSON(200, drift, ""))
		res = call([]e2ehttp.Option{e2ehttp.WithValidation(runtime.ValidateOff)})
		if res.err != nil || !reflect.DeepEqual(res.env.Data, e2ehttp.Item{ID: 1}) {
			t.Errorf("off: %+v, %v", res.env.Data, res.err)
		}
		if len(res.env.Warnings) != 0 || len(res.hook) != 0 || res.log != "" {
			t.Errorf("validation off reported warnings: %v %v %q", res.env.Warnings, res.hook, res.log)
		}
	})
	t.Run("call overrides client", func(t *testing.T) {
		res := call([]e2ehttp.Option{e2ehttp.WithValidation(runtime.ValidateStrict)}, e2ehttp.WithCallValidation(runtime.ValidateWarn))
		if res.err != nil || len(res.env.Warnings) == 0 {
			t.Errorf("warn for the call: err %v, warnings %v", res.err, res.env.Warnings)
		}
		res = call(nil, e2ehttp.WithCallValidation(runtime.ValidateStrict))
		wantCallError(t, res.err, runtime.CodeValidation)
	})
}

// TestHTTPContextErrors: a cancelled context is CANCELED and a passed
// deadline TIMEOUT, both before anything is sent.
func TestHTTPContextErrors(t *testing.T) {
	srv := newWireServer(t, nil)
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.GetNote(ctx)
	wantCallError(t, err, runtime.CodeCanceled)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	_, err = c.GetNote(ctx)
	wantCallError(t, err, runtime.CodeTimeout)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want it to wrap context.DeadlineExceeded", err)
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent with a done context", n)
	}
}
