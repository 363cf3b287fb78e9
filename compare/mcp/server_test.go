// Package mcp is the opsgen client of each reference MCP server
// (@modelcontextprotocol/server-memory, server-filesystem and
// server-everything; clients generated from the listings snapshotted from
// them, testdata/specs/mcp) and the same calls through go-sdk's untyped
// CallTool, run against the real servers over stdio.
//
// The servers are installed by scripts/mcp-servers.sh into the root
// module's .work/mcp-servers; the tests skip without node and npm (and
// fail instead when CI is set), as runtime/mcpclient's reference tests do.
package mcp

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime/mcpclient"
)

var install = sync.OnceValues(func() (string, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return "", err
	}
	out, err := exec.Command("bash", filepath.Join(root, "scripts", "mcp-servers.sh")).CombinedOutput()
	if err != nil {
		return "", errors.New("scripts/mcp-servers.sh: " + err.Error() + "\n" + string(out))
	}
	return filepath.Join(root, ".work", "mcp-servers", "node_modules", ".bin"), nil
})

// serverBin returns the executable of the reference server name
// (server-memory, ...), installing the servers when needed; it skips the
// test without node and npm (and fails it when CI is set).
func serverBin(t *testing.T, name string) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed, and CI must run the reference MCP server tests", tool)
			}
			t.Skipf("SKIPPING: %s is not installed (install Node.js 20+ to run the reference MCP servers)", tool)
		}
	}
	bin, err := install()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(bin, "mcp-"+name)
}

// connect starts the reference server name with args and env over stdio
// and returns the session.
func connect(t *testing.T, name string, args []string, env ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(serverBin(t, name), args...)
	cmd.Env = append(os.Environ(), env...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcpclient.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", name, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// memoryServer starts a server-memory with its own empty graph file.
func memoryServer(t *testing.T) *mcp.ClientSession {
	return connect(t, "server-memory", nil, "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.jsonl"))
}

// fsServer starts a server-filesystem allowed into a fresh directory,
// returned with the session.
func fsServer(t *testing.T) (*mcp.ClientSession, string) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, "server-filesystem", []string{dir}), dir
}
