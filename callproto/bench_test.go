package callproto_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/callproto/redisbus"
	"github.com/opsgen/opsgen/callproto/wsbus"
	rt "github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// The benchmarks compare a small call through the protocol (hub and spoke
// on separate connections to an embedded NATS server) with a bare NATS
// request-reply carrying the same bytes: the input as request, the
// envelope's wire form as reply. The operation returns a small struct. Latency benchmarks report p50 and p99.

var (
	benchInput = json.RawMessage(`{"id":7}`)
	benchPet   = pet{ID: 7, Name: "Rex"}
)

// countingDialer counts the write system calls of the connections it
// dials: the benchmarks report them per call (writes/op), since on a
// loopback connection they are a large part of a small call's cost.
type countingDialer struct{ writes atomic.Int64 }

func (d *countingDialer) Dial(network, address string) (net.Conn, error) {
	c, err := net.Dial(network, address)
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, n: &d.writes}, nil
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.n.Add(1)
	return c.Conn.Write(p)
}

// meter measures a benchmark loop: the socket writes its dialer counted
// and the CPU time the process (benchmark, hub, spoke and embedded server
// alike) spent. CPU time per call is the comparison that holds on a
// machine other work loads: wall time per call then mostly measures the
// share of the CPUs the benchmark got.
type meter struct {
	d      *countingDialer
	writes int64
	cpu    time.Duration
}

// start begins measuring (call it right after b.ResetTimer).
func startMeter(d *countingDialer) meter { return meter{d: d, writes: d.writes.Load(), cpu: cpuTime()} }

// report reports writes/op and cpu-µs/op.
func (m meter) report(b *testing.B) {
	if b.N == 0 {
		return
	}
	b.ReportMetric(float64(m.d.writes.Load()-m.writes)/float64(b.N), "writes/op")
	b.ReportMetric(float64((cpuTime()-m.cpu).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
}

// benchBusesCounted connects a hub's and a spoke's bus to a fresh embedded
// server through one countingDialer.
func benchBusesCounted(b *testing.B) (hubBus, spokeBus *natsbus.Bus, d *countingDialer) {
	b.Helper()
	srv, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Shutdown)
	d = &countingDialer{}
	for _, p := range []**natsbus.Bus{&hubBus, &spokeBus} {
		bus, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL(), NATS: []nats.Option{nats.SetCustomDialer(d)}})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { bus.Close() })
		*p = bus
	}
	return hubBus, spokeBus, d
}

func benchSpoke(b *testing.B) (*callproto.PendingRequestMap, *countingDialer) {
	hubBus, spokeBus, d := benchBusesCounted(b)
	return benchSpokeOn(b, hubBus, spokeBus), d
}

// benchSpokeOn serves bench.echo from a hub on hubBus to a spoke on spokeBus.
func benchSpokeOn(b *testing.B, hubBus, spokeBus callproto.Bus) *callproto.PendingRequestMap {
	reg := rt.NewRegistry(nil)
	reg.Register(rt.OperationSpec{ID: "bench.echo"}, func(context.Context, json.RawMessage) (any, error) { return benchPet, nil })
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { hub.Close() })
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { spoke.Close() })
	return spoke
}

func benchBare(b *testing.B) (*nats.Conn, *countingDialer) {
	hubBus, spokeBus, d := benchBusesCounted(b)
	reply, _ := json.Marshal(opsgenimpl.Local(benchPet, "bench.echo"))
	if _, err := hubBus.Conn().Subscribe("bench.bare", func(m *nats.Msg) { m.Respond(reply) }); err != nil {
		b.Fatal(err)
	}
	hubBus.Conn().Flush()
	return spokeBus.Conn(), d
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	if len(d) == 0 {
		return
	}
	b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Nanoseconds())/1e3, "p99-µs")
}

func BenchmarkLatencyCall(b *testing.B) {
	spoke, dialer := benchSpoke(b)
	ctx := context.Background()
	d := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	meter := startMeter(dialer)
	for b.Loop() {
		t := time.Now()
		if _, err := spoke.Call(ctx, "bench.echo", benchInput); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t))
	}
	reportPercentiles(b, d)
	meter.report(b)
}

func BenchmarkLatencyBareNATS(b *testing.B) {
	nc, dialer := benchBare(b)
	d := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	meter := startMeter(dialer)
	for b.Loop() {
		t := time.Now()
		m, err := nc.Request("bench.bare", benchInput, 5*time.Second)
		if err != nil {
			b.Fatal(err)
		}
		var env rt.ResponseEnvelope[any]
		if err := json.Unmarshal(m.Data, &env); err != nil { // the caller reads the envelope too
			b.Fatal(err)
		}
		d = append(d, time.Since(t))
	}
	reportPercentiles(b, d)
	meter.report(b)
}

func BenchmarkThroughputCall(b *testing.B) {
	spoke, dialer := benchSpoke(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	meter := startMeter(dialer)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := spoke.Call(ctx, "bench.echo", benchInput); err != nil {
				b.Error(err)
				return
			}
		}
	})
	meter.report(b)
}

func BenchmarkThroughputBareNATS(b *testing.B) {
	nc, dialer := benchBare(b)
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	meter := startMeter(dialer)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			m, err := nc.Request("bench.bare", benchInput, 5*time.Second)
			if err != nil {
				b.Error(err)
				return
			}
			var env rt.ResponseEnvelope[any]
			if err := json.Unmarshal(m.Data, &env); err != nil {
				b.Error(err)
				return
			}
		}
	})
	meter.report(b)
}

// The same call over Redis (a redis-server of the test's own) and over the
// WebSocket hub (hub and spoke both spokes of it, as NATS's are clients).

func benchRedisSpoke(b *testing.B) *callproto.PendingRequestMap {
	srv, err := redisbus.StartServer(b.TempDir(), 0)
	if errors.Is(err, redisbus.ErrNoServer) {
		b.Skip("redis-server is not installed (make redis)")
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Stop)
	var buses [2]*redisbus.Bus
	for i := range buses {
		bus, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { bus.Close() })
		buses[i] = bus
	}
	return benchSpokeOn(b, buses[0], buses[1])
}

func benchWSSpoke(b *testing.B) *callproto.PendingRequestMap {
	hub := wsbus.NewHub(wsbus.HubOptions{})
	srv := httptest.NewServer(hub)
	b.Cleanup(srv.Close)
	b.Cleanup(func() { hub.Close() })
	var buses [2]*wsbus.Spoke
	for i := range buses {
		bus, err := wsbus.Dial(context.Background(), srv.URL, wsbus.SpokeOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { bus.Close() })
		buses[i] = bus
	}
	return benchSpokeOn(b, buses[0], buses[1])
}

func benchLatency(b *testing.B, spoke *callproto.PendingRequestMap) {
	ctx := context.Background()
	d := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t := time.Now()
		if _, err := spoke.Call(ctx, "bench.echo", benchInput); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t))
	}
	reportPercentiles(b, d)
}

func benchThroughput(b *testing.B, spoke *callproto.PendingRequestMap) {
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := spoke.Call(ctx, "bench.echo", benchInput); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkLatencyCallRedis(b *testing.B)        { benchLatency(b, benchRedisSpoke(b)) }
func BenchmarkThroughputCallRedis(b *testing.B)     { benchThroughput(b, benchRedisSpoke(b)) }
func BenchmarkLatencyCallWebSocket(b *testing.B)    { benchLatency(b, benchWSSpoke(b)) }
func BenchmarkThroughputCallWebSocket(b *testing.B) { benchThroughput(b, benchWSSpoke(b)) }

// BenchmarkThroughputRatio compares the two throughput benchmarks above
// on a machine other work loads: it alternates them in short slices (25ms
// each, 32 callers, the order swapped every round), so that both see the
// same load, and reports each one's wall and CPU time per call and their
// ratios (call/bare). Its ns/op is that of a pair of slices.
func BenchmarkThroughputRatio(b *testing.B) {
	spoke, _ := benchSpoke(b)
	nc, _ := benchBare(b)
	ctx := context.Background()
	call := func() error {
		_, err := spoke.Call(ctx, "bench.echo", benchInput)
		return err
	}
	bare := func() error {
		m, err := nc.Request("bench.bare", benchInput, 5*time.Second)
		if err != nil {
			return err
		}
		var env rt.ResponseEnvelope[any]
		return json.Unmarshal(m.Data, &env)
	}
	type total struct {
		n         int64
		wall, cpu time.Duration
	}
	slice := func(f func() error, t *total) {
		var stop atomic.Bool
		var n atomic.Int64
		var wg sync.WaitGroup
		start, cpu0 := time.Now(), cpuTime()
		for range 32 {
			wg.Go(func() {
				for !stop.Load() {
					if err := f(); err != nil {
						b.Error(err)
						return
					}
					n.Add(1)
				}
			})
		}
		time.Sleep(25 * time.Millisecond)
		stop.Store(true)
		wg.Wait()
		t.n += n.Load()
		t.wall += time.Since(start)
		t.cpu += cpuTime() - cpu0
	}
	var c, r total
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			slice(call, &c)
			slice(bare, &r)
		} else {
			slice(bare, &r)
			slice(call, &c)
		}
	}
	if c.n == 0 || r.n == 0 {
		return
	}
	per := func(d time.Duration, n int64) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(n) }
	b.ReportMetric(per(c.wall, c.n), "call-µs/op")
	b.ReportMetric(per(r.wall, r.n), "bare-µs/op")
	b.ReportMetric(per(c.wall, c.n)/per(r.wall, r.n), "ratio")
	b.ReportMetric(per(c.cpu, c.n)/per(r.cpu, r.n), "cpu-ratio")
}
