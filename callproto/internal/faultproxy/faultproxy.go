// Package faultproxy is a TCP proxy whose faults a test controls, for the
// call protocol's fault tests: it forwards connections to a target until
// told to drop them (close every connection and refuse new ones, as a
// crashed router does) or to blackhole them (accept connections and forward
// nothing either way, as a network partition does: the bytes already sent
// wait, and arrive if the partition heals before an end gives up), then
// heals.
package faultproxy

import (
	"net"
	"sync"
	"sync/atomic"
)

// Proxy forwards the connections it accepts on Addr to its target.
type Proxy struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	drop   bool          // refuse new connections
	gate   chan struct{} // closed while traffic flows; open while blackholed
	links  map[*link]struct{}
	closed bool

	wg       sync.WaitGroup
	accepted atomic.Int64
}

// link is one proxied connection: the accepted one and the one to the target.
type link struct {
	client, server net.Conn
	once           sync.Once
	done           chan struct{} // closed when the link is cut
}

func (l *link) cut() {
	l.once.Do(func() {
		close(l.done)
		l.client.Close()
		l.server.Close()
	})
}

// New listens on a free loopback port and forwards to target (host:port).
func New(target string) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	open := make(chan struct{})
	close(open)
	p := &Proxy{ln: ln, target: target, gate: open, links: map[*link]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Accepted is how many connections the proxy has accepted and forwarded
// (refused ones not counted).
func (p *Proxy) Accepted() int64 { return p.accepted.Load() }

// Drop cuts every connection and refuses new ones (accepts and closes
// them) until Heal.
func (p *Proxy) Drop() {
	p.mu.Lock()
	p.drop = true
	links := p.links
	p.links = map[*link]struct{}{}
	p.mu.Unlock()
	for l := range links {
		l.cut()
	}
}

// Blackhole stops forwarding, in both directions, on every connection,
// present and new, until Heal: connections stay open and what is sent
// waits (in the proxy and the kernels' buffers).
func (p *Proxy) Blackhole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.gate:
		p.gate = make(chan struct{})
	default: // already blackholed
	}
}

// Heal ends a Drop or a Blackhole: new connections are forwarded, and
// the bytes a blackhole held go on.
func (p *Proxy) Heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drop = false
	select {
	case <-p.gate:
	default:
		close(p.gate)
	}
}

// Close stops listening, cuts every connection and waits for the proxy's
// goroutines.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	links := p.links
	p.links = nil
	p.mu.Unlock()
	err := p.ln.Close()
	for l := range links {
		l.cut()
	}
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.mu.Lock()
		refuse := p.drop || p.closed
		p.mu.Unlock()
		if refuse {
			c.Close()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close() // the target is down: so is the path through us
			continue
		}
		l := &link{client: c, server: s, done: make(chan struct{})}
		p.mu.Lock()
		if p.closed || p.drop {
			p.mu.Unlock()
			l.cut()
			continue
		}
		p.links[l] = struct{}{}
		p.mu.Unlock()
		p.accepted.Add(1)
		p.wg.Add(2)
		go p.pump(l, l.server, l.client)
		go p.pump(l, l.client, l.server)
	}
}

// pump copies src to dst, holding each chunk read while the proxy is
// blackholed, and cuts the link when either side ends.
func (p *Proxy) pump(l *link, dst, src net.Conn) {
	defer p.wg.Done()
	defer func() {
		l.cut()
		p.mu.Lock()
		delete(p.links, l)
		p.mu.Unlock()
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.pass(l) {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // EOF, or the link was cut
		}
	}
}

// pass waits while the proxy is blackholed; false: the link was cut meanwhile.
func (p *Proxy) pass(l *link) bool {
	p.mu.Lock()
	g := p.gate
	p.mu.Unlock()
	select {
	case <-g:
		return true
	case <-l.done:
		return false
	}
}
