package corpus

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
	"github.com/opsgen/opsgen/internal/leakcheck"
)

// TestTimeoutStopsGeneration runs a real spec with a timeout far too short
// for it: the outcome is Timeout, and the generation's goroutine has
// returned by the time Run does (the loader checks its context between
// phases; the driver does not start the emitter after the deadline). Real
// time: the deadline must interrupt the loader while it works.
func TestTimeoutStopsGeneration(t *testing.T) {
	specs, err := Discover("../../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	var spec Spec
	for _, s := range specs {
		if s.Name == "meshery.local.json" { // the largest of the sample
			spec = s
		}
	}
	if spec.Path == "" {
		t.Fatal("meshery.local.json is not in testdata/corpus")
	}
	before := runtime.NumGoroutine()
	results, err := Run(t.Context(), []Spec{spec}, Options{Repo: "../..", Work: filepath.Join(t.TempDir(), "mod"),
		Timeout: time.Millisecond, StopGrace: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.Outcome != Timeout || r.Abandoned || !strings.Contains(r.Reason, "generation took longer than 1ms; it stopped") {
		t.Fatalf("outcome %s, abandoned %v, reason %q", r.Outcome, r.Abandoned, r.Reason)
	}
	// No goroutine of the generation is left (the loader's workers
	// included): the count goes back to what it was.
	leakcheck.Settle(t, before)
}

// stubLoad replaces the loader for one test.
func stubLoad(t *testing.T, f func(ctx context.Context) (*ir.Service, diag.List, error)) {
	t.Helper()
	t.Cleanup(func() { load = openapi.LoadData })
	load = func(ctx context.Context, _ []byte, _ string, _ openapi.Options) (*ir.Service, diag.List, error) {
		return f(ctx)
	}
}

// specFile returns a spec whose content does not matter (the loader is stubbed).
func specFile(t *testing.T) Spec {
	t.Helper()
	specs, err := Discover("../../testdata/corpus")
	if err != nil || len(specs) == 0 {
		t.Fatal(err)
	}
	return specs[0]
}

// TestTimeoutWaitsForTheLoader: after the deadline, generate waits for the
// loader to see the cancellation and return, however long it takes within
// the grace period. In a synctest bubble: the loader's 200 ms are the
// bubble's clock, so Gen is exactly the timeout plus them.
func TestTimeoutWaitsForTheLoader(t *testing.T) {
	synctest.Test(t, testTimeoutWaitsForTheLoader)
}

func testTimeoutWaitsForTheLoader(t *testing.T) {
	var returned atomic.Bool
	stubLoad(t, func(ctx context.Context) (*ir.Service, diag.List, error) {
		<-ctx.Done()
		time.Sleep(200 * time.Millisecond) // finishing a phase before checking ctx (fake time)
		returned.Store(true)
		return nil, nil, ctx.Err()
	})
	r := Result{Spec: specFile(t), Package: "s0000"}
	generate(t.Context(), &r, t.TempDir(), 20*time.Millisecond, 0, time.Minute, "")
	if !returned.Load() {
		t.Error("generate returned before the loader")
	}
	if r.Outcome != Timeout || r.Abandoned || !strings.Contains(r.Reason, "took longer than 20ms; it stopped") {
		t.Errorf("outcome %s, abandoned %v, reason %q", r.Outcome, r.Abandoned, r.Reason)
	}
	if r.Gen != 220*time.Millisecond {
		t.Errorf("Gen = %v, want the 20ms timeout and the loader's 200ms", r.Gen)
	}
}

// TestTimeoutAbandons: a loader that ignores its context is waited for
// StopGrace only, and the result says that it is left running (in a
// synctest bubble: exactly the timeout and the grace pass).
func TestTimeoutAbandons(t *testing.T) {
	synctest.Test(t, testTimeoutAbandons)
}

func testTimeoutAbandons(t *testing.T) {
	release := make(chan struct{})
	finished := make(chan struct{})
	stubLoad(t, func(ctx context.Context) (*ir.Service, diag.List, error) {
		defer close(finished)
		<-release
		return nil, nil, nil
	})
	r := Result{Spec: specFile(t), Package: "s0000"}
	start := time.Now()
	generate(t.Context(), &r, t.TempDir(), 10*time.Millisecond, 0, 100*time.Millisecond, "")
	if d := time.Since(start); d != 110*time.Millisecond {
		t.Errorf("generate took %v, want the 10ms timeout and the 100ms grace", d)
	}
	close(release)
	<-finished
	if r.Outcome != Timeout || !r.Abandoned || !strings.Contains(r.Reason, "had not stopped 100ms after its cancellation") {
		t.Errorf("outcome %s, abandoned %v, reason %q", r.Outcome, r.Abandoned, r.Reason)
	}
	var b strings.Builder
	Summarize(&b, []Result{r})
	if !strings.Contains(b.String(), "generations left running after their timeout: 1\n") {
		t.Errorf("summary:\n%s", b.String())
	}
}

// TestInterrupted: cancelling Run's context (an interrupt) stops the
// generation the same way, and says so.
func TestInterrupted(t *testing.T) {
	synctest.Test(t, testInterrupted)
}

func testInterrupted(t *testing.T) {
	stubLoad(t, func(ctx context.Context) (*ir.Service, diag.List, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	r := Result{Spec: specFile(t), Package: "s0000"}
	generate(ctx, &r, t.TempDir(), time.Minute, 0, time.Minute, "")
	if r.Outcome != Timeout || r.Abandoned || !strings.HasPrefix(r.Reason, "generation interrupted (context canceled); it stopped") {
		t.Errorf("outcome %s, abandoned %v, reason %q", r.Outcome, r.Abandoned, r.Reason)
	}
}

// TestTimeoutScalesWithOps: the bound is Timeout plus TimeoutPerOp for each
// operation the document declares (in a synctest bubble: exactly that
// passes before the loader sees its cancellation).
func TestTimeoutScalesWithOps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stubLoad(t, func(ctx context.Context) (*ir.Service, diag.List, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
		r := Result{Spec: specFile(t), Package: "s0000"}
		start := time.Now()
		generate(t.Context(), &r, t.TempDir(), 10*time.Millisecond, time.Second, time.Minute, "")
		if r.SpecOps == 0 {
			t.Fatal("the document declares no operation")
		}
		want := 10*time.Millisecond + time.Duration(r.SpecOps)*time.Second
		if d := time.Since(start); d != want {
			t.Errorf("generate took %v, want %v (10ms and 1s for each of %d operations)", d, want, r.SpecOps)
		}
		if r.Outcome != Timeout || !strings.Contains(r.Reason, "took longer than "+want.String()) {
			t.Errorf("outcome %s, reason %q", r.Outcome, r.Reason)
		}
	})
}
