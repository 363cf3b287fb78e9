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
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // the finalizer runs in its own goroutine
		if debug.SetGCPercent(-1) == 100 {
			debug.SetGCPercent(100)
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("GC percent still off after collections with 48 MiB live")
		}
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
