package main

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/output"
)

// The tests of this file put named pipes and symbolic links where opsgen
// writes (see the rules in generator/output), in temporary directories.

// runWithin runs opsgen and fails the test when it does not end within 30s.
func runWithin(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		c, o, e := opsgen(t, args...)
		done <- result{c, o, e}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(30 * time.Second):
		t.Fatalf("opsgen %s blocked", strings.Join(args, " "))
		panic("unreachable")
	}
}

// TestMCPSnapshotIntoPipeAndLink: -o a named pipe writes the listing into
// it (the pipe stays); -o a link to a file replaces the file (the link
// stays).
func TestMCPSnapshotIntoPipeAndLink(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer srv.Close()
	dir := t.TempDir()

	pipe := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatalf("making a named pipe: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(pipe)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	code, _, stderr := runWithin(t, "mcp", "snapshot", "-url", srv.URL, "-o", pipe)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s := <-got; !strings.Contains(s, `"name": "echo"`) {
		t.Errorf("read from the pipe: %q", s)
	}
	if fi, err := os.Lstat(pipe); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
		t.Errorf("the pipe is now %v (%v)", fi.Mode(), err)
	}

	target := filepath.Join(dir, "real.json")
	write(t, target, "old\n")
	link := filepath.Join(dir, "tools.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runWithin(t, "mcp", "snapshot", "-url", srv.URL, "-o", link)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s := read(t, target); !strings.Contains(s, `"name": "echo"`) {
		t.Errorf("target: %q", s)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode().Type() != fs.ModeSymlink {
		t.Errorf("the link is now %v (%v)", fi.Mode(), err)
	}

	// A directory is refused.
	code, _, stderr = runWithin(t, "mcp", "snapshot", "-url", srv.URL, "-o", dir)
	if code != 1 || !strings.Contains(stderr, dir+" is a directory; not writing to it") {
		t.Errorf("-o DIR: exit %d, stderr %q", code, stderr)
	}
}

// TestGenerateRefusesPipe: generate and check fail, without blocking, when
// an output file's name or the manifest's is a named pipe, and leave it.
func TestGenerateRefusesPipe(t *testing.T) {
	for _, name := range []string{"client.go", output.ManifestName} {
		t.Run(name, func(t *testing.T) {
			dir := workdir(t, petstoreConfig)
			config := filepath.Join(dir, "opsgen.yaml")
			if code, _, stderr := runWithin(t, "generate", "-config", config); code != 0 {
				t.Fatalf("generate: exit %d: %s", code, stderr)
			}
			path := filepath.Join(dir, "petstore", name)
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Fatalf("making a named pipe: %v", err)
			}
			want := path + " is a named pipe, not a regular file"
			for _, cmd := range []string{"generate", "check"} {
				code, _, stderr := runWithin(t, cmd, "-config", config)
				if code != 1 || !strings.Contains(stderr, want) {
					t.Errorf("%s: exit %d, stderr %q, want %q", cmd, code, stderr, want)
				}
			}
			if fi, err := os.Lstat(path); err != nil || fi.Mode().Type() != fs.ModeNamedPipe {
				t.Errorf("the pipe is now %v (%v)", fi.Mode(), err)
			}
		})
	}
}
