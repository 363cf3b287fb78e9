package natsbus_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
)

// SubscribeWorkers calls its handler for every message once, on as many
// goroutines as handlers block: messages published while others are held
// still reach the handler. After Unsubscribe no handler call starts and
// the workers exit.
func TestSubscribeWorkers(t *testing.T) {
	base := runtime.NumGoroutine()
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
	var ws callproto.WorkerSubscriber = a

	const held, free = 20, 200
	release := make(chan struct{})
	var mu sync.Mutex
	got := map[string]int{}
	heldNow := make(chan struct{}, held)
	freeDone := make(chan struct{}, free)
	sub, err := ws.SubscribeWorkers("work", "group", func(data []byte) {
		mu.Lock()
		got[string(data)]++
		mu.Unlock()
		if data[0] == 'h' {
			heldNow <- struct{}{}
			<-release // blocks its worker until the end
			return
		}
		freeDone <- struct{}{}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range held {
		if err := b.Publish(ctx, "work", fmt.Appendf(nil, "h%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for range held {
		waitOn(t, heldNow, "every held handler to run at once")
	}
	for i := range free {
		if err := b.Publish(ctx, "work", fmt.Appendf(nil, "f%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for range free {
		waitOn(t, freeDone, "the other messages to reach the handler while the held ones block")
	}
	close(release)
	if err := sub.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	// Published after Unsubscribe: never handled.
	if err := b.Publish(ctx, "work", []byte("late")); err != nil {
		t.Fatal(err)
	}
	b.Close()
	a.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != held+free || got["late"] != 0 {
		t.Fatalf("handled %d distinct messages (late: %d), want %d", len(got), got["late"], held+free)
	}
	for m, n := range got {
		if n != 1 {
			t.Fatalf("%s handled %d times", m, n)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Unsubscribe and Close, %d before", runtime.NumGoroutine(), base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func waitOn(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
