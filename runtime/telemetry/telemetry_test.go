package telemetry_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/opsgen/opsgen/runtime/httpclient"
	"github.com/opsgen/opsgen/runtime/telemetry"
)

func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func TestSpansAndMetrics(t *testing.T) {
	var count atomic.Int32
	var mu sync.Mutex
	var traceparents []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		traceparents = append(traceparents, r.Header.Get("Traceparent"))
		mu.Unlock()
		if count.Add(1) == 1 {
			w.WriteHeader(503)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7}`)
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	c := httpclient.New(srv.URL, []httpclient.SecurityScheme{{Name: "k", Type: "apiKey", In: "query", ParamName: "key"}},
		httpclient.WithCredential("k", httpclient.APIKey("secret")),
		httpclient.WithRetry(httpclient.RetryPolicy{MaxAttempts: 3, InitialBackoff: time.Millisecond}),
		httpclient.WithMiddleware(telemetry.Middleware(telemetry.WithTracerProvider(tp), telemetry.WithMeterProvider(mp),
			telemetry.WithPropagator(propagation.TraceContext{}))))
	r := c.NewRequest("showPetById", "GET", "/pets/{petId}", "pets")
	r.PathParam("petId", httpclient.StyleSimple, false, 7)
	r.Security([][]string{{"k"}})
	env, err := httpclient.Do[map[string]any](context.Background(), c, r, []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}})
	if err != nil || env.Data["id"] != float64(7) {
		t.Fatalf("call: %v %v", env.Data, err)
	}

	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2 (one per attempt)", len(spans))
	}
	for i, s := range spans {
		a := attrs(s.Attributes())
		want := map[string]string{
			"http.request.method":       "GET",
			"url.template":              "/pets/{petId}",
			"url.full":                  srv.URL + "/pets/7?key=REDACTED",
			"server.address":            "127.0.0.1",
			"server.port":               strconv.Itoa(port),
			"opsgen.operation.id":       "showPetById",
			"http.response.status_code": []string{"503", "200"}[i],
		}
		for k, v := range want {
			if a[k] != v {
				t.Errorf("span %d: %s = %q, want %q", i, k, a[k], v)
			}
		}
		if s.Name() != "GET /pets/{petId}" || s.SpanKind() != trace.SpanKindClient {
			t.Errorf("span %d: name %q kind %v", i, s.Name(), s.SpanKind())
		}
		if tp := traceparents[i]; tp == "" || tp[36:52] != s.SpanContext().SpanID().String() {
			t.Errorf("span %d: traceparent %q does not carry span %s", i, tp, s.SpanContext().SpanID())
		}
	}
	a0, a1 := attrs(spans[0].Attributes()), attrs(spans[1].Attributes())
	if a0["error.type"] != "503" || spans[0].Status().Code != codes.Error {
		t.Errorf("503 attempt: error.type %q status %v", a0["error.type"], spans[0].Status())
	}
	if _, ok := a1["error.type"]; ok || spans[1].Status().Code == codes.Error || a1["http.request.resend_count"] != "1" {
		t.Errorf("retry: %v status %v", a1, spans[1].Status())
	}
	if _, ok := a0["http.request.resend_count"]; ok {
		t.Error("the first attempt has http.request.resend_count")
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "http.client.request.duration" {
				continue
			}
			found = true
			if m.Unit != "s" || sm.Scope.Name != telemetry.ScopeName {
				t.Errorf("unit %q scope %q", m.Unit, sm.Scope.Name)
			}
			h := m.Data.(metricdata.Histogram[float64])
			statuses := map[string]uint64{}
			for _, dp := range h.DataPoints {
				a := attrs(dp.Attributes.ToSlice())
				statuses[a["http.response.status_code"]] += dp.Count
				if a["opsgen.operation.id"] != "showPetById" || a["url.template"] != "/pets/{petId}" || a["http.request.method"] != "GET" || a["server.address"] != "127.0.0.1" {
					t.Errorf("metric attributes: %v", a)
				}
				if dp.Sum <= 0 || dp.Sum > 5 {
					t.Errorf("duration sum %v s", dp.Sum)
				}
				if len(dp.Bounds) != 14 || dp.Bounds[0] != 0.005 {
					t.Errorf("bounds %v", dp.Bounds)
				}
			}
			if statuses["503"] != 1 || statuses["200"] != 1 {
				t.Errorf("data points by status: %v", statuses)
			}
		}
	}
	if !found {
		t.Error("no http.client.request.duration metric")
	}
}

func TestTransportErrorSpan(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens: connection refused
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	c := httpclient.New("http://"+addr, nil, httpclient.WithMiddleware(telemetry.Middleware(telemetry.WithTracerProvider(tp), telemetry.WithMeterProvider(mp))))
	_, err = httpclient.Do[struct{}](context.Background(), c, c.NewRequest("ping", "CUSTOM", "/ping"), nil)
	if err == nil {
		t.Fatal("no error")
	}
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	a := attrs(spans[0].Attributes())
	if spans[0].Name() != "HTTP /ping" || a["http.request.method"] != "_OTHER" || a["http.request.method_original"] != "CUSTOM" ||
		a["error.type"] != "*net.OpError" || spans[0].Status().Code != codes.Error {
		t.Errorf("span %q: %v, status %v", spans[0].Name(), a, spans[0].Status())
	}
}
