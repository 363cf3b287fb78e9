package faultproxy

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"
)

// echo serves a line echo on a free loopback port.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// started is a proxy to an echo server, and a connection through it that
// has made a round trip.
func started(t *testing.T) (*Proxy, net.Conn, *bufio.Reader) {
	t.Helper()
	p, err := New(echo(t))
	if err != nil {
		t.Fatal(err)
	}
	c, r := dial(t, p.Addr())
	roundTrip(t, c, r, "one")
	return p, c, r
}

func dial(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, bufio.NewReader(c)
}

func roundTrip(t *testing.T, c net.Conn, r *bufio.Reader, line string) {
	t.Helper()
	if _, err := io.WriteString(c, line+"\n"); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := r.ReadString('\n')
	if err != nil || got != line+"\n" {
		t.Fatalf("echo of %q: %q, %v", line, got, err)
	}
}

// nothing checks that no byte arrives on c for a while.
func nothing(t *testing.T, c net.Conn, r *bufio.Reader) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if b, err := r.ReadByte(); err == nil {
		t.Fatalf("got %q through a blackhole", b)
	} else if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Fatalf("read in a blackhole: %v, want a timeout (the connection stays open)", err)
	}
}

func TestPassBlackholeHeal(t *testing.T) {
	p, c, r := started(t)
	defer p.Close()

	p.Blackhole()
	if _, err := io.WriteString(c, "held\n"); err != nil {
		t.Fatal(err)
	}
	nothing(t, c, r)
	// A new connection is accepted, but nothing goes through it either.
	c2, r2 := dial(t, p.Addr())
	if _, err := io.WriteString(c2, "held too\n"); err != nil {
		t.Fatal(err)
	}
	nothing(t, c2, r2)

	// Healed, what was held arrives, in order, and the connections work.
	p.Heal()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if got, err := r.ReadString('\n'); err != nil || got != "held\n" {
		t.Fatalf("after healing: %q, %v", got, err)
	}
	c2.SetReadDeadline(time.Now().Add(10 * time.Second))
	if got, err := r2.ReadString('\n'); err != nil || got != "held too\n" {
		t.Fatalf("after healing, the second connection: %q, %v", got, err)
	}
	roundTrip(t, c, r, "two")
	if n := p.Accepted(); n != 2 {
		t.Fatalf("accepted %d connections, want 2", n)
	}
}

func TestDropHeal(t *testing.T) {
	p, c, r := started(t)
	defer p.Close()

	p.Drop()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := r.ReadByte(); err == nil {
		t.Fatal("a dropped connection still reads")
	}
	// New connections are closed at once.
	c2, r2 := dial(t, p.Addr())
	c2.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := r2.ReadByte(); err != io.EOF {
		t.Fatalf("a connection while dropping: %v, want EOF", err)
	}

	p.Heal()
	c3, r3 := dial(t, p.Addr())
	roundTrip(t, c3, r3, "three")
	if n := p.Accepted(); n != 2 {
		t.Fatalf("accepted %d connections, want 2 (the refused one not counted)", n)
	}
}

// Close ends every connection and returns once the proxy's goroutines have.
func TestClose(t *testing.T) {
	p, c, r := started(t)
	p.Blackhole() // a pump waiting at the gate must not keep Close waiting
	io.WriteString(c, "held\n")
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := r.ReadByte(); err == nil {
		t.Fatal("a connection outlived Close")
	}
	if _, err := net.Dial("tcp", p.Addr()); err == nil {
		t.Fatal("the proxy still accepts after Close")
	}
}
