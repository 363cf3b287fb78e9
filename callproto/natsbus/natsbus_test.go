package natsbus_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/bustest"
	"github.com/opsgen/opsgen/callproto/natsbus"
)

func TestBus(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		a, err := natsbus.Connect(natsbus.Options{}) // a fresh embedded server
		if err != nil {
			t.Fatal(err)
		}
		b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
		if err != nil {
			a.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() {
			b.Close()
			a.Close()
		})
		return a, b
	})
}

func TestConnectBadURL(t *testing.T) {
	_, err := natsbus.Connect(natsbus.Options{URL: "nats://127.0.0.1:1"})
	if err == nil {
		t.Fatal("connected to nothing")
	}
}

// countingDialer counts the writes to the sockets it dials.
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

// Messages published by many goroutines at once all arrive, each
// goroutine's in order, in far fewer socket writes than messages (each
// goroutine yields after each message, as a call's goroutine that
// publishes its answer and ends does: nats.go alone would write each
// message on its own).
func TestPublishCoalesces(t *testing.T) {
	srv, err := natsbus.StartServer("127.0.0.1", -1)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	d := &countingDialer{}
	pub, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL(), NATS: []nats.Option{nats.SetCustomDialer(d)}})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	sub, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()

	const goroutines, each = 200, 5
	var mu sync.Mutex
	last := map[int]int{} // goroutine -> last message index seen
	got := newCount()
	bad := make(chan string, 1)
	if _, err := sub.Subscribe("coalesce", "", func(data []byte) {
		var g, i int
		fmt.Sscanf(string(data), "%d/%d", &g, &i)
		mu.Lock()
		if prev, ok := last[g]; (ok && i != prev+1) || (!ok && i != 0) {
			select {
			case bad <- fmt.Sprintf("goroutine %d: message %d after %d", g, i, prev):
			default:
			}
		}
		last[g] = i
		mu.Unlock()
		got.Add(1)
	}); err != nil {
		t.Fatal(err)
	}
	w0 := d.writes.Load()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			<-start
			for i := range each {
				if err := pub.Publish(context.Background(), "coalesce", fmt.Appendf(nil, "%d/%d", g, i)); err != nil {
					t.Error(err)
				}
				runtime.Gosched()
			}
		})
	}
	close(start)
	wg.Wait()
	got.wait(func() int64 { return int64(goroutines * each) }, 30*time.Second)
	select {
	case msg := <-bad:
		t.Fatal(msg)
	default:
	}
	if n := got.Load(); n != goroutines*each {
		t.Fatalf("received %d messages, want %d", n, goroutines*each)
	}
	w := d.writes.Load() - w0
	t.Logf("%d messages, %d socket writes", goroutines*each, w)
	if w > goroutines*each/4 {
		t.Errorf("%d messages took %d socket writes: not coalesced", goroutines*each, w)
	}
}

func TestPublishRefused(t *testing.T) {
	b, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Publish(ctx, "x", []byte("1")); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: %v", err)
	}
	big := make([]byte, b.Conn().MaxPayload()+1)
	if err := b.Publish(context.Background(), "x", big); !errors.Is(err, nats.ErrMaxPayload) {
		t.Errorf("over the server's limit: %v", err)
	}
	if err := b.Publish(context.Background(), "", []byte("1")); !errors.Is(err, nats.ErrBadSubject) {
		t.Errorf("empty subject: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(context.Background(), "x", []byte("1")); !errors.Is(err, nats.ErrConnectionClosed) {
		t.Errorf("after Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// What was published before Close reaches the broker.
func TestCloseSendsQueued(t *testing.T) {
	a, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
	if err != nil {
		t.Fatal(err)
	}
	got := newCount()
	if _, err := a.Subscribe("closing", "", func([]byte) { got.Add(1) }); err != nil {
		t.Fatal(err)
	}
	const n = 1000
	for range n {
		if err := b.Publish(context.Background(), "closing", []byte("m")); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	got.wait(func() int64 { return int64(n) }, 30*time.Second)
	if got.Load() != n {
		t.Fatalf("received %d of %d messages published before Close", got.Load(), n)
	}
}

// A burst larger than the queue's bound (8 MiB) waits for room instead of
// growing it, and loses nothing.
func TestPublishBurstOverBound(t *testing.T) {
	a, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := newCount()
	var bytes atomic.Int64
	if _, err := a.Subscribe("burst", "", func(d []byte) { bytes.Add(int64(len(d))); got.Add(1) }); err != nil {
		t.Fatal(err)
	}
	const goroutines, each, size = 16, 4, 512 << 10 // 32 MiB in all
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range each {
				if err := b.Publish(context.Background(), "burst", make([]byte, size)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	got.wait(func() int64 { return int64(goroutines * each) }, 30*time.Second)
	if got.Load() != goroutines*each || bytes.Load() != goroutines*each*size {
		t.Fatalf("received %d messages, %d bytes; want %d, %d", got.Load(), bytes.Load(), goroutines*each, goroutines*each*size)
	}
}

// Close while publishers are running: every message Publish accepted
// reaches the broker; the others were refused with ErrConnectionClosed.
func TestCloseWhilePublishing(t *testing.T) {
	for range 5 {
		a, err := natsbus.Connect(natsbus.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
		if err != nil {
			t.Fatal(err)
		}
		got, accepted := newCount(), newCount()
		if _, err := a.Subscribe("closing", "", func([]byte) { got.Add(1) }); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for {
					err := b.Publish(context.Background(), "closing", make([]byte, 64<<10))
					if errors.Is(err, nats.ErrConnectionClosed) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					accepted.Add(1)
				}
			})
		}
		accepted.wait(func() int64 { return 64 }, 30*time.Second) // Close while they publish
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		got.wait(accepted.Load, 30*time.Second)
		if got.Load() != accepted.Load() {
			t.Fatalf("Publish accepted %d messages, %d arrived", accepted.Load(), got.Load())
		}
		a.Close()
	}
}

// Publishers that never pause: the writer hands its role on after a few
// batches (no publisher serves the others without end), and every
// goroutine's messages still arrive, in order.
func TestPublishSustained(t *testing.T) {
	a, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := natsbus.Connect(natsbus.Options{URL: a.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const goroutines, each = 8, 5000
	pad := make([]byte, 8<<10)
	var mu sync.Mutex
	next := make([]int, goroutines)
	got := newCount()
	bad := make(chan string, 1)
	if _, err := a.Subscribe("sustained", "", func(d []byte) {
		var g, i int
		fmt.Sscanf(string(d), "%d/%d", &g, &i)
		mu.Lock()
		if i != next[g] {
			select {
			case bad <- fmt.Sprintf("goroutine %d: message %d, want %d", g, i, next[g]):
			default:
			}
		}
		next[g] = i + 1
		mu.Unlock()
		got.Add(1)
	}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				// 8 KiB each: handing them over costs the writer more than
				// queuing them costs the others.
				msg := append(fmt.Appendf(make([]byte, 0, 8<<10), "%d/%d/", g, i), pad[:8<<10-32]...)
				if err := b.Publish(context.Background(), "sustained", msg); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got.wait(func() int64 { return int64(goroutines * each) }, 30*time.Second)
	select {
	case msg := <-bad:
		t.Fatal(msg)
	default:
	}
	if got.Load() != goroutines*each {
		t.Fatalf("received %d of %d", got.Load(), goroutines*each)
	}
}

// count counts delivered (or accepted) messages and lets a test wait for a
// number of them without polling.
type count struct {
	n       atomic.Int64
	changed chan struct{} // a token after each Add: wait looks again
}

func newCount() *count { return &count{changed: make(chan struct{}, 1)} }

// Add adds d and wakes a waiter.
func (c *count) Add(d int64) {
	c.n.Add(d)
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// Load returns the count.
func (c *count) Load() int64 { return c.n.Load() }

// wait returns once the count reaches want(), or after bound (the test's
// own check then reports the shortfall).
func (c *count) wait(want func() int64, bound time.Duration) {
	timeout := time.After(bound)
	for c.Load() < want() {
		select {
		case <-c.changed:
		case <-timeout:
			return
		}
	}
}
