package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Defaults of Options.
const (
	// DefaultMaxRequestBytes is the default of Options.MaxRequestBytes.
	DefaultMaxRequestBytes = 4 << 20
	// DefaultMaxConcurrentCalls is the default of Options.MaxConcurrentCalls.
	DefaultMaxConcurrentCalls = 32
	// DefaultListTTL is the default of Options.ListTTL.
	DefaultListTTL = time.Hour
)

// Options configure a Server. The zero value serves every operation with
// the defaults below.
type Options struct {
	// Name and Version identify the server to clients (serverInfo).
	// Defaults: "opsgen" and the version of the opsgen module in the
	// program's build information ("devel" when unknown).
	Name, Version string
	// Instructions are sent to clients when they connect (optional).
	Instructions string
	// Include selects the operations to serve; nil serves all of them.
	Include func(runtime.OperationSpec) bool
	// ToolName names the tool of an operation; nil means DefaultToolName.
	// What it returns is then made valid and unique (see the package doc).
	ToolName func(runtime.OperationSpec) string
	// MaxRequestBytes caps the size of one incoming JSON-RPC message: a
	// line over stdio (the session ends: the stream cannot be
	// resynchronised), a request body over HTTP (answered 413). Zero means
	// DefaultMaxRequestBytes; a negative value means no cap.
	MaxRequestBytes int64
	// MaxConcurrentCalls caps the tool calls running at once, over all
	// sessions; a call beyond it waits for a slot (or for its request to be
	// cancelled). Zero means DefaultMaxConcurrentCalls; a negative value
	// means no cap.
	MaxConcurrentCalls int
	// CallTimeout bounds each tool call; it then ends as an isError result
	// with code TIMEOUT. Zero means no limit beyond the client's
	// cancellation.
	CallTimeout time.Duration
	// Validation is the mode the served operations' results go through
	// (the registry's Pipeline and the generated clients'): it chooses the
	// output schemas published (see "Output schemas" in the package doc).
	// The zero value, runtime.ValidateWarn, is right for warn and off;
	// runtime.ValidateStrict publishes the operations' schemas as they are.
	Validation runtime.ValidationMode
	// IncludeMeta adds each envelope's meta (the HTTP status and headers,
	// the local operation id and time) to the result's _meta, under
	// MetaEnvelope. Off by default: upstream headers may say more than the
	// MCP client should see. (Warnings are always sent, under MetaWarnings.)
	IncludeMeta bool
	// HTTP configures the streamable HTTP handler of Handler; nil means
	// go-sdk's defaults (stateful sessions) with PropagateRequestCancellation
	// set. Its MaxRequestBodyBytes, when zero, is set from MaxRequestBytes.
	// Clients of protocol 2026-07-28 need Stateless to use it: a stateful
	// handler makes them fall back to 2025-11-25. Set
	// PropagateRequestCancellation with it, so that a client closing its
	// request cancels the call.
	HTTP *mcp.StreamableHTTPOptions
	// Logger logs server activity; nil means no logging.
	Logger *slog.Logger
	// ListTTL is the ttlMs of the server's tools/list results (protocol
	// 2026-07-28), with cacheScope "public": the tools are fixed when New
	// runs, so clients and intermediaries may keep the listing that long.
	// Zero means DefaultListTTL; a negative value sends ttlMs 0 (stale at
	// once).
	ListTTL time.Duration
	// Tasks, when set, serves long-running calls as tasks to clients that
	// declare the tasks extension (io.modelcontextprotocol/tasks) on
	// protocol 2026-07-28: see TaskOptions. Nil answers every call
	// directly.
	Tasks *TaskOptions
}

// Server serves the operations of a runtime.Registry as MCP tools. Make
// one with New; it can then serve any number of sessions at once, over
// stdio (ServeStdio), streamable HTTP (Handler) or any go-sdk transport
// (Run).
type Server struct {
	mcp    *mcp.Server
	reg    *runtime.Registry
	opts   Options
	sem    chan struct{} // nil: no concurrency cap
	tools  []*tool       // sorted by tool name
	byID   map[string]*tool
	byName map[string]*tool
	// httpCalls holds the contexts of the HTTP requests a stateless
	// Handler is serving, by the callHeader it gave them.
	httpCalls   sync.Map
	httpCallSeq atomic.Uint64
	tasks       *tasks // nil: no tasks (Options.Tasks)
}

// tool is one served operation.
type tool struct {
	spec runtime.OperationSpec
	tool *mcp.Tool
	// hasOutput: the tool has an output schema; objectOutput: it describes
	// an object, so that sessions older than protocol 2026-07-28 (which
	// allow only those) see it too.
	hasOutput, objectOutput bool
	// subscription: the operation streams (runtime.KindSubscription); a
	// call collects its events (see stream).
	subscription bool
	// served is the compiled output schema the tool publishes, in a
	// lenient mode (nil in strict mode): results are brought into it
	// (conform).
	served *opsgenimpl.Schema
}

// New returns a server of the operations of r that opts selects, one tool
// each. The set of tools is fixed here: operations registered later are
// not served. It fails when an operation cannot be a tool (its input schema
// describes something other than an object: exclude it with
// Options.Include) and names the operation.
func New(r *runtime.Registry, opts *Options) (*Server, error) {
	if r == nil {
		return nil, errors.New("mcpserver: nil registry")
	}
	s := &Server{reg: r, byID: map[string]*tool{}, byName: map[string]*tool{}}
	if opts != nil {
		s.opts = *opts
	}
	if s.opts.Name == "" {
		s.opts.Name = "opsgen"
	}
	if s.opts.Version == "" {
		s.opts.Version = moduleVersion()
	}
	if s.opts.MaxRequestBytes == 0 {
		s.opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	switch n := s.opts.MaxConcurrentCalls; {
	case n == 0:
		s.sem = make(chan struct{}, DefaultMaxConcurrentCalls)
	case n > 0:
		s.sem = make(chan struct{}, n)
	}
	logger := s.opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// Tools are fixed, and no logging is sent: advertise tools only (and
	// tasks, when served).
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	if s.opts.Tasks != nil {
		caps.Extensions = map[string]any{ExtensionTasks: map[string]any{}}
	}
	listTTL := s.opts.ListTTL
	if listTTL == 0 {
		listTTL = DefaultListTTL
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: s.opts.Name, Version: s.opts.Version}, &mcp.ServerOptions{
		Instructions: s.opts.Instructions,
		Logger:       logger,
		Capabilities: caps,
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			if _, ok := req.(*mcp.ListToolsRequest); ok {
				c.TTLMs, c.CacheScope = int(max(listTTL, 0).Milliseconds()), "public"
			}
		},
	})

	var specs []runtime.OperationSpec
	for _, spec := range r.Operations() {
		if s.opts.Include == nil || s.opts.Include(spec) {
			specs = append(specs, spec)
		}
	}
	names := toolNames(specs, s.opts.ToolName)
	for i, spec := range specs {
		t, err := newTool(spec, names[i], s.opts.Validation)
		if err != nil {
			return nil, err
		}
		s.tools = append(s.tools, t)
		s.byID[spec.ID] = t
		s.byName[t.tool.Name] = t
	}
	slices.SortFunc(s.tools, func(a, b *tool) int { return strings.Compare(a.tool.Name, b.tool.Name) })
	for _, t := range s.tools {
		s.mcp.AddTool(t.tool, s.handler(t))
	}
	s.mcp.AddReceivingMiddleware(s.legacyToolList)
	if s.opts.Tasks != nil {
		s.tasks = newTasks(s.opts.Tasks)
		s.tasks.install(s)
	}
	return s, nil
}

// MCP returns the underlying go-sdk server, to add prompts or resources,
// or to connect it to a transport of one's own.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Tools returns the served tools, sorted by name, as tools/list sends
// them to clients of the newest protocol. They must not be modified.
func (s *Server) Tools() []*mcp.Tool {
	out := make([]*mcp.Tool, len(s.tools))
	for i, t := range s.tools {
		out[i] = t.tool
	}
	return out
}

// ToolName returns the name of the tool serving operation id, and whether
// it is served.
func (s *Server) ToolName(id string) (string, bool) {
	t, ok := s.byID[id]
	if !ok {
		return "", false
	}
	return t.tool.Name, true
}

// Run serves one session over t until the client disconnects or ctx ends.
// The request size cap is the transport's own (for mcp.IOTransport, its
// MaxLineLength).
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// ServeStdio serves one session over standard input and output, as an MCP
// client that starts the program as a subprocess expects, until standard
// input ends or ctx ends. Lines longer than Options.MaxRequestBytes end the
// session with an error.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.mcp.Run(ctx, &mcp.StdioTransport{MaxLineLength: lineCap(s.opts.MaxRequestBytes)})
}

// lineCap converts MaxRequestBytes to go-sdk's MaxLineLength (negative: none).
func lineCap(n int64) int {
	if n < 0 || n > int64(int(^uint(0)>>1)) {
		return -1
	}
	return int(n)
}

// Handler returns an http.Handler serving the streamable HTTP transport
// (each session in its own go-sdk session; see Options.HTTP). Request
// bodies larger than Options.MaxRequestBytes are answered 413.
func (s *Server) Handler() http.Handler {
	o := mcp.StreamableHTTPOptions{PropagateRequestCancellation: true}
	if s.opts.HTTP != nil {
		o = *s.opts.HTTP
	}
	if o.MaxRequestBodyBytes == 0 {
		o.MaxRequestBodyBytes = s.opts.MaxRequestBytes
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &o)
	if !o.Stateless || !o.PropagateRequestCancellation {
		return h
	}
	// go-sdk ties a call to its HTTP request only at protocol 2026-07-28;
	// a stateless session of an older protocol (the TypeScript SDK's, the
	// Inspector's) lives for one POST too, but its call's context outlives
	// a client that went away: its notifications/cancelled reaches another
	// ephemeral session, and closing the request ends nothing. So the
	// request's context is found again by the call (httpCall).
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strconv.FormatUint(s.httpCallSeq.Add(1), 36)
		r.Header.Set(callHeader, id) // replaces what a client may have sent
		s.httpCalls.Store(id, r.Context())
		defer s.httpCalls.Delete(id)
		h.ServeHTTP(w, r)
	})
}

// callHeader is the request header by which a call over stateless HTTP
// finds its HTTP request's context (see Handler). Handler sets it on each
// request it serves; it never leaves the process.
const callHeader = "Opsgen-Internal-Call"

// httpCall returns ctx, cancelled also when the HTTP request that carries
// the call ends (stateless HTTP; see Handler), and its cancel function.
func (s *Server) httpCall(ctx context.Context, req *mcp.CallToolRequest) (context.Context, context.CancelFunc) {
	if req.Extra == nil || req.Extra.Header == nil {
		return ctx, func() {}
	}
	id := req.Extra.Header.Get(callHeader)
	v, ok := s.httpCalls.Load(id)
	if id == "" || !ok {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(v.(context.Context), func() { cancel(context.Canceled) })
	return ctx, func() {
		stop()
		cancel(nil)
	}
}

// handler is the tools/call handler of t.
func (s *Server) handler(t *tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if ctx.Value(taskKey{}) == nil { // a task outlives its HTTP request
			var stop func()
			ctx, stop = s.httpCall(ctx, req)
			defer stop()
		}
		ctx = context.WithValue(ctx, sessionKey{}, req.Session) // for Elicit and Sample
		if s.sem != nil {
			select {
			case s.sem <- struct{}{}:
				defer func() { <-s.sem }()
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		callCtx := ctx
		if s.opts.CallTimeout > 0 {
			var cancel context.CancelFunc
			callCtx, cancel = context.WithTimeout(ctx, s.opts.CallTimeout)
			defer cancel()
		}
		args := []byte("{}")
		if req.Params != nil && len(req.Params.Arguments) > 0 && string(req.Params.Arguments) != "null" {
			args = req.Params.Arguments
		}
		if t.subscription {
			return s.stream(callCtx, req, t, s.reg.Subscribe(callCtx, t.spec.ID, args))
		}
		modern := modernProtocol(req.ProtocolVersion())
		env, err := s.reg.Execute(callCtx, t.spec.ID, args)
		if err != nil {
			if ctx.Err() != nil {
				// The client cancelled the request (or the session ended):
				// no answer is sent.
				return nil, ctx.Err()
			}
			var ce *runtime.CallError
			if !errors.As(err, &ce) {
				ce = runtime.NewError(runtime.CodeExecution, t.spec.ID, "", err)
			}
			return errorResult(ce), nil
		}
		res, err := s.result(ctx, t, env, modern)
		if err != nil {
			return errorResult(runtime.NewError(runtime.CodeDecode, t.spec.ID, "result", err)), nil
		}
		return res, nil
	}
}

// legacyToolList is the receiving middleware that gives sessions older
// than protocol 2026-07-28 a tools/list whose output schemas are objects
// only, as those protocols require.
func (s *Server) legacyToolList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := req.(*mcp.ListToolsRequest)
		if err != nil || method != "tools/list" || !ok || modernProtocol(lr.ProtocolVersion()) {
			return res, err
		}
		list, ok := res.(*mcp.ListToolsResult)
		if !ok {
			return res, err
		}
		out := *list
		out.Tools = make([]*mcp.Tool, len(list.Tools))
		for i, tl := range list.Tools {
			out.Tools[i] = tl
			if t := s.byName[tl.Name]; t != nil && tl.OutputSchema != nil && !t.objectOutput {
				c := *tl
				c.OutputSchema = nil
				if _, ok := c.Meta[MetaOutputSchema]; ok {
					c.Meta = maps.Clone(c.Meta)
					delete(c.Meta, MetaOutputSchema)
					if len(c.Meta) == 0 {
						c.Meta = nil
					}
				}
				out.Tools[i] = &c
			}
		}
		return &out, nil
	}
}

// modernProtocol reports whether a session's protocol version allows
// output schemas and structured content of any JSON type (SEP-2106,
// protocol 2026-07-28).
func modernProtocol(version string) bool { return version >= "2026-07-28" }

// moduleVersion is the version of the opsgen module the program was built
// with, or "devel".
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	for _, m := range append([]*debug.Module{&bi.Main}, bi.Deps...) {
		if m.Path == "github.com/opsgen/opsgen" && m.Version != "" && m.Version != "(devel)" {
			return m.Version
		}
	}
	return "devel"
}
