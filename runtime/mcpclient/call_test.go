package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

var toolProgress = &mcpclient.Tool{Name: mcptest.ToolProgress}

// echoedMeta calls ToolProgress and returns the _meta the server received.
func echoedMeta(t *testing.T, c *mcpclient.Client, steps int, opts ...mcpclient.CallOption) map[string]any {
	t.Helper()
	env, err := mcpclient.Call[string](context.Background(), c, toolProgress, map[string]any{"steps": steps}, opts...)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	var meta map[string]any
	if err := json.Unmarshal([]byte(env.Data), &meta); err != nil {
		t.Fatalf("server's echo %q: %v", env.Data, err)
	}
	return meta
}

func TestProgressAndMeta(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			c := mcpclient.New(tr.connect(t))

			t.Run("progress", func(t *testing.T) {
				// Many calls at once: each gets its own notifications, all of
				// them, in order, before Call returns.
				const calls, steps = 4, 25
				var wg sync.WaitGroup
				for i := range calls {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var got []mcpclient.Progress
						meta := echoedMeta(t, c, steps+i, mcpclient.WithProgress(func(_ context.Context, p mcpclient.Progress) {
							got = append(got, p) // one notification at a time
						}), mcpclient.WithMeta(map[string]any{"call": i}))
						if len(got) != steps+i {
							t.Errorf("call %d: %d notifications, want %d", i, len(got), steps+i)
							return
						}
						for j, p := range got {
							want := mcpclient.Progress{Tool: mcptest.ToolProgress, Progress: float64(j + 1), Total: float64(steps + i), Message: "step " + strconv.Itoa(j+1)}
							if p != want {
								t.Errorf("call %d: notification %d = %+v, want %+v", i, j, p, want)
							}
						}
						token, _ := meta["progressToken"].(string)
						if !strings.HasPrefix(token, "opsgen-") || meta["call"] != float64(i) {
							t.Errorf("call %d: server got _meta %v", i, meta)
						}
					}()
				}
				wg.Wait()
			})

			t.Run("meta without progress", func(t *testing.T) {
				user := map[string]any{"traceparent": "00-abc-def-01"}
				meta := echoedMeta(t, c, 3, mcpclient.WithMeta(user), mcpclient.WithMeta(map[string]any{"tenant": "t1"}))
				if meta["traceparent"] != "00-abc-def-01" || meta["tenant"] != "t1" {
					t.Errorf("server got _meta %v", meta)
				}
				if _, ok := meta["progressToken"]; ok {
					t.Errorf("progress token sent without WithProgress: %v", meta)
				}
				if len(user) != 1 {
					t.Errorf("WithMeta's map changed: %v", user)
				}
			})
		})
	}
}

// TestProgressNeedsWrapper shows why sessions come from Connect: without
// the wrapper the token is still sent, but the notifications only reach
// go-sdk's handler.
func TestProgressNeedsWrapper(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var sdkGot int
	var mu sync.Mutex
	client := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { mu.Lock(); sdkGot++; mu.Unlock() },
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	n := 0
	meta := echoedMeta(t, mcpclient.New(cs), 3, mcpclient.WithProgress(func(context.Context, mcpclient.Progress) { n++ }))
	if n != 0 || meta["progressToken"] == nil {
		t.Errorf("%d notifications through a bare session, token %v", n, meta["progressToken"])
	}
}

func TestMiddlewareAndHooks(t *testing.T) {
	cs := mcptest.InMemory(t)
	var mu sync.Mutex
	var trace []string
	log := func(s string) { mu.Lock(); trace = append(trace, s); mu.Unlock() }
	mw := func(name string) mcpclient.Middleware {
		return func(next mcpclient.Invoker) mcpclient.Invoker {
			return func(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				log(name + " > " + p.Name)
				res, err := next(ctx, p)
				log(name + " < " + p.Name)
				return res, err
			}
		}
	}
	c := mcpclient.New(cs,
		mcpclient.WithMiddleware(mw("outer"), mw("inner")),
		mcpclient.WithBeforeCall(func(_ context.Context, p *mcp.CallToolParams) error {
			log("before " + p.Name)
			if p.Meta == nil {
				p.Meta = mcp.Meta{}
			}
			p.Meta["added-by"] = "hook"
			return nil
		}),
		mcpclient.WithAfterResult(func(_ context.Context, p *mcp.CallToolParams, res *mcp.CallToolResult) error {
			log("after " + p.Name + " isError=" + map[bool]string{true: "true", false: "false"}[res.IsError])
			return nil
		}),
	)
	meta := echoedMeta(t, c, 0)
	if meta["added-by"] != "hook" {
		t.Errorf("before hook's _meta not sent: %v", meta)
	}
	if _, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, toolFail, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"before progress", "outer > progress", "inner > progress", "inner < progress", "outer < progress", "after progress isError=false",
		"before always-fail", "outer > always-fail", "inner > always-fail", "inner < always-fail", "outer < always-fail", "after always-fail isError=true",
	}
	if strings.Join(trace, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(trace, "\n"), strings.Join(want, "\n"))
	}

	t.Run("errors", func(t *testing.T) {
		refuse := errors.New("quota exceeded")
		sent := false
		c := mcpclient.New(cs,
			mcpclient.WithBeforeCall(func(context.Context, *mcp.CallToolParams) error { return refuse }),
			mcpclient.WithMiddleware(func(next mcpclient.Invoker) mcpclient.Invoker {
				return func(ctx context.Context, p *mcp.CallToolParams) (*mcp.CallToolResult, error) {
					sent = true
					return next(ctx, p)
				}
			}))
		_, err := mcpclient.Call[string](context.Background(), c, toolEcho, map[string]any{"text": "x"})
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeTransport || !errors.Is(err, refuse) || ce.OperationID != mcptest.ToolEcho || sent {
			t.Errorf("before hook error: %v (sent %v)", err, sent)
		}

		denied := runtime.Errorf(runtime.CodeAccessDenied, mcptest.ToolEcho, "not for you")
		c = mcpclient.New(cs, mcpclient.WithAfterResult(func(context.Context, *mcp.CallToolParams, *mcp.CallToolResult) error { return denied }))
		if _, err := mcpclient.Call[string](context.Background(), c, toolEcho, map[string]any{"text": "x"}); err != denied {
			t.Errorf("after hook's CallError = %v, want it as it is", err)
		}

		// A middleware answering itself, without the server.
		c = mcpclient.New(cs, mcpclient.WithMiddleware(func(mcpclient.Invoker) mcpclient.Invoker {
			return func(context.Context, *mcp.CallToolParams) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "cached"}}}, nil
			}
		}))
		env, err := mcpclient.Call[string](context.Background(), c, toolEcho, map[string]any{"text": "x"})
		if err != nil || env.Data != "cached" {
			t.Errorf("short-circuit = %q, %v", env.Data, err)
		}
	})
}

func TestTimeouts(t *testing.T) {
	cs := mcptest.InMemory(t)
	c := mcpclient.New(cs, mcpclient.WithTimeout(50*time.Millisecond))
	start := time.Now()
	_, err := mcpclient.Call[string](context.Background(), c, toolSlow, nil) // sleeps until canceled
	if !errors.Is(err, runtime.ErrTimeout) || time.Since(start) > 5*time.Second {
		t.Errorf("client timeout: %v after %v", err, time.Since(start))
	}
	env, err := mcpclient.Call[string](context.Background(), c, toolSlow, map[string]any{"seconds": 0.2}, mcpclient.WithCallTimeout(10*time.Second))
	if err != nil || env.Data != "done" {
		t.Errorf("call timeout replacing the client's: %q, %v", env.Data, err)
	}
	_, err = mcpclient.Call[string](context.Background(), mcpclient.New(cs), toolSlow, nil, mcpclient.WithCallTimeout(20*time.Millisecond))
	if !errors.Is(err, runtime.ErrTimeout) {
		t.Errorf("call timeout: %v", err)
	}
}

func TestCallValidation(t *testing.T) {
	c := mcpclient.New(mcptest.InMemory(t), quiet)
	if _, err := mcpclient.Call[mcptest.Weather](context.Background(), c, toolDrift, nil); err != nil {
		t.Errorf("warn mode: %v", err)
	}
	_, err := mcpclient.Call[mcptest.Weather](context.Background(), c, toolDrift, nil, mcpclient.WithCallValidation(runtime.ValidateStrict))
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("strict call: %v, want VALIDATION_ERROR", err)
	}
}

func TestConnectClientInfo(t *testing.T) {
	for _, tc := range []struct {
		opts          *mcpclient.ConnectOptions
		name, version string
	}{
		{nil, "opsgen", "devel"}, // a test binary has no module version
		{&mcpclient.ConnectOptions{Name: "acme-agent", Version: "2.1.0"}, "acme-agent", "2.1.0"},
	} {
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := mcptest.NewServer().Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcpclient.Connect(ctx, ct, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		// The session answers once initialized; then the server knows the client.
		if _, err := mcpclient.Call[string](ctx, mcpclient.New(cs), toolEcho, map[string]any{"text": "x"}); err != nil {
			t.Fatal(err)
		}
		info := ss.InitializeParams().ClientInfo
		if info.Name != tc.name || info.Version != tc.version {
			t.Errorf("server saw client %q %q, want %q %q", info.Name, info.Version, tc.name, tc.version)
		}
		cs.Close()
		ss.Close()
	}
}

func TestConnectMiddleware(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var mu sync.Mutex
	var methods []string
	cs, err := mcpclient.Connect(ctx, ct, &mcpclient.ConnectOptions{Middleware: []mcp.Middleware{func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			methods = append(methods, method)
			mu.Unlock()
			return next(ctx, method, req)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpclient.Call[string](ctx, mcpclient.New(cs), toolEcho, map[string]any{"text": "x"}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	got := strings.Join(methods, " ")
	if !strings.Contains(got, "tools/list") || !strings.HasSuffix(got, "tools/call") {
		t.Errorf("go-sdk middleware saw %q", got)
	}
}

func TestTaskRequest(t *testing.T) {
	// On a 2025-11-25 session, Call asks for a task (params.task on the
	// wire) for task-optional and task-required tools; under 2026-07-28 the
	// server decides and the request carries no task. Servers that make no
	// task answer directly, and the call is an ordinary one.
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			spy, cs := spiedSession(t, &mcpclient.ConnectOptions{Session: &mcp.ClientSessionOptions{ProtocolVersion: version}})
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %s", got)
			}
			c := mcpclient.New(cs, quiet)
			for _, support := range []string{"required", "optional", "forbidden"} {
				tool := &mcpclient.Tool{Name: mcptest.ToolFail, TaskSupport: support}
				env, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, tool, nil)
				if err != nil || !runtime.MCPMetaOf(env.Meta).IsError || len(env.Warnings) != 0 {
					t.Errorf("%s: %v, warnings %v", support, err, env.Warnings)
				}
			}
			want := []string{`{}`, `{}`, ``} // required, optional, forbidden
			if version == "2026-07-28" {
				want = []string{``, ``, ``}
			}
			if got := spy.tasks(); !slices.Equal(got, want) {
				t.Errorf("params.task of the three calls: %q, want %q", got, want)
			}
		})
	}
}

// spiedSession connects a client session, with opts, to the test server
// over a spyTransport; both end with the test.
func spiedSession(t *testing.T, opts *mcpclient.ConnectOptions) (*spyTransport, *mcp.ClientSession) {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	spy := &spyTransport{Transport: mcptest.ServerTransport(st)}
	ss, err := mcptest.NewServer().Connect(context.Background(), spy, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcpclient.Connect(context.Background(), ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return spy, cs
}

// spyTransport records the params of the tools/call requests a server
// reads.
type spyTransport struct {
	mcp.Transport
	mu     sync.Mutex
	params []json.RawMessage
}

func (s *spyTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := s.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &spyConn{c, s}, nil
}

// tasks returns the params.task of each tools/call seen ("" when absent),
// and fails on a _meta that still holds opsgen's marker.
func (s *spyTransport) tasks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, p := range s.params {
		var v struct {
			Task json.RawMessage `json:"task"`
			Meta map[string]any  `json:"_meta"`
		}
		json.Unmarshal(p, &v)
		for k := range v.Meta {
			if strings.HasPrefix(k, "io.opsgen/") {
				out = append(out, "marker "+k)
			}
		}
		out = append(out, string(v.Task))
	}
	return out
}

type spyConn struct {
	mcp.Connection
	s *spyTransport
}

func (c *spyConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Request); ok && r.Method == "tools/call" {
		c.s.mu.Lock()
		c.s.params = append(c.s.params, r.Params)
		c.s.mu.Unlock()
	}
	return msg, err
}

// TestNilArgumentsSendEmptyObject: arguments that marshal to null (a nil
// map or pointer, typed) go on the wire as {}, as untyped nil does.
func TestNilArgumentsSendEmptyObject(t *testing.T) {
	spy, cs := spiedSession(t, nil)
	c := mcpclient.New(cs, quiet)
	tool := &mcpclient.Tool{Name: mcptest.ToolFail}
	type input struct {
		X int `json:"x"`
	}
	all := []any{nil, map[string]any(nil), map[string]string(nil), (*input)(nil), map[string]any{"a": 1}, &input{X: 2}}
	for _, args := range all {
		if _, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, tool, args); err != nil {
			t.Fatalf("%T: %v", args, err)
		}
	}
	want := []string{`{}`, `{}`, `{}`, `{}`, `{"a":1}`, `{"x":2}`}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	if len(spy.params) != len(want) {
		t.Fatalf("server read %d calls, want %d", len(spy.params), len(want))
	}
	for i, p := range spy.params {
		var v struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(p, &v); err != nil {
			t.Fatal(err)
		}
		if string(v.Arguments) != want[i] {
			t.Errorf("%T: arguments %s, want %s", all[i], v.Arguments, want[i])
		}
	}
}
