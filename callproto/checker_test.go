package callproto_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	rt "github.com/opsgen/opsgen/runtime"
)

// checker records, over a fault test, what the hub's handler ran and what
// the spoke saw, and proves (verify):
//   - every call the spoke saw succeed ran exactly once, and its answer is
//     that run's (the counter value the run returned);
//   - no call ran twice (re-runs = 0), whatever the retries;
//   - every call that ran is accounted for: it succeeded, or the spoke saw
//     an error for it (a hub's answer, not its own silence); a call that
//     ran while the spoke saw no answer (its answer lost) was retried with
//     the same request id and then answered with that run's value, from
//     the hub's duplicate record (the hub published a second answer:
//     counted as replayed) or by the run's own answer, which came late,
//     after the attempt had given up, while its retry waited (counted as
//     late);
//   - the hub answered every run;
//   - every call got a hub's answer in the end (none unresolved);
//   - no subscription had a silent gap: the stream's values are numbered
//     by the handler, and each stream either delivered them all in order
//     or ended with an error the subscriber saw.
//
// The handler is an idempotency-keyed counter increment (faults.incr): the
// key is the request id, and the hub process reports each run ("ran key
// value") as it commits it, before answering, and each answer it publishes.
type checker struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced on every record
	runs    map[string][]int64
	answers map[string]int // call.responded and call.error the hub published, by request id
	calls   map[string]callRecord

	ambiguous int // attempts that ended without a hub's answer

	streams, values, completed, stopped int
	surfaced                            map[rt.ErrorCode]int // streams ended by an error the subscriber saw
	violations                          []string
}

// callRecord is what the spoke saw of one mutation, over its attempts.
type callRecord struct {
	attempts  int
	ambiguous int // attempts without a hub's answer (TRANSPORT_ERROR, the caller's own deadline)
	resolved  bool
	ok        bool
	value     int64        // the answer, when ok
	code      rt.ErrorCode // the hub's error, when not ok
}

func newChecker() *checker {
	return &checker{changed: make(chan struct{}), runs: map[string][]int64{}, answers: map[string]int{}, calls: map[string]callRecord{}, surfaced: map[rt.ErrorCode]int{}}
}

// notify wakes await; c.mu is held.
func (c *checker) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// await blocks until cond (called with c.mu held) holds, or fails the test
// after limit.
func (c *checker) await(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	timeout := time.After(limit)
	for {
		c.mu.Lock()
		ok, ch := cond(), c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-timeout:
			t.Fatalf("%s: not within %v", what, limit)
		}
	}
}

// ran records a run of the handler, as the hub reported it.
func (c *checker) ran(key string, value int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.runs[key] = append(c.runs[key], value)
}

// answered records an answer the hub published.
func (c *checker) answered(requestID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers[requestID]++
}

// resolvedCalls is how many mutations got a hub's answer; c.mu is held.
func (c *checker) resolvedCalls() int { return len(c.calls) }

// mutate runs the mutation key until a hub answers it: an attempt that
// ends without a hub's answer (a TRANSPORT_ERROR, or the attempt's own
// deadline) is retried with the same request id, which the hub must not
// run twice.
func (c *checker) mutate(ctx context.Context, spoke *callproto.PendingRequestMap, key string, attempt time.Duration) {
	var rec callRecord
	for ctx.Err() == nil {
		rec.attempts++
		actx, cancel := context.WithTimeout(ctx, attempt)
		env, err := callproto.CallAs[int64](actx, spoke, "faults.incr", map[string]string{"key": key}, callproto.WithRequestID(key))
		answered := err == nil || (code(err) != rt.CodeTransport && actx.Err() == nil)
		cancel()
		if answered {
			rec.resolved, rec.ok, rec.value = true, err == nil, env.Data
			if err != nil {
				rec.code = code(err)
			}
			break
		}
		rec.ambiguous++
		c.mu.Lock()
		c.ambiguous++
		c.notify()
		c.mu.Unlock()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !rec.resolved {
		c.violations = append(c.violations, fmt.Sprintf("%s: no hub answered it in %d attempts", key, rec.attempts))
	}
	c.calls[key] = rec
	c.notify()
}

// subscribe runs one stream of n numbered values and checks them.
func (c *checker) subscribe(ctx context.Context, spoke *callproto.PendingRequestMap, n int) {
	next := 0
	var end error
	for env, err := range callproto.SubscribeAs[int](ctx, spoke, "faults.ticks", map[string]int{"n": n}) {
		if err != nil {
			end = err
			break
		}
		if env.Data != next {
			c.mu.Lock()
			c.violations = append(c.violations, fmt.Sprintf("subscription: value %d where %d was due (a silent gap or a duplicate)", env.Data, next))
			c.mu.Unlock()
			break
		}
		next++
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.streams++
	c.values += next
	switch {
	case end != nil && ctx.Err() != nil:
		c.stopped++ // the test ended it
	case end != nil:
		c.surfaced[code(end)]++
	case next == n:
		c.completed++
	default:
		c.violations = append(c.violations, fmt.Sprintf("subscription: ended after %d of %d values without an error", next, n))
	}
	c.notify()
}

// faultStats are the checker's numbers for one scenario.
type faultStats struct {
	mutations, successes, errors, unresolved int
	errorCodes                               map[rt.ErrorCode]int
	runs, reruns, replayed, late, ranErrors  int
	attempts, ambiguous                      int
}

// verify checks the properties above (the hub has stopped, so that every
// run is reported) and returns the numbers.
func (c *checker) verify(t *testing.T, name string) faultStats {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	s := faultStats{mutations: len(c.calls), errorCodes: map[rt.ErrorCode]int{}, ambiguous: c.ambiguous}
	bad := slices.Clone(c.violations)
	top, count := map[int64]int64{}, map[int64]int64{} // per hub (see hubStride)
	for _, key := range slices.Sorted(maps.Keys(c.runs)) {
		runs := c.runs[key]
		s.runs += len(runs)
		if len(runs) > 1 {
			s.reruns += len(runs) - 1
			bad = append(bad, fmt.Sprintf("%s ran %d times (values %v)", key, len(runs), runs))
		}
		if _, ok := c.calls[key]; !ok {
			bad = append(bad, fmt.Sprintf("%s ran, but no call of the spoke had that key", key))
		}
		for _, v := range runs {
			top[v/hubStride] = max(top[v/hubStride], v%hubStride)
			count[v/hubStride]++
		}
		if c.answers[key] == 0 {
			bad = append(bad, fmt.Sprintf("%s ran, and the hub published no answer", key))
		}
	}
	for hub, n := range count {
		if top[hub] != n {
			bad = append(bad, fmt.Sprintf("hub %d's counter reached %d after %d reported runs", hub, top[hub], n))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(c.calls)) {
		rec, runs := c.calls[key], c.runs[key]
		s.attempts += rec.attempts
		switch {
		case !rec.resolved:
			s.unresolved++
		case rec.ok:
			s.successes++
			if len(runs) != 1 {
				bad = append(bad, fmt.Sprintf("%s: the spoke saw success, the handler ran %d times", key, len(runs)))
			} else if runs[0] != rec.value {
				bad = append(bad, fmt.Sprintf("%s: the spoke saw %d, its run returned %d", key, rec.value, runs[0]))
			} else if rec.ambiguous > 0 && c.answers[key] > 1 {
				s.replayed++ // answered on a retry from the duplicate record
			} else if rec.ambiguous > 0 {
				s.late++ // answered on a retry by its run's own late answer
			}
		default:
			s.errors++
			s.errorCodes[rec.code]++
			if len(runs) > 0 {
				s.ranErrors++ // ran, and the spoke was told it failed: accounted, and counted
			}
		}
	}
	t.Logf("%s: %d mutations (%d attempts, %d without a hub's answer): %d succeeded, %d failed %v, %d unresolved; "+
		"%d runs, %d re-runs; retried after no answer and answered with their run's value: %d replayed from the duplicate record, %d by the run's late answer; %d ran and failed; "+
		"%d subscriptions (%d values): %d completed, %d ended with an error the subscriber saw %v, %d stopped by the test; %d violations",
		name, s.mutations, s.attempts, s.ambiguous, s.successes, s.errors, s.errorCodes, s.unresolved,
		s.runs, s.reruns, s.replayed, s.late, s.ranErrors,
		c.streams, c.values, c.completed, sum(c.surfaced), c.surfaced, c.stopped, len(bad))
	if len(bad) > 0 {
		if len(bad) > 20 {
			bad = append(bad[:20], fmt.Sprintf("... and %d more", len(bad)-20))
		}
		t.Errorf("%s: the checker found:\n%s", name, strings.Join(bad, "\n"))
	}
	return s
}

func sum(m map[rt.ErrorCode]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
