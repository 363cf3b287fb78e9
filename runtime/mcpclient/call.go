package mcpclient

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
)

// Invoker sends one tools/call request and returns its result: the
// innermost one is the session's CallTool.
type Invoker func(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error)

// Middleware wraps the sending of tools/call requests, the way go-sdk's
// mcp.Middleware wraps every method: it gets the next Invoker of the chain
// and returns one that calls it. params.Name is the tool's name; a
// middleware may change params (its _meta, say) before passing them on,
// and sees the raw result (isError included) or the error before Call
// decodes it. Use it for logging, metrics, tracing or retries of tool
// calls; for every method of a session (not only tools/call), add an
// mcp.Middleware to the go-sdk client instead (ConnectOptions.Middleware).
type Middleware func(next Invoker) Invoker

// WithMiddleware appends middlewares to the client's chain. The first one
// is the outermost: it sees the call first and the result last.
func WithMiddleware(m ...Middleware) Option {
	return func(c *Client) { c.middleware = append(c.middleware, m...) }
}

// WithBeforeCall adds a hook called with the parameters of every tools/call
// (the tool's name, arguments and _meta) before they enter the middleware
// chain. It may change them; an error fails the call (a *runtime.CallError
// as it is, anything else as TRANSPORT_ERROR) without sending it.
func WithBeforeCall(f func(ctx context.Context, params *mcp.CallToolParams) error) Option {
	return func(c *Client) { c.before = append(c.before, f) }
}

// WithAfterResult adds a hook called with every result the middleware
// chain returns (isError results included), before Data is decoded. An
// error fails the call (a *runtime.CallError as it is, anything else as
// TRANSPORT_ERROR). Failed calls do not reach it: see Middleware.
func WithAfterResult(f func(ctx context.Context, params *mcp.CallToolParams, res *mcp.CallToolResult) error) Option {
	return func(c *Client) { c.after = append(c.after, f) }
}

// WithTimeout sets the default timeout of every call, from the call to its
// decoded result; zero means none (the default). The context's own
// deadline always holds. A call that times out is TIMEOUT, and go-sdk
// tells the server to cancel it.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// CallOption configures one call.
type CallOption func(*callConfig)

type callConfig struct {
	progress   func(context.Context, Progress)
	meta       map[string]any
	timeout    time.Duration
	hasTimeout bool
	mode       runtime.ValidationMode
	hasMode    bool
	taskStatus func(context.Context, TaskStatus)
	taskTTL    time.Duration
}

// Progress is one progress notification of a call (notifications/progress).
type Progress struct {
	// Tool is the name of the tool called.
	Tool string
	// Progress is the progress so far; it increases with every notification.
	Progress float64
	// Total is the total progress, or zero when the server does not know it.
	Total float64
	// Message describes the progress, when the server says something.
	Message string
}

// WithProgress asks the server for progress notifications of this call (it
// sends a progress token in the request's _meta) and calls f with each,
// in the order the server sent them. f runs on a goroutine of its own, one
// notification at a time; every notification that arrived before the
// result has been passed to f when Call returns, and later ones are
// dropped. Servers are free to send none.
//
// It needs a session from Connect or a transport from WrapTransport, which
// see the notifications on the wire (go-sdk's ProgressNotificationHandler
// sees them too, but not in step with the result).
func WithProgress(f func(ctx context.Context, p Progress)) CallOption {
	return func(cc *callConfig) { cc.progress = f }
}

// WithMeta adds entries to the _meta of this call's request (repeatable;
// later entries win). WithProgress sets "progressToken" itself.
func WithMeta(meta map[string]any) CallOption {
	return func(cc *callConfig) {
		if cc.meta == nil {
			cc.meta = make(map[string]any, len(meta))
		}
		maps.Copy(cc.meta, meta)
	}
}

// WithCallTimeout sets the timeout of this call, replacing the client's
// (WithTimeout); zero means none.
func WithCallTimeout(d time.Duration) CallOption {
	return func(cc *callConfig) { cc.timeout, cc.hasTimeout = d, true }
}

// WithCallValidation sets the validation mode of this call.
func WithCallValidation(m runtime.ValidationMode) CallOption {
	return func(cc *callConfig) { cc.mode, cc.hasMode = m, true }
}

// callOptions applies opts to a fresh callConfig.
func callOptions(opts []CallOption) callConfig {
	cc := new(callConfig)
	for _, o := range opts {
		o(cc)
	}
	return *cc
}

// send runs the before hooks, the middleware chain around the session's
// CallTool, and the after hooks. Its errors name the operation op (the
// tool's registry id, or its name).
func (c *Client) send(ctx context.Context, op string, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
	for _, f := range c.before {
		if err := f(ctx, params); err != nil {
			return nil, hookError(op, "before-call hook", err)
		}
	}
	var res *mcp.CallToolResult
	var err error
	if len(c.middleware) == 0 {
		res, err = c.session.CallTool(ctx, params) // no method value to allocate
	} else {
		var invoke Invoker = c.session.CallTool
		for i := len(c.middleware) - 1; i >= 0; i-- {
			invoke = c.middleware[i](invoke)
		}
		res, err = invoke(ctx, params)
	}
	if err != nil {
		var ce *runtime.CallError
		if errors.As(err, &ce) {
			return nil, err // a middleware's own verdict
		}
		return nil, callError(ctx, op, err)
	}
	if res == nil {
		return nil, runtime.Errorf(runtime.CodeDecode, op, "tools/call returned no result")
	}
	for _, f := range c.after {
		if err := f(ctx, params, res); err != nil {
			return nil, hookError(op, "after-result hook", err)
		}
	}
	return res, nil
}

func hookError(tool, what string, err error) error {
	var ce *runtime.CallError
	if errors.As(err, &ce) {
		return err
	}
	return runtime.NewError(runtime.CodeTransport, tool, what+" failed", err)
}

// objectArgs returns args, or an empty object for a nil map or pointer:
// those marshal to null, which the arguments of tools/call may not be
// (go-sdk replaces only an untyped nil; the TypeScript SDK's servers reject
// null).
func objectArgs(args any) any {
	if args == nil {
		return args
	}
	switch v := reflect.ValueOf(args); v.Kind() {
	case reflect.Map, reflect.Pointer:
		if v.IsNil() {
			return struct{}{}
		}
	}
	return args
}
