package mcpclient

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ConnectOptions configures Connect. A nil *ConnectOptions is the zero
// value.
type ConnectOptions struct {
	// Name and Version identify the client to the server (the clientInfo
	// of initialize). The defaults are "opsgen" and the version of the
	// opsgen module the program is built with ("devel" when it has none).
	Name, Version string
	// Client configures go-sdk's client: handlers (elicitation, sampling,
	// progress, logging...), capabilities, keepalive. Nil means go-sdk's
	// defaults.
	Client *mcp.ClientOptions
	// Session configures the session, such as the protocol version to ask
	// for. Nil means go-sdk's defaults.
	Session *mcp.ClientSessionOptions
	// Middleware is added to the client's sending middleware (see go-sdk's
	// Client.AddSendingMiddleware): it sees every request of the session,
	// not only tools/call (for those, see WithMiddleware).
	Middleware []mcp.Middleware
	// OnListingChanged, when set, watches the server's tool listing for
	// the life of the session: when the server says it changed
	// (notifications/tools/list_changed, which go-sdk asks a 2026-07-28
	// server for on a subscriptions/listen stream), every page is listed
	// again and, if the listing differs from the one last reported, the
	// hook gets its differences from the baseline, classified by mcpdiff
	// as compatible or breaking for the generated client. When the
	// server's list results have a ttlMs (2026-07-28), the listing is also
	// read again each time it goes stale, so that a server that changes
	// its tools without saying so is watched too. Connect lists the tools
	// once more. The hook runs on one goroutine, one call at a time.
	OnListingChanged ListingHook
	// Input answers the server's requests for input (elicitation forms,
	// sampling) in every form the protocols have: see Input. go-sdk
	// handlers set in Client win over it.
	Input *Input
	// NoTasks keeps the client from declaring the tasks extension
	// (io.modelcontextprotocol/tasks) to 2026-07-28 servers, which then
	// never answer a call with a task. By default the client declares it,
	// and Call follows the tasks servers make of its calls (see the
	// package doc).
	NoTasks bool
	// Listing is the baseline of OnListingChanged: the listing file the
	// client was generated from (as opsgen mcp snapshot wrote it). Nil
	// means the listing when the session opened.
	Listing []byte
}

// Connect connects a new go-sdk client to the server at the other end of t,
// through WrapTransport, so that results with content blocks of unknown
// types reach Call instead of failing in the SDK, and progress
// notifications reach WithProgress. Sessions used with Call should be made
// with Connect (or with a transport from WrapTransport). opts may be nil.
func Connect(ctx context.Context, t mcp.Transport, opts *ConnectOptions) (*mcp.ClientSession, error) {
	if opts == nil {
		opts = &ConnectOptions{}
	}
	impl := &mcp.Implementation{Name: opts.Name, Version: opts.Version}
	if impl.Name == "" {
		impl.Name = "opsgen"
	}
	if impl.Version == "" {
		impl.Version = moduleVersion()
	}
	watch, err := newListingWatch(opts)
	if err != nil {
		return nil, err
	}
	clientOpts := opts.Client
	if opts.Input != nil {
		clientOpts = opts.Input.install(clientOpts)
	}
	if watch != nil {
		clientOpts = watch.clientOptions(clientOpts)
	}
	if !opts.NoTasks {
		clientOpts = withTaskCapability(clientOpts)
	}
	client := mcp.NewClient(impl, clientOpts)
	registerTaskMethods(client)
	if len(opts.Middleware) > 0 {
		client.AddSendingMiddleware(opts.Middleware...)
	}
	cs, err := client.Connect(ctx, WrapTransport(t), opts.Session)
	if err != nil {
		return cs, err
	}
	rememberInputs(cs, clientOpts)
	if watch == nil {
		return cs, nil
	}
	if err := watch.start(ctx, cs); err != nil {
		cs.Close()
		return nil, err
	}
	return cs, nil
}

// moduleVersion is the version of opsgen's module in the running binary.
var moduleVersion = sync.OnceValue(func() string {
	const module = "github.com/opsgen/opsgen"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == module && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			return bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == module && d.Version != "" && d.Version != "(devel)" {
				return d.Version
			}
		}
	}
	return "devel"
})

// WrapTransport returns a client transport that reads the progress
// notifications it receives for calls made with WithProgress, and rewrites
// the JSON-RPC responses it receives: a content block inside a result whose type is not
// one of text, image, audio, resource or resource_link becomes
// {"type":"text","text":"<the block's JSON>"}, the seeds' mapping. go-sdk's
// CallTool rejects unknown block types ("unrecognized content type"); after
// the rewrite such a result is an ordinary one.
//
// Only responses are touched (a result's top-level "content" array, which
// among server-to-client results only tools/call has), and a cheap scan
// skips responses that have no unknown "type" at all.
//
// For a *mcp.StreamableClientTransport the rewrite happens in its HTTP
// client (JSON bodies and SSE "data:" lines), because go-sdk only informs its
// own streamable connection of session changes. Every other transport is
// wrapped at the connection level.
func WrapTransport(t mcp.Transport) mcp.Transport {
	if st, ok := t.(*mcp.StreamableClientTransport); ok {
		cp := *st
		cp.HTTPClient = wrapHTTPClient(st.HTTPClient)
		return &cp
	}
	return &rewritingTransport{t}
}

type rewritingTransport struct{ mcp.Transport }

func (t *rewritingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rewritingConn{c}, nil
}

type rewritingConn struct{ mcp.Connection }

func (c *rewritingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		return msg, err
	}
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result != nil {
		r.Result, _ = rewriteResult(r.Result)
		r.Result, _ = rewriteTaskResult(r.Result)
	} else {
		dispatchProgress(msg)
	}
	return msg, err
}

func (c *rewritingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok {
		rewriteTaskRequest(r)
	}
	return c.Connection.Write(ctx, msg)
}

// knownBlockType reports whether t is a content block type of the runtime.
func knownBlockType(t []byte) bool {
	switch string(t) {
	case "text", "image", "audio", "resource", "resource_link":
		return true
	}
	return false
}

// mayHaveUnknownBlock reports whether b, a JSON text, might hold an object
// whose "type" is not a known block type. It is conservative: anything it
// cannot read quickly counts as maybe.
func mayHaveUnknownBlock(b []byte) bool {
	key := []byte(`"type"`)
	for {
		i := bytes.Index(b, key)
		if i < 0 {
			return false
		}
		b = skipSpace(b[i+len(key):])
		if len(b) == 0 || b[0] != ':' {
			return true
		}
		b = skipSpace(b[1:])
		if len(b) == 0 || b[0] != '"' {
			return true
		}
		b = b[1:]
		end := bytes.IndexAny(b, `"\`)
		if end < 0 || b[end] == '\\' || !knownBlockType(b[:end]) {
			return true
		}
		b = b[end+1:]
	}
}

func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// rewriteResult maps unknown blocks of result's "content" array to text
// blocks holding their JSON. It returns result itself when nothing changed.
func rewriteResult(result json.RawMessage) (json.RawMessage, bool) {
	if !mayHaveUnknownBlock(result) {
		return result, false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(result, &fields) != nil {
		return result, false
	}
	var blocks []json.RawMessage
	if json.Unmarshal(fields["content"], &blocks) != nil {
		return result, false
	}
	changed := false
	for i, b := range blocks {
		var probe struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(b, &probe) == nil && knownBlockType([]byte(probe.Type)) {
			continue
		}
		var text bytes.Buffer
		if json.Compact(&text, b) != nil {
			continue
		}
		blocks[i], _ = json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{"text", text.String()})
		changed = true
	}
	if !changed {
		return result, false
	}
	fields["content"], _ = json.Marshal(blocks)
	out, err := json.Marshal(fields)
	if err != nil {
		return result, false
	}
	return out, true
}

// rewriteMessage applies rewriteResult to a JSON-RPC message on the wire,
// reporting whether it changed.
func rewriteMessage(data []byte) ([]byte, bool) {
	if !mayHaveUnknownBlock(data) && !bytes.Contains(data, []byte(`"taskId"`)) {
		return data, false
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return data, false
	}
	r, ok := msg.(*jsonrpc.Response)
	if !ok || r.Result == nil {
		return data, false
	}
	var blocks, handle bool
	r.Result, blocks = rewriteResult(r.Result)
	r.Result, handle = rewriteTaskResult(r.Result)
	if !blocks && !handle {
		return data, false
	}
	out, err := jsonrpc.EncodeMessage(r)
	if err != nil {
		return data, false
	}
	return out, true
}

func wrapHTTPClient(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	cp := *c
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	cp.Transport = &rewritingRoundTripper{base}
	return &cp
}

// rewritingRoundTripper applies rewriteMessage to the JSON-RPC messages of
// streamable HTTP responses: a JSON body, or each SSE data line.
type rewritingRoundTripper struct{ base http.RoundTripper }

func (rt *rewritingRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost && req.Body != nil {
		body, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		out := rewriteTaskBody(body)
		changed := len(out) != len(body) || !bytes.Equal(out, body)
		extra := paramHeaders(req, out)
		if changed || extra != nil {
			req = req.Clone(req.Context())
			body = out
			req.ContentLength = int64(len(body))
			for k, v := range extra {
				req.Header[k] = v
			}
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := rt.base.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mt {
	case "application/json":
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		body, _ = rewriteMessage(body)
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Del("Content-Length")
	case "text/event-stream":
		resp.Body = &sseRewriter{r: bufio.NewReader(resp.Body), c: resp.Body}
		resp.ContentLength = -1 // rewritten lines change the length
		resp.Header.Del("Content-Length")
	}
	return resp, nil
}

// sseRewriter passes an event stream through line by line, rewriting the
// JSON-RPC message of each single-line "data:" field (go-sdk writes each
// message on one line) and dispatching the progress notifications among
// them.
type sseRewriter struct {
	r   *bufio.Reader
	c   io.Closer
	buf []byte
	err error
}

func (s *sseRewriter) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		line, err := s.r.ReadBytes('\n')
		s.err = err
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = bytes.TrimPrefix(data, []byte(" "))
			msg := bytes.TrimRight(data, "\r\n")
			if activeSinks.Load() > 0 && bytes.Contains(msg, []byte(methodProgress)) {
				if m, err := jsonrpc.DecodeMessage(msg); err == nil {
					dispatchProgress(m)
				}
			}
			if out, changed := rewriteMessage(msg); changed {
				line = slices.Concat([]byte("data: "), out, data[len(msg):])
			}
		}
		s.buf = line
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *sseRewriter) Close() error { return s.c.Close() }
