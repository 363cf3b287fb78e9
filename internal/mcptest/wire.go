package mcptest

import (
	"bytes"
	"context"
	"encoding/base64"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// markerWire is the wire form of the marker block; the wrappers replace it
// with UnknownBlock in outgoing bytes.
var markerWire = []byte(`{"type":"text","text":"` + unknownBlockMarker + `"}`)

func base64JSON(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// ServerTransport wraps a server-side transport so that ToolUnknownBlock's
// marker block goes out as UnknownBlock. go-sdk can only marshal the content
// types it knows, so the unknown block is made on the wire, as a newer
// server would send it.
func ServerTransport(t mcp.Transport) mcp.Transport { return &serverTransport{t} }

type serverTransport struct{ mcp.Transport }

func (t *serverTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &serverConn{c}, nil
}

type serverConn struct{ mcp.Connection }

func (c *serverConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && bytes.Contains(r.Result, markerWire) {
		r.Result = bytes.ReplaceAll(r.Result, markerWire, []byte(UnknownBlock))
	}
	return c.Connection.Write(ctx, msg)
}

// Handler returns a streamable HTTP handler serving NewServer (one server
// for all sessions), whose responses carry ToolUnknownBlock's block as
// UnknownBlock (see ServerTransport).
func Handler() http.Handler {
	s := NewServer()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(rewritingWriter{w}, r)
	})
}

// rewritingWriter replaces the marker block in each write. go-sdk writes
// each SSE event (and each JSON body) in one Write, so the marker is never split.
type rewritingWriter struct{ http.ResponseWriter }

func (w rewritingWriter) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(bytes.ReplaceAll(b, markerWire, []byte(UnknownBlock))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Flush implements http.Flusher for the SSE streams.
func (w rewritingWriter) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap lets http.ResponseController reach the underlying writer.
func (w rewritingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
