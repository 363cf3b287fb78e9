package redisbus_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/bustest"
	"github.com/opsgen/opsgen/callproto/redisbus"
)

// startServer starts a redis-server for the test; without one installed the
// test is skipped, or fails under CI (CI installs it: make redis).
func startServer(t *testing.T) *redisbus.Server {
	t.Helper()
	srv, err := redisbus.StartServer(t.TempDir(), 0)
	if errors.Is(err, redisbus.ErrNoServer) && os.Getenv("CI") == "" {
		t.Skip("redis-server is not installed (make redis installs it)")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Stop)
	return srv
}

func connect(t *testing.T, addr string) *redisbus.Bus {
	t.Helper()
	b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestBus(t *testing.T) {
	bustest.Run(t, func(t *testing.T) (callproto.Bus, callproto.Bus) {
		srv := startServer(t)
		return connect(t, srv.Addr), connect(t, srv.Addr)
	})
}

func TestConnectRefused(t *testing.T) {
	if _, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: "127.0.0.1:1"}); err == nil {
		t.Fatal("connected to nothing")
	}
}

// Redis killed and restarted while a subscription streams.
func TestBrokerRestart(t *testing.T) {
	srv := startServer(t)
	bustest.Restart(t, connect(t, srv.Addr), connect(t, srv.Addr), func() {
		if err := srv.Restart(); err != nil {
			t.Fatal(err)
		}
	})
}

// A queue group's list is bounded: with no member taking messages, at most
// QueueLimit stay queued.
func TestQueueBounded(t *testing.T) {
	srv := startServer(t)
	b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr, QueueLimit: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := make(chan string, 100)
	s, err := b.Subscribe("t.q", "g", func(d []byte) { got <- string(d) })
	if err != nil {
		t.Fatal(err)
	}
	// The group stays registered for GroupTTL, without a member: Unsubscribe
	// returns once the member's wait for messages ended, so none is taken.
	s.Unsubscribe()
	for i := range 50 {
		if err := b.Publish(context.Background(), "t.q", fmt.Appendf(nil, "%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	n, err := b.Client().LLen(context.Background(), "callproto:q:t.q:g").Result()
	if err != nil || n != 10 {
		t.Fatalf("queued %d (%v), want 10", n, err)
	}
	// A new member gets the newest 10, in order.
	if _, err := b.Subscribe("t.q", "g", func(d []byte) { got <- string(d) }); err != nil {
		t.Fatal(err)
	}
	for i := 40; i < 50; i++ {
		select {
		case d := <-got:
			if d != fmt.Sprint(i) {
				t.Fatalf("got %s, want %d", d, i)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("message %d did not arrive", i)
		}
	}
}

// A member takes the waiting messages in one batch; unsubscribed with some
// in hand, it gives them back to the group's list, in their order.
func TestQueueHandBack(t *testing.T) {
	srv := startServer(t)
	b, err := redisbus.Connect(context.Background(), redisbus.Options{Addr: srv.Addr})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	const list = "callproto:q:t.back:g"
	for i := range 10 {
		if err := b.Client().RPush(ctx, list, fmt.Sprint(i)).Err(); err != nil {
			t.Fatal(err)
		}
	}
	first := make(chan string, 10)
	release := make(chan struct{})
	s, err := b.Subscribe("t.back", "g", func(d []byte) {
		first <- string(d)
		<-release // hold the first message while the test unsubscribes
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-first:
		if d != "0" {
			t.Fatalf("first message %s", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no message")
	}
	if n, _ := b.Client().LLen(ctx, list).Result(); n != 0 {
		t.Fatalf("%d messages left in the list: not taken in one batch", n)
	}
	s.Unsubscribe()
	close(release)
	// The member gives the rest back in one LPUSH when the handler returns:
	// Redis wakes a BLPOP on the list then, and the rest follows the first.
	head, err := b.Client().BLPop(ctx, 10*time.Second, list).Result()
	if err != nil {
		t.Fatalf("nothing was handed back: %v", err)
	}
	rest, err := b.Client().LRange(ctx, list, 0, -1).Result()
	if err != nil {
		t.Fatal(err)
	}
	if back := append(head[1:], rest...); fmt.Sprint(back) != "[1 2 3 4 5 6 7 8 9]" {
		t.Fatalf("handed back %q, want 1 to 9 in order", back)
	}
	if len(first) != 0 {
		t.Fatal("a message was delivered after Unsubscribe")
	}
}

// Unsubscribe ends a queue member's wait for messages (a BLMPOP, which
// Redis ends only at its timeout) before it returns: a message published
// afterwards stays in the group's list for another member.
func TestUnsubscribeEndsTake(t *testing.T) {
	srv := startServer(t)
	b := connect(t, srv.Addr)
	ctx := context.Background()
	got := make(chan string, 1)
	s, err := b.Subscribe("t.u", "g", func(d []byte) { got <- string(d) })
	if err != nil {
		t.Fatal(err)
	}
	waitBlocked(t, b, 1) // the member waits in a BLMPOP
	if err := s.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(ctx, "t.u", []byte("m")); err != nil {
		t.Fatal(err)
	}
	// Redis serves a blocked BLMPOP before it answers the publish: were the
	// member still waiting, the list would be empty now.
	if left, err := b.Client().LRange(ctx, "callproto:q:t.u:g", 0, -1).Result(); err != nil || fmt.Sprint(left) != "[m]" {
		t.Fatalf("the list holds %q (%v) after Unsubscribe, want [m]", left, err)
	}
	if len(got) != 0 {
		t.Fatal("a message was delivered after Unsubscribe")
	}
}

// waitBlocked waits until Redis counts n clients blocked in a command.
func waitBlocked(t *testing.T, b *redisbus.Bus, n int) {
	t.Helper()
	want := fmt.Sprintf("blocked_clients:%d\r\n", n)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := b.Client().Info(context.Background(), "clients").Result()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(info, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis never counted %d blocked clients:\n%s", n, info)
		}
		<-tick.C
	}
}
