package telemetry_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
	"github.com/opsgen/opsgen/runtime/telemetry"
)

const smallBody = `{"items":[{"id":1,"name":"pet-1","status":"available","price":12.5,"tags":["dog","good","small"],"owner":{"id":42,"email":"owner@example.com"}}],"next":"eyJvZmZzZXQiOjEwfQ"}`

type pet struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Status string   `json:"status"`
	Price  float64  `json:"price"`
	Tags   []string `json:"tags"`
}

type page struct {
	Items []pet  `json:"items"`
	Next  string `json:"next"`
}

// memTransport answers every request with smallBody, in memory.
type memTransport struct{}

func (memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(smallBody))}},
		Body:          io.NopCloser(bytes.NewReader([]byte(smallBody))),
		ContentLength: int64(len(smallBody)), Request: r,
	}, nil
}

func pass(next http.RoundTripper) http.RoundTripper {
	return httpclient.RoundTripperFunc(func(req *http.Request) (*http.Response, error) { return next.RoundTrip(req) })
}

// BenchmarkOverhead measures what the call machinery costs on a small call
// (a 200-byte JSON page, validation off), side by side: no options
// (baseline); a chain of three pass-through middlewares; a retry policy
// that never has to retry; before and after hooks; the telemetry
// middleware with OpenTelemetry's no-op providers (telemetry installed but
// not exported) and with the SDK (spans and metrics recorded, nothing
// exported). "loopback" calls an httptest server; "memory" answers from a
// transport in memory, which shows the client-side cost alone.
func BenchmarkOverhead(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(smallBody)))
		io.WriteString(w, smallBody)
	}))
	defer srv.Close()
	tp := sdktrace.NewTracerProvider()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	variants := []struct {
		name string
		opts []httpclient.Option
	}{
		{"baseline", nil},
		{"middleware3", []httpclient.Option{httpclient.WithMiddleware(pass, pass, pass)}},
		{"retry-unused", []httpclient.Option{httpclient.WithRetry(httpclient.RetryPolicy{MaxAttempts: 3})}},
		{"hooks", []httpclient.Option{httpclient.WithBeforeRequest(func(*http.Request) error { return nil }),
			httpclient.WithAfterResponse(func(*http.Response) error { return nil })}},
		{"telemetry-noop", []httpclient.Option{httpclient.WithMiddleware(telemetry.Middleware(
			telemetry.WithTracerProvider(tracenoop.NewTracerProvider()), telemetry.WithMeterProvider(noop.NewMeterProvider())))}},
		{"telemetry-sdk", []httpclient.Option{httpclient.WithMiddleware(telemetry.Middleware(
			telemetry.WithTracerProvider(tp), telemetry.WithMeterProvider(mp)))}},
	}
	responses := []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}}
	ctx := context.Background()
	for _, transport := range []struct {
		name string
		base string
		hc   *http.Client
	}{
		{"loopback", srv.URL, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}},
		{"memory", "http://h", &http.Client{Transport: memTransport{}}},
	} {
		for _, v := range variants {
			opts := append([]httpclient.Option{httpclient.WithHTTPClient(transport.hc), httpclient.WithValidation(runtime.ValidateOff)}, v.opts...)
			c := httpclient.New(transport.base, nil, opts...)
			b.Run(transport.name+"/"+v.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r := c.NewRequest("listPets", http.MethodGet, "/pets", "pets")
					r.QueryParam("limit", httpclient.StyleForm, true, false, 10)
					r.Accept("application/json")
					env, err := httpclient.Do[page](ctx, c, r, responses)
					if err != nil || len(env.Data.Items) != 1 {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
