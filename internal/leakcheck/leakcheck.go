// Package leakcheck tells a test whether the goroutines it started have
// ended.
//
// A goroutine ends some time after whatever it signalled last (a closed
// connection's reader, a server's handler after its response), and Go
// gives no event for its end, so Settle polls runtime.NumGoroutine, as
// go.uber.org/goleak does. Its deadline is a bound for a failure on a
// loaded machine, never a timing assertion: a passing test returns as soon
// as the count is back.
package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// Deadline is how long Settle waits for the count to come back.
const Deadline = 30 * time.Second

// Settle fails t when the number of goroutines does not come back to at
// most base within Deadline, with every goroutine's stack. Before each
// look it calls each of tidy (closing idle connections, for one).
func Settle(t testing.TB, base int, tidy ...func()) {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	deadline := time.Now().Add(Deadline)
	for {
		for _, f := range tidy {
			f()
		}
		n := runtime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Errorf("goroutines: %d, want at most %d after %s\n%s", n, base, Deadline, buf[:runtime.Stack(buf, true)])
			return
		}
		<-tick.C
	}
}
