// Package natsbus is the NATS adapter of the call protocol's Bus
// (package callproto): core NATS publish and subscribe, with queue groups.
//
// Connect dials a NATS server or cluster by URL. With no URL it starts a
// NATS server embedded in the process (github.com/nats-io/nats-server/v2,
// on a free loopback port, no persistence), so that tests and demos need
// nothing installed; other processes join it through Bus.URL. StartServer
// starts such a server alone, e.g. for a hub that other processes connect to.
//
// The connection reconnects forever, quickly (ReconnectWait 50ms): a broker
// restart loses the messages published while it is down (core NATS keeps
// none), which the protocol detects as a gap in a subscription's sequence
// or a call that runs into its deadline.
//
// Publish coalesces. nats.go writes to the socket as soon as its flusher
// goroutine runs, which, when every publisher is a goroutine of its own
// that publishes one message and then waits or ends (a hub's answers, a
// spoke's calls), is after each message: one system call per message, and
// one more on the server for each. So Publish queues the message, and the
// publisher that finds no other one handing the queue to nats.go does so
// itself: it first lets the goroutines that are ready to run go (they
// queue theirs), then hands the whole queue over in a row, until it is
// empty. Concurrent answers thus leave in one write; a lone message pays
// one runtime.Gosched.
package natsbus

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/opsgen/opsgen/callproto"
)

// Options configure Connect.
type Options struct {
	// URL of the NATS server or cluster (comma-separated seed URLs); ""
	// starts an embedded server.
	URL string
	// Name is the connection's name, shown by the server's monitoring.
	Name string
	// NATS are extra nats.go options, applied last.
	NATS []nats.Option
}

// Bus is a callproto.Bus over one NATS connection.
type Bus struct {
	nc  *nats.Conn
	srv *server.Server // the embedded server, or nil

	mu      sync.Mutex
	queue   []outMsg      // published, not yet handed to nats.go
	queued  int           // bytes in queue
	space   chan struct{} // closed when the writer takes the queue; made by a Publish that waits for room
	writing bool          // a Publish is handing the queue to nats.go (the writer)
	idle    chan struct{} // closed when that writer is done; made by a Close that waits for it
	closing bool          // Close began: Publish refuses
	spare   []outMsg      // the writer's: the last batch's array, for reuse
}

// outMsg is one queued message.
type outMsg struct {
	subject string
	data    []byte
}

// maxQueued bounds the bytes waiting for the writer: Publish waits beyond
// it, so that publishers faster than the connection slow down instead of
// growing memory (nats.go's own buffer then pushes back on the writer).
const maxQueued = 8 << 20

// maxYields bounds how often the writer lets other goroutines run before
// it takes the queue; it stops as soon as a yield added nothing.
const maxYields = 4

// maxRounds bounds the batches a publisher hands over as the writer.
const maxRounds = 8

var _ callproto.Bus = (*Bus)(nil)

// Connect connects to opts.URL, or to a new embedded server when it is "".
func Connect(opts Options) (*Bus, error) {
	b := &Bus{}
	url := opts.URL
	if url == "" {
		srv, err := StartServer("127.0.0.1", -1)
		if err != nil {
			return nil, err
		}
		b.srv = srv
		url = srv.ClientURL()
	}
	nopts := []nats.Option{
		nats.Name(opts.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(50 * time.Millisecond),
		nats.ReconnectJitter(10*time.Millisecond, 10*time.Millisecond),
		nats.RetryOnFailedConnect(false),
		// Message handlers are quick (they hand work to goroutines); a
		// large pending limit rides out bursts before NATS drops messages
		// as a slow consumer.
	}
	nopts = append(nopts, opts.NATS...)
	nc, err := nats.Connect(url, nopts...)
	if err != nil {
		if b.srv != nil {
			b.srv.Shutdown()
		}
		return nil, fmt.Errorf("natsbus: connect %s: %w", url, err)
	}
	b.nc = nc
	return b, nil
}

// StartServer starts an embedded NATS server on host:port (port -1: a free
// port) and waits until it accepts clients. Shut it down with Shutdown.
func StartServer(host string, port int) (*server.Server, error) {
	srv, err := server.NewServer(&server.Options{Host: host, Port: port, NoLog: true, NoSigs: true, MaxPayload: 8 << 20})
	if err != nil {
		return nil, fmt.Errorf("natsbus: embedded server: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, errors.New("natsbus: embedded server did not start within 10s")
	}
	return srv, nil
}

// URL returns the URL of the server the bus is connected to (the embedded
// one's, when it started one), for other processes to connect to.
func (b *Bus) URL() string { return b.nc.ConnectedUrl() }

// Conn returns the NATS connection.
func (b *Bus) Conn() *nats.Conn { return b.nc }

// Publish implements callproto.Bus: it checks what nats.go would refuse
// at once (a closed connection, a message over the server's limit), queues
// the message, and hands the queue to nats.go unless another Publish is
// doing so (see the package documentation); it waits only while the queue
// is full. Messages one goroutine publishes leave in order. nats.go buffers
// them (and, while reconnecting, keeps them in its reconnect buffer); one
// it refuses afterwards (that buffer full in a long outage) is lost, as
// are the messages an outage loses in the broker.
func (b *Bus) Publish(ctx context.Context, subject string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if max := b.nc.MaxPayload(); max > 0 && int64(len(data)) > max {
		return nats.ErrMaxPayload
	}
	if subject == "" {
		return nats.ErrBadSubject
	}
	for {
		b.mu.Lock()
		if b.closing || b.nc.IsClosed() {
			b.mu.Unlock()
			return nats.ErrConnectionClosed
		}
		if b.queued < maxQueued || len(b.queue) == 0 {
			break
		}
		if b.space == nil {
			b.space = make(chan struct{})
		}
		space := b.space
		b.mu.Unlock()
		select {
		case <-space:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	b.queue = append(b.queue, outMsg{subject, data})
	b.queued += len(data)
	if b.writing {
		b.mu.Unlock()
		return nil // the writer will hand it over
	}
	b.writing = true
	b.mu.Unlock()
	b.write()
	return nil
}

// write hands the queue to nats.go until it is empty; one Publish at a
// time runs it (the one that set writing). After maxRounds batches it
// hands the rest of the work to a goroutine of its own, so that a
// publisher does not serve others without end while they keep coming.
func (b *Bus) write() {
	// Let the goroutines that are ready run first: those about to publish
	// (the other answers of a burst of calls) queue theirs, and all go out
	// in one write.
	for n, i := b.queueLen(), 0; i < maxYields; i++ {
		runtime.Gosched()
		m := b.queueLen()
		if m == n {
			break
		}
		n = m
	}
	for round := 0; ; round++ {
		if round == maxRounds {
			go b.write() // writing stays set: this goroutine is the writer now
			return
		}
		b.mu.Lock()
		q := b.queue
		if len(q) == 0 {
			b.writing = false
			if b.idle != nil {
				close(b.idle)
				b.idle = nil
			}
			b.mu.Unlock()
			return
		}
		b.queue, b.queued = b.spare[:0], 0
		if b.space != nil {
			close(b.space)
			b.space = nil
		}
		b.mu.Unlock()
		for _, m := range q {
			// An error here is a connection closed meanwhile or the
			// reconnect buffer full: the message is lost, as documented.
			_ = b.nc.Publish(m.subject, m.data)
		}
		clear(q)
		b.spare = q // only the writer touches spare
	}
}

func (b *Bus) queueLen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.queue)
}

// Subscribe implements callproto.Bus: a queue subscription when queue is
// not "", else a plain one.
func (b *Bus) Subscribe(subject, queue string, handler func(data []byte)) (callproto.Subscription, error) {
	cb := func(m *nats.Msg) { handler(m.Data) }
	var s *nats.Subscription
	var err error
	if queue != "" {
		s, err = b.nc.QueueSubscribe(subject, queue, cb)
	} else {
		s, err = b.nc.Subscribe(subject, cb)
	}
	if err != nil {
		return nil, err
	}
	// Hold up to 64 MiB or 512k messages before NATS calls the subscriber slow.
	if err := s.SetPendingLimits(512<<10, 64<<20); err != nil {
		s.Unsubscribe()
		return nil, err
	}
	// Make sure the server knows the subscription before Subscribe returns,
	// so that a request published right after is delivered.
	if err := b.nc.Flush(); err != nil {
		s.Unsubscribe()
		return nil, err
	}
	return s, nil
}

// SubscribeWorkers implements callproto.WorkerSubscriber: a queue
// subscription (a plain one when queue is "") whose messages nats.go puts
// on a channel that workers of the subscription read, each calling handler
// for the message it took. A worker that takes a message while no other is
// waiting starts one (up to maxWorkers), so that a message never waits for
// a handler to return while fewer than maxWorkers run; a worker idle for
// workerIdle exits, unless no other waits. Each message thus reaches its
// handler in one hand-over from nats.go's reading goroutine, as a bare NATS
// responder's does, and the handler runs on a stack grown by the ones
// before it.
func (b *Bus) SubscribeWorkers(subject, queue string, handler func(data []byte)) (callproto.Subscription, error) {
	w := &workerSub{ch: make(chan *nats.Msg, workerBacklog), handler: handler, done: make(chan struct{})}
	var err error
	if queue != "" {
		w.sub, err = b.nc.ChanQueueSubscribe(subject, queue, w.ch)
	} else {
		w.sub, err = b.nc.ChanSubscribe(subject, w.ch)
	}
	if err != nil {
		return nil, err
	}
	if err := b.nc.Flush(); err != nil { // as in Subscribe
		w.sub.Unsubscribe()
		return nil, err
	}
	w.workers.Add(1)
	go w.work()
	return w, nil
}

const (
	// workerBacklog is how many messages a SubscribeWorkers subscription
	// holds while every worker is busy; beyond it NATS drops them (a
	// slow consumer), as it does past an async subscription's pending
	// limits.
	workerBacklog = 64 << 10
	// maxWorkers bounds the workers of one SubscribeWorkers subscription.
	maxWorkers = 4096
	// workerIdle is how long a worker waits for a message before it
	// exits (while another waits).
	workerIdle = 10 * time.Second
)

// workerSub is a SubscribeWorkers subscription.
type workerSub struct {
	sub     *nats.Subscription
	ch      chan *nats.Msg
	handler func(data []byte)
	done    chan struct{} // closed by Unsubscribe
	once    sync.Once
	workers atomic.Int32 // running
	idle    atomic.Int32 // waiting for a message
}

func (w *workerSub) work() {
	var t *time.Timer
	for {
		if t == nil {
			t = time.NewTimer(workerIdle)
		} else {
			t.Reset(workerIdle)
		}
		w.idle.Add(1)
		select {
		case m := <-w.ch:
			if w.idle.Add(-1) == 0 && w.workers.Load() < maxWorkers {
				w.workers.Add(1)
				go w.work() // the next message must not wait for this one
			}
			select {
			case <-w.done: // unsubscribed meanwhile: no new handler call
				w.workers.Add(-1)
				return
			default:
			}
			w.handler(m.Data)
		case <-t.C:
			if w.idle.Add(-1) == 0 {
				continue // the last one waiting stays, whatever the others run
			}
			w.workers.Add(-1)
			return
		case <-w.done:
			w.idle.Add(-1)
			w.workers.Add(-1)
			t.Stop()
			return
		}
	}
}

// Unsubscribe implements callproto.Subscription: no handler call starts
// after it; the workers exit once their handlers return.
func (w *workerSub) Unsubscribe() error {
	err := w.sub.Unsubscribe()
	w.once.Do(func() { close(w.done) })
	return err
}

// Close hands the queued messages to nats.go, drains the connection
// (handlers in progress finish; what they publish meanwhile is refused) and
// shuts the embedded server down, if any.
func (b *Bus) Close() error {
	b.mu.Lock()
	if b.closing {
		b.mu.Unlock()
		return nil
	}
	b.closing = true
	var idle chan struct{}
	if b.writing {
		if b.idle == nil {
			b.idle = make(chan struct{})
		}
		idle = b.idle
	}
	b.mu.Unlock()
	if idle != nil {
		<-idle // the writer hands what was queued to nats.go
	}
	err := b.nc.Drain()
	if err == nil {
		// Drain is asynchronous: wait until the connection is closed.
		for i := 0; i < 200 && !b.nc.IsClosed(); i++ {
			time.Sleep(5 * time.Millisecond)
		}
	}
	b.nc.Close()
	if b.srv != nil {
		b.srv.Shutdown()
		b.srv.WaitForShutdown()
	}
	return err
}
