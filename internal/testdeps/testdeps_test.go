package testdeps

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records how a helper ended the test.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a recorder in a goroutine of its own (Skipf and Fatalf
// end it) and returns the recorder.
func run(t *testing.T, f func(testing.TB)) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r
}

func TestRoot(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Root(t), filepath.Dir(filepath.Dir(wd)); got != want {
		t.Errorf("Root = %s, want %s", got, want)
	}
}

// TestNeed: a missing program skips the test, naming the make target that
// installs it (or node, when node is what is missing), and fails it under
// CI; a present one passes.
func TestNeed(t *testing.T) {
	_, noNode := exec.LookPath("node")
	why := "`make e2e-deps`"
	if noNode != nil {
		why = "node is not installed"
	}
	missing := filepath.Join(t.TempDir(), "node_modules", ".bin", "prism")
	t.Setenv("CI", "")
	r := run(t, func(tb testing.TB) { need(tb, missing, "Prism", "make e2e-deps") })
	if r.failed != "" || !strings.HasPrefix(r.skipped, "SKIPPED: ") || !strings.Contains(r.skipped, why) {
		t.Errorf("without CI: skipped %q, failed %q; want a skip saying %s", r.skipped, r.failed, why)
	}
	t.Setenv("CI", "true")
	r = run(t, func(tb testing.TB) { need(tb, missing, "Prism", "make e2e-deps") })
	if r.skipped != "" || !strings.Contains(r.failed, why) || !strings.Contains(r.failed, "CI must run this test") {
		t.Errorf("under CI: skipped %q, failed %q", r.skipped, r.failed)
	}
	if noNode != nil {
		return
	}
	present := filepath.Join(t.TempDir(), "prism")
	if err := os.WriteFile(present, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	r = run(t, func(tb testing.TB) { need(tb, present, "Prism", "make e2e-deps") })
	if r.skipped != "" || r.failed != "" {
		t.Errorf("present: skipped %q, failed %q", r.skipped, r.failed)
	}
}

// TestShared: OPSGEN_SHARED moves the shared directory; a file missing
// from it skips the test with a message naming the variable.
func TestShared(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "specs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "specs", "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPSGEN_SHARED", dir)
	if got := Shared(t, "specs/a.json"); got != filepath.Join(dir, "specs", "a.json") {
		t.Errorf("Shared = %s", got)
	}
	r := run(t, func(tb testing.TB) { Shared(tb, "specs/b.json") })
	if !strings.Contains(r.skipped, "OPSGEN_SHARED") {
		t.Errorf("missing file: skipped %q, failed %q", r.skipped, r.failed)
	}
	t.Setenv("OPSGEN_SHARED", "")
	if got, want := SharedDir(t), filepath.Join(filepath.Dir(Root(t)), "shared"); got != want {
		t.Errorf("SharedDir = %s, want %s", got, want)
	}
}
