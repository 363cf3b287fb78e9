package mcpclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// headerServer serves, over stateless streamable HTTP (go-sdk's stateful
// handler speaks 2025-11-25 only), a go-sdk server with a tool
// whose input schema has x-mcp-header annotations (one nested). go-sdk's
// server rejects a 2026-07-28 tools/call whose Mcp-Param-* headers do not
// match its arguments; the tool returns the headers it received.
func headerServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{
		Name: "route",
		InputSchema: json.RawMessage(`{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"},
			"shard":{"type":"integer","x-mcp-header":"Shard"},
			"dry":{"type":"boolean","x-mcp-header":"Dry"},
			"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
			"note":{"type":"string"}}}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		got := map[string]string{}
		for k, v := range req.Extra.Header {
			if strings.HasPrefix(k, "Mcp-Param-") {
				got[k] = strings.Join(v, ",")
			}
		}
		b, _ := json.Marshal(got)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var toolRoute = &mcpclient.Tool{Name: "route", ParamHeaders: []mcpclient.ParamHeader{
	{Path: []string{"dry"}, Header: "Dry"},
	{Path: []string{"region"}, Header: "Region"},
	{Path: []string{"shard"}, Header: "Shard"},
	{Path: []string{"target", "zone"}, Header: "Zone"},
}}

// TestParamHeaders: on a 2026-07-28 streamable HTTP session, Call sends
// the annotated arguments as Mcp-Param-* headers, encoded as SEP-2243
// says; on a 2025-11-25 session (go-sdk's default) it sends none.
func TestParamHeaders(t *testing.T) {
	ctx := context.Background()
	url := headerServer(t)
	cases := []struct {
		name string
		args any
		want map[string]string
	}{
		{"ascii", map[string]any{"region": "eu-west-1", "shard": 42, "dry": true, "note": "n"},
			map[string]string{"Mcp-Param-Region": "eu-west-1", "Mcp-Param-Shard": "42", "Mcp-Param-Dry": "true"}},
		{"non-ASCII and nested", map[string]any{"region": "Zürich", "shard": -7, "target": map[string]any{"zone": " b "}},
			map[string]string{"Mcp-Param-Region": "=?base64?WsO8cmljaA==?=", "Mcp-Param-Shard": "-7", "Mcp-Param-Zone": "=?base64?IGIg?="}},
		{"sentinel-looking string", map[string]any{"region": "=?base64?x?="},
			map[string]string{"Mcp-Param-Region": "=?base64?PT9iYXNlNjQ/eD89?="}},
		{"absent and null", map[string]any{"region": nil, "note": "only"}, map[string]string{}},
	}
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			cs, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url},
				&mcpclient.ConnectOptions{Session: &mcp.ClientSessionOptions{ProtocolVersion: version}})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %q, want %q", got, version)
			}
			c := mcpclient.New(cs, quiet)
			for _, tc := range cases {
				env, err := mcpclient.Call[string](ctx, c, toolRoute, tc.args)
				if err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				var got map[string]string
				if err := json.Unmarshal([]byte(env.Data), &got); err != nil {
					t.Fatalf("%s: %v: %q", tc.name, err, env.Data)
				}
				want := tc.want
				if version < "2026-07-28" {
					want = map[string]string{}
				}
				if len(got) != len(want) {
					t.Errorf("%s: headers %v, want %v", tc.name, got, want)
				}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s: %s = %q, want %q (all: %v)", tc.name, k, got[k], v, got)
					}
				}
			}
			// Without the annotations (go-sdk has no listing to take them
			// from), a 2026-07-28 server rejects the call: the headers are
			// what made it pass.
			bare := &mcpclient.Tool{Name: "route"}
			_, err = mcpclient.Call[string](ctx, c, bare, map[string]any{"region": "eu-west-1"})
			if version >= "2026-07-28" && (err == nil || !strings.Contains(err.Error(), "Mcp-Param-Region")) {
				t.Errorf("call without ParamHeaders: err = %v, want the server's header mismatch", err)
			}
			if version < "2026-07-28" && err != nil {
				t.Errorf("call without ParamHeaders: %v", err)
			}
		})
	}
}
