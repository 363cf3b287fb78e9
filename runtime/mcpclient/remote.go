package mcpclient

import (
	"context"

	"github.com/opsgen/opsgen/runtime"
)

// Remote runs registered operations in another process (see
// runtime.Remote): the call protocol's spoke (*callproto.PendingRequestMap)
// is one.
type Remote = runtime.Remote

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
	out, err := c.remote.CallJSON(ctx, tool.ID, args)
	if err != nil {
		return runtime.ResponseEnvelope[T]{}, err
	}
	if !runtime.IsResponseEnvelope(out) {
		return runtime.ResponseEnvelope[T]{}, runtime.Errorf(runtime.CodeDecode, tool.ID, "the remote answer is not a ResponseEnvelope")
	}
	env, err := runtime.ProcessAs[T](ctx, &pipeline, tool.ID, nil, out)
	if m := runtime.MCPMetaOf(env.Meta); m != nil && m.Tool == "" {
		m.Tool = tool.Name // not on the wire; AsError names it
	}
	return env, err
}
