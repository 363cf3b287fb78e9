package realcalls

import (
	"context"
	"errors"
	"fmt"
	"net"
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
	for _, want := range []string{"prism spec.json: did not start, 3 times", "attempt 1: prism exited (exit status 3): Error: cannot start", "attempt 3:"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not say %q", msg, want)
		}
	}
}

// slowPrism writes a script that hangs (prints nothing, never listens) at
// its first start and from then on runs this test binary as a fake Prism
// that listens at once (TestFakePrismProcess). Each start appends a line
// to the returned count file.
func slowPrism(t *testing.T, hangAlways bool) (script, starts string) {
	t.Helper()
	dir := t.TempDir()
	script, starts = filepath.Join(dir, "prism"), filepath.Join(dir, "starts")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	text := "#!/bin/sh\n" +
		"echo start >> " + starts + "\n" +
		"if [ ! -e " + filepath.Join(dir, "hung") + " ] || " + fmt.Sprint(hangAlways) + "; then touch " + filepath.Join(dir, "hung") + "; exec sleep 60; fi\n" +
		"REALCALLS_FAKE_PRISM=1 exec " + self + " -test.run=^TestFakePrismProcess$ -- \"$@\"\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, starts
}

// TestFakePrismProcess is the fake Prism of slowPrism when run by it:
// `mock -h HOST -p PORT SPEC` listens on PORT and says so as Prism does.
func TestFakePrismProcess(t *testing.T) {
	if os.Getenv("REALCALLS_FAKE_PRISM") != "1" {
		t.Skip("the fake Prism run by slowPrism's script")
	}
	args := os.Args
	for len(args) > 0 && args[0] != "--" {
		args = args[1:]
	}
	if len(args) < 6 || args[1] != "mock" {
		t.Fatalf("args %q", os.Args)
	}
	l, err := net.Listen("tcp", args[3]+":"+args[5])
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("[CLI] ▶  start     Prism is listening on http://" + l.Addr().String())
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// TestStartPrismSlowStart: a Prism that does not listen within the bound
// is started once more with twice the bound, and then used.
func TestStartPrismSlowStart(t *testing.T) {
	script, starts := slowPrism(t, false)
	p, err := StartPrism(t.Context(), script, "spec.json", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "start") != 2 {
		t.Errorf("started %d times, want 2", strings.Count(string(b), "start"))
	}
}

// TestStartPrismTimesOutTwice: a Prism that never listens is tried twice,
// and the error wraps ErrPrismTimeout (reported as its own outcome).
func TestStartPrismTimesOutTwice(t *testing.T) {
	script, starts := slowPrism(t, true)
	_, err := StartPrism(t.Context(), script, "spec.json", 200*time.Millisecond)
	if !errors.Is(err, ErrPrismTimeout) {
		t.Fatalf("error %v does not wrap ErrPrismTimeout", err)
	}
	if b, _ := os.ReadFile(starts); strings.Count(string(b), "start") != 2 {
		t.Errorf("started %d times, want 2", strings.Count(string(b), "start"))
	}
	for _, want := range []string{"attempt 1: ", "attempt 2: ", "within 200ms", "within 400ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestPrismCrash: the evidence of a Prism that died names its exception
// and where it was thrown (both cases seen in the runs: a deserializer of
// simple-style parameters, and a response content key that is not a media
// type), not the end of a stack trace.
func TestPrismCrash(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"[HTTP SERVER] get /anything/path ℹ  info      Request received\n\n" +
			"/w/node_modules/@stoplight/prism-http/dist/validator/deserializers/style/simple.js:20\n" +
			"    return value === '' ? [] : value.split(',');\n                                     ^\n" +
			"TypeError: value.split is not a function\n" +
			"    at deserializeArray (/w/node_modules/@stoplight/prism-http/dist/validator/deserializers/style/simple.js:20:38)\n" +
			"    at deserializeSimpleStyle (/w/node_modules/@stoplight/prism-http/dist/validator/deserializers/style/simple.js:9:16)\n",
			"TypeError: value.split is not a function (at deserializeArray (@stoplight/prism-http/dist/validator/deserializers/style/simple.js:20:38))"},
		{"[NEGOTIATOR] ℹ  info      > Responding with \"200\"\n\n/w/node_modules/content-type/index.js:126\n" +
			"    throw new TypeError('invalid media type')\n          ^\nTypeError: invalid media type\n" +
			"    at Object.parse (/w/node_modules/content-type/index.js:126:11)\n",
			"TypeError: invalid media type (at Object.parse (content-type/index.js:126:11))"},
		{"no exception here, only a tail", "no exception here, only a tail"},
	} {
		if got := prismCrash(c.log); got != c.want {
			t.Errorf("prismCrash:\n got %q\nwant %q", got, c.want)
		}
	}
}

// TestStartFailure: a document Prism finds no operation in is no fault only
// when opsgen's client registers none either; a start timeout is its own
// outcome; any other refusal is the mock's.
func TestStartFailure(t *testing.T) {
	noOps := fmt.Errorf("prism x.json: did not start, 3 times: attempt 1: prism exited (exit status 1): Error: No operations found in the current file.")
	count := func(n int) func() (int, error) { return func() (int, error) { return n, nil } }
	for _, c := range []struct {
		err     error
		ops     int
		outcome string
		fault   Fault
	}{
		{noOps, 0, "no operations", ""},
		{noOps, 3, "prism failed", FaultMock},
		{fmt.Errorf("attempt 2: %w: not listening within 4m0s", ErrPrismTimeout), 3, "prism timed out", FaultHarness},
		{errors.New("prism exited (exit status 1): Error: Invalid specification"), 3, "prism failed", FaultMock},
	} {
		outcome, reason, fault := startFailure(c.err, count(c.ops))
		if outcome != c.outcome || fault != c.fault || reason == "" {
			t.Errorf("%v with %d operations: %q (%s), want %q (%s)", c.err, c.ops, outcome, fault, c.outcome, c.fault)
		}
	}
}

// TestInvalidMediaTypes: content keys that are not media types are found
// in responses and request bodies; valid ones (wildcards, parameters) are not.
func TestInvalidMediaTypes(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "spec.json")
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
	  "/a":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"type":"object"}},"access":{},"code":{}}}}}},
	  "/b":{"post":{"requestBody":{"content":{"text/plain; charset=utf-8":{},"*/*":{}}},"responses":{"204":{"description":"no"}}}}}}`
	if err := os.WriteFile(spec, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(spec)
	if got := o.InvalidMediaTypes("GET", "http://h/a"); strings.Join(got, ",") != "access,code" {
		t.Errorf("GET /a: %q", got)
	}
	if got := o.InvalidMediaTypes("POST", "http://h/b"); len(got) != 0 {
		t.Errorf("POST /b: %q", got)
	}
}
