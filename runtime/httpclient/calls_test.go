package httpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

var okJSON = []Response{{Status: "200", Kind: BodyJSON}}

// fastRetry retries quickly, so that tests do not wait.
var fastRetry = RetryPolicy{MaxAttempts: 4, InitialBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond}

func TestOperationInContextAndMiddlewareOrder(t *testing.T) {
	srv := newRecorder(t, reply(200, "application/json", `{"ok":true}`))
	var order []string
	var seenOps []Operation
	var resend []int
	mw := func(name string) Middleware {
		return func(next http.RoundTripper) http.RoundTripper {
			return RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
				order = append(order, name+">")
				op, ok := OperationFrom(req.Context())
				if !ok {
					t.Errorf("%s: no operation in the request context", name)
				}
				seenOps = append(seenOps, op)
				resend = append(resend, ResendCount(req.Context()))
				req.Header.Set("X-"+name, "1")
				resp, err := next.RoundTrip(req)
				order = append(order, "<"+name)
				return resp, err
			})
		}
	}
	// The *http.Client's own transport sees the operation too.
	var transportOp Operation
	hc := &http.Client{Transport: RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
		transportOp, _ = OperationFrom(req.Context())
		order = append(order, "transport")
		return http.DefaultTransport.RoundTrip(req)
	})}
	var hooks []string
	c := New(srv.URL, nil, WithHTTPClient(hc), WithMiddleware(mw("A"), mw("B")),
		WithBeforeRequest(func(req *http.Request) error {
			op, _ := OperationFrom(req.Context())
			hooks = append(hooks, "before "+op.ID+" "+req.Header.Get("X-A"))
			return nil
		}),
		WithAfterResponse(func(resp *http.Response) error {
			op, _ := OperationFrom(resp.Request.Context())
			hooks = append(hooks, fmt.Sprintf("after %s %d", op.ID, resp.StatusCode))
			return nil
		}))
	r := c.NewRequest("getPet", "GET", "/pets/{petId}", "pets", "read")
	r.PathParam("petId", StyleSimple, false, 7)
	env, err := Do[map[string]any](context.Background(), c, r, okJSON)
	if err != nil {
		t.Fatal(err)
	}
	if env.Data["ok"] != true {
		t.Errorf("data = %v", env.Data)
	}
	want := Operation{ID: "getPet", Method: "GET", PathTemplate: "/pets/{petId}", Tags: []string{"pets", "read"}}
	for _, op := range append(seenOps, transportOp) {
		if op.ID != want.ID || op.Method != want.Method || op.PathTemplate != want.PathTemplate || !slices.Equal(op.Tags, want.Tags) {
			t.Errorf("operation = %+v, want %+v", op, want)
		}
	}
	if got := strings.Join(order, " "); got != "A> B> transport <B <A" {
		t.Errorf("order = %s", got)
	}
	if got := strings.Join(hooks, "; "); got != "before getPet ; after getPet 200" {
		t.Errorf("hooks = %s", got)
	}
	if h := srv.last(t).header; h.Get("X-A") != "1" || h.Get("X-B") != "1" {
		t.Errorf("middleware headers not sent: %v", h)
	}
	if !slices.Equal(resend, []int{0, 0}) {
		t.Errorf("resend counts = %v", resend)
	}
	if _, ok := OperationFrom(context.Background()); ok {
		t.Error("OperationFrom found an operation in a bare context")
	}
}

func TestHookErrors(t *testing.T) {
	srv := newRecorder(t, reply(503, "", ""))
	boom := errors.New("boom")
	c := New(srv.URL, nil, WithRetry(fastRetry), WithBeforeRequest(func(*http.Request) error { return boom }))
	_, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	var ce *runtime.CallError
	if !errors.Is(err, boom) || !errors.As(err, &ce) || ce.Code != runtime.CodeTransport || srv.count() != 0 {
		t.Errorf("before hook: err = %v, %d requests", err, srv.count())
	}
	c = New(srv.URL, nil, WithRetry(fastRetry), WithAfterResponse(func(resp *http.Response) error {
		return fmt.Errorf("rejected %d", resp.StatusCode)
	}))
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if err == nil || !strings.Contains(err.Error(), "after-response hook: rejected 503") || srv.count() != 1 {
		t.Errorf("after hook: err = %v, %d requests (want 1: a hook error is not retried)", err, srv.count())
	}
}

// flaky answers status (with headers) to the first n requests, then 200.
func flaky(n int, status int, headers ...string) (http.HandlerFunc, *atomic.Int32) {
	var count atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if int(count.Add(1)) <= n {
			for i := 0; i+1 < len(headers); i += 2 {
				w.Header().Set(headers[i], headers[i+1])
			}
			w.WriteHeader(status)
			io.WriteString(w, `{"error":"try later"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}, &count
}

func TestRetryStatuses(t *testing.T) {
	for _, status := range []int{429, 502, 503, 504} {
		h, count := flaky(2, status)
		srv := newRecorder(t, h)
		c := New(srv.URL, nil, WithRetry(fastRetry))
		env, err := Do[map[string]any](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON)
		if err != nil || env.Data["ok"] != true || count.Load() != 3 {
			t.Errorf("%d: err = %v, data %v, %d requests (want 3)", status, err, env.Data, count.Load())
		}
	}
	// 500 is not retried by default, and without a policy nothing is.
	h, count := flaky(1, 500)
	srv := newRecorder(t, h)
	c := New(srv.URL, nil, WithRetry(fastRetry))
	_, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if runtime.StatusCode(err) != 500 || count.Load() != 1 {
		t.Errorf("500: err = %v, %d requests", err, count.Load())
	}
	h, count = flaky(1, 503)
	srv = newRecorder(t, h)
	c = New(srv.URL, nil)
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if runtime.StatusCode(err) != 503 || count.Load() != 1 {
		t.Errorf("no policy: err = %v, %d requests", err, count.Load())
	}
	// Attempts are bounded: the last failure is returned.
	h, count = flaky(100, 503)
	srv = newRecorder(t, h)
	c = New(srv.URL, nil, WithRetry(fastRetry))
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if runtime.StatusCode(err) != 503 || count.Load() != 4 {
		t.Errorf("bounded: err = %v, %d requests (want 4)", err, count.Load())
	}
	// A call option replaces the policy.
	h, count = flaky(1, 503)
	srv = newRecorder(t, h)
	c = New(srv.URL, nil, WithRetry(fastRetry))
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil, WithCallRetry(RetryPolicy{}))
	if runtime.StatusCode(err) != 503 || count.Load() != 1 {
		t.Errorf("WithCallRetry: err = %v, %d requests", err, count.Load())
	}
}

func TestRetryMethods(t *testing.T) {
	for _, tc := range []struct {
		method string
		header string
		want   int32
	}{
		{"GET", "", 2}, {"PUT", "", 2}, {"DELETE", "", 2}, {"HEAD", "", 2},
		{"POST", "", 1}, {"PATCH", "", 1},
		{"POST", "key-1", 2},
	} {
		h, count := flaky(1, 503)
		srv := newRecorder(t, h)
		c := New(srv.URL, nil, WithRetry(fastRetry))
		r := c.NewRequest("op", tc.method, "/")
		r.JSONBody("", map[string]int{"n": 1})
		var opts []CallOption
		if tc.header != "" {
			opts = append(opts, WithRequestHeader("Idempotency-Key", tc.header))
		}
		Do[struct{}](context.Background(), c, r, nil, opts...)
		if count.Load() != tc.want {
			t.Errorf("%s (Idempotency-Key %q): %d requests, want %d", tc.method, tc.header, count.Load(), tc.want)
		}
		if tc.want == 2 && tc.method != "HEAD" {
			if b := srv.last(t).body; string(b) != `{"n":1}` {
				t.Errorf("%s: retried body = %q", tc.method, b)
			}
		}
	}
}

func TestRetryAfter(t *testing.T) {
	// Seconds: the wait is the server's, not the (tiny) backoff.
	var times []time.Time
	var mu sync.Mutex
	h, _ := flaky(1, 429, "Retry-After", "1")
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		h(w, r)
	})
	c := New(srv.URL, nil, WithRetry(fastRetry))
	if _, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON); err != nil {
		t.Fatal(err)
	}
	if len(times) != 2 || times[1].Sub(times[0]) < 900*time.Millisecond {
		t.Errorf("Retry-After: 1 not honoured: %d requests, waited %v", len(times), times[len(times)-1].Sub(times[0]))
	}
	// An HTTP date.
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if d, ok := retryAfter(now.Add(90*time.Second).Format(http.TimeFormat), now); !ok || d != 90*time.Second {
		t.Errorf("HTTP date: %v %v", d, ok)
	}
	if d, ok := retryAfter(now.Add(-time.Hour).Format(http.TimeFormat), now); !ok || d != 0 {
		t.Errorf("past date: %v %v", d, ok)
	}
	for _, bad := range []string{"", "-1", "soon", "1.5"} {
		if _, ok := retryAfter(bad, now); ok {
			t.Errorf("retryAfter(%q) accepted", bad)
		}
	}
	// A Retry-After longer than MaxRetryAfter ends the retries.
	h, count := flaky(5, 503, "Retry-After", "3600")
	srv = newRecorder(t, h)
	c = New(srv.URL, nil, WithRetry(fastRetry))
	start := time.Now()
	_, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	// Waiting would take an hour: 10 s is a bound for a failure, not a timing.
	if runtime.StatusCode(err) != 503 || count.Load() != 1 || time.Since(start) > 10*time.Second {
		t.Errorf("long Retry-After: err = %v, %d requests in %v", err, count.Load(), time.Since(start))
	}
}

func TestRetryRespectsDeadline(t *testing.T) {
	// The server throttles for 100 s: with a 40 s deadline, no wait starts
	// and the 429 is returned at once. Waiting would end at the deadline,
	// so returning within 20 s tells them apart however loaded the machine.
	h, count := flaky(5, 429, "Retry-After", "100")
	srv := newRecorder(t, h)
	c := New(srv.URL, nil, WithRetry(fastRetry))
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Do[struct{}](ctx, c, c.NewRequest("op", "GET", "/"), nil)
	if runtime.StatusCode(err) != 429 || count.Load() != 1 || time.Since(start) > 20*time.Second {
		t.Errorf("err = %v, %d requests in %v", err, count.Load(), time.Since(start))
	}
	// The same through the client's timeout.
	c = New(srv.URL, nil, WithRetry(fastRetry), WithTimeout(40*time.Second))
	count.Store(0)
	start = time.Now()
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if runtime.StatusCode(err) != 429 || count.Load() != 1 || time.Since(start) > 20*time.Second {
		t.Errorf("WithTimeout: err = %v, %d requests in %v", err, count.Load(), time.Since(start))
	}
}

// hanging is a server that hangs on the first n requests until the test
// ends, then answers 200.
func hanging(t *testing.T, n int) (*httptest.Server, *atomic.Int32) {
	var count atomic.Int32
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if int(count.Add(1)) <= n {
			select {
			case <-done:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv, &count
}

func TestHangingServer(t *testing.T) {
	srv, count := hanging(t, 100)
	for name, opts := range map[string][]Option{
		"operation timeout": {WithOperationTimeout("op", 200*time.Millisecond), WithRetry(fastRetry)},
		"client timeout":    {WithTimeout(200 * time.Millisecond)},
	} {
		count.Store(0)
		c := New(srv.URL, nil, opts...)
		start := time.Now()
		_, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
		// The server hangs until the test ends: the bound tells a missed
		// timeout from a slow machine.
		if !errors.Is(err, runtime.ErrTimeout) || time.Since(start) > 20*time.Second {
			t.Errorf("%s: err = %v after %v", name, err, time.Since(start))
		}
	}
	// A call's timeout overrides the operation's.
	c := New(srv.URL, nil, WithOperationTimeout("op", time.Hour))
	start := time.Now()
	_, err := Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil, WithCallTimeout(100*time.Millisecond))
	if !errors.Is(err, runtime.ErrTimeout) || time.Since(start) > 20*time.Second {
		t.Errorf("WithCallTimeout: err = %v after %v", err, time.Since(start))
	}

	// With an attempt timeout, a hung attempt is retried.
	srv, count = hanging(t, 2)
	p := fastRetry
	p.AttemptTimeout = 100 * time.Millisecond
	c = New(srv.URL, nil, WithRetry(p))
	env, err := Do[map[string]any](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON)
	if err != nil || env.Data["ok"] != true || count.Load() != 3 {
		t.Errorf("attempt timeout: err = %v, %d requests", err, count.Load())
	}
	// Without retries left, the attempt timeout is a TIMEOUT.
	srv, _ = hanging(t, 100)
	p.MaxAttempts = 2
	c = New(srv.URL, nil, WithRetry(p))
	_, err = Do[struct{}](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if !errors.Is(err, runtime.ErrTimeout) {
		t.Errorf("attempt timeout, no retries left: err = %v", err)
	}
}

func TestRetryTransportError(t *testing.T) {
	// A server that drops the connection of the first request.
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if count.Add(1) == 1 {
			panic(http.ErrAbortHandler)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	c := New(srv.URL, nil, WithRetry(fastRetry))
	env, err := Do[map[string]any](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON)
	if err != nil || env.Data["ok"] != true || count.Load() != 2 {
		t.Errorf("err = %v, %d requests", err, count.Load())
	}
}

// readerOnly hides every method of a reader but Read (it cannot seek).
type readerOnly struct{ io.Reader }

func TestRetryReplaysBodies(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		if mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
			mr := multipart.NewReader(r.Body, params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				data, _ := io.ReadAll(p)
				fmt.Fprintf(&b, "%s=%s;", p.FormName(), data)
			}
		} else {
			data, _ := io.ReadAll(r.Body)
			fmt.Fprintf(&b, "%s (%d)", data, r.ContentLength)
		}
		mu.Lock()
		bodies = append(bodies, b.String())
		mu.Unlock()
		if count.Add(1)%2 == 1 {
			w.WriteHeader(503)
		}
	}))
	defer srv.Close()
	file := filepath.Join(t.TempDir(), "cat.txt")
	if err := os.WriteFile(file, []byte("meow"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(srv.URL, nil, WithRetry(fastRetry))
	check := func(name string, want string, r *Request) {
		t.Helper()
		bodies = nil
		if _, err := Do[struct{}](context.Background(), c, r, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(bodies) != 2 || bodies[0] != want || bodies[1] != want {
			t.Errorf("%s: bodies = %q, want 2 × %q", name, bodies, want)
		}
	}

	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	r := c.NewRequest("op", "PUT", "/")
	r.RawBody("text/plain", f)
	check("file", "meow (4)", r)
	if _, err := f.Read(make([]byte, 1)); err == nil {
		t.Error("the raw body (an io.Closer) was not closed after the call")
	}

	r = c.NewRequest("op", "PUT", "/")
	r.RawBody("text/plain", readerOnly{strings.NewReader("streamed")})
	check("stream (buffered)", "streamed (8)", r)

	f, _ = os.Open(file)
	defer f.Close()
	r = c.NewRequest("op", "PUT", "/")
	r.MultipartBody([]Part{
		{Name: "note", Value: "hi"},
		{Name: "file", FileName: "cat.txt", Reader: File{Body: f}},
		{Name: "stream", FileName: "s.bin", Reader: readerOnly{strings.NewReader("bytes")}},
	})
	check("multipart", "note=hi;file=meow;stream=bytes;", r)

	// A stream over the buffering bound is sent once, not retried.
	bodies = nil
	p := fastRetry
	p.MaxBufferedBody = 3
	c = New(srv.URL, nil, WithRetry(p))
	r = c.NewRequest("op", "PUT", "/")
	r.RawBody("text/plain", readerOnly{strings.NewReader("too long")})
	_, err = Do[struct{}](context.Background(), c, r, nil)
	if runtime.StatusCode(err) != 503 || len(bodies) != 1 || bodies[0] != "too long (-1)" {
		t.Errorf("over the bound: err = %v, bodies %q", err, bodies)
	}
}

func TestRedactedURL(t *testing.T) {
	var got string
	srv := newRecorder(t, reply(200, "", ""))
	c := New(srv.URL, []SecurityScheme{{Name: "k", Type: "apiKey", In: "query", ParamName: "api_key"}},
		WithCredential("k", APIKey("s3cret")),
		WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
			return RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
				got = RedactedURL(req)
				return next.RoundTrip(req)
			})
		}))
	r := c.NewRequest("op", "GET", "/x")
	r.QueryParam("q", StyleForm, true, false, "cats")
	r.QueryParam("sig", StyleForm, true, false, "abc")
	r.Security([][]string{{"k"}})
	if _, err := Do[struct{}](context.Background(), c, r, nil); err != nil {
		t.Fatal(err)
	}
	if want := srv.URL + "/x?q=cats&sig=REDACTED&api_key=REDACTED"; got != want {
		t.Errorf("RedactedURL = %s, want %s", got, want)
	}
	if !strings.Contains(srv.last(t).requestURI, "api_key=s3cret") {
		t.Errorf("the credential was not sent: %s", srv.last(t).requestURI)
	}
	// A key already in the query (a parameter of the same name wins over the
	// credential) is masked as well.
	r = c.NewRequest("op", "GET", "/x")
	r.QueryParam("api_key", StyleForm, true, false, "other")
	r.Security([][]string{{"k"}})
	if _, err := Do[struct{}](context.Background(), c, r, nil); err != nil {
		t.Fatal(err)
	}
	if want := srv.URL + "/x?api_key=REDACTED"; got != want {
		t.Errorf("RedactedURL = %s, want %s", got, want)
	}
	req, _ := http.NewRequest("GET", "https://u:p@example.com/a?b=c", nil)
	if got := RedactedURL(req); got != "https://REDACTED:REDACTED@example.com/a?b=c" {
		t.Errorf("userinfo: %s", got)
	}
}

func TestReadCloserTimeoutEndsAtClose(t *testing.T) {
	srv := newRecorder(t, reply(200, "application/octet-stream", "data"))
	c := New(srv.URL, nil, WithTimeout(time.Second))
	env, err := Do[io.ReadCloser](context.Background(), c, c.NewRequest("op", "GET", "/"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(env.Data)
	env.Data.Close()
	if err != nil || !bytes.Equal(b, []byte("data")) {
		t.Errorf("body = %q, %v", b, err)
	}
}

func TestStreamReconnects(t *testing.T) {
	// Connection 1 sends events 1 and 2 (with retry: 50) and drops in the
	// middle of event 3; connection 2 must carry Last-Event-ID: 2 and gets
	// events 3 and 4, then the stream ends normally.
	var mu sync.Mutex
	var lastIDs []string
	var conns atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		n := conns.Add(1)
		if n == 1 {
			io.WriteString(w, "retry: 50\nid: 1\ndata: one\n\nid: 2\ndata: two\n\nid: 3\ndata: thr")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // drop the connection mid-event
		}
		io.WriteString(w, "id: 3\ndata: three\n\nid: 4\ndata: four\n\n")
	}))
	defer srv.Close()
	hook, warnings := collectWarnings()
	c := New(srv.URL, nil, hook, WithReconnect(ReconnectPolicy{MaxAttempts: 3, Delay: time.Hour}))
	var got []string
	start := time.Now()
	for env, err := range Stream[string](t.Context(), c, c.NewRequest("watch", "GET", "/events"), nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data+"#"+runtime.HTTPMetaOf(env.Meta).LastEventID)
	}
	if strings.Join(got, " ") != "one#1 two#2 three#3 four#4" {
		t.Errorf("events = %v", got)
	}
	if !slices.Equal(lastIDs, []string{"", "2"}) {
		t.Errorf("Last-Event-ID of the connections = %q", lastIDs)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the server's retry (50 ms) did not replace the 1 h delay: %v", time.Since(start))
	}
	if ws := warnings(); len(ws) != 1 || !strings.Contains(ws[0].Message, "reconnecting") {
		t.Errorf("warnings = %+v", ws)
	}

	// Without a policy the drop is a TRANSPORT_ERROR after the events.
	conns.Store(0)
	c = New(srv.URL, nil, hook)
	got = nil
	var last error
	for env, err := range Stream[string](t.Context(), c, c.NewRequest("watch", "GET", "/events"), nil) {
		if err != nil {
			last = err
			continue
		}
		got = append(got, env.Data)
	}
	var ce *runtime.CallError
	if strings.Join(got, " ") != "one two" || !errors.As(last, &ce) || ce.Code != runtime.CodeTransport {
		t.Errorf("no policy: events %v, err %v", got, last)
	}
}

func TestStreamReconnectBounded(t *testing.T) {
	// Every connection drops before any event: MaxAttempts reconnections,
	// then the error.
	var conns atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conns.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: partial")
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}))
	defer srv.Close()
	hook, _ := collectWarnings()
	c := New(srv.URL, nil, hook, WithReconnect(ReconnectPolicy{MaxAttempts: 2, Delay: time.Millisecond}))
	var errs []error
	for _, err := range Stream[string](t.Context(), c, c.NewRequest("watch", "GET", "/events"), nil) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || errs[0] == nil || conns.Load() != 3 {
		t.Errorf("errs = %v, %d connections (want 3)", errs, conns.Load())
	}
	// A 204 on reconnection ends the stream quietly; OnEOF reconnects after
	// a normal end.
	conns.Store(0)
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if conns.Add(1) > 1 {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: only\n\n")
	}))
	defer srv2.Close()
	c = New(srv2.URL, nil, hook, WithReconnect(ReconnectPolicy{MaxAttempts: 5, Delay: time.Millisecond, OnEOF: true}))
	var got []string
	for env, err := range Stream[string](t.Context(), c, c.NewRequest("watch", "GET", "/events"), nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data)
	}
	if !slices.Equal(got, []string{"only"}) || conns.Load() != 2 {
		t.Errorf("OnEOF + 204: events %v, %d connections", got, conns.Load())
	}
}

func TestOperationInOwnTransport(t *testing.T) {
	// Without middlewares or hooks, a custom transport still sees the operation.
	var op Operation
	hc := &http.Client{Transport: RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
		op, _ = OperationFrom(req.Context())
		return &http.Response{StatusCode: 204, Body: http.NoBody, Header: http.Header{}, Request: req}, nil
	})}
	c := New("http://h", nil, WithHTTPClient(hc))
	if _, err := Do[struct{}](context.Background(), c, c.NewRequest("ping", "HEAD", "/ping", "health"), nil); err != nil {
		t.Fatal(err)
	}
	if op.ID != "ping" || op.Method != "HEAD" || op.PathTemplate != "/ping" || !slices.Equal(op.Tags, []string{"health"}) {
		t.Errorf("operation = %+v", op)
	}
}
