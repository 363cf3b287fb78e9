package mcpclient

import (
	"context"
	"encoding/json"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Remote runs registered operations in another process (see
// opsgenimpl.Remote): the call protocol's spoke (*callproto.PendingRequestMap)
// is one.
type Remote = opsgenimpl.Remote

// WithRemote sends the calls of tools that have a registry id (Tool.ID, set
// in clients generated with registry: true) to rm instead of the session:
// rm's hub registered the same client (Register) and calls the tool on its
// own session, and its envelope (data, the MCP meta with isError, content
// and structuredContent, warnings) is decoded into the method's type
// through this client's pipeline. The session may then be nil. Only the
// call's timeout and validation mode apply to a remote call: progress
// notifications, _meta, middlewares and hooks belong to the hub's session.
func WithRemote(rm Remote) Option { return func(c *Client) { c.remote = rm } }

// callRemote is Call through the client's Remote.
func callRemote[T any](ctx context.Context, c *Client, tool *Tool, args any, opts []CallOption) (runtime.ResponseEnvelope[T], error) {
	cc := callOptions(opts)
	timeout := c.timeout
	if cc.hasTimeout {
		timeout = cc.timeout
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	pipeline := c.pipeline
	if cc.hasMode {
		pipeline.Mode = cc.mode
	}
	var out json.RawMessage
	var warnings []runtime.Warning
	var err error
	if wr, ok := c.remote.(opsgenimpl.WarningsRemote); ok {
		out, warnings, err = wr.CallJSONWarnings(ctx, tool.ID, args)
	} else {
		out, err = c.remote.CallJSON(ctx, tool.ID, args)
	}
	if err != nil {
		return runtime.ResponseEnvelope[T]{}, err
	}
	if !opsgenimpl.IsResponseEnvelope(out) {
		return runtime.ResponseEnvelope[T]{}, runtime.Errorf(runtime.CodeDecode, tool.ID, "the remote answer is not a ResponseEnvelope")
	}
	var result any = out
	if len(warnings) > 0 {
		// The hub's warnings, beside the envelope on the wire.
		var e runtime.ResponseEnvelope[any]
		if err := e.UnmarshalJSON(out); err != nil {
			return runtime.ResponseEnvelope[T]{}, runtime.NewError(runtime.CodeDecode, tool.ID, "the remote answer is not a ResponseEnvelope", err)
		}
		e.Warnings = warnings
		result = e
	}
	env, err := opsgenimpl.ProcessAs[T](ctx, &pipeline, tool.ID, nil, result)
	if m := runtime.MCPMetaOf(env.Meta); m != nil && m.Tool == "" {
		m.Tool = tool.Name // not on the wire; AsError names it
	}
	return env, err
}
