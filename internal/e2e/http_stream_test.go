package e2e_test

import (
	"context"
	"errors"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// quietHTTP keeps the pipeline's warnings out of the test log.
var quietHTTP = e2ehttp.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// warningLog collects the warnings a client reports through its hook.
type warningLog struct {
	mu sync.Mutex
	ws []runtime.Warning
}

func (l *warningLog) hook(_ context.Context, w runtime.Warning) {
	l.mu.Lock()
	l.ws = append(l.ws, w)
	l.mu.Unlock()
}

func (l *warningLog) all() []runtime.Warning {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]runtime.Warning(nil), l.ws...)
}

// sseEvent is what a test expects of one envelope of a stream.
type sseEvent struct {
	n           int64
	event, id   string
	errCode     runtime.ErrorCode // set for an error element
	errorStatus int
}

// collectTicks iterates a Ticks stream, stopping after max elements (when
// max > 0) and calling after(i) after element i.
func collectTicks(t *testing.T, seq iter.Seq2[runtime.ResponseEnvelope[e2ehttp.Tick], error], max int, after func(i int)) []sseEvent {
	t.Helper()
	var got []sseEvent
	for env, err := range seq {
		var e sseEvent
		if err != nil {
			var ce *runtime.CallError
			if !errors.As(err, &ce) {
				t.Fatalf("stream error %v (%T) is not a *runtime.CallError", err, err)
			}
			e.errCode = ce.Code
			if ce.HTTP != nil {
				e.errorStatus = ce.HTTP.StatusCode
			}
		} else {
			m := httpMeta(t, env)
			if m.ContentType != "text/event-stream" || m.StatusCode != 200 {
				t.Errorf("event meta = %+v", m)
			}
			e.n, e.event, e.id = env.Data.N, m.EventType, m.LastEventID
		}
		got = append(got, e)
		if after != nil {
			after(len(got) - 1)
		}
		if max > 0 && len(got) == max {
			break
		}
	}
	return got
}

// TestHTTPStream reads a text/event-stream operation: event names and ids,
// multi-line data, and a malformed frame skipped with a warning.
func TestHTTPStream(t *testing.T) {
	frames := "event: tick\nid: 1\ndata: {\"n\":1}\n\n" +
		": a comment\ndata: {\"n\":2}\n\n" +
		"event: tick\nid: 3\ndata: not json\n\n" +
		"id: 4\ndata: {\"n\":\ndata: 4}\n\n" +
		"data: {\"n\":5}" // unterminated at the end: discarded
	srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, frames)
	})
	var log warningLog
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"), e2ehttp.WithWarningHook(log.hook), quietHTTP)

	got := collectTicks(t, c.Ticks(context.Background(), e2ehttp.TicksParams{From: ptrTo(int64(1))}), 0, nil)
	want := []sseEvent{
		{n: 1, event: "tick", id: "1"},
		{n: 2, id: "1"}, // the last event id persists
		{n: 4, id: "4"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %+v\nwant %+v", got, want)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/ticks?from=1")
	checkWireHeader(t, r, "Accept", "text/event-stream, application/json") // the events, or the default response's error
	checkWireHeader(t, r, "Authorization", "Bearer tok")

	ws := log.all()
	if len(ws) != 2 || !strings.Contains(ws[0].Message, `last id "3"`) || !strings.Contains(ws[0].Message, "skipped") ||
		!strings.Contains(ws[1].Message, "discarded") {
		t.Errorf("warnings = %q, want one for the malformed frame (id 3) and one for the unterminated event", ws)
	}
	for _, w := range ws {
		if w.OperationID != "ticks" {
			t.Errorf("warning %v names operation %q", w, w.OperationID)
		}
	}
}

// TestHTTPStreamStatusError: a status outside 2xx is the first and only
// element, typed by the spec's default response.
func TestHTTPStreamStatusError(t *testing.T) {
	srv := newWireServer(t, replyJSON(503, `{"title":"later"}`, ""))
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"))
	var errs []error
	n := 0
	for _, err := range c.Ticks(context.Background(), e2ehttp.TicksParams{}) {
		n++
		errs = append(errs, err)
	}
	if n != 1 || errs[0] == nil {
		t.Fatalf("got %d elements, errors %v; want one error", n, errs)
	}
	wantCallError(t, errs[0], runtime.CodeExecution)
	if p, ok := runtime.ErrorBody[e2ehttp.Problem](errs[0]); !ok || p.Title == nil || *p.Title != "later" {
		t.Errorf("typed body = %+v, %v", p, ok)
	}
	if runtime.StatusCode(errs[0]) != 503 {
		t.Errorf("status = %d", runtime.StatusCode(errs[0]))
	}
}

// TestHTTPStreamNotEventStream: a 200 response that is not an event stream
// is the first and only element, an error.
func TestHTTPStreamNotEventStream(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, `{"n":1}`, ""))
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"))
	got := collectTicks(t, c.Ticks(context.Background(), e2ehttp.TicksParams{}), 0, nil)
	if want := []sseEvent{{errCode: runtime.CodeDecode}}; !slices.Equal(got, want) {
		t.Errorf("elements = %+v, want %+v", got, want)
	}
}

// TestHTTPStreamCancel: cancelling the context ends a stream that the
// server keeps open, with one CANCELED element.
func TestHTTPStreamCancel(t *testing.T) {
	srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"n\":1}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // never sends another event
	})
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := collectTicks(t, c.Ticks(ctx, e2ehttp.TicksParams{}), 3, func(i int) {
		if i == 0 {
			cancel()
		}
	})
	want := []sseEvent{{n: 1}, {errCode: runtime.CodeCanceled}}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %+v\nwant %+v", got, want)
	}
}

// TestHTTPStreamStrict: in strict mode an event that does not match the
// schema is an error element, and the stream goes on.
func TestHTTPStreamStrict(t *testing.T) {
	srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"n\":1}\n\ndata: {}\n\ndata: {\"n\":3}\n\n")
	})
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"), e2ehttp.WithValidation(runtime.ValidateStrict), quietHTTP)
	got := collectTicks(t, c.Ticks(context.Background(), e2ehttp.TicksParams{}), 0, nil)
	want := []sseEvent{{n: 1}, {errCode: runtime.CodeValidation}, {n: 3}}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %+v\nwant %+v", got, want)
	}
}
