package wsbus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/opsgen/opsgen/callproto"
)

// SpokeOptions configure Dial.
type SpokeOptions struct {
	// Buffer bounds each subscription's queue (0: DefaultBuffer); a full
	// queue drops the message.
	Buffer int
	// Dial are the WebSocket handshake options (HTTP client, headers for
	// authentication, compression).
	Dial *websocket.DialOptions
	// ReconnectWait is the pause before the first reconnection attempt,
	// doubled up to 1s while attempts fail (0: 50ms).
	ReconnectWait time.Duration
	// Logger logs reconnections and dropped messages (nil: slog.Default()).
	Logger *slog.Logger
}

// Spoke is a callproto.Bus over one WebSocket connection to a Hub. When
// the connection drops, it reconnects and subscribes again; Publish fails
// while it is disconnected.
type Spoke struct {
	url  string
	opts SpokeOptions
	log  *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	ws     *websocket.Conn // nil while disconnected
	subs   map[uint64]*spokeSub
	next   uint64
	closed bool
	conns  int // connections made, for tests and monitoring
}

type spokeSub struct {
	*local
	subject, queue string
	ok             chan struct{} // closed at the hub's first 'K'
	okOnce         sync.Once
}

var _ callproto.Bus = (*Spoke)(nil)

// Dial connects to the Hub at url (ws:// or wss://, or http(s)://) and
// keeps the connection up until Close.
func Dial(ctx context.Context, url string, opts SpokeOptions) (*Spoke, error) {
	s := &Spoke{url: url, opts: opts, log: opts.Logger, subs: map[uint64]*spokeSub{}, done: make(chan struct{})}
	if s.opts.Buffer <= 0 {
		s.opts.Buffer = DefaultBuffer
	}
	if s.opts.ReconnectWait <= 0 {
		s.opts.ReconnectWait = 50 * time.Millisecond
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	ws, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.ws = ws
	s.conns = 1
	go s.run(ws)
	return s, nil
}

func (s *Spoke) dial(ctx context.Context) (*websocket.Conn, error) {
	ws, _, err := websocket.Dial(ctx, s.url, s.opts.Dial)
	if err != nil {
		return nil, fmt.Errorf("wsbus: dial %s: %w", s.url, err)
	}
	ws.SetReadLimit(MaxMessage)
	return ws, nil
}

// Connections returns how many connections the spoke has made (1 + the
// reconnections).
func (s *Spoke) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// run reads from ws until it fails, then reconnects, until Close.
func (s *Spoke) run(ws *websocket.Conn) {
	defer close(s.done)
	for {
		s.read(ws)
		ws.CloseNow()
		s.mu.Lock()
		s.ws = nil
		s.mu.Unlock()
		if ws = s.reconnect(); ws == nil {
			return
		}
	}
}

func (s *Spoke) read(ws *websocket.Conn) {
	for {
		_, b, err := ws.Read(s.ctx)
		if err != nil {
			return
		}
		f, err := decodeFrame(b)
		if err != nil {
			return
		}
		s.mu.Lock()
		sub := s.subs[f.sid]
		s.mu.Unlock()
		if sub == nil {
			continue // unsubscribed
		}
		switch f.op {
		case opOK:
			sub.okOnce.Do(func() { close(sub.ok) })
		case opMsg:
			sub.send(f.data) // b is fresh per Read: the handler may keep it
		}
	}
}

// reconnect dials until it succeeds (and subscribes again) or the spoke is
// closed (nil).
func (s *Spoke) reconnect() *websocket.Conn {
	wait := s.opts.ReconnectWait
	for {
		select {
		case <-s.ctx.Done():
			return nil
		case <-time.After(wait):
		}
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		ws, err := s.dial(ctx)
		cancel()
		if err != nil {
			wait = min(2*wait, time.Second)
			continue
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			ws.CloseNow()
			return nil
		}
		var frames [][]byte
		for sid, sub := range s.subs {
			frames = append(frames, encodeFrame(frame{op: opSub, sid: sid, subject: sub.subject, queue: sub.queue}))
		}
		s.mu.Unlock()
		ok := true
		for _, f := range frames {
			if err := ws.Write(s.ctx, websocket.MessageBinary, f); err != nil {
				ok = false
				break
			}
		}
		if !ok {
			ws.CloseNow()
			continue
		}
		s.mu.Lock()
		s.ws = ws
		s.conns++
		s.mu.Unlock()
		s.log.Info("wsbus: reconnected", "url", s.url, "subscriptions", len(frames))
		return ws
	}
}

func (s *Spoke) conn() (*websocket.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("wsbus: the spoke is closed")
	}
	if s.ws == nil {
		return nil, errors.New("wsbus: disconnected from the hub (reconnecting)")
	}
	return s.ws, nil
}

// Publish implements callproto.Bus: it returns once the frame is written
// to the connection.
func (s *Spoke) Publish(ctx context.Context, subject string, data []byte) error {
	ws, err := s.conn()
	if err != nil {
		return err
	}
	return ws.Write(ctx, websocket.MessageBinary, encodeFrame(frame{op: opPub, subject: subject, data: data}))
}

// Subscribe implements callproto.Bus: it returns once the hub has the
// subscription.
func (s *Spoke) Subscribe(subject, queue string, handler func(data []byte)) (callproto.Subscription, error) {
	ws, err := s.conn()
	if err != nil {
		return nil, err
	}
	sub := &spokeSub{subject: subject, queue: queue, ok: make(chan struct{})}
	sub.local = newLocal(s.opts.Buffer, handler, func() { s.log.Warn("wsbus: subscription buffer full: message dropped", "subject", subject) })
	s.mu.Lock()
	s.next++
	sid := s.next
	s.subs[sid] = sub
	s.mu.Unlock()
	sub.unsub = func() {
		s.mu.Lock()
		delete(s.subs, sid)
		ws := s.ws
		s.mu.Unlock()
		if ws != nil {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			ws.Write(ctx, websocket.MessageBinary, encodeFrame(frame{op: opUnsub, sid: sid}))
			cancel()
		}
	}
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	err = ws.Write(ctx, websocket.MessageBinary, encodeFrame(frame{op: opSub, sid: sid, subject: subject, queue: queue}))
	if err == nil {
		select {
		case <-sub.ok:
		case <-ctx.Done():
			err = errors.New("the hub did not confirm")
		}
	}
	if err != nil {
		sub.Unsubscribe()
		return nil, fmt.Errorf("wsbus: subscribe %s: %w", subject, err)
	}
	return sub, nil
}

// Close closes the connection and stops reconnecting.
func (s *Spoke) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	subs := s.subs
	s.subs = map[uint64]*spokeSub{}
	ws := s.ws
	s.mu.Unlock()
	for _, sub := range subs {
		sub.local.Unsubscribe()
	}
	s.cancel()
	if ws != nil {
		ws.Close(websocket.StatusNormalClosure, "")
	}
	<-s.done
	return nil
}
