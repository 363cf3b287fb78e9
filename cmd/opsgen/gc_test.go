package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestTuneGC checks that collection is off under the limit, and that the
// default pacing comes back after a collection that leaves more than half
// the limit live.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	restored := make(chan struct{})
	paced = func() { close(restored) }
	defer func() { paced = nil }()
	const limit = 64 << 20
	tuneGC(limit)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("memory limit %d, want %d", got, limit)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("GC percent %d after tuneGC, want -1 (off)", got)
	}
	live := make([][]byte, 0, 48)
	for range 48 {
		live = append(live, make([]byte, 1<<20)) // 48 MiB live: more than half the limit
	}
	// The sentinel's finalizer runs in its own goroutine after a
	// collection (the one waiting may be the next collection's): collect
	// until it says the pacing is back.
	deadline := time.After(30 * time.Second)
	collect := time.NewTicker(100 * time.Millisecond)
	defer collect.Stop()
	for done := false; !done; {
		runtime.GC()
		select {
		case <-restored:
			done = true
		case <-collect.C:
		case <-deadline:
			t.Fatal("GC percent still off after collections with 48 MiB live")
		}
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after the live heap passed half the limit, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("memory limit %d after the live heap passed half of it, want none", got)
	}
	runtime.KeepAlive(live)
}

// TestTuneGCRespectsEnv checks that an explicit GOGC is left alone.
func TestTuneGCRespectsEnv(t *testing.T) {
	t.Setenv("GOGC", "150")
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	tuneGC(64 << 20)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with GOGC set, want 100 (untouched)", got)
	}
}
