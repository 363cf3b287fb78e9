//lint:file-ignore SA1019 sampling and roots are deprecated by MCP 2026-07-28 but still in use (deprecation window): servers ask for them, and this file answers or asks

package mcpclient

// Task-augmented tool calls, until go-sdk speaks them itself.
//
// This file retires when go-sdk ships the tasks extension
// (io.modelcontextprotocol/tasks): it is the only place that knows the
// task methods and shapes. Everything here is built on go-sdk's
// lower-level request API (AddSendingCustomMethod, CallCustomMethod) plus
// two rewrites on the wire (transport.go calls rewriteTaskRequest and
// rewriteTaskResult), because go-sdk's CallTool can neither ask for a task
// nor return one.
//
// Two generations of tasks exist, and Call speaks both:
//
//   - Protocol 2025-11-25 (tasks in the core protocol; the npm reference
//     servers): the client asks with "task": {"ttl": ...} in the tools/call
//     params; the server answers {"task": {...}}; the client polls tasks/get
//     ("pollInterval") and fetches the result with tasks/result, which blocks
//     until the task ends and carries the server's elicitation and sampling
//     requests on the way (go-sdk's handlers answer them).
//   - Protocol 2026-07-28 with the tasks extension: the client declares the
//     extension in its capabilities (Connect does); the server may answer any
//     tools/call with {"resultType": "task", "taskId": ...}; the client polls
//     tasks/get ("pollIntervalMs"), whose completed task holds the result,
//     answers "inputRequests" with tasks/update, and sends tasks/cancel when
//     it gives up.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// ExtensionTasks is the identifier of the MCP tasks extension.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// Task methods and the _meta keys of this file.
const (
	methodTasksGet    = "tasks/get"
	methodTasksResult = "tasks/result" // 2025-11-25 only
	methodTasksUpdate = "tasks/update" // 2026-07-28 only
	methodTasksCancel = "tasks/cancel"

	// metaTaskRequest, in the _meta of a tools/call request, asks for a
	// 2025-11-25 task: the wire rewrite moves its value to params.task.
	metaTaskRequest = "io.opsgen/task-request"
	// MetaTaskHandle is the _meta key under which a tools/call result made
	// from a task handle (CreateTaskResult) holds the handle as the server
	// sent it: go-sdk's CallToolResult has no room for it, so the wire
	// rewrite turns the handle into an empty result carrying it. Call
	// follows the task; a caller of the session's own CallTool finds the
	// handle here.
	MetaTaskHandle = "io.opsgen/task"

	protocol20260728 = "2026-07-28"
	// defaultPollInterval is used when the server suggests none.
	defaultPollInterval = time.Second
	// cancelTimeout bounds the tasks/cancel sent after the caller gave up.
	cancelTimeout = 5 * time.Second
)

// TaskStatus is one status of a task that a call became, as the server
// reported it (on creation and on each change seen while polling).
type TaskStatus struct {
	// Tool is the name of the tool called.
	Tool string
	// TaskID is the server's id of the task.
	TaskID string
	// Status is "working", "input_required", "completed", "failed" or
	// "cancelled".
	Status string
	// Message is the server's statusMessage, when it sent one.
	Message string
}

// WithTaskStatus calls f with each status of the task the call became
// (when the server runs it as a task), in order, on the calling goroutine:
// the status of the CreateTaskResult and every change that tasks/get
// shows. Progress notifications still go to WithProgress.
func WithTaskStatus(f func(ctx context.Context, s TaskStatus)) CallOption {
	return func(cc *callConfig) { cc.taskStatus = f }
}

// WithTaskTTL asks the server to keep the task of this call for d
// (2025-11-25 servers; under 2026-07-28 the server alone decides).
func WithTaskTTL(d time.Duration) CallOption {
	return func(cc *callConfig) { cc.taskTTL = d }
}

// taskParams are the params of tasks/get, tasks/result, tasks/update and
// tasks/cancel.
type taskParams struct {
	mcp.ParamsBase
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// rawResult keeps a result as the server sent it.
type rawResult struct {
	mcp.ResultBase
	raw json.RawMessage
}

// UnmarshalJSON keeps b.
func (r *rawResult) UnmarshalJSON(b []byte) error {
	r.raw = append(json.RawMessage(nil), b...)
	return nil
}

// MarshalJSON returns the result as it came.
func (r *rawResult) MarshalJSON() ([]byte, error) {
	if r.raw == nil {
		return []byte("{}"), nil
	}
	return r.raw, nil
}

// registerTaskMethods lets c send the task methods.
func registerTaskMethods(c *mcp.Client) {
	for _, m := range []string{methodTasksGet, methodTasksResult, methodTasksUpdate, methodTasksCancel} {
		// Only fails for standard method names, which these are not.
		_ = mcp.AddSendingCustomMethod[*taskParams, *rawResult](c, m)
	}
}

// withTaskCapability returns a copy of opts whose client capabilities
// declare the tasks extension (go-sdk sends them on every 2026-07-28
// request), keeping go-sdk's default capabilities when opts has none.
func withTaskCapability(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var cp mcp.ClientOptions
	if opts != nil {
		cp = *opts
	}
	var caps *mcp.ClientCapabilities
	if cp.Capabilities != nil {
		c := *cp.Capabilities
		caps = &c
	} else {
		caps = &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true}} // go-sdk's default
	}
	exts := make(map[string]any, len(caps.Extensions)+1)
	for k, v := range caps.Extensions {
		exts[k] = v
	}
	exts[ExtensionTasks] = map[string]any{}
	caps.Extensions = exts
	cp.Capabilities = caps
	return &cp
}

// inputHandlers answer the inputRequests of 2026-07-28 tasks with the
// handlers the session's client was given (see Connect).
type inputHandlers struct {
	elicit   func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)
	sample   func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)
	sampleTo func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error)
}

// sessionInputs maps a *mcp.ClientSession made by Connect to its
// *inputHandlers, until the session ends.
var sessionInputs sync.Map

func rememberInputs(cs *mcp.ClientSession, opts *mcp.ClientOptions) {
	if opts == nil {
		return
	}
	h := &inputHandlers{elicit: opts.ElicitationHandler, sample: opts.CreateMessageHandler, sampleTo: opts.CreateMessageWithToolsHandler}
	if h.elicit == nil && h.sample == nil && h.sampleTo == nil {
		return
	}
	sessionInputs.Store(cs, h)
	go func() {
		cs.Wait()
		sessionInputs.Delete(cs)
	}()
}

// usesTasksExtension reports whether cs speaks 2026-07-28 or later, where
// tasks are the extension's.
func usesTasksExtension(cs *mcp.ClientSession) bool {
	ir := cs.InitializeResult()
	return ir != nil && ir.ProtocolVersion >= protocol20260728
}

// askForTask marks params to ask for a 2025-11-25 task when the tool takes
// task-augmented calls and the session speaks that protocol. (Under
// 2026-07-28 the server decides, on any call, because Connect declared the
// extension.)
func askForTask(cs *mcp.ClientSession, tool *Tool, params *mcp.CallToolParams, ttl time.Duration) {
	if tool.TaskSupport != "required" && tool.TaskSupport != "optional" || usesTasksExtension(cs) {
		return
	}
	req := map[string]any{}
	if ttl > 0 {
		req["ttl"] = ttl.Milliseconds()
	}
	if params.Meta == nil {
		params.Meta = mcp.Meta{}
	}
	params.Meta[metaTaskRequest] = req
}

// taskHandle returns the task handle a rewritten tools/call result holds.
func taskHandle(res *mcp.CallToolResult) (json.RawMessage, bool) {
	if res == nil || res.Meta == nil {
		return nil, false
	}
	v, ok := res.Meta[MetaTaskHandle]
	if !ok {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// task is the state of a task, in either generation's field names.
type task struct {
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	PollIntervalMs *int64                     `json:"pollIntervalMs"` // 2026-07-28
	PollInterval   *int64                     `json:"pollInterval"`   // 2025-11-25
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`  // 2026-07-28
	Result         json.RawMessage            `json:"result"`         // 2026-07-28, completed
	Error          *jsonrpc.Error             `json:"error"`          // 2026-07-28, failed
}

func (t *task) pollInterval() time.Duration {
	switch {
	case t.PollIntervalMs != nil && *t.PollIntervalMs > 0:
		return time.Duration(*t.PollIntervalMs) * time.Millisecond
	case t.PollInterval != nil && *t.PollInterval > 0:
		return time.Duration(*t.PollInterval) * time.Millisecond
	}
	return defaultPollInterval
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// taskRun follows one task to its end.
type taskRun struct {
	cs       *mcp.ClientSession
	op, tool string
	legacy   bool // 2025-11-25: tasks/result fetches the result
	onStatus func(context.Context, TaskStatus)
	answered map[string]bool // inputRequests keys already answered
	last     TaskStatus
}

// awaitTask follows the task whose handle a tools/call returned and
// returns its tools/call result: polling tasks/get at the server's
// interval, answering input requests, and cancelling the task when ctx
// ends first.
func (c *Client) awaitTask(ctx context.Context, op string, tool *Tool, handle json.RawMessage, cc *callConfig) (*mcp.CallToolResult, error) {
	var created struct {
		Task *task `json:"task"` // 2025-11-25
	}
	var t task
	if err := json.Unmarshal(handle, &created); err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, op, "malformed CreateTaskResult", err)
	}
	legacy := created.Task != nil
	if legacy {
		t = *created.Task
	} else if err := json.Unmarshal(handle, &t); err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, op, "malformed CreateTaskResult", err)
	}
	if t.TaskID == "" {
		return nil, runtime.Errorf(runtime.CodeDecode, op, "CreateTaskResult without a taskId")
	}
	r := &taskRun{cs: c.session, op: op, tool: tool.Name, legacy: legacy, onStatus: cc.taskStatus, answered: map[string]bool{}}
	res, err := r.follow(ctx, &t)
	if err != nil && ctx.Err() != nil {
		r.cancel(ctx, t.TaskID)
		return nil, opsgenimpl.ContextError(ctx, op, ctx.Err())
	}
	return res, err
}

func (r *taskRun) follow(ctx context.Context, t *task) (*mcp.CallToolResult, error) {
	for {
		r.report(ctx, t)
		switch {
		case r.legacy && (terminal(t.Status) || t.Status == "input_required"):
			// tasks/result waits for the end, and the server's requests for
			// input travel beside it, to go-sdk's handlers.
			return r.result(ctx, t.TaskID)
		case t.Status == "completed":
			return decodeToolResult(r.op, t.Result)
		case t.Status == "failed":
			if t.Error != nil {
				return nil, callError(ctx, r.op, t.Error)
			}
			return nil, runtime.Errorf(runtime.CodeExecution, r.op, "task %s failed: %s", t.TaskID, t.StatusMessage)
		case t.Status == "cancelled":
			return nil, runtime.Errorf(runtime.CodeExecution, r.op, "the server cancelled task %s: %s", t.TaskID, t.StatusMessage)
		case t.Status == "input_required":
			if err := r.answer(ctx, t); err != nil {
				return nil, err
			}
		}
		timer := time.NewTimer(t.pollInterval())
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		next, err := r.get(ctx, t.TaskID)
		if err != nil {
			return nil, err
		}
		*t = *next
	}
}

// report passes a changed status to the status callback.
func (r *taskRun) report(ctx context.Context, t *task) {
	s := TaskStatus{Tool: r.tool, TaskID: t.TaskID, Status: t.Status, Message: t.StatusMessage}
	if s == r.last {
		return
	}
	r.last = s
	if r.onStatus != nil {
		r.onStatus(ctx, s)
	}
}

func (r *taskRun) send(ctx context.Context, method string, p *taskParams) (json.RawMessage, error) {
	res, err := mcp.CallCustomMethod[*taskParams, *rawResult](ctx, r.cs, method, p)
	if err != nil {
		if ctx.Err() == nil && strings.Contains(err.Error(), "AddSendingCustomMethod first") {
			return nil, runtime.NewError(runtime.CodeTransport, r.op, "the session cannot follow tasks (make it with mcpclient.Connect)", err)
		}
		return nil, callError(ctx, r.op, err)
	}
	if res == nil {
		return nil, runtime.Errorf(runtime.CodeDecode, r.op, "%s returned no result", method)
	}
	return res.raw, nil
}

func (r *taskRun) get(ctx context.Context, id string) (*task, error) {
	raw, err := r.send(ctx, methodTasksGet, &taskParams{TaskID: id})
	if err != nil {
		return nil, err
	}
	var t task
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, r.op, "malformed tasks/get result", err)
	}
	if t.TaskID == "" {
		t.TaskID = id
	}
	return &t, nil
}

// result fetches a 2025-11-25 task's tools/call result with tasks/result.
func (r *taskRun) result(ctx context.Context, id string) (*mcp.CallToolResult, error) {
	raw, err := r.send(ctx, methodTasksResult, &taskParams{TaskID: id})
	if err != nil {
		return nil, err
	}
	return decodeToolResult(r.op, raw)
}

// cancel tells the server to cancel the task, on a context of its own
// (ctx has ended). Failures are ignored: cancellation is cooperative.
func (r *taskRun) cancel(ctx context.Context, id string) {
	cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer stop()
	_, _ = mcp.CallCustomMethod[*taskParams, *rawResult](cctx, r.cs, methodTasksCancel, &taskParams{TaskID: id})
}

// answer fulfils the input requests of a 2026-07-28 task that have not
// been answered yet, with the session's handlers, and sends the responses
// with tasks/update.
func (r *taskRun) answer(ctx context.Context, t *task) error {
	responses := map[string]json.RawMessage{}
	for key, req := range t.InputRequests {
		if r.answered[key] {
			continue
		}
		resp, err := r.fulfil(ctx, req)
		if err != nil {
			return runtime.NewError(runtime.CodeExecution, r.op, fmt.Sprintf("task %s: input request %q", t.TaskID, key), err)
		}
		responses[key] = resp
	}
	if len(responses) == 0 {
		return nil
	}
	if _, err := r.send(ctx, methodTasksUpdate, &taskParams{TaskID: t.TaskID, InputResponses: responses}); err != nil {
		return err
	}
	for key := range responses {
		r.answered[key] = true
	}
	return nil
}

// fulfil answers one input request ({"method": ..., "params": ...}).
func (r *taskRun) fulfil(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, fmt.Errorf("malformed input request: %w", err)
	}
	var h *inputHandlers
	if v, ok := sessionInputs.Load(r.cs); ok {
		h = v.(*inputHandlers)
	} else {
		h = &inputHandlers{}
	}
	var res any
	var err error
	switch req.Method {
	case "elicitation/create":
		if h.elicit == nil {
			return nil, errors.New("the server asks for elicitation, and the client has no ElicitationHandler")
		}
		p := new(mcp.ElicitParams)
		if err := json.Unmarshal(req.Params, p); err != nil {
			return nil, err
		}
		res, err = h.elicit(ctx, &mcp.ElicitRequest{Session: r.cs, Params: p})
	case "sampling/createMessage":
		switch {
		case h.sampleTo != nil:
			p := new(mcp.CreateMessageWithToolsParams)
			if err := json.Unmarshal(req.Params, p); err != nil {
				return nil, err
			}
			res, err = h.sampleTo(ctx, &mcp.CreateMessageWithToolsRequest{Session: r.cs, Params: p})
		case h.sample != nil:
			p := new(mcp.CreateMessageParams)
			if err := json.Unmarshal(req.Params, p); err != nil {
				return nil, err
			}
			res, err = h.sample(ctx, &mcp.CreateMessageRequest{Session: r.cs, Params: p})
		default:
			return nil, errors.New("the server asks for sampling, and the client has no CreateMessageHandler")
		}
	default:
		return nil, fmt.Errorf("unsupported input request method %q", req.Method)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// decodeToolResult reads a task's tools/call result, mapping content
// blocks of unknown types to text as the wire rewrite does for direct
// results.
func decodeToolResult(op string, raw json.RawMessage) (*mcp.CallToolResult, error) {
	if len(raw) == 0 {
		return nil, runtime.Errorf(runtime.CodeDecode, op, "the completed task has no result")
	}
	raw, _ = rewriteResult(raw)
	res := new(mcp.CallToolResult)
	if err := json.Unmarshal(raw, res); err != nil {
		return nil, runtime.NewError(runtime.CodeDecode, op, "malformed tools/call result of the task", err)
	}
	return res, nil
}

// rewriteTaskRequest moves the task request that askForTask put in the
// _meta of a tools/call request to params.task, where 2025-11-25 servers
// read it. Other messages come back as they are.
func rewriteTaskRequest(req *jsonrpc.Request) {
	if req.Method != "tools/call" || !bytes.Contains(req.Params, []byte(metaTaskRequest)) {
		return
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(req.Params, &params) != nil {
		return
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(params["_meta"], &meta) != nil {
		return
	}
	ask, ok := meta[metaTaskRequest]
	if !ok {
		return
	}
	delete(meta, metaTaskRequest)
	params["task"] = ask
	if len(meta) == 0 {
		delete(params, "_meta")
	} else {
		params["_meta"], _ = json.Marshal(meta)
	}
	if out, err := json.Marshal(params); err == nil {
		req.Params = out
	}
}

// rewriteTaskBody applies rewriteTaskRequest to the JSON-RPC message of an
// HTTP request body, returning the body to send.
func rewriteTaskBody(body []byte) []byte {
	if !bytes.Contains(body, []byte(metaTaskRequest)) {
		return body
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return body
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return body
	}
	rewriteTaskRequest(req)
	out, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		return body
	}
	return out
}

// rewriteTaskResult turns a task handle (CreateTaskResult of either
// generation) into a tools/call result go-sdk reads: no content, and the
// handle under MetaTaskHandle in _meta. Other results come back as they
// are.
func rewriteTaskResult(result json.RawMessage) (json.RawMessage, bool) {
	if !bytes.Contains(result, []byte(`"taskId"`)) {
		return result, false
	}
	var probe struct {
		ResultType string          `json:"resultType"`
		Task       json.RawMessage `json:"task"`
		Content    json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &probe) != nil {
		return result, false
	}
	isHandle := probe.ResultType == "task" || // 2026-07-28
		(probe.Content == nil && bytes.Contains(probe.Task, []byte(`"taskId"`))) // 2025-11-25
	if !isHandle {
		return result, false
	}
	out, err := json.Marshal(map[string]any{
		"content": []any{},
		"_meta":   map[string]json.RawMessage{MetaTaskHandle: result},
	})
	if err != nil {
		return result, false
	}
	return out, true
}
