package mcpclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMayHaveUnknownBlock(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{`{"content":[{"type":"text","text":"a"},{"type":"image","data":"","mimeType":"x"}]}`, false},
		{`{"content":[{"type":"text","text":"{\"type\":\"hologram\"}"}]}`, false}, // escaped: inside a string
		{`{"content":[{"type" : "resource_link"}]}`, false},
		{`{"content":[{"type":"hologram"}]}`, true},
		{`{"structuredContent":{"type":"object"}}`, true}, // conservative
		{`{"content":[{"type":1}]}`, true},
		{`{"content":[{"type":"te\u0078t"}]}`, true},
		{`{"content":[{"type"`, true},
		{`{"tools":[]}`, false},
	} {
		if got := mayHaveUnknownBlock([]byte(tc.in)); got != tc.want {
			t.Errorf("mayHaveUnknownBlock(%s) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestRewriteResult(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"content":[{"type":"text","text":"a"},{"type":"hologram","frames":3}],"isError":false}`,
			`{"content":[{"type":"text","text":"a"},{"type":"text","text":"{\"type\":\"hologram\",\"frames\":3}"}],"isError":false}`},
		{`{"content":[ { "type" : "x" } , 7 ]}`,
			`{"content":[{"type":"text","text":"{\"type\":\"x\"}"},{"type":"text","text":"7"}]}`},
		{`{"content":[{"type":"tool_use","id":"1","name":"n","input":{}}]}`,
			`{"content":[{"type":"text","text":"{\"type\":\"tool_use\",\"id\":\"1\",\"name\":\"n\",\"input\":{}}"}]}`},
	} {
		got, changed := rewriteResult(json.RawMessage(tc.in))
		if !changed || !jsonEq(t, got, []byte(tc.want)) {
			t.Errorf("rewriteResult(%s) = %s, %v; want %s", tc.in, got, changed, tc.want)
		}
	}
	for _, in := range []string{
		`{"content":[{"type":"text","text":"a"}],"structuredContent":{"type":"object"}}`,
		`{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`,
		`not json "type":"x"`,
		`{"content":"type"}`,
	} {
		if got, changed := rewriteResult(json.RawMessage(in)); changed || string(got) != in {
			t.Errorf("rewriteResult(%s) = %s, %v; want it unchanged", in, got, changed)
		}
	}
}

func jsonEq(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		t.Fatalf("not JSON: %s / %s", a, b)
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

// TestRoundTripperRewrites checks both streamable HTTP body forms, read in
// one-byte pieces so that the SSE rewriter's buffering is exercised.
func TestRoundTripperRewrites(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"hologram"}]}}`
	const other = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"type":"hologram"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/json" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, msg)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message\nid: 1\ndata: "+other+"\n\ndata: "+msg+"\r\n\n")
	}))
	defer srv.Close()
	client := wrapHTTPClient(srv.Client())
	get := func(path string) string {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(iotest.OneByteReader(resp.Body))
		if err != nil {
			t.Fatal(err)
		}
		if resp.ContentLength >= 0 && resp.ContentLength != int64(len(b)) {
			t.Errorf("%s: ContentLength %d for %d bytes", path, resp.ContentLength, len(b))
		}
		return string(b)
	}
	const mapped = `{"type":"text","text":"{\"type\":\"hologram\"}"}`
	if got := get("/json"); !strings.Contains(got, mapped) {
		t.Errorf("JSON body = %s", got)
	}
	got := get("/sse")
	if !strings.HasPrefix(got, "event: message\nid: 1\ndata: "+other+"\n\ndata: ") || !strings.Contains(got, mapped) || !strings.HasSuffix(got, "}\r\n\n") {
		t.Errorf("SSE body = %q", got)
	}
}

func TestWrapTransport(t *testing.T) {
	st := &mcp.StreamableClientTransport{Endpoint: "http://x", MaxRetries: 3}
	w, ok := WrapTransport(st).(*mcp.StreamableClientTransport)
	if !ok || w == st || w.Endpoint != "http://x" || w.MaxRetries != 3 || w.HTTPClient == nil {
		t.Fatalf("WrapTransport(streamable) = %#v", w)
	}
	if st.HTTPClient != nil {
		t.Error("WrapTransport changed its argument")
	}
	if _, ok := w.HTTPClient.Transport.(*rewritingRoundTripper); !ok {
		t.Errorf("HTTP transport = %T", w.HTTPClient.Transport)
	}
	if _, ok := WrapTransport(&mcp.StdioTransport{}).(*rewritingTransport); !ok {
		t.Error("stdio transport not wrapped at the connection")
	}
}
