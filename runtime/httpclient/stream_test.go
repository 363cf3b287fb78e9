package httpclient

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/internal/leakcheck"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

type tick struct {
	Seq int    `json:"seq"`
	Msg string `json:"msg"`
}

func parseAll(t *testing.T, input string, maxLine, maxData int) ([]sseEvent, []string) {
	t.Helper()
	var warnings []string
	p := newSSEParser(strings.NewReader(input), maxLine, maxData, func(m string) { warnings = append(warnings, m) })
	var evs []sseEvent
	for {
		ev, err := p.next()
		if err == io.EOF {
			return evs, warnings
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

func TestSSEParser(t *testing.T) {
	cases := []struct {
		name     string
		input    string
		want     []sseEvent
		warnings int
	}{
		{"basic", "data: a\n\n", []sseEvent{{data: "a"}}, 0},
		{"multi-line data", "data: a\ndata:b\ndata:  c\n\n", []sseEvent{{data: "a\nb\n c"}}, 0},
		{"event and id", "event: add\nid: 1\ndata: x\n\ndata: y\n\nid\ndata: z\n\n",
			[]sseEvent{{typ: "add", data: "x", id: "1"}, {data: "y", id: "1"}, {data: "z"}}, 0},
		{"comments and retry", ": hello\nretry: 10\nretry: x\ndata: a\n:another\n\n", []sseEvent{{data: "a"}}, 0},
		{"CRLF", "data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n", []sseEvent{{data: "a\nb"}, {data: "c"}}, 0},
		{"CR", "data: a\rdata: b\r\rdata: c\r\r", []sseEvent{{data: "a\nb"}, {data: "c"}}, 0},
		{"mixed", "data: a\r\n\ndata: b\r\r\ndata: c\n\r", []sseEvent{{data: "a"}, {data: "b"}, {data: "c"}}, 0},
		{"BOM", "\uFEFFdata: a\n\n", []sseEvent{{data: "a"}}, 0},
		{"no data", "event: ping\n\nid: 5\n\ndata: a\n\n", []sseEvent{{data: "a", id: "5"}}, 0},
		{"empty data", "data\n\ndata:\n\n", []sseEvent{{data: ""}, {data: ""}}, 0},
		{"unknown field and no space", "foo: bar\ndata:x\nevent:e\n\n", []sseEvent{{typ: "e", data: "x"}}, 0},
		{"NUL in id ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", []sseEvent{{data: "a", id: "1"}, {data: "b", id: "1"}}, 0},
		{"no final blank line", "data: a\n\ndata: b\n", []sseEvent{{data: "a"}}, 1},
		{"no final newline", "data: a\n\ndata: b", []sseEvent{{data: "a"}}, 1},
		{"only a comment at the end", "data: a\n\n: bye", []sseEvent{{data: "a"}}, 0},
		{"long line", "data: " + strings.Repeat("x", 40) + "\ndata: more\n\ndata: ok\n\n", []sseEvent{{data: "ok"}}, 1},
		{"long line mid-frame keeps later frames", "event: big\ndata: a\ndata: " + strings.Repeat("x", 40) + "\r\nid: 9\n\nevent: small\ndata: b\n\n",
			[]sseEvent{{typ: "small", data: "b"}}, 1},
		{"long data", "data: " + strings.Repeat("y", 20) + "\ndata: " + strings.Repeat("y", 20) + "\n\ndata: z\n\n", []sseEvent{{data: "z"}}, 1},
	}
	for _, tc := range cases {
		got, warnings := parseAll(t, tc.input, 32, 32)
		if len(got) != len(tc.want) || len(warnings) != tc.warnings {
			t.Errorf("%s: got %+v, warnings %q; want %+v, %d warnings", tc.name, got, warnings, tc.want, tc.warnings)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: event %d: got %+v, want %+v", tc.name, i, got[i], tc.want[i])
			}
		}
	}
}

// TestSSEParserChunks feeds the stream one byte at a time, so that line
// ends (CR then LF) fall in separate reads.
func TestSSEParserChunks(t *testing.T) {
	input := "id: 1\r\ndata: a\r\n\r\ndata: b\r\r\n: c\rdata: d\n\n"
	p := newSSEParser(io.LimitReader(&oneByteReader{s: input}, int64(len(input))), 1<<10, 1<<10, func(m string) { t.Error(m) })
	var got []string
	for {
		ev, err := p.next()
		if err != nil {
			break
		}
		got = append(got, ev.id+"/"+ev.data)
	}
	if strings.Join(got, " ") != "1/a 1/b 1/d" {
		t.Errorf("got %q", got)
	}
}

type oneByteReader struct{ s string }

func (r *oneByteReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}

// sseServer serves body as an event stream, flushing after each chunk.
func sseServer(t *testing.T, status int, chunks ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "text/event-stream" {
			http.Error(w, "want Accept: text/event-stream", http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(status)
		for _, c := range chunks {
			io.WriteString(w, c)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func collectWarnings() (Option, func() []runtime.Warning) {
	var mu sync.Mutex
	var ws []runtime.Warning
	return func(cfg *Config) {
			cfg.Pipeline.Logger = slog.New(slog.DiscardHandler)
			cfg.Pipeline.OnWarning = func(_ context.Context, w runtime.Warning) {
				mu.Lock()
				ws = append(ws, w)
				mu.Unlock()
			}
		}, func() []runtime.Warning {
			mu.Lock()
			defer mu.Unlock()
			return append([]runtime.Warning(nil), ws...)
		}
}

func TestStreamEvents(t *testing.T) {
	srv := sseServer(t, 200,
		": welcome\nretry: 3000\n\n",
		"event: tick\nid: 1\ndata: {\"seq\":1,\n",
		"data: \"msg\":\"hello\"}\n\n",
		"data: {\"seq\":2,\"msg\":\"no id\"}\r\n\r\n",
		"id: 3\ndata: not json\n\n",
		"event: tick\nid: 4\ndata: {\"seq\":4,\"msg\":\"after bad\"}\n\n",
		"data: {\"seq\":5,\"msg\":\"unterminated\"}\n",
	)
	hook, warnings := collectWarnings()
	c := New(srv.URL, nil, hook)
	var got []runtime.ResponseEnvelope[tick]
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("watch", "GET", "/events"), []Response{{Status: "200", Kind: BodyEventStream}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env)
	}
	want := []struct {
		data    tick
		typ, id string
	}{
		{tick{1, "hello"}, "tick", "1"},
		{tick{2, "no id"}, "", "1"},
		{tick{4, "after bad"}, "tick", "4"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d events, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		m := runtime.HTTPMetaOf(got[i].Meta)
		if got[i].Data != w.data || m.EventType != w.typ || m.LastEventID != w.id || m.StatusCode != 200 ||
			m.ContentType != "text/event-stream" || m.Headers["cache-control"] != "no-cache" {
			t.Errorf("event %d: %+v %+v", i, got[i].Data, m)
		}
	}
	ws := warnings()
	if len(ws) != 2 || !strings.Contains(ws[0].Message, `last id "3"`) || !strings.Contains(ws[1].Message, "ended inside an event") || ws[0].OperationID != "watch" {
		t.Errorf("warnings: %+v", ws)
	}
	// The wire form matches vectors/envelopes/http-sse-event.json apart from the extra fields.
	b, _ := got[1].MarshalJSON()
	if !strings.Contains(string(b), `"contentType":"text/event-stream","lastEventId":"1"`) {
		t.Errorf("wire form: %s", b)
	}
}

func TestStreamStrings(t *testing.T) {
	srv := sseServer(t, 200, "data: line 1\ndata: line 2\n\ndata: {not json}\n\n")
	c := New(srv.URL, nil)
	var got []string
	for env, err := range Stream[string](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data)
	}
	if strings.Join(got, "|") != "line 1\nline 2|{not json}" {
		t.Errorf("got %q", got)
	}
}

func TestStreamStatusError(t *testing.T) {
	srv := httptest.NewServer(reply(503, "application/json", `{"code":"busy","message":"later"}`))
	defer srv.Close()
	c := New(srv.URL, nil)
	responses := []Response{{Status: "200", Kind: BodyEventStream}, {Status: "default", Kind: BodyJSON, NewError: func() any { return new(problem) }}}
	n := 0
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), responses) {
		n++
		if !errors.Is(err, runtime.ErrExecution) || env.Meta != nil {
			t.Errorf("got %+v, %v", env, err)
		}
		if p, ok := runtime.ErrorBody[problem](err); !ok || p.Code != "busy" {
			t.Errorf("typed error body: %+v %v", p, ok)
		}
	}
	if n != 1 {
		t.Errorf("%d elements, want 1", n)
	}
	// A 200 that is not an event stream is an error too.
	srv2 := httptest.NewServer(reply(200, "application/json", `{}`))
	defer srv2.Close()
	c = New(srv2.URL, nil)
	for _, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), `"application/json", want text/event-stream`) {
			t.Errorf("not a stream: %v", err)
		}
	}
}

func TestStreamStrictValidation(t *testing.T) {
	srv := sseServer(t, 200, "data: {\"seq\":\"one\"}\n\ndata: {\"seq\":2}\n\n")
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"seq":{"type":"integer"}}}`)
	c := New(srv.URL, nil, WithValidation(runtime.ValidateStrict))
	var errs, oks int
	for env, err := range Stream[map[string]any](t.Context(), c, c.NewRequest("op", "GET", "/"), []Response{{Status: "200", Schema: schema}}) {
		if err != nil {
			if !errors.Is(err, runtime.ErrValidation) {
				t.Errorf("error: %v", err)
			}
			errs++
			continue
		}
		if env.Data["seq"] != 2.0 {
			t.Errorf("data %v", env.Data)
		}
		oks++
	}
	if errs != 1 || oks != 1 {
		t.Errorf("errors %d, events %d", errs, oks)
	}
}

func TestStreamGiantLine(t *testing.T) {
	giant := "data: " + strings.Repeat("g", maxEventLine+100) + "\n\n"
	srv := sseServer(t, 200, "data: {\"seq\":1}\n\n", giant[:maxEventLine/2], giant[maxEventLine/2:], "data: {\"seq\":2}\n\n")
	hook, warnings := collectWarnings()
	c := New(srv.URL, nil, hook)
	var seqs []int
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, env.Data.Seq)
	}
	if len(seqs) != 2 || seqs[0] != 1 || seqs[1] != 2 {
		t.Errorf("seqs %v", seqs)
	}
	if ws := warnings(); len(ws) != 1 || !strings.Contains(ws[0].Message, "longer than 1048576 bytes") {
		t.Errorf("warnings %+v", ws)
	}
}

// streamingServer sends two events, then waits until the client goes away,
// and reports that on gone.
func streamingServer(t *testing.T) (*httptest.Server, <-chan struct{}) {
	return streamingServerOf(t, "data: {\"seq\":1}\n\ndata: {\"seq\":2}\n\n")
}

func streamingServerOf(t *testing.T, events string) (*httptest.Server, <-chan struct{}) {
	gone := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, events)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return srv, gone
}

func TestStreamCancel(t *testing.T) {
	srv, gone := streamingServer(t)
	c := New(srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var events []int
	var errs []error
	for env, err := range Stream[tick](ctx, c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		events = append(events, env.Data.Seq)
		cancel() // after the first event; the second is already buffered
	}
	if len(events) != 1 || len(errs) != 1 || !errors.Is(errs[0], runtime.ErrCanceled) {
		t.Errorf("events %v, errors %v", events, errs)
	}
	<-gone
}

// TestStreamCancelWhileReading cancels while the parser waits for data.
func TestStreamCancelWhileReading(t *testing.T) {
	srv, gone := streamingServerOf(t, "data: {\"seq\":1}\n\n")
	c := New(srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var events []int
	var errs []error
	for env, err := range Stream[tick](ctx, c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		events = append(events, env.Data.Seq)
		go cancel()
	}
	if len(events) != 1 || len(errs) != 1 || !errors.Is(errs[0], runtime.ErrCanceled) {
		t.Errorf("events %v, errors %v", events, errs)
	}
	<-gone
}

func TestStreamBreakClosesBody(t *testing.T) {
	srv, gone := streamingServer(t)
	c := New(srv.URL, nil)
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil || env.Data.Seq != 1 {
			t.Fatalf("%+v %v", env, err)
		}
		break
	}
	<-gone // the server saw the connection close
}

// TestStreamLazy checks that nothing is sent before iteration starts.
func TestStreamLazy(t *testing.T) {
	rec := newRecorder(t, reply(200, "text/event-stream", "data: 1\n\n"))
	c := New(rec.URL, nil)
	seq := Stream[int](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
	if rec.count() != 0 {
		t.Fatal("request sent before iteration")
	}
	for env, err := range seq {
		if err != nil || env.Data != 1 {
			t.Errorf("%+v %v", env, err)
		}
	}
	if rec.count() != 1 {
		t.Errorf("%d requests", rec.count())
	}
}

func TestNoGoroutineLeaks(t *testing.T) {
	srv, gone := streamingServer(t)
	fail := httptest.NewServer(reply(401, "", ""))
	defer fail.Close()
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	c := New(srv.URL, nil, WithHTTPClient(hc))
	before := goruntime.NumGoroutine()
	for range 5 {
		ctx, cancel := context.WithCancel(t.Context())
		for _, err := range Stream[tick](ctx, c, c.NewRequest("op", "GET", "/"), nil) {
			if err == nil {
				cancel()
			}
		}
		<-gone
		for range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
			break
		}
		<-gone
		// Multipart bodies are written by a goroutine: it must end when the
		// server answers without reading them, and when the call fails first.
		r := c.NewRequest("op", "POST", "/")
		r.MultipartBody([]Part{{Name: "f", Reader: strings.NewReader(strings.Repeat("x", 1<<20))}})
		Do[struct{}](t.Context(), c, r, nil, WithCallBaseURL(fail.URL))
		r = c.NewRequest("op", "POST", "/")
		r.MultipartBody([]Part{{Name: "f", Reader: strings.NewReader("x")}})
		r.Security([][]string{{"missing"}})
		if _, err := Do[struct{}](t.Context(), c, r, nil); !errors.Is(err, runtime.ErrAccessDenied) {
			t.Errorf("unsatisfied security: %v", err)
		}
		cancel()
	}
	// Connections the servers are closing linger for up to 500ms
	// (net/http's closeWriteAndWait).
	tr.CloseIdleConnections()
	leakcheck.Settle(t, before)
}

// FuzzSSEParser checks that the parser never fails on any input and that
// how the input is split into reads does not change the events.
func FuzzSSEParser(f *testing.F) {
	for _, s := range []string{
		"data: a\n\n", "event: e\r\nid: 1\r\ndata: {}\r\n\r\n", "data: a\rdata: b\r\r", ": c\n\nretry: 5\n",
		"\uFEFFdata: x\n\n", "data: " + strings.Repeat("z", 80) + "\n\ndata: y\n\n", "data: tail",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		whole, wholeWarnings := parseAll(t, input, 64, 128)
		splitWarnings := 0
		p := newSSEParser(&oneByteReader{s: input}, 64, 128, func(string) { splitWarnings++ })
		var split []sseEvent
		for {
			ev, err := p.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			split = append(split, ev)
		}
		if len(whole) != len(split) || len(wholeWarnings) != splitWarnings {
			t.Fatalf("%q: %d events, %d warnings whole; %d, %d byte by byte", input, len(whole), len(wholeWarnings), len(split), splitWarnings)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("%q: event %d: %+v whole, %+v byte by byte", input, i, whole[i], split[i])
			}
			if strings.Contains(whole[i].id, "\x00") {
				t.Fatalf("%q: id with NUL", input)
			}
		}
	})
}

// TestStreamBrokenConnection: a connection that dies mid-stream ends it with
// a TRANSPORT_ERROR after the events that arrived.
func TestStreamBrokenConnection(t *testing.T) {
	srv := brokenServer(t, "text/event-stream", "data: {\"seq\":1}\n\n")
	c := New(srv.URL, nil)
	var seqs []int
	var errs []error
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seqs = append(seqs, env.Data.Seq)
	}
	if len(seqs) != 1 || len(errs) != 1 || !errors.Is(errs[0], runtime.ErrTransport) {
		t.Errorf("events %v, errors %v", seqs, errs)
	}
}

// brokenServer answers 200 with a chunked body of the content type that
// holds payload, then drops the connection without the final chunk.
func brokenServer(t *testing.T, contentType, payload string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nTransfer-Encoding: chunked\r\n\r\n")
		buf.WriteString(strconv.FormatInt(int64(len(payload)), 16) + "\r\n" + payload + "\r\n")
		buf.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}
