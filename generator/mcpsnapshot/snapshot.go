//lint:file-ignore SA1019 roots and sampling are deprecated in MCP 2026-07-28 but servers still list some tools only to clients that advertise them, so snapshot -capabilities must be able to

package mcpsnapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SnapshotOptions says which MCP server to list. Exactly one of Command,
// URL and Transport is set.
type SnapshotOptions struct {
	// Command is the argv of a server speaking MCP over stdio; it is started
	// as a subprocess and stopped when the listing is complete.
	Command []string
	// URL is the endpoint of a server speaking MCP over streamable HTTP, or
	// over the older HTTP+SSE transport.
	URL string
	// Env is added to the environment of Command ("KEY=value").
	Env []string
	// Transport is a client transport to an already running server (an
	// in-memory one, say). The session is opened the SDK's default way,
	// without the fallbacks of Command and URL.
	Transport mcp.Transport
	// Timeout bounds the whole snapshot; zero means no limit beyond ctx.
	Timeout time.Duration
	// Capabilities are the client capabilities the snapshot advertises.
	// Servers may list some tools only to clients that support sampling or
	// elicitation, say. Nil means go-sdk's default ({"roots":
	// {"listChanged": true}}); ParseCapabilities makes them from names.
	Capabilities *mcp.ClientCapabilities
}

// CapabilityNames are the names ParseCapabilities knows.
var CapabilityNames = []string{"roots", "sampling", "elicitation"}

// ParseCapabilities returns the client capabilities named in list, a
// comma-separated list of "roots" (with listChanged), "sampling" and
// "elicitation" (form and url modes); "" or "none" is no capability.
func ParseCapabilities(list string) (*mcp.ClientCapabilities, error) {
	caps := &mcp.ClientCapabilities{}
	if strings.TrimSpace(list) == "none" {
		return caps, nil
	}
	for _, name := range strings.Split(list, ",") {
		switch strings.TrimSpace(name) {
		case "":
		case "roots":
			caps.RootsV2 = &mcp.RootCapabilities{ListChanged: true}
		case "sampling":
			caps.Sampling = &mcp.SamplingCapabilities{}
		case "elicitation":
			caps.Elicitation = &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}
		default:
			return nil, fmt.Errorf("unknown client capability %q (want a comma-separated list of %s, or none)", strings.TrimSpace(name), strings.Join(CapabilityNames, ", "))
		}
	}
	return caps, nil
}

// legacyProtocolVersion is the newest protocol version that starts a session
// with initialize only. See snapshotCommand.
const legacyProtocolVersion = "2025-11-25"

// Snapshot connects to the server described by opts, reads its whole tool
// listing (every page of tools/list) and returns it as a listing file: see
// SnapshotTransport for the format.
func Snapshot(ctx context.Context, opts SnapshotOptions) ([]byte, error) {
	n := 0
	for _, set := range []bool{len(opts.Command) > 0, opts.URL != "", opts.Transport != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, errors.New("mcpsnapshot: snapshot needs exactly one of a command, a URL or a transport")
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	switch {
	case opts.URL != "":
		return snapshotURL(ctx, opts)
	case opts.Transport != nil:
		l, err := listTools(ctx, opts.Transport, "", opts.Capabilities)
		if err != nil {
			return nil, fmt.Errorf("mcpsnapshot: %w", err)
		}
		return l.format()
	}
	return snapshotCommand(ctx, opts)
}

// SnapshotTransport reads the whole tool listing of the server at the other
// end of t and returns it as a listing file: a JSON object
//
//	{"protocolVersion": "...", "serverInfo": {...}, "tools": [...], "transport": "..."}
//
// with the tools sorted by name, object keys sorted, indented by two spaces
// and ending in a newline, so that it can be committed and diffed. Each tool
// is kept as the server sent it (fields the SDK does not model included);
// what belongs to the response rather than to a tool (nextCursor, _meta) is
// left out. serverInfo and protocolVersion are the server's answer to
// initialize (its name, version and title as it sent them) and the
// protocol version the session agreed on over the transport named by
// "transport" ("stdio", "streamable-http", "sse" or "in-memory"; absent
// for other transports): the listing is the tools this server showed to
// this client, and a server may agree on different versions over
// different transports.
//
// The session is opened the SDK's default way (server/discover first, then
// initialize), with go-sdk's default client capabilities; Snapshot adds the
// fallbacks that need a fresh connection, and the choice of capabilities.
func SnapshotTransport(ctx context.Context, t mcp.Transport) ([]byte, error) {
	return Snapshot(ctx, SnapshotOptions{Transport: t})
}

// snapshotCommand lists the tools of a stdio server.
//
// go-sdk v1.8.0 opens a session by probing with server/discover (protocol
// 2026-07-28) before falling back to initialize. Servers that only know an
// older protocol should answer the probe with "method not found", but some
// stdio servers exit on an unknown method instead (go-sdk issue #1177), and
// then the initialize fallback fails on the closed pipe. So when the first
// attempt cannot connect, the server is started again and the session is
// opened with initialize only (protocol 2025-11-25, which the server may
// negotiate down).
func snapshotCommand(ctx context.Context, opts SnapshotOptions) ([]byte, error) {
	var errs []error
	for _, version := range []string{"", legacyProtocolVersion} {
		var stderr tailBuffer
		cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
		cmd.Env = append(os.Environ(), opts.Env...)
		cmd.Stderr = &stderr
		t := &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
		l, err := listTools(ctx, t, version, opts.Capabilities)
		if err == nil {
			return l.format()
		}
		if s := strings.TrimSpace(stderr.String()); s != "" {
			err = fmt.Errorf("%w (server stderr: %s)", err, s)
		}
		errs = append(errs, err)
		var ce *connectError
		if !errors.As(err, &ce) || ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("mcpsnapshot: snapshot of %q: %w", strings.Join(opts.Command, " "), errors.Join(errs...))
}

// snapshotURL lists the tools of an HTTP server. It tries the streamable
// HTTP transport first. Servers from before protocol 2025-03-26 only speak
// HTTP+SSE: they answer the streamable POST with a 4xx status (there is no
// session for it), and the spec's backwards-compatibility rule is to then
// open the SSE stream with a GET. Other failures (connection refused, 5xx)
// are reported as they are.
func snapshotURL(ctx context.Context, opts SnapshotOptions) ([]byte, error) {
	url := opts.URL
	rec := &statusRecorder{next: http.DefaultTransport}
	streamable := &mcp.StreamableClientTransport{
		Endpoint:             url,
		HTTPClient:           &http.Client{Transport: rec},
		DisableStandaloneSSE: true, // only request/response is needed
		MaxRetries:           -1,
	}
	l, err := listTools(ctx, streamable, "", opts.Capabilities)
	if err == nil {
		return l.format()
	}
	var ce *connectError
	if !errors.As(err, &ce) || !rec.rejectedPost() || ctx.Err() != nil {
		return nil, fmt.Errorf("mcpsnapshot: snapshot of %s: %w", url, err)
	}
	l, sseErr := listTools(ctx, &mcp.SSEClientTransport{Endpoint: url}, "", opts.Capabilities)
	if sseErr != nil {
		return nil, fmt.Errorf("mcpsnapshot: snapshot of %s: streamable HTTP: %w; HTTP+SSE: %w", url, err, sseErr)
	}
	return l.format()
}

// connectError marks a failure to open the session (as opposed to a failure
// of tools/list in an open one), which is when a fallback makes sense.
type connectError struct{ err error }

func (e *connectError) Error() string { return "connect: " + e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

// listing is what a snapshot records.
type listing struct {
	tools []json.RawMessage
	// serverInfo is the serverInfo of the server's initialize (or
	// discover) result, as go-sdk reads it; nil when it sent none.
	serverInfo      json.RawMessage
	protocolVersion string
	// transport names the transport the session was opened on
	// (transportName), so that protocolVersion says what it negotiated.
	transport string
}

// transportName names the kind of t in a listing file: "stdio",
// "streamable-http", "sse", "in-memory", or "" for other transports.
func transportName(t mcp.Transport) string {
	switch t.(type) {
	case *mcp.CommandTransport, *mcp.StdioTransport, *mcp.IOTransport:
		return "stdio"
	case *mcp.StreamableClientTransport:
		return "streamable-http"
	case *mcp.SSEClientTransport:
		return "sse"
	case *mcp.InMemoryTransport:
		return "in-memory"
	}
	return ""
}

// listTools opens a session over t (with the given protocol version, "" for
// the SDK's default, and capabilities, nil for the SDK's default) and
// returns the raw JSON of every tool of every page, with what the server
// said about itself.
func listTools(ctx context.Context, t mcp.Transport, version string, caps *mcp.ClientCapabilities) (*listing, error) {
	rec := &recordingTransport{Transport: t, pending: map[jsonrpc.ID]bool{}}
	var opts *mcp.ClientOptions
	if caps != nil {
		opts = &mcp.ClientOptions{Capabilities: caps}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "opsgen", Version: "snapshot"}, opts)
	cs, err := client.Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, &connectError{err}
	}
	defer cs.Close()

	l := &listing{transport: transportName(t)}
	if ir := cs.InitializeResult(); ir != nil {
		l.protocolVersion = ir.ProtocolVersion
		if ir.ServerInfo != nil {
			if l.serverInfo, err = json.Marshal(ir.ServerInfo); err != nil {
				return nil, fmt.Errorf("serverInfo: %w", err)
			}
		}
	}
	seen := map[string]bool{}
	cursor := ""
	for page := 1; ; page++ {
		// The raw result is used even when the SDK could not decode it (or
		// dropped tools it deems invalid): the loader reports on the tools.
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		raw := rec.take()
		if raw == nil {
			if err == nil {
				err = errors.New("no response recorded")
			}
			return nil, fmt.Errorf("tools/list page %d: %w", page, err)
		}
		var result struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &result); err != nil {
			return nil, fmt.Errorf("tools/list page %d: %w", page, err)
		}
		l.tools = append(l.tools, result.Tools...)
		if result.NextCursor == "" {
			return l, nil
		}
		if seen[result.NextCursor] {
			return nil, fmt.Errorf("tools/list page %d: cursor %q repeats", page, result.NextCursor)
		}
		seen[result.NextCursor] = true
		cursor = result.NextCursor
	}
}

// format writes l as the stable listing file.
func (l *listing) format() ([]byte, error) {
	decode := func(raw []byte) (any, error) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // keep numbers as the server wrote them
		var v any
		err := dec.Decode(&v)
		return v, err
	}
	values := make([]any, len(l.tools))
	for i, raw := range l.tools {
		var err error
		if values[i], err = decode(raw); err != nil {
			return nil, fmt.Errorf("tool %d: %w", i, err)
		}
	}
	name := func(v any) string {
		m, _ := v.(map[string]any)
		s, _ := m["name"].(string)
		return s
	}
	slices.SortStableFunc(values, func(a, b any) int { return strings.Compare(name(a), name(b)) })
	doc := map[string]any{"tools": values}
	if l.serverInfo != nil {
		v, err := decode(l.serverInfo)
		if err != nil {
			return nil, fmt.Errorf("serverInfo: %w", err)
		}
		doc["serverInfo"] = v
	}
	if l.protocolVersion != "" {
		doc["protocolVersion"] = l.protocolVersion
	}
	if l.transport != "" {
		doc["transport"] = l.transport
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	// Maps are encoded with sorted keys.
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// recordingTransport wraps a transport so that the raw result of every
// tools/list call is kept: the SDK's mcp.Tool drops fields it does not know
// (such as execution), and a listing must keep what the server sent.
type recordingTransport struct {
	mcp.Transport

	mu      sync.Mutex
	pending map[jsonrpc.ID]bool
	results []json.RawMessage
}

// Connect implements mcp.Transport.
func (t *recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: conn, t: t}, nil
}

// take returns the result of the last tools/list call recorded since the
// previous take, or nil.
func (t *recordingTransport) take() json.RawMessage {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.results) == 0 {
		return nil
	}
	r := t.results[len(t.results)-1]
	t.results = nil
	return r
}

type recordingConn struct {
	mcp.Connection
	t *recordingTransport
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" && req.ID.IsValid() {
		c.t.mu.Lock()
		c.t.pending[req.ID] = true
		c.t.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.t.mu.Lock()
		if c.t.pending[resp.ID] {
			delete(c.t.pending, resp.ID)
			if resp.Error == nil {
				c.t.results = append(c.t.results, bytes.Clone(resp.Result))
			}
		}
		c.t.mu.Unlock()
	}
	return msg, err
}

// statusRecorder is an http.RoundTripper that notes whether a POST was
// answered with a 4xx status.
type statusRecorder struct {
	next http.RoundTripper

	mu       sync.Mutex
	rejected bool
}

func (r *statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost && resp.StatusCode >= 400 && resp.StatusCode < 500 {
		r.mu.Lock()
		r.rejected = true
		r.mu.Unlock()
	}
	return resp, err
}

func (r *statusRecorder) rejectedPost() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rejected
}

// tailBuffer keeps the last 2 KiB written to it (a server's stderr, for
// error messages). It is safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2048

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailSize {
		b.buf = b.buf[len(b.buf)-tailSize:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
