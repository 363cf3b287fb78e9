// Package mcptelemetry traces the tool calls of opsgen-generated MCP
// clients with OpenTelemetry, following its semantic conventions for MCP
// (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/), and carries
// the trace context to the server in the request's params._meta, under the
// keys "traceparent", "tracestate" (and "baggage", with a baggage
// propagator) in W3C Trace Context format, as MCP's SEP-414 documents. It
// is a package of its own, apart from runtime/telemetry (HTTP clients), so
// that an HTTP client does not link the MCP SDK and an MCP client that does
// not trace does not link OpenTelemetry.
//
// Middleware returns an mcpclient.Middleware; pass it to a generated MCP
// client's WithMiddleware:
//
//	c := tools.New(session, mcpclient.WithMiddleware(mcptelemetry.Middleware()))
//
// Every tools/call gets a client span named "tools/call {tool}" with the
// attributes mcp.method.name, gen_ai.operation.name ("execute_tool") and
// gen_ai.tool.name, and error.type ("tool_error" for an isError result,
// else the Go type of the error) with status Error when the call fails.
// The trace context is injected into params._meta with the propagator (the
// global one by default). With a no-op tracer provider the middleware is
// the identity: no span, no _meta member.
package mcptelemetry

import (
	"context"
	"fmt"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// ScopeName is the instrumentation scope of the spans.
const ScopeName = "github.com/opsgen/opsgen/runtime/telemetry/mcptelemetry"

// Attribute keys of the spans (OpenTelemetry's MCP and GenAI conventions).
const (
	MethodNameKey    = attribute.Key("mcp.method.name")
	OperationNameKey = attribute.Key("gen_ai.operation.name")
	ToolNameKey      = attribute.Key("gen_ai.tool.name")
	ErrorTypeKey     = attribute.Key("error.type")
)

// Option configures Middleware.
type Option func(*config)

type config struct {
	tp   trace.TracerProvider
	prop propagation.TextMapPropagator
}

// WithTracerProvider sets the tracer provider (default: the global one).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithPropagator sets the propagator that injects the trace context into
// params._meta (default: the global one).
func WithPropagator(p propagation.TextMapPropagator) Option { return func(c *config) { c.prop = p } }

// Middleware returns a middleware that traces every tools/call and sends
// its trace context in params._meta.
func Middleware(opts ...Option) mcpclient.Middleware {
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tp == nil {
		cfg.tp = otel.GetTracerProvider()
	}
	if cfg.prop == nil {
		cfg.prop = otel.GetTextMapPropagator()
	}
	if _, off := cfg.tp.(tracenoop.TracerProvider); off {
		return func(next mcpclient.Invoker) mcpclient.Invoker { return next }
	}
	tracer := cfg.tp.Tracer(ScopeName)
	return func(next mcpclient.Invoker) mcpclient.Invoker {
		return func(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			ctx, span := tracer.Start(ctx, "tools/call "+params.Name, trace.WithSpanKind(trace.SpanKindClient),
				trace.WithAttributes(MethodNameKey.String("tools/call"), OperationNameKey.String("execute_tool"), ToolNameKey.String(params.Name)))
			defer span.End()
			// The caller's params and _meta are not changed: the
			// injected members go into copies.
			p := *params
			p.Meta = maps.Clone(params.Meta)
			if p.Meta == nil {
				p.Meta = mcp.Meta{}
			}
			cfg.prop.Inject(ctx, metaCarrier(p.Meta))
			res, err := next(ctx, &p)
			switch {
			case err != nil:
				span.SetAttributes(ErrorTypeKey.String(fmt.Sprintf("%T", err)))
				span.SetStatus(codes.Error, err.Error())
			case res != nil && res.IsError:
				span.SetAttributes(ErrorTypeKey.String("tool_error"))
				span.SetStatus(codes.Error, "")
			}
			return res, err
		}
	}
}

// metaCarrier is a propagation.TextMapCarrier over a request's _meta.
type metaCarrier mcp.Meta

func (m metaCarrier) Get(key string) string {
	s, _ := m[key].(string)
	return s
}

func (m metaCarrier) Set(key, value string) { m[key] = value }

func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
