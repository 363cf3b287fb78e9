package mcpclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpdiff"
)

type watchText struct {
	Text string `json:"text"`
}

func addWatchTool(s *mcp.Server, name string) {
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Echoes."},
		func(_ context.Context, _ *mcp.CallToolRequest, in watchText) (*mcp.CallToolResult, watchText, error) {
			return nil, in, nil
		})
}

// watchServer is a go-sdk server listing "echo" and "add", recording the
// methods it receives.
func watchServer() (*mcp.Server, *methodLog) {
	s := mcp.NewServer(&mcp.Implementation{Name: "watch-test", Version: "1"}, nil)
	addWatchTool(s, "echo")
	addWatchTool(s, "add")
	log := &methodLog{}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			log.add(method)
			return next(ctx, method, req)
		}
	})
	return s, log
}

type methodLog struct {
	mu      sync.Mutex
	methods []string
}

func (l *methodLog) add(m string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.methods = append(l.methods, m)
}

func (l *methodLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.methods)
}

// hookResult is one call of a ListingHook.
type hookResult struct {
	diff mcpdiff.Diff
	err  error
}

func watchOptions(listing []byte) (*mcpclient.ConnectOptions, chan hookResult) {
	got := make(chan hookResult, 10)
	return &mcpclient.ConnectOptions{
		Listing: listing,
		OnListingChanged: func(_ context.Context, d mcpdiff.Diff, err error) {
			got <- hookResult{d, err}
		},
	}, got
}

// nextDiff waits for the hook's next report and checks its lines.
func nextDiff(t *testing.T, got chan hookResult, want ...string) {
	t.Helper()
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatalf("hook error: %v", r.err)
		}
		var lines []string
		for _, c := range r.diff {
			lines = append(lines, c.String())
		}
		if !slices.Equal(lines, want) {
			t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no listing change reported; want:\n%s", strings.Join(want, "\n"))
	}
}

const (
	reverseAdded = "COMPATIBLE reverse: tool added (regenerate to call it)"
	addRemoved   = "BREAKING   add: tool removed (the generated client still calls it)"
)

// changeListing makes two changes to s, one at a time, checking what the
// hook reports after each: the differences from the baseline.
func changeListing(t *testing.T, s *mcp.Server, got chan hookResult) {
	addWatchTool(s, "reverse")
	nextDiff(t, got, reverseAdded)
	s.RemoveTools("add")
	nextDiff(t, got, addRemoved, reverseAdded)
}

// In memory, go-sdk speaks 2026-07-28: the change notifications come on a
// subscriptions/listen stream.
func TestListingWatchSubscriptionsListen(t *testing.T) {
	s, log := watchServer()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	opts, got := watchOptions(nil)
	cs, err := mcpclient.Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("protocol %s, want 2026-07-28", v)
	}
	changeListing(t, s, got)
	// The notifications came on the stream (its request may reach the
	// server after Connect returns, but before any notification).
	if methods := log.list(); !slices.Contains(methods, "subscriptions/listen") {
		t.Errorf("no subscriptions/listen; the server received %v", methods)
	}
}

// Over streamable HTTP go-sdk v1.8.0 agrees on 2025-11-25: the server sends
// notifications/tools/list_changed on the session's stream.
func TestListingWatchStreamableHTTP(t *testing.T) {
	s, _ := watchServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	opts, got := watchOptions(nil)
	cs, err := mcpclient.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	changeListing(t, s, got)
}

// With a committed listing as the baseline, the first change reports every
// difference from it, including the ones from before the session.
func TestListingWatchCommittedBaseline(t *testing.T) {
	s, _ := watchServer()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	// The generated client knew "echo" (with an execution member go-sdk
	// does not model, which must not count) and "gone", not "add".
	listing := `{"protocolVersion":"2026-07-28","tools":[
		{"name":"echo","description":"Echoes.","execution":{"taskSupport":"optional"},
		 "inputSchema":{"type":"object","required":["text"],"properties":{"text":{"type":"string"}},"additionalProperties":false},
		 "outputSchema":{"type":"object","required":["text"],"properties":{"text":{"type":"string"}},"additionalProperties":false}},
		{"name":"gone","inputSchema":{"type":"object"}}]}`
	opts, got := watchOptions([]byte(listing))
	cs, err := mcpclient.Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	addWatchTool(s, "reverse")
	nextDiff(t, got,
		"COMPATIBLE add: tool added (regenerate to call it)",
		"BREAKING   gone: tool removed (the generated client still calls it)",
		reverseAdded)
}

func TestListingWatchBadOptions(t *testing.T) {
	ct, _ := mcp.NewInMemoryTransports()
	for _, tc := range []struct {
		opts *mcpclient.ConnectOptions
		want string
	}{
		{&mcpclient.ConnectOptions{Listing: []byte(`{"tools":[]}`)}, "Listing is set without OnListingChanged"},
		{&mcpclient.ConnectOptions{Listing: []byte(`{}`), OnListingChanged: func(context.Context, mcpdiff.Diff, error) {}},
			`ConnectOptions.Listing: no "tools" array`},
		{&mcpclient.ConnectOptions{Listing: []byte(`{"tools":[{"name":1}]}`), OnListingChanged: func(context.Context, mcpdiff.Diff, error) {}},
			"ConnectOptions.Listing: /tools/0:"},
	} {
		_, err := mcpclient.Connect(context.Background(), ct, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Connect: %v, want an error containing %q", err, tc.want)
		}
	}
}

// A server that changes its listing without notifying is watched through
// the listing's ttlMs: the watch lists again when it goes stale.
func TestListingWatchTTL(t *testing.T) {
	var silent sync.Mutex
	removed := false
	s := mcp.NewServer(&mcp.Implementation{Name: "watch-ttl", Version: "1"}, &mcp.ServerOptions{
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
			c.TTLMs, c.CacheScope = 20, "private"
		},
	})
	addWatchTool(s, "echo")
	addWatchTool(s, "add")
	// The change is made in the listing only: go-sdk would notify a change
	// made with RemoveTools.
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				silent.Lock()
				defer silent.Unlock()
				if removed {
					out := *lr
					out.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(tl *mcp.Tool) bool { return tl.Name == "add" })
					return &out, nil
				}
			}
			return res, err
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	opts, got := watchOptions(nil)
	cs, err := mcpclient.Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	silent.Lock()
	removed = true
	silent.Unlock()
	nextDiff(t, got, addRemoved)
}
