// Package testdeps finds what some tests need from outside the module: the
// programs `make test` installs from npm into the repository's .work/ (the
// reference MCP servers, Prism) and the specs that live beside the project
// (../shared, the corpus cache).
//
// Tests never install anything and never reach the network: `go test ./...`
// on a fresh clone skips what is missing, saying which make target installs
// it. Under CI (the CI variable set) `make test` installs the npm programs
// first, so there a missing one fails the test instead of skipping it.
package testdeps

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Root returns the repository's root directory: the nearest directory above
// the working directory that holds scripts/mcp-servers.sh (so that it is
// found from compare/, a module of its own, too).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "scripts", "mcp-servers.sh")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatalf("testdeps: no repository root (scripts/mcp-servers.sh) above %s", dir)
		}
	}
}

// MCPServer returns the executable of the reference MCP server name
// (server-everything, server-memory, server-filesystem: npm
// @modelcontextprotocol/NAME), which `make mcp-servers` installs into
// .work/mcp-servers.
func MCPServer(t testing.TB, name string) string {
	t.Helper()
	bin := filepath.Join(Root(t), ".work", "mcp-servers", "node_modules", ".bin", "mcp-"+name)
	need(t, bin, "the reference MCP server @modelcontextprotocol/"+name, "make mcp-servers")
	return bin
}

// Prism returns the executable of Prism (npm @stoplight/prism-cli), which
// `make e2e-deps` installs into .work/prism.
func Prism(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(Root(t), ".work", "prism", "node_modules", ".bin", "prism")
	need(t, bin, "Prism (npm @stoplight/prism-cli)", "make e2e-deps")
	return bin
}

// need skips t, or fails it under CI, when node or the executable bin is
// missing.
func need(t testing.TB, bin, what, target string) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("node"); err != nil {
		why = "node is not installed (Node.js 20 or newer runs " + what + ")"
	} else if _, err := os.Stat(bin); err != nil {
		why = what + " is not installed: `" + target + "` (or `make test`) installs it into " + filepath.Dir(filepath.Dir(filepath.Dir(bin)))
	}
	if why == "" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s, and CI must run this test: make test installs it first", why)
	}
	t.Skipf("SKIPPED: %s", why)
}

// Shared returns the path of rel inside the project's shared directory:
// $OPSGEN_SHARED, or else ../shared beside the repository's root (as CI lays
// it out). It skips t when the file is not there.
func Shared(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(SharedDir(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("SKIPPED: %s is not available (set OPSGEN_SHARED to the directory that holds %s, or place it at ../shared beside the repository)", p, rel)
	}
	return p
}

// SharedDir returns the shared directory ($OPSGEN_SHARED, or ../shared
// beside the repository's root), which may not exist.
func SharedDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("OPSGEN_SHARED"); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(Root(t)), "shared")
}

// Corpus returns the corpus cache that scripts/corpus.sh and scripts/e2e.sh
// fill ($CORPUS_CACHE, or else .work/corpus), which may not exist.
func Corpus(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("CORPUS_CACHE"); d != "" {
		return d
	}
	return filepath.Join(Root(t), ".work", "corpus")
}
