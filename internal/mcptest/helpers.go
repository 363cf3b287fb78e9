package mcptest

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// InMemory connects NewServer (through ServerTransport) and a client
// (through mcpclient.Connect) over in-memory transports, and closes both
// when the test ends.
func InMemory(t testing.TB) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewServer().Connect(ctx, ServerTransport(st), nil)
	if err != nil {
		t.Fatalf("mcptest: server connect: %v", err)
	}
	cs, err := mcpclient.Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		t.Fatalf("mcptest: client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// StreamableHTTP starts an httptest server running Handler and returns its
// URL; the server closes when the test ends. Connect to it with
// mcpclient.Connect and an &mcp.StreamableClientTransport{Endpoint: url}.
func StreamableHTTP(t testing.TB) (url string) {
	t.Helper()
	srv := httptest.NewServer(Handler())
	t.Cleanup(srv.Close)
	return srv.URL
}
