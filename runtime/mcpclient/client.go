package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpconv"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Tool describes one tool for Call; generated code declares one
// package-level *Tool per tool.
type Tool struct {
	// Name is the tool's name on the server.
	Name string
	// OutputSchema is the tool's output schema; nil when the tool declares none.
	OutputSchema *opsgenimpl.Schema
	// Convention: "" (none), "toolenvelope-v1", "dotbot", or "auto" (detect
	// either). "" means the client's default (WithConvention).
	Convention string
	// TaskSupport is the tool's execution.taskSupport: "", "forbidden",
	// "optional" or "required". On a 2025-11-25 session Call asks for a
	// task when it is "optional" or "required" (see the package doc's
	// Tasks); under 2026-07-28 the server decides.
	TaskSupport string
	// ParamHeaders are the x-mcp-header annotations of the tool's input
	// schema: on a streamable HTTP session of protocol 2026-07-28 or later
	// (made with Connect or WrapTransport), Call sends each argument named
	// there as an Mcp-Param-<Header> header too. Other transports and
	// versions have no such headers.
	ParamHeaders []ParamHeader
	// ID is the tool's registry id ("<namespace>.<name>"), in clients
	// generated with registry: true: with WithRemote, Call sends the call
	// to the remote under it. "" keeps the tool on the session.
	ID string
}

// operationID names the tool in errors and warnings: its registry id when
// it has one ("inv.getItem"), else its name.
func (t *Tool) operationID() string {
	if t.ID != "" {
		return t.ID
	}
	return t.Name
}

// Client calls tools over one MCP client session. It is safe for
// concurrent use.
type Client struct {
	session    *mcp.ClientSession
	pipeline   runtime.Pipeline
	convention string
	middleware []Middleware
	before     []func(context.Context, *mcp.CallToolParams) error
	after      []func(context.Context, *mcp.CallToolParams, *mcp.CallToolResult) error
	timeout    time.Duration
	remote     opsgenimpl.Remote
}

// Option configures a Client.
type Option func(*Client)

// New returns a Client calling tools over session, which should come from
// Connect (see the package doc).
func New(session *mcp.ClientSession, opts ...Option) *Client {
	c := &Client{session: session}
	for _, o := range opts {
		o(c)
	}
	return c
}

// WithValidation sets what happens when data does not match its output
// schema (default runtime.ValidateWarn).
func WithValidation(m runtime.ValidationMode) Option {
	return func(c *Client) { c.pipeline.Mode = m }
}

// WithLogger sets the logger of warnings: a *slog.Logger, such as
// slog.Default(). The default (nil) is package log's default logger (see
// runtime.Pipeline's Logger).
func WithLogger(l runtime.Logger) Option {
	return func(c *Client) { c.pipeline.Logger = l }
}

// WithWarningHook sets a function called with each warning of a call.
func WithWarningHook(f func(context.Context, runtime.Warning)) Option {
	return func(c *Client) { c.pipeline.OnWarning = f }
}

// WithConvention sets the content convention ("toolenvelope-v1", "dotbot"
// or "auto") of tools whose Tool.Convention is "".
func WithConvention(name string) Option {
	return func(c *Client) { c.convention = name }
}

// Session returns the client's session.
func (c *Client) Session() *mcp.ClientSession { return c.session }

// Call calls tool with args (any value that marshals to a JSON object, or
// nil) and returns its result as an envelope; see the package doc for how
// Data is made. Warnings (schema drift, a convention that did not decode,
// data that could not be found) are on the envelope, logged, and passed to
// the warning hook. opts set progress notifications (WithProgress), _meta
// (WithMeta), a timeout and the validation mode of this call.
func Call[T any](ctx context.Context, c *Client, tool *Tool, args any, opts ...CallOption) (runtime.ResponseEnvelope[T], error) {
	var env runtime.ResponseEnvelope[T]
	if tool == nil {
		return env, runtime.Errorf(runtime.CodeExecution, "", "mcpclient.Call: nil tool")
	}
	args = objectArgs(args)
	if c != nil && c.remote != nil && tool.ID != "" {
		return callRemote[T](ctx, c, tool, args, opts)
	}
	if c == nil || c.session == nil {
		return env, runtime.Errorf(runtime.CodeTransport, tool.operationID(), "mcpclient.Call: no session")
	}
	var cc callConfig
	if len(opts) > 0 {
		cc = callOptions(opts) // cc stays on the stack
	}
	timeout := c.timeout
	if cc.hasTimeout {
		timeout = cc.timeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	op := tool.operationID()
	if err := opsgenimpl.ContextError(ctx, op, ctx.Err()); err != nil {
		return env, err
	}
	pipeline := &c.pipeline
	if cc.hasMode {
		p := c.pipeline
		p.Mode = cc.mode
		pipeline = &p
	}
	params := &mcp.CallToolParams{Name: tool.Name, Arguments: args}
	if len(cc.meta) > 0 || cc.progress != nil {
		// A fresh map: go-sdk adds its own keys to the one it is given.
		params.Meta = maps.Clone(cc.meta)
		if params.Meta == nil {
			params.Meta = mcp.Meta{}
		}
	}
	if cc.progress != nil {
		sink := newProgressSink(ctx, tool.Name, cc.progress)
		defer sink.finish()
		params.Meta["progressToken"] = sink.token
	}
	askForTask(c.session, tool, params, cc.taskTTL)
	res, err := c.send(withParamHeaders(ctx, tool), op, params)
	if handle, ok := taskHandle(res); ok && err == nil {
		res, err = c.awaitTask(ctx, op, tool, handle, &cc)
	}
	if err != nil {
		return env, err
	}
	meta := runtime.MCPMeta{IsError: res.IsError, Content: FromSDK(res.Content), Meta: res.Meta, Tool: tool.Name}
	if res.StructuredContent != nil {
		if meta.StructuredContent, err = json.Marshal(res.StructuredContent); err != nil {
			return env, runtime.NewError(runtime.CodeDecode, op, "structuredContent", err)
		}
	}
	var warnings []runtime.Warning
	report := func(w runtime.Warning) {
		w.OperationID = op
		pipeline.Report(ctx, []runtime.Warning{w})
		warnings = append(warnings, w)
	}
	warn := func(format string, args ...any) { report(runtime.Warning{Message: fmt.Sprintf(format, args...)}) }
	// The serving side's warnings (an opsgen server's drift, see
	// MetaWarnings) come first: they happened first.
	for _, w := range serverWarnings(res.Meta) {
		report(w)
	}

	convention := tool.Convention
	if convention == "" {
		convention = c.convention
	}
	payload, info, fromStructured := applyConvention(convention, meta.Content, meta.StructuredContent, report)
	meta.Convention = info

	var data T
	blocks, wantBlocks := any(&data).(*[]runtime.ContentBlock)
	switch {
	case res.IsError:
		// A tool error is a result; its content is not the tool's output, so
		// the pipeline does not run.
		if wantBlocks {
			*blocks = meta.Content
		}
	case tool.OutputSchema != nil && meta.StructuredContent != nil && !fromStructured:
		w, err := opsgenimpl.Decode(ctx, pipeline, op, tool.OutputSchema, meta.StructuredContent, &data)
		if err != nil {
			return env, err
		}
		warnings = append(warnings, w...)
	case wantBlocks:
		*blocks = meta.Content
	case payload != nil:
		w, err := opsgenimpl.Decode(ctx, pipeline, op, tool.OutputSchema, payload, &data)
		if err != nil {
			return env, err
		}
		warnings = append(warnings, w...)
	default:
		w, found, err := decodeText(ctx, pipeline, tool, meta.Content, &data)
		if err != nil {
			return env, err
		}
		warnings = append(warnings, w...)
		if !found && tool.OutputSchema != nil {
			warn("no structuredContent and no text block holding JSON that fits %T: data left empty", data)
		} else if !found {
			warn("no convention payload and no text block holding JSON that fits %T: data left empty", data)
		}
	}
	env = opsgenimpl.MCP(data, meta)
	env.Warnings = distinct(warnings)
	return env, nil
}

// decodeText decodes the first text block that fits out (through the
// pipeline). A string out takes the first text block as it is.
func decodeText[T any](ctx context.Context, pipeline *runtime.Pipeline, tool *Tool, blocks []runtime.ContentBlock, out *T) ([]runtime.Warning, bool, error) {
	if s, ok := any(out).(*string); ok && tool.OutputSchema == nil {
		*s, ok = runtime.FirstText(blocks)
		return nil, ok, nil
	}
	for _, b := range blocks {
		if b.Type != runtime.ContentText || !json.Valid([]byte(b.Text)) {
			continue
		}
		var v T
		w, err := opsgenimpl.Decode(ctx, pipeline, tool.operationID(), tool.OutputSchema, []byte(b.Text), &v)
		if errors.Is(err, runtime.ErrDecode) {
			continue // valid JSON, but not of T's shape
		}
		if err != nil {
			return nil, false, err
		}
		*out = v
		return w, true, nil
	}
	return nil, false, nil
}

// applyConvention decodes the convention named name from blocks, or, for
// a dotbot envelope sent as structuredContent, from structured. It returns
// the payload, what the envelope said, and whether it came from structured,
// or zero values when the convention does not apply; problems (an expected
// convention that is absent or does not decode, a dotbot status mismatch)
// go to report.
func applyConvention(name string, blocks []runtime.ContentBlock, structured json.RawMessage, report func(runtime.Warning)) (json.RawMessage, runtime.Convention, bool) {
	warn := func(format string, args ...any) { report(runtime.Warning{Message: fmt.Sprintf(format, args...)}) }
	switch name {
	case "":
		return nil, nil, false
	case mcpconv.ConventionAuto:
		switch {
		case mcpconv.HasToolEnvelope(blocks):
			name = mcpconv.ConventionToolEnvelope
		case isDotbot(string(structured)) || hasDotbot(blocks):
			name = mcpconv.ConventionDotbot
		default:
			return nil, nil, false
		}
	}
	switch name {
	case mcpconv.ConventionToolEnvelope:
		env, err := mcpconv.DecodeToolEnvelope(blocks)
		if err != nil {
			warn("%v; falling back to the content", err)
			return nil, nil, false
		}
		info := env.ToolEnvelopeInfo
		return env.Payload, &info, false
	case mcpconv.ConventionDotbot:
		fromStructured := mcpconv.LooksLikeDotbot(string(structured))
		var d *mcpconv.Dotbot
		var warnings []runtime.Warning
		var err error
		if fromStructured {
			d, warnings, err = mcpconv.DecodeDotbot(structured)
		} else {
			d, warnings, err = mcpconv.FindDotbot(blocks)
		}
		if err != nil {
			warn("%v; falling back to the content", err)
			return nil, nil, false
		}
		for _, w := range warnings {
			report(w)
		}
		return d.Data, &d.DotbotInfo, fromStructured
	}
	warn("unknown content convention %q ignored (want %q, %q or %q)", name,
		mcpconv.ConventionToolEnvelope, mcpconv.ConventionDotbot, mcpconv.ConventionAuto)
	return nil, nil, false
}

func hasDotbot(blocks []runtime.ContentBlock) bool {
	for _, b := range blocks {
		if b.Type == runtime.ContentText && isDotbot(b.Text) {
			return true
		}
	}
	return false
}

// isDotbot reports whether text is a JSON object naming a dotbot schema_id.
func isDotbot(text string) bool {
	return mcpconv.LooksLikeDotbot(text) && strings.Contains(text, `"dotbot-mcp-response@`)
}

// go-sdk's own JSON-RPC codes for local connection failures: the transport
// rejected the request (-32005, e.g. an HTTP POST that could not be sent),
// the server side is closing (-32004), the client is closing (-32003).
const (
	codeRejectedByTransport = -32005
	codeClientClosing       = -32003
)

// callError classifies a CallTool failure.
func callError(ctx context.Context, tool string, err error) error {
	if ce := opsgenimpl.ContextError(ctx, tool, err); ce != nil {
		return ce
	}
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		switch {
		case werr.Code == jsonrpc.CodeInvalidParams && strings.Contains(werr.Message, "unknown tool"):
			return runtime.NewError(runtime.CodeOperationNotFound, tool, werr.Message, err)
		case werr.Code == jsonrpc.CodeInvalidParams:
			return runtime.NewError(runtime.CodeValidation, tool, werr.Message, err)
		case werr.Code >= codeRejectedByTransport && werr.Code <= codeClientClosing:
			return runtime.NewError(runtime.CodeTransport, tool, werr.Message, err)
		}
		return runtime.NewError(runtime.CodeExecution, tool, werr.Message, err)
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	if errors.As(err, &syntax) || errors.As(err, &typ) {
		return runtime.NewError(runtime.CodeDecode, tool, "malformed tools/call result", err)
	}
	// go-sdk reports content it cannot read with an unexported error type;
	// its message is all there is to recognise it by.
	if strings.Contains(err.Error(), "content type") {
		return runtime.NewError(runtime.CodeDecode, tool, "go-sdk rejected the result's content (make the session with mcpclient.Connect)", err)
	}
	return runtime.NewError(runtime.CodeTransport, tool, "tools/call failed", err)
}

// AsError returns a *runtime.CallError (EXECUTION_ERROR, with the text of
// the content blocks as its message and the tool's name, MCPMeta.Tool, as
// its operation id) when env is an MCP result with isError set, and nil
// otherwise: for callers who treat tool errors as Go errors. The isError
// result of an opsgen server (runtime/mcpserver) carries its CallError in
// _meta (MetaError): the error then has that error's code, message and
// operation id (the served registry's, "inv.getItem"), its issues, and,
// for an HTTP failure upstream, HTTP with the status (StatusCode only: the
// body is in the result's text, after the error's line).
func AsError[T any](env runtime.ResponseEnvelope[T]) error {
	m := runtime.MCPMetaOf(env.Meta)
	if m == nil || !m.IsError {
		return nil
	}
	if ce, ok := serverError(m.Meta); ok {
		if ce.OperationID == "" {
			ce.OperationID = m.Tool
			for i := range ce.Issues {
				ce.Issues[i].OperationID = m.Tool
			}
		}
		return ce
	}
	var texts []string
	for _, b := range m.Content {
		if b.Type == runtime.ContentText {
			texts = append(texts, b.Text)
		}
	}
	msg := strings.Join(texts, "\n")
	if msg == "" {
		msg = "tool reported an error"
	}
	return &runtime.CallError{Code: runtime.CodeExecution, OperationID: m.Tool, Message: msg}
}
