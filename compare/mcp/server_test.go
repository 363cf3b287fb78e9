// Package mcp is the opsgen client of each reference MCP server
// (@modelcontextprotocol/server-memory, server-filesystem and
// server-everything; clients generated from the listings snapshotted from
// them, testdata/specs/mcp) and the same calls through go-sdk's untyped
// CallTool, run against the real servers over stdio.
//
// The servers are installed by `make mcp-servers` (scripts/mcp-servers.sh)
// into the root module's .work/mcp-servers; the tests skip without them
// (and fail instead when CI is set), as runtime/mcpclient's reference
// tests do.
package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/testdeps"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// serverBin returns the executable of the reference server name
// (server-memory, ...), which `make mcp-servers` installs; it skips the test
// without it (and fails it when CI is set).
func serverBin(t *testing.T, name string) string {
	t.Helper()
	return testdeps.MCPServer(t, name)
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
