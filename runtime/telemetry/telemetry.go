// Package telemetry traces and measures the calls of opsgen-generated HTTP
// clients with OpenTelemetry, following its semantic conventions for HTTP
// clients (https://opentelemetry.io/docs/specs/semconv/http/). It is a
// package of its own so that a client that does not use it does not link
// OpenTelemetry.
//
// Middleware returns an httpclient.Middleware; pass it to a generated
// client's WithMiddleware:
//
//	c := petstore.NewClient(petstore.WithMiddleware(telemetry.Middleware()))
//
// Every attempt of a call (a retry is another attempt) gets a client span
// named "{method} {url.template}" ("GET /pets/{petId}"), where url.template
// is the operation's path template as the spec writes it (relative to the
// server URL), with the attributes http.request.method (and
// http.request.method_original for a method outside the standard set,
// which is then "_OTHER"), url.full (user information and credential query
// values replaced by "REDACTED", see httpclient.RedactedURL), url.template,
// server.address, server.port, http.response.status_code,
// http.request.resend_count (on retries), error.type (the status code for
// 4xx and 5xx responses, else the Go type of a transport error) and
// opsgen.operation.id; the span status is Error for error.type. The span
// ends when the response body is read to its end or closed, so it covers
// the download (and, for an event stream, the stream). The trace context
// is injected into the request headers with the propagator (the global one
// by default).
//
// Each attempt is also recorded in the histogram http.client.request.duration
// (seconds, with the conventions' advisory buckets), with the attributes
// http.request.method, server.address, server.port, url.scheme,
// url.template, http.response.status_code, error.type and
// opsgen.operation.id.
package telemetry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opsgen/opsgen/runtime/httpclient"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/opsgen/opsgen/runtime/telemetry"

// OperationIDKey is the attribute holding the operation id.
const OperationIDKey = attribute.Key("opsgen.operation.id")

// Option configures Middleware.
type Option func(*config)

type config struct {
	tp   trace.TracerProvider
	mp   metric.MeterProvider
	prop propagation.TextMapPropagator
}

// WithTracerProvider sets the tracer provider (default: the global one).
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider sets the meter provider (default: the global one).
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// WithPropagator sets the propagator that injects the trace context into
// requests (default: the global one).
func WithPropagator(p propagation.TextMapPropagator) Option { return func(c *config) { c.prop = p } }

// durationBuckets are the conventions' advisory bucket boundaries of
// http.client.request.duration.
var durationBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// Middleware returns a middleware that traces and measures every request.
// With no-op providers for both (go.opentelemetry.io/otel/trace/noop and
// metric/noop) it returns the next RoundTripper itself: telemetry switched
// off costs nothing.
func Middleware(opts ...Option) httpclient.Middleware {
	cfg := config{}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.tp == nil {
		cfg.tp = otel.GetTracerProvider()
	}
	if cfg.mp == nil {
		cfg.mp = otel.GetMeterProvider()
	}
	if cfg.prop == nil {
		cfg.prop = otel.GetTextMapPropagator()
	}
	_, noTraces := cfg.tp.(tracenoop.TracerProvider)
	_, noMetrics := cfg.mp.(metricnoop.MeterProvider)
	if noTraces && noMetrics {
		// Both no-op: telemetry is switched off, at no cost per call.
		return func(next http.RoundTripper) http.RoundTripper { return next }
	}
	tracer := cfg.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
	meter := cfg.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
	duration, err := meter.Float64Histogram("http.client.request.duration",
		metric.WithUnit("s"),
		metric.WithDescription("Duration of HTTP client requests."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	if err != nil {
		otel.Handle(err)
	}
	return func(next http.RoundTripper) http.RoundTripper {
		return httpclient.RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
			return roundTrip(req, next, tracer, duration, cfg.prop)
		})
	}
}

var knownMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "DELETE": true,
	"CONNECT": true, "OPTIONS": true, "TRACE": true, "PATCH": true,
}

func roundTrip(req *http.Request, next http.RoundTripper, tracer trace.Tracer, duration metric.Float64Histogram, prop propagation.TextMapPropagator) (*http.Response, error) {
	start := time.Now()
	ctx := req.Context()
	op, hasOp := httpclient.OperationFrom(ctx)
	method, name := req.Method, req.Method
	common := make([]attribute.KeyValue, 0, 8)
	if !knownMethods[method] {
		method, name = "_OTHER", "HTTP"
	}
	common = append(common, semconv.HTTPRequestMethodKey.String(method))
	host, port := serverOf(req.URL)
	common = append(common, semconv.ServerAddressKey.String(host))
	if port > 0 {
		common = append(common, semconv.ServerPortKey.Int(port))
	}
	if hasOp {
		if op.PathTemplate != "" {
			name += " " + op.PathTemplate
			common = append(common, semconv.URLTemplateKey.String(op.PathTemplate))
		}
		common = append(common, OperationIDKey.String(op.ID))
	}
	spanAttrs := append(common[:len(common):len(common)], semconv.URLFullKey.String(httpclient.RedactedURL(req)))
	if method == "_OTHER" {
		spanAttrs = append(spanAttrs, semconv.HTTPRequestMethodOriginalKey.String(req.Method))
	}
	if n := httpclient.ResendCount(ctx); n > 0 {
		spanAttrs = append(spanAttrs, semconv.HTTPRequestResendCountKey.Int(n))
	}
	ctx, span := tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(spanAttrs...))
	prop.Inject(ctx, propagation.HeaderCarrier(req.Header))
	req = req.WithContext(ctx)
	metricAttrs := append(common, semconv.URLSchemeKey.String(req.URL.Scheme))

	resp, err := next.RoundTrip(req)
	if err != nil {
		typ := errorType(err)
		span.SetAttributes(semconv.ErrorTypeKey.String(typ))
		span.SetStatus(codes.Error, err.Error())
		span.End()
		metricAttrs = append(metricAttrs, semconv.ErrorTypeKey.String(typ))
		duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(metricAttrs...))
		return nil, err
	}
	status := semconv.HTTPResponseStatusCodeKey.Int(resp.StatusCode)
	span.SetAttributes(status)
	metricAttrs = append(metricAttrs, status)
	if resp.StatusCode >= 400 {
		et := semconv.ErrorTypeKey.String(strconv.Itoa(resp.StatusCode))
		span.SetAttributes(et)
		span.SetStatus(codes.Error, "")
		metricAttrs = append(metricAttrs, et)
	}
	finish := func(readErr error) {
		if readErr != nil && resp.StatusCode < 400 {
			span.SetStatus(codes.Error, readErr.Error())
		}
		span.End()
		duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(metricAttrs...))
	}
	if resp.Body == nil || resp.Body == http.NoBody {
		finish(nil)
		return resp, nil
	}
	resp.Body = &endBody{ReadCloser: resp.Body, finish: finish}
	return resp, nil
}

// endBody ends the span when the body is read to its end, fails, or is
// closed.
type endBody struct {
	io.ReadCloser
	once   sync.Once
	finish func(error)
}

func (b *endBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(func() { b.finish(nil) })
	} else if err != nil {
		b.once.Do(func() { b.finish(err) })
	}
	return n, err
}

func (b *endBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() { b.finish(nil) })
	return err
}

// serverOf returns the host and port of u, the port defaulting by scheme.
func serverOf(u *url.URL) (string, int) {
	host := u.Hostname()
	if p := u.Port(); p != "" {
		n, _ := strconv.Atoi(p)
		return host, n
	}
	switch u.Scheme {
	case "http":
		return host, 80
	case "https":
		return host, 443
	}
	return host, 0
}

// errorType is the error.type of a transport error: a low-cardinality
// name of what went wrong.
func errorType(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return fmt.Sprintf("%T", err)
}
