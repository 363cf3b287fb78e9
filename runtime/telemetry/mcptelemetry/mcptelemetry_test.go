package mcptelemetry_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/telemetry/mcptelemetry"
)

type text struct {
	Text string `json:"text"`
}

// session connects a go-sdk server whose "echo" tool returns the _meta
// members it received, and whose "fail" tool returns an isError result.
func session(t *testing.T) *mcp.ClientSession {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "trace-test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, req *mcp.CallToolRequest, _ text) (*mcp.CallToolResult, map[string]any, error) {
		return nil, map[string]any{"meta": map[string]any(req.Params.Meta)}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequest, text) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no"}}}, nil, nil
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcpclient.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

func TestTraceparentInMeta(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	c := mcpclient.New(session(t), mcpclient.WithMiddleware(
		mcptelemetry.Middleware(mcptelemetry.WithTracerProvider(tp), mcptelemetry.WithPropagator(propagation.TraceContext{}))))
	env, err := mcpclient.Call[struct {
		Meta map[string]any `json:"meta"`
	}](context.Background(), c, &mcpclient.Tool{Name: "echo"}, text{"hi"}, mcpclient.WithMeta(map[string]any{"vendor/x": "kept"}))
	if err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	sp := spans[0]
	if sp.Name() != "tools/call echo" {
		t.Errorf("span name %q", sp.Name())
	}
	attrs := map[string]string{}
	for _, a := range sp.Attributes() {
		attrs[string(a.Key)] = a.Value.String()
	}
	if attrs["mcp.method.name"] != "tools/call" || attrs["gen_ai.tool.name"] != "echo" || attrs["gen_ai.operation.name"] != "execute_tool" {
		t.Errorf("attributes %v", attrs)
	}
	// The server got the span's context as traceparent, and the caller's
	// own _meta member.
	meta := env.Data.Meta
	want := "00-" + sp.SpanContext().TraceID().String() + "-" + sp.SpanContext().SpanID().String() + "-01"
	if meta["traceparent"] != want || meta["vendor/x"] != "kept" {
		t.Errorf("server's _meta %v, want traceparent %s and vendor/x", meta, want)
	}
}

func TestToolErrorSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	c := mcpclient.New(session(t), mcpclient.WithMiddleware(mcptelemetry.Middleware(mcptelemetry.WithTracerProvider(tp))))
	mcpclient.Call[any](context.Background(), c, &mcpclient.Tool{Name: "fail"}, text{"x"})
	spans := rec.Ended()
	if len(spans) != 1 || spans[0].Status().Code != codes.Error {
		t.Fatalf("spans %v", spans)
	}
	for _, a := range spans[0].Attributes() {
		if a.Key == mcptelemetry.ErrorTypeKey && a.Value.AsString() != "tool_error" {
			t.Errorf("error.type %q", a.Value.AsString())
		}
	}
}

// With telemetry off (a no-op tracer provider), nothing is added to _meta,
// even within a trace (which a no-op span would carry on).
func TestOffSendsNoTraceparent(t *testing.T) {
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	ctx := trace.ContextWithSpanContext(context.Background(), sc)
	c := mcpclient.New(session(t), mcpclient.WithMiddleware(
		mcptelemetry.Middleware(mcptelemetry.WithTracerProvider(tracenoop.NewTracerProvider()), mcptelemetry.WithPropagator(propagation.TraceContext{}))))
	env, err := mcpclient.Call[struct {
		Meta map[string]any `json:"meta"`
	}](ctx, c, &mcpclient.Tool{Name: "echo"}, text{"hi"})
	if err != nil {
		t.Fatal(err)
	}
	for k := range env.Data.Meta {
		if strings.HasPrefix(k, "trace") {
			t.Errorf("_meta has %s with telemetry off: %v", k, env.Data.Meta)
		}
	}
}
