package wsbus_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/bustest"
	"github.com/opsgen/opsgen/callproto/wsbus"
)

func dial(t *testing.T, url string) *wsbus.Spoke {
	t.Helper()
	s, err := wsbus.Dial(context.Background(), url, wsbus.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func startHub(t *testing.T) (*wsbus.Hub, *httptest.Server) {
	hub := wsbus.NewHub(wsbus.HubOptions{})
	srv := httptest.NewServer(hub)
	t.Cleanup(func() {
		hub.Close()
		srv.Close()
	})
	return hub, srv
}

// Two spokes of one hub.
func TestBusSpokes(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		_, srv := startHub(t)
		return dial(t, srv.URL), dial(t, srv.URL)
	})
}

// The hub itself and a spoke.
func TestBusHubAndSpoke(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		hub, srv := startHub(t)
		return hub, dial(t, srv.URL)
	})
}

func TestDialRefused(t *testing.T) {
	if _, err := wsbus.Dial(context.Background(), "ws://127.0.0.1:1/", wsbus.SpokeOptions{}); err == nil {
		t.Fatal("connected to nothing")
	}
}

// The hub restarts (a new Hub on the same address) while a subscription
// streams between two spokes: both reconnect and subscribe again.
func TestHubRestart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	serve := func(l net.Listener) (*wsbus.Hub, *http.Server) {
		hub := wsbus.NewHub(wsbus.HubOptions{})
		srv := &http.Server{Handler: hub}
		go srv.Serve(l)
		return hub, srv
	}
	hub, srv := serve(l)
	a, b := dial(t, "ws://"+addr), dial(t, "ws://"+addr)
	bustest.Restart(t, a, b, func() {
		srv.Close()
		hub.Close()
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		hub, srv = serve(l)
	})
	defer srv.Close()
	if a.Connections() < 2 || b.Connections() < 2 {
		t.Fatalf("connections: %d and %d, want reconnections", a.Connections(), b.Connections())
	}
}

// A slow spoke does not make the hub buffer without bound: its connection
// is dropped when its queue is full, and it reconnects.
func TestSlowSpokeDropped(t *testing.T) {
	hub := wsbus.NewHub(wsbus.HubOptions{Buffer: 8})
	srv := httptest.NewServer(hub)
	defer srv.Close()
	defer hub.Close()
	reconnected := make(chan struct{}, 1)
	logs := slog.New(onMessage{"wsbus: reconnected", reconnected})
	s, err := wsbus.Dial(context.Background(), srv.URL, wsbus.SpokeOptions{Buffer: 8, Logger: logs})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	block := make(chan struct{})
	var got atomic.Int64
	if _, err := s.Subscribe("slow", "", func([]byte) { got.Add(1); <-block }); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 64<<10)
	for range 2000 {
		hub.Publish(context.Background(), "slow", data)
	}
	close(block)
	select {
	case <-reconnected:
	case <-time.After(30 * time.Second):
		t.Fatalf("the slow spoke was not dropped (got %d of 2000)", got.Load())
	}
	if s.Connections() < 2 {
		t.Fatalf("reconnected, yet %d connections", s.Connections())
	}
	if got.Load() >= 2000 {
		t.Fatal("nothing was dropped")
	}
}

// onMessage is a slog.Handler that signals ch (without blocking) for each
// record whose message is msg.
type onMessage struct {
	msg string
	ch  chan struct{}
}

func (h onMessage) Enabled(context.Context, slog.Level) bool { return true }
func (h onMessage) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h onMessage) WithGroup(string) slog.Handler            { return h }

func (h onMessage) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		select {
		case h.ch <- struct{}{}:
		default:
		}
	}
	return nil
}
