package httpclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/internal/leakcheck"
	"github.com/opsgen/opsgen/runtime"
)

// Hostile servers: each test runs a real httptest server that misbehaves and
// checks that the call ends with a clear error (or a warning), never a hang,
// a panic or an unbounded read.

// endless writes chunk until the client goes away: a body with no end, so
// a client that does not enforce its cap never returns.
func endless(contentType, chunk string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}
}

func TestHostileOversizeBody(t *testing.T) {
	const limit = 4 << 10
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
		call func(c *Client) error
	}{
		{"json", func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"name":"`)
			endless("application/json", "aaaaaaaa")(w, r)
		}, func(c *Client) error {
			_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
			return err
		}},
		{"bytes", endless("application/octet-stream", strings.Repeat("b", 1024)), func(c *Client) error {
			_, err := Do[[]byte](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
			return err
		}},
		{"text", endless("text/plain", strings.Repeat("t", 1024)), func(c *Client) error {
			_, err := Do[string](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
			return err
		}},
		{"declared length", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000000000")
			endless("application/json", "[1,")(w, r)
		}, func(c *Client) error {
			_, err := Do[[]int](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.h)
			defer srv.Close()
			c := New(srv.URL, nil, WithMaxBodyBytes(limit))
			err := tc.call(c)
			if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), "exceeds 4096 bytes") {
				t.Fatalf("err = %v, want DECODE_ERROR naming the cap", err)
			}
		})
	}
}

func TestHostileErrorBodyIsBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(500)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, strings.Repeat("e", 1024)); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := New(srv.URL, nil)
	_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.HTTP == nil || ce.HTTP.StatusCode != 500 {
		t.Fatalf("err = %v, want an EXECUTION_ERROR with status 500", err)
	}
	if n := len(ce.HTTP.Body); n == 0 || n > DefaultMaxBodyBytes {
		t.Errorf("error body of %d bytes kept", n)
	}
}

func TestHostileSlowServer(t *testing.T) {
	// never answers; trickle sends headers, then one byte of body and stalls.
	never := func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }
	trickle := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") == "text/event-stream" {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {")
		} else {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "[")
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	for name, h := range map[string]http.HandlerFunc{"headers": never, "body": trickle} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(h)
			defer srv.Close()
			c := New(srv.URL, nil)
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			_, err := Do[[]int](ctx, c, c.NewRequest("op", "GET", "/"), nil)
			if !errors.Is(err, runtime.ErrTimeout) {
				t.Fatalf("err = %v, want TIMEOUT", err)
			}
			ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			r := c.NewRequest("op", "GET", "/")
			for _, err := range Stream[tick](ctx, c, r, nil) {
				if !errors.Is(err, runtime.ErrTimeout) {
					t.Fatalf("stream err = %v, want TIMEOUT", err)
				}
			}
		})
	}
}

func TestHostileTruncatedJSON(t *testing.T) {
	for _, body := range []string{`{"id": 1, "na`, `{"id":`, `[{"id":1},`, `{`} {
		srv := httptest.NewServer(reply(200, "application/json", body))
		c := New(srv.URL, nil)
		_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
		srv.Close()
		if !errors.Is(err, runtime.ErrDecode) {
			t.Errorf("body %q: err = %v, want DECODE_ERROR", body, err)
		}
	}
}

func TestHostileWrongContentType(t *testing.T) {
	srv := httptest.NewServer(reply(200, "text/html; charset=utf-8", "<html><body>login</body></html>"))
	defer srv.Close()
	c := New(srv.URL, nil)
	_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil)
	if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), `"text/html"`) {
		t.Errorf("err = %v, want DECODE_ERROR naming text/html", err)
	}
	// JSON labelled as something else is still decoded when it is JSON.
	srv2 := httptest.NewServer(reply(200, "text/plain", `{"id":7,"name":"x"}`))
	defer srv2.Close()
	env, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithCallBaseURL(srv2.URL))
	if err != nil || env.Data.ID != 7 {
		t.Errorf("JSON as text/plain: %+v, %v", env.Data, err)
	}
	// A stream operation answered with JSON fails before the first event.
	for _, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithCallBaseURL(srv2.URL)) {
		if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), "text/event-stream") {
			t.Errorf("stream err = %v", err)
		}
	}
}

func TestHostileSSE(t *testing.T) {
	// Comments, retry fields, ids and unknown fields interleaved with the
	// data; CRLF and CR line ends; a frame that is not JSON; a giant line in
	// the middle; and a final event with no terminating blank line.
	giant := "data: " + strings.Repeat("g", maxEventLine+1) + "\n\n"
	srv := sseServer(t, 200,
		": hello\r\nretry: 10\r\n", "id: 1\r\ndata: {\"seq\"", ":1}\r\n\r\n",
		"retry: x\n:comment\nfoo: bar\nevent: tick\ndata: {\"seq\":2}\n\n",
		"data: not json\n\n",
		giant[:100], giant[100:],
		"data: {\"seq\":3}\r\r",
		"data: {\"seq\":4}",
	)
	hook, warnings := collectWarnings()
	c := New(srv.URL, nil, hook)
	var seqs []int
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, env.Data.Seq)
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[1] != 2 || seqs[2] != 3 {
		t.Errorf("seqs %v, want [1 2 3]", seqs)
	}
	// One warning each: the non-JSON frame, the giant line, the unterminated event.
	if ws := warnings(); len(ws) != 3 {
		t.Errorf("warnings %+v", ws)
	}
}

// TestHostileNoLeaks repeats every hostile exchange and checks that the
// goroutine count settles back to where it was.
func TestHostileNoLeaks(t *testing.T) {
	tr := &http.Transport{}
	hc := &http.Client{Transport: tr}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			endless("application/json", "[1,")(w, r)
		case "/slow":
			<-r.Context().Done()
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"seq\":1}\n\n: c\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			reply(200, "application/json", `{"id":`)(w, r)
		}
	}))
	defer srv.Close()
	c := New(srv.URL, nil, WithHTTPClient(hc), WithMaxBodyBytes(1<<10))
	before := goruntime.NumGoroutine()
	for range 5 {
		Do[[]int](t.Context(), c, c.NewRequest("op", "GET", "/big"), nil)
		Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/trunc"), nil)
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		Do[pet](ctx, c, c.NewRequest("op", "GET", "/slow"), nil)
		for _, err := range Stream[tick](ctx, c, c.NewRequest("op", "GET", "/sse"), nil) {
			if err != nil {
				break
			}
		}
		cancel()
		for range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/sse"), nil) {
			break
		}
	}
	// Server-side connections being closed linger up to 500ms in net/http.
	leakcheck.Settle(t, before, tr.CloseIdleConnections)
}
