// Package wsbus is the call protocol's Bus (package callproto) over
// WebSockets, in the seeds' hub-and-spokes topology, for spokes that cannot
// reach a broker but can reach the hub over HTTP(S): the Hub is the broker,
// in the hub's process, and is itself a callproto.Bus for the hub's own
// code (a CallHandler); each Spoke is a callproto.Bus over one WebSocket
// connection to the Hub's http.Handler, which it re-establishes when it
// drops, subscriptions included. It uses github.com/coder/websocket.
//
// The Hub routes every message, local or from a spoke, to the plain
// subscribers of its subject and to one member (round robin) of each queue
// group, local or remote. Buffers are bounded: a local subscription holds
// at most Buffer undelivered messages and a spoke connection at most Buffer
// unsent frames; beyond that a local subscription drops the message and a
// spoke's connection is closed (it reconnects), as NATS treats a slow
// consumer. The protocol detects the loss (a gap in a subscription, a call
// no hub answered). A spoke publishes only while connected: Publish fails
// while it reconnects. Messages are not persisted: a Hub restart loses
// what was in flight.
package wsbus

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"

	"github.com/coder/websocket"

	"github.com/opsgen/opsgen/callproto"
)

// DefaultBuffer is the default bound of a subscription's or connection's
// queue, in messages.
const DefaultBuffer = 65536

// MaxMessage is the largest frame accepted (8 MiB, as natsbus's server).
const MaxMessage = 8 << 20

// HubOptions configure NewHub.
type HubOptions struct {
	// Buffer bounds each queue (0: DefaultBuffer).
	Buffer int
	// Accept are the WebSocket handshake options (origins, compression).
	Accept *websocket.AcceptOptions
	// Logger logs dropped messages and connections (nil: slog.Default()).
	Logger *slog.Logger
}

// Hub is a WebSocket message hub: a callproto.Bus in its own process, and
// the http.Handler that spokes connect to.
type Hub struct {
	buf  int
	aopt *websocket.AcceptOptions
	log  *slog.Logger

	mu     sync.Mutex
	routes map[string]*route
	conns  map[*hubConn]struct{}
	closed bool
}

type route struct {
	plain  []*target
	groups map[string]*group
}

type group struct {
	members []*target
	next    int
}

// target is one subscription, local or a spoke's.
type target struct {
	subject, queue string
	send           func(data []byte) // must not block
}

var _ callproto.Bus = (*Hub)(nil)

// NewHub returns a Hub with no subscriptions.
func NewHub(opts HubOptions) *Hub {
	h := &Hub{buf: opts.Buffer, aopt: opts.Accept, log: opts.Logger, routes: map[string]*route{}, conns: map[*hubConn]struct{}{}}
	if h.buf <= 0 {
		h.buf = DefaultBuffer
	}
	if h.log == nil {
		h.log = slog.Default()
	}
	return h
}

func (h *Hub) add(t *target) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.routes[t.subject]
	if r == nil {
		r = &route{groups: map[string]*group{}}
		h.routes[t.subject] = r
	}
	if t.queue == "" {
		r.plain = append(r.plain, t)
		return
	}
	g := r.groups[t.queue]
	if g == nil {
		g = &group{}
		r.groups[t.queue] = g
	}
	g.members = append(g.members, t)
}

func (h *Hub) remove(t *target) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.routes[t.subject]
	if r == nil {
		return
	}
	del := func(s []*target) []*target {
		for i, x := range s {
			if x == t {
				return append(s[:i:i], s[i+1:]...)
			}
		}
		return s
	}
	if t.queue == "" {
		r.plain = del(r.plain)
	} else if g := r.groups[t.queue]; g != nil {
		if g.members = del(g.members); len(g.members) == 0 {
			delete(r.groups, t.queue)
		}
	}
	if len(r.plain) == 0 && len(r.groups) == 0 {
		delete(h.routes, t.subject)
	}
}

// Publish implements callproto.Bus: data goes to the subject's plain
// subscribers and one member of each of its queue groups, local or remote.
func (h *Hub) Publish(ctx context.Context, subject string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data = append([]byte(nil), data...) // the caller may reuse its slice
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return errors.New("wsbus: the hub is closed")
	}
	var to []*target
	if r := h.routes[subject]; r != nil {
		to = append(to, r.plain...)
		for _, g := range r.groups {
			g.next = (g.next + 1) % len(g.members)
			to = append(to, g.members[g.next])
		}
	}
	h.mu.Unlock()
	for _, t := range to {
		t.send(data)
	}
	return nil
}

// Subscribe implements callproto.Bus for the hub's own process.
func (h *Hub) Subscribe(subject, queue string, handler func(data []byte)) (callproto.Subscription, error) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		return nil, errors.New("wsbus: the hub is closed")
	}
	s := newLocal(h.buf, handler, func() { h.log.Warn("wsbus: subscription buffer full: message dropped", "subject", subject) })
	s.t = &target{subject: subject, queue: queue, send: s.send}
	s.unsub = func() { h.remove(s.t) }
	h.add(s.t)
	return s, nil
}

// local is a subscription whose handler runs in this process, from one
// goroutine, fed by a bounded queue.
type local struct {
	t       *target
	ch      chan []byte
	stop    chan struct{}
	once    sync.Once
	unsub   func()
	dropped func()
}

func newLocal(n int, handler func([]byte), dropped func()) *local {
	s := &local{ch: make(chan []byte, n), stop: make(chan struct{}), dropped: dropped}
	go func() {
		for {
			select {
			case <-s.stop:
				return
			case d := <-s.ch:
				select {
				case <-s.stop: // no call starts after Unsubscribe
					return
				default:
				}
				handler(d)
			}
		}
	}()
	return s
}

func (s *local) send(data []byte) {
	select {
	case s.ch <- data:
	default:
		s.dropped()
	}
}

// Unsubscribe implements callproto.Subscription.
func (s *local) Unsubscribe() error {
	s.once.Do(func() {
		close(s.stop)
		if s.unsub != nil {
			s.unsub()
		}
	})
	return nil
}

// ServeHTTP accepts a spoke's WebSocket connection and serves it until it
// closes.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		http.Error(w, "the hub is closed", http.StatusServiceUnavailable)
		return
	}
	ws, err := websocket.Accept(w, r, h.aopt)
	if err != nil {
		return // Accept answered the request
	}
	ws.SetReadLimit(MaxMessage)
	c := &hubConn{h: h, ws: ws, out: make(chan []byte, h.buf), subs: map[uint64]*target{}, gone: make(chan struct{})}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		ws.Close(websocket.StatusGoingAway, "the hub is closed")
		return
	}
	h.conns[c] = struct{}{}
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go c.write(ctx)
	c.read(ctx)
	c.close(websocket.StatusNormalClosure, "")
}

// hubConn is one spoke's connection.
type hubConn struct {
	h    *Hub
	ws   *websocket.Conn
	out  chan []byte
	mu   sync.Mutex
	subs map[uint64]*target
	once sync.Once
	gone chan struct{}
}

func (c *hubConn) enqueue(frame []byte) {
	select {
	case c.out <- frame:
	case <-c.gone:
	default:
		// A spoke that does not keep up: drop it rather than buffer
		// without bound; it reconnects.
		c.h.log.Warn("wsbus: spoke too slow: closing its connection")
		go c.close(websocket.StatusPolicyViolation, "too slow")
	}
}

func (c *hubConn) write(ctx context.Context) {
	for {
		select {
		case <-c.gone:
			return
		case <-ctx.Done():
			return
		case b := <-c.out:
			if err := c.ws.Write(ctx, websocket.MessageBinary, b); err != nil {
				c.close(websocket.StatusInternalError, "write failed")
				return
			}
		}
	}
}

func (c *hubConn) read(ctx context.Context) {
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			return
		}
		f, err := decodeFrame(b)
		if err != nil {
			c.close(websocket.StatusUnsupportedData, err.Error())
			return
		}
		switch f.op {
		case opSub:
			sid := f.sid
			t := &target{subject: f.subject, queue: f.queue, send: func(data []byte) {
				c.enqueue(encodeFrame(frame{op: opMsg, sid: sid, data: data}))
			}}
			c.mu.Lock()
			old := c.subs[sid]
			c.subs[sid] = t
			c.mu.Unlock()
			if old != nil {
				c.h.remove(old)
			}
			c.h.add(t)
			c.enqueue(encodeFrame(frame{op: opOK, sid: sid}))
		case opUnsub:
			c.mu.Lock()
			t := c.subs[f.sid]
			delete(c.subs, f.sid)
			c.mu.Unlock()
			if t != nil {
				c.h.remove(t)
			}
		case opPub:
			c.h.Publish(ctx, f.subject, f.data)
		}
	}
}

// close drops the connection and its subscriptions.
func (c *hubConn) close(code websocket.StatusCode, reason string) {
	c.once.Do(func() {
		close(c.gone)
		c.mu.Lock()
		subs := c.subs
		c.subs = map[uint64]*target{}
		c.mu.Unlock()
		for _, t := range subs {
			c.h.remove(t)
		}
		c.h.mu.Lock()
		delete(c.h.conns, c)
		c.h.mu.Unlock()
		_, _ = code, reason // the spoke sees the connection end either way
		c.ws.CloseNow()
	})
}

// Close closes every spoke's connection (they try to reconnect) and
// refuses new ones; local subscriptions stop receiving.
func (h *Hub) Close() error {
	h.mu.Lock()
	h.closed = true
	conns := make([]*hubConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.routes = map[string]*route{}
	h.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.StatusGoingAway, "the hub is closing")
	}
	return nil
}
