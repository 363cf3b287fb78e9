package mcpserver

// Tools calls served as tasks (the MCP tasks extension,
// io.modelcontextprotocol/tasks, of protocol 2026-07-28), until go-sdk
// serves them itself: this file retires when it does. It is built on
// go-sdk's receiving middleware (a tools/call may answer with a
// CreateTaskResult) and custom methods (tasks/get, tasks/update,
// tasks/cancel).

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtensionTasks is the identifier of the MCP tasks extension.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// TaskOptions configure the tools calls a Server runs as tasks, for
// clients that declare the tasks extension on a 2026-07-28 session. Other
// clients get every result directly, as without them.
type TaskOptions struct {
	// After is how long a call may run before it becomes a task: a call
	// that ends sooner is answered directly. Calls of subscriptions
	// (operations that stream) become tasks at once. Zero means
	// DefaultTaskAfter.
	After time.Duration
	// TTL is how long a task and its result are kept from its creation;
	// its call is cancelled when the TTL ends first. Zero means
	// DefaultTaskTTL.
	TTL time.Duration
	// PollInterval is the interval the server suggests to clients polling
	// tasks/get. Zero means DefaultTaskPollInterval.
	PollInterval time.Duration
}

// Defaults of TaskOptions.
const (
	DefaultTaskAfter        = time.Second
	DefaultTaskTTL          = time.Hour
	DefaultTaskPollInterval = 500 * time.Millisecond
)

// Task statuses.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

// taskState is a task on the wire: the CreateTaskResult, the tasks/get
// result, and the params of notifications/tasks share it.
type taskState struct {
	mcp.ResultBase
	ResultType     string                     `json:"resultType,omitempty"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          *jsonrpc.Error             `json:"error,omitempty"`
}

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// taskAck is the empty result of tasks/update and tasks/cancel.
type taskAck struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

// serverTask is one task of the server.
type serverTask struct {
	cancel context.CancelFunc

	mu    sync.Mutex
	state taskState
	// inputs are the task's outstanding input requests and where their
	// responses go (see Elicit); asked counts the requests made.
	inputs map[string]chan json.RawMessage
	asked  int
	// promote is closed when the call asks for input: it becomes a task
	// at once.
	promote     chan struct{}
	promoteOnce sync.Once
}

func (t *serverTask) snapshot() *taskState {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	s.ResultType = "complete"
	return &s
}

// set changes the task's status, unless it has ended.
func (t *serverTask) set(f func(*taskState)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if terminalTask(t.state.Status) {
		return
	}
	f(&t.state)
	t.state.LastUpdatedAt = time.Now().UTC().Format(time.RFC3339Nano)
}

func terminalTask(status string) bool {
	return status == taskCompleted || status == taskFailed || status == taskCancelled
}

// tasks holds a Server's tasks, shared by all its sessions (a stateless
// HTTP client polls on new sessions).
type tasks struct {
	opts TaskOptions
	mu   sync.Mutex
	byID map[string]*serverTask
}

func newTasks(o *TaskOptions) *tasks {
	ts := &tasks{byID: map[string]*serverTask{}}
	if o != nil {
		ts.opts = *o
	}
	if ts.opts.After <= 0 {
		ts.opts.After = DefaultTaskAfter
	}
	if ts.opts.TTL <= 0 {
		ts.opts.TTL = DefaultTaskTTL
	}
	if ts.opts.PollInterval <= 0 {
		ts.opts.PollInterval = DefaultTaskPollInterval
	}
	return ts
}

func (ts *tasks) lookup(id string) (*serverTask, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if t, ok := ts.byID[id]; ok {
		return t, nil
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "task not found: " + id}
}

// install serves tasks on s: the tools/call middleware and the task
// methods.
func (ts *tasks) install(s *Server) {
	s.mcp.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			cr, ok := req.(*mcp.CallToolRequest)
			if method != "tools/call" || !ok || cr.Params == nil || !modernProtocol(cr.ProtocolVersion()) || !declaresTasks(cr.Params.Meta) {
				return next(ctx, method, req)
			}
			t := s.byName[cr.Params.Name]
			if t == nil {
				return next(ctx, method, req)
			}
			return ts.call(ctx, t, func(ctx context.Context) (mcp.Result, error) { return next(ctx, method, req) })
		}
	})
	check := func(p *taskParams) (*serverTask, error) {
		if !declaresTasks(p.Meta) {
			return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "missing required client capability: extension " + ExtensionTasks}
		}
		return ts.lookup(p.TaskID)
	}
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/get", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*taskState, error) {
		t, err := check(p)
		if err != nil {
			return nil, err
		}
		return t.snapshot(), nil
	})
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/update", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*taskAck, error) {
		t, err := check(p)
		if err != nil {
			return nil, err
		}
		t.respond(p.InputResponses)
		return &taskAck{ResultType: "complete"}, nil
	})
	_ = mcp.AddReceivingCustomMethod(s.mcp, "tasks/cancel", func(ctx context.Context, _ *mcp.ServerSession, p *taskParams) (*taskAck, error) {
		t, err := check(p)
		if err != nil {
			return nil, err
		}
		t.set(func(st *taskState) {
			st.Status = taskCancelled
			st.StatusMessage = "cancelled by the client"
			st.InputRequests = nil
		})
		t.cancel()
		return &taskAck{ResultType: "complete"}, nil
	})
}

// declaresTasks reports whether a request's _meta declares the tasks
// extension among the client's capabilities.
func declaresTasks(meta mcp.Meta) bool {
	caps, ok := meta[mcp.MetaKeyClientCapabilities].(map[string]any)
	if !ok {
		return false
	}
	exts, ok := caps["extensions"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = exts[ExtensionTasks]
	return ok
}

type callOutcome struct {
	res mcp.Result
	err error
}

// call runs a tools/call handler on a context of its own and answers with
// its result when it ends within opts.After (at once for subscriptions),
// else with a CreateTaskResult: the task gets the result when the handler
// ends.
func (ts *tasks) call(ctx context.Context, t *tool, run func(context.Context) (mcp.Result, error)) (mcp.Result, error) {
	now := time.Now().UTC()
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	st := &serverTask{inputs: map[string]chan json.RawMessage{}, promote: make(chan struct{})}
	st.state = taskState{
		TaskID:         hex.EncodeToString(b[:]),
		Status:         taskWorking,
		CreatedAt:      now.Format(time.RFC3339Nano),
		LastUpdatedAt:  now.Format(time.RFC3339Nano),
		TTLMs:          ts.opts.TTL.Milliseconds(),
		PollIntervalMs: ts.opts.PollInterval.Milliseconds(),
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ts.opts.TTL)
	st.cancel = cancel
	tctx = context.WithValue(tctx, taskKey{}, st)
	done := make(chan callOutcome, 1)
	go func() {
		res, err := run(tctx)
		done <- callOutcome{res, err}
	}()
	if !t.subscription {
		timer := time.NewTimer(ts.opts.After)
		select {
		case o := <-done:
			timer.Stop()
			cancel()
			return o.res, o.err
		case <-ctx.Done():
			timer.Stop()
			cancel()
			return nil, ctx.Err()
		case <-timer.C:
		case <-st.promote: // the call asks for input
			timer.Stop()
		}
	}
	id := st.state.TaskID
	ts.mu.Lock()
	ts.byID[id] = st
	ts.mu.Unlock()
	time.AfterFunc(ts.opts.TTL, func() {
		cancel()
		ts.mu.Lock()
		delete(ts.byID, id)
		ts.mu.Unlock()
	})
	go func() {
		o := <-done
		cancel()
		st.set(func(s *taskState) {
			s.InputRequests = nil
			var werr *jsonrpc.Error
			switch {
			case o.err == nil:
				raw, err := json.Marshal(o.res)
				if err != nil {
					s.Status, s.Error = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
					return
				}
				s.Status, s.Result = taskCompleted, raw
			case errors.As(o.err, &werr):
				s.Status, s.Error, s.StatusMessage = taskFailed, werr, werr.Message
			case errors.Is(o.err, context.DeadlineExceeded):
				s.Status, s.Error, s.StatusMessage = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task's ttl ended"}, "the task's ttl ended"
			default:
				s.Status, s.Error, s.StatusMessage = taskFailed, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: o.err.Error()}, o.err.Error()
			}
		})
	}()
	created := st.snapshot()
	created.ResultType = "task"
	return created, nil
}

// taskKey is the context key of the *serverTask a call runs in.
type taskKey struct{}

// respond delivers input responses to the requests waiting for them;
// responses to keys not outstanding are ignored, as the extension says.
func (t *serverTask) respond(responses map[string]json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, resp := range responses {
		ch, ok := t.inputs[key]
		if !ok {
			continue
		}
		delete(t.inputs, key)
		delete(t.state.InputRequests, key)
		ch <- resp // buffered, one response each
	}
	if len(t.state.InputRequests) == 0 && t.state.Status == taskInputRequired {
		t.state.Status = taskWorking
		t.state.InputRequests = nil
	}
}
