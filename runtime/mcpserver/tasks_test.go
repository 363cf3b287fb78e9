package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// taskServer serves three operations with tasks on: "slow" (blocks until
// release is closed or its context ends, then closes ended), "fast" and
// the subscription "ticks".
type taskServer struct {
	srv            *mcpserver.Server
	release, ended chan struct{}
	endErr         error
}

func newTaskServer(t *testing.T, opts *mcpserver.Options) *taskServer {
	t.Helper()
	ts := &taskServer{release: make(chan struct{}), ended: make(chan struct{})}
	reg := runtime.NewRegistry(nil)
	out := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
	register(t, reg, runtime.OperationSpec{ID: "jobs.slow", OutputSchema: out}, func(ctx context.Context, _ json.RawMessage) (any, error) {
		defer close(ts.ended)
		select {
		case <-ts.release:
			return map[string]any{"n": 42}, nil
		case <-ctx.Done():
			ts.endErr = ctx.Err()
			return nil, ctx.Err()
		}
	})
	register(t, reg, runtime.OperationSpec{ID: "jobs.fast", OutputSchema: out}, func(context.Context, json.RawMessage) (any, error) {
		return map[string]any{"n": 1}, nil
	})
	if err := reg.RegisterSubscription(runtime.OperationSpec{ID: "jobs.ticks", OutputSchema: out}, func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			for i := range 3 {
				if !yield(map[string]any{"n": i}, nil) {
					return
				}
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &mcpserver.Options{}
	}
	opts.Tasks = &mcpserver.TaskOptions{After: 20 * time.Millisecond, PollInterval: 5 * time.Millisecond, TTL: time.Minute}
	ts.srv = newServer(t, reg, opts)
	return ts
}

// connectTasks connects mcpclient to ts over in-memory transports.
func (ts *taskServer) connect(t *testing.T, opts *mcpclient.ConnectOptions) *mcpclient.Client {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := ts.srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcpclient.Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return mcpclient.New(cs, mcpclient.WithLogger(nopLogger{}))
}

type jobOut struct {
	N int `json:"n"`
}

var (
	toolSlow  = &mcpclient.Tool{Name: "jobs_slow", OutputSchema: opsgenimpl.NewSchema(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)}
	toolFast  = &mcpclient.Tool{Name: "jobs_fast", OutputSchema: toolSlow.OutputSchema}
	toolTicks = &mcpclient.Tool{Name: "jobs_ticks"}
)

// statusLog records task statuses, and runs f on the first "working".
type statusLog struct {
	mu   sync.Mutex
	seen []mcpclient.TaskStatus
	once sync.Once
	f    func()
}

func (l *statusLog) option() mcpclient.CallOption {
	return mcpclient.WithTaskStatus(func(_ context.Context, s mcpclient.TaskStatus) {
		l.mu.Lock()
		l.seen = append(l.seen, s)
		l.mu.Unlock()
		if s.Status == "working" && l.f != nil {
			l.once.Do(l.f)
		}
	})
}

func (l *statusLog) statuses() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.seen {
		out = append(out, s.Status)
	}
	return out
}

func TestTasks(t *testing.T) {
	ts := newTaskServer(t, nil)
	c := ts.connect(t, nil)
	ctx := context.Background()

	// A call that outlives TaskOptions.After becomes a task; the client
	// polls it to its typed result.
	log := &statusLog{f: func() { close(ts.release) }}
	env, err := mcpclient.Call[jobOut](ctx, c, toolSlow, nil, log.option())
	if err != nil || env.Data.N != 42 || len(env.Warnings) != 0 {
		t.Fatalf("slow: %+v, %v, warnings %v", env.Data, err, env.Warnings)
	}
	if got := log.statuses(); len(got) < 2 || got[0] != "working" || got[len(got)-1] != "completed" {
		t.Errorf("statuses %q", got)
	}
	if m := runtime.MCPMetaOf(env.Meta); m == nil || len(m.StructuredContent) == 0 {
		t.Errorf("meta %+v", env.Meta)
	}

	// A quick call is answered directly.
	fast := &statusLog{}
	env, err = mcpclient.Call[jobOut](ctx, c, toolFast, nil, fast.option())
	if err != nil || env.Data.N != 1 || len(fast.statuses()) != 0 {
		t.Errorf("fast: %+v, %v, statuses %q", env.Data, err, fast.statuses())
	}

	// A subscription is a task at once; its result is the collected events.
	ticks := &statusLog{}
	blocks, err := mcpclient.Call[[]runtime.ContentBlock](ctx, c, toolTicks, nil, ticks.option())
	if err != nil || len(blocks.Data) == 0 || len(ticks.statuses()) == 0 || ticks.statuses()[0] != "working" {
		t.Errorf("ticks: %+v, %v, statuses %q", blocks.Data, err, ticks.statuses())
	}
}

func TestTaskCancel(t *testing.T) {
	ts := newTaskServer(t, nil)
	c := ts.connect(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The caller gives up while the task works: Call returns CANCELED and
	// tasks/cancel ends the handler's context on the server.
	log := &statusLog{f: cancel}
	_, err := mcpclient.Call[jobOut](ctx, c, toolSlow, nil, log.option())
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeCanceled {
		t.Fatalf("err %v", err)
	}
	select {
	case <-ts.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still runs after tasks/cancel")
	}
	if !errors.Is(ts.endErr, context.Canceled) {
		t.Errorf("the handler ended with %v", ts.endErr)
	}
}

func TestTasksNotDeclared(t *testing.T) {
	// A client that does not declare the extension waits for the result
	// of a call that runs longer than TaskOptions.After (the delay is what
	// is tested, not a synchronisation).
	ts := newTaskServer(t, nil)
	c := ts.connect(t, &mcpclient.ConnectOptions{NoTasks: true})
	time.AfterFunc(50*time.Millisecond, func() { close(ts.release) })
	log := &statusLog{}
	env, err := mcpclient.Call[jobOut](context.Background(), c, toolSlow, nil, log.option())
	if err != nil || env.Data.N != 42 || len(log.statuses()) != 0 {
		t.Errorf("%+v, %v, statuses %q", env.Data, err, log.statuses())
	}
}

func TestTasksStatelessHTTP(t *testing.T) {
	// Over stateless HTTP every poll comes on a new session, and the task
	// outlives the HTTP request that created it.
	ts := newTaskServer(t, &mcpserver.Options{HTTP: &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true}})
	hs := httptest.NewServer(ts.srv.Handler())
	defer hs.Close()
	ctx := context.Background()
	cs, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v < "2026-07-28" {
		t.Fatalf("negotiated %s", v)
	}
	c := mcpclient.New(cs, mcpclient.WithLogger(nopLogger{}))
	log := &statusLog{f: func() { close(ts.release) }}
	env, err := mcpclient.Call[jobOut](ctx, c, toolSlow, nil, log.option())
	if err != nil || env.Data.N != 42 {
		t.Fatalf("%+v, %v", env.Data, err)
	}
	if got := log.statuses(); len(got) < 2 || got[len(got)-1] != "completed" {
		t.Errorf("statuses %q", got)
	}
}
