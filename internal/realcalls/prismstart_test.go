package realcalls

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSyncBufferReady checks that the listening line is seen when it
// arrives split across writes, and only once.
func TestSyncBufferReady(t *testing.T) {
	b := newSyncBuffer()
	b.Write([]byte("[CLI] starting\n[CLI] ▶  start     Prism is lis"))
	select {
	case <-b.ready:
		t.Fatal("ready before the line is complete")
	default:
	}
	b.Write([]byte("tening on http://127.0.0.1:4010\n"))
	b.Write([]byte("Prism is listening again\n")) // closing twice would panic
	select {
	case <-b.ready:
	default:
		t.Fatalf("not ready after %q", b.String())
	}
}

// flakyPrism writes a script that exits at its first start, as node did
// once under load, and runs the real Prism from then on.
func flakyPrism(t *testing.T, bin string) string {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "prism")
	text := "#!/bin/sh\n" +
		"if [ ! -e " + filepath.Join(dir, "started") + " ]; then touch " + filepath.Join(dir, "started") + "; echo 'Error: simulated start failure' >&2; exit 1; fi\n" +
		"exec " + bin + " \"$@\"\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// TestStartPrismRetries checks that a Prism that exits at start is started
// again (on a new port) and then answers.
func TestStartPrismRetries(t *testing.T) {
	bin := prismBin(t)
	spec, err := filepath.Abs("../../testdata/realcalls/subset/oas-examples__3.0__petstore-expanded.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := StartPrism(t.Context(), flakyPrism(t, bin), spec, 2*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if !p.Alive() || !strings.Contains(p.Log(), listening) {
		t.Fatalf("alive %v, log %s", p.Alive(), p.Log())
	}
}

// TestStartPrismGivesUp checks that a Prism that never starts is tried
// three times and that the error says so, with each attempt's output.
func TestStartPrismGivesUp(t *testing.T) {
	script := filepath.Join(t.TempDir(), "prism")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho 'Error: cannot start' >&2\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := StartPrism(context.Background(), script, "spec.json", time.Minute)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"prism spec.json: exited before listening, 3 times", "attempt 1: prism exited (exit status 3): Error: cannot start", "attempt 3:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
}
