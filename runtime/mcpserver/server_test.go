package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// connect opens an in-memory session to srv, at protocol version (""
// for go-sdk's newest).
func connect(t *testing.T, srv *mcpserver.Server, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// register registers a local operation, failing the test on error.
func register(t *testing.T, reg *runtime.Registry, spec runtime.OperationSpec, h runtime.Handler) {
	t.Helper()
	if h == nil {
		h = func(context.Context, json.RawMessage) (any, error) { return map[string]any{}, nil }
	}
	if err := reg.Register(spec, h); err != nil {
		t.Fatal(err)
	}
}

func newServer(t *testing.T, reg *runtime.Registry, opts *mcpserver.Options) *mcpserver.Server {
	t.Helper()
	srv, err := mcpserver.New(reg, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestToolNames(t *testing.T) {
	reg := runtime.NewRegistry(nil)
	long := "ns." + strings.Repeat("x", 80)
	long2 := "ns." + strings.Repeat("x", 79) + "y"
	for _, id := range []string{"a.b_c", "a_b.c", "a_b.c_2", "pets.get-pet", long, long2, "z.custom"} {
		register(t, reg, runtime.OperationSpec{ID: id}, nil)
	}
	srv := newServer(t, reg, nil)
	want := map[string]string{
		"a.b_c":        "a_b_c",
		"a_b.c":        "a_b_c_3", // a_b_c_2 is the own name of a_b.c_2
		"a_b.c_2":      "a_b_c_2",
		"pets.get-pet": "pets_get-pet",
	}
	for id, name := range want {
		if got, ok := srv.ToolName(id); !ok || got != name {
			t.Errorf("ToolName(%s) = %q, %v; want %q", id, got, ok, name)
		}
	}
	n1, _ := srv.ToolName(long)
	n2, _ := srv.ToolName(long2)
	if len(n1) != 64 || len(n2) != 64 || n1 == n2 || !strings.HasPrefix(n1, "ns_xxx") {
		t.Errorf("long ids: %q, %q; want distinct 64-character names", n1, n2)
	}

	// A custom ToolName: invalid characters replaced, collisions suffixed,
	// the same names whatever the order of registration.
	custom := func(spec runtime.OperationSpec) string {
		if spec.ID == "z.custom" {
			return "my tool/ü"
		}
		return "same"
	}
	srv = newServer(t, reg, &mcpserver.Options{ToolName: custom, Include: func(s runtime.OperationSpec) bool { return !strings.HasPrefix(s.ID, "ns.") }})
	var names []string
	for _, tl := range srv.Tools() {
		names = append(names, tl.Name)
	}
	if want := []string{"my_tool__", "same", "same_2", "same_3", "same_4"}; !reflect.DeepEqual(names, want) {
		t.Errorf("custom names = %q, want %q", names, want)
	}
	if got, _ := srv.ToolName("a.b_c"); got != "same" {
		t.Errorf("first id in order got %q, want same", got)
	}
	if _, ok := srv.ToolName(long); ok {
		t.Errorf("excluded operation is served")
	}
}

func TestToolListing(t *testing.T) {
	reg := runtime.NewRegistry(nil)
	yes, no := true, false
	register(t, reg, runtime.OperationSpec{ID: "h.get", Method: "GET", Description: "Read it.", Deprecated: true,
		InputSchema:  json.RawMessage(`{"$defs":{"In":{"type":"object","properties":{"q":{"type":"string"}}}},"$ref":"#/$defs/In"}`),
		OutputSchema: json.RawMessage(`{"$defs":{"Out":{"type":"object","properties":{"n":{"type":"integer"}}}},"$ref":"#/$defs/Out"}`),
	}, nil)
	register(t, reg, runtime.OperationSpec{ID: "h.put", Method: "put"}, nil)
	register(t, reg, runtime.OperationSpec{ID: "h.delete", Method: "DELETE"}, nil)
	register(t, reg, runtime.OperationSpec{ID: "h.post", Method: "POST", OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"string"}}`)}, nil)
	register(t, reg, runtime.OperationSpec{ID: "m.tool", Title: "A tool", Hints: &runtime.OperationHints{ReadOnly: &no, Destructive: &no, OpenWorld: &yes}}, nil)
	register(t, reg, runtime.OperationSpec{ID: "l.plain"}, nil)
	srv := newServer(t, reg, nil)

	for _, version := range []string{"", "2025-11-25"} {
		cs := connect(t, srv, version)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, tl := range res.Tools {
			b, _ := json.Marshal(tl)
			got[tl.Name] = string(b)
		}
		want := map[string]string{
			"h_get":    `{"annotations":{"idempotentHint":true,"readOnlyHint":true},"description":"Read it.\n\nDeprecated: the API marks this operation as deprecated.","inputSchema":{"$defs":{"In":{"properties":{"q":{"type":"string"}},"type":"object"}},"$ref":"#/$defs/In","type":"object"},"name":"h_get","outputSchema":{"$defs":{"Out":{"properties":{"n":{"type":"integer"}},"type":"object"}},"$ref":"#/$defs/Out","type":"object"}}`,
			"h_put":    `{"annotations":{"idempotentHint":true,"readOnlyHint":false},"inputSchema":{"type":"object"},"name":"h_put"}`,
			"h_delete": `{"annotations":{"destructiveHint":true,"idempotentHint":true,"readOnlyHint":false},"inputSchema":{"type":"object"},"name":"h_delete"}`,
			"h_post":   `{"annotations":{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false},"inputSchema":{"type":"object"},"name":"h_post","outputSchema":{"items":{"type":"string"},"type":"array"}}`,
			"m_tool":   `{"annotations":{"destructiveHint":false,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false},"inputSchema":{"type":"object"},"name":"m_tool","title":"A tool"}`,
			"l_plain":  `{"inputSchema":{"type":"object"},"name":"l_plain"}`,
		}
		if version != "" {
			// Before 2026-07-28 output schemas must be objects.
			want["h_post"] = `{"annotations":{"destructiveHint":false,"idempotentHint":false,"readOnlyHint":false},"inputSchema":{"type":"object"},"name":"h_post"}`
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("protocol %q: tool %s =\n%s\nwant\n%s", version, name, got[name], w)
			}
		}
		if len(got) != len(want) {
			t.Errorf("protocol %q: %d tools, want %d", version, len(got), len(want))
		}
	}

	// An input that is not an object cannot be a tool.
	bad := runtime.NewRegistry(nil)
	register(t, bad, runtime.OperationSpec{ID: "x.list", InputSchema: json.RawMessage(`{"type":"array"}`)}, nil)
	_, err := mcpserver.New(bad, nil)
	if err == nil || !strings.Contains(err.Error(), "x.list") || !strings.Contains(err.Error(), "array") {
		t.Errorf("New with an array input: %v", err)
	}
	if _, err := mcpserver.New(bad, &mcpserver.Options{Include: func(s runtime.OperationSpec) bool { return s.ID != "x.list" }}); err != nil {
		t.Errorf("New excluding it: %v", err)
	}
}

// call calls a tool, failing the test on a protocol error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "|")
}

func structured(res *mcp.CallToolResult) string {
	if res.StructuredContent == nil {
		return ""
	}
	b, _ := json.Marshal(res.StructuredContent)
	return string(b)
}

func TestResults(t *testing.T) {
	reg := runtime.NewRegistry(&runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)})
	register(t, reg, runtime.OperationSpec{ID: "l.object", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string","default":"x"}}}`)},
		func(ctx context.Context, in json.RawMessage) (any, error) {
			return map[string]any{"n": 1, "extra": true}, nil // normalized: extra dropped, default filled
		})
	register(t, reg, runtime.OperationSpec{ID: "l.drift", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		func(ctx context.Context, in json.RawMessage) (any, error) { return map[string]any{"n": "one"}, nil })
	register(t, reg, runtime.OperationSpec{ID: "l.array", OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"integer"}}`)},
		func(ctx context.Context, in json.RawMessage) (any, error) { return []int{1, 2}, nil })
	register(t, reg, runtime.OperationSpec{ID: "l.fail"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return nil, errors.New("disk full")
	})
	register(t, reg, runtime.OperationSpec{ID: "l.panic"}, func(ctx context.Context, in json.RawMessage) (any, error) { panic("boom") })
	register(t, reg, runtime.OperationSpec{ID: "l.strict", InputSchema: json.RawMessage(`{"type":"object","required":["n"],"properties":{"n":{"type":"integer"}}}`)}, nil)
	register(t, reg, runtime.OperationSpec{ID: "m.error"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return opsgenimpl.MCP[any]([]runtime.ContentBlock{runtime.TextBlock("upstream says no")}, runtime.MCPMeta{
			IsError: true, Content: []runtime.ContentBlock{runtime.TextBlock("upstream says no")}, Meta: map[string]any{"trace": "t1"},
		}), nil
	})
	register(t, reg, runtime.OperationSpec{ID: "m.typed", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		func(ctx context.Context, in json.RawMessage) (any, error) {
			return opsgenimpl.MCP[any](map[string]any{"n": 2, "dropped": 1}, runtime.MCPMeta{
				Content:           []runtime.ContentBlock{runtime.TextBlock(`{"n":2,"dropped":1}`), {Type: runtime.ContentImage, Data: "AAEC", MIMEType: "image/png"}},
				StructuredContent: json.RawMessage(`{"n":2,"dropped":1}`),
			}), nil
		})
	register(t, reg, runtime.OperationSpec{ID: "m.untyped"}, func(ctx context.Context, in json.RawMessage) (any, error) {
		return opsgenimpl.MCP[any]([]runtime.ContentBlock{runtime.TextBlock("hi")}, runtime.MCPMeta{
			Content: []runtime.ContentBlock{runtime.TextBlock("hi")}, StructuredContent: json.RawMessage(`[1]`),
		}), nil
	})
	srv := newServer(t, reg, nil)
	cs := connect(t, srv, "")

	res := call(t, cs, "l_object", nil)
	if res.IsError || structured(res) != `{"n":1,"s":"x"}` || text(res) != `{"n":1,"s":"x"}` {
		t.Errorf("l_object: isError %v, structured %s, text %s", res.IsError, structured(res), text(res))
	}
	res = call(t, cs, "l_array", nil)
	if structured(res) != `[1,2]` || text(res) != `[1,2]` {
		t.Errorf("l_array: structured %s, text %s", structured(res), text(res))
	}
	res = call(t, cs, "l_fail", nil)
	if !res.IsError || text(res) != "EXECUTION_ERROR l.fail: disk full" || res.Meta[mcpserver.MetaError].(map[string]any)["message"] != "disk full" {
		t.Errorf("l_fail: %v %q %v", res.IsError, text(res), res.Meta)
	}
	res = call(t, cs, "l_panic", nil)
	if !res.IsError || text(res) != "EXECUTION_ERROR l.panic: handler panicked: boom" {
		t.Errorf("l_panic: %v %q", res.IsError, text(res))
	}
	res = call(t, cs, "l_strict", map[string]any{"n": "one"})
	issues, _ := res.Meta[mcpserver.MetaError].(map[string]any)["issues"].([]any)
	if !res.IsError || !strings.HasPrefix(text(res), "VALIDATION_ERROR l.strict: invalid input: /n: ") || len(issues) != 1 {
		t.Errorf("l_strict: %v %q %v", res.IsError, text(res), res.Meta)
	}
	res = call(t, cs, "m_error", nil)
	if !res.IsError || text(res) != "upstream says no" || res.Meta["trace"] != "t1" || res.StructuredContent != nil {
		t.Errorf("m_error: %v %q %v %v", res.IsError, text(res), res.Meta, res.StructuredContent)
	}
	res = call(t, cs, "m_typed", nil)
	// A typed MCP envelope passes through the Registry as it is (the
	// pipeline's detect step: its transport already checked it).
	if res.IsError || structured(res) != `{"dropped":1,"n":2}` || len(res.Content) != 2 || text(res) != `{"n":2,"dropped":1}` {
		t.Errorf("m_typed: %v %s %d %q", res.IsError, structured(res), len(res.Content), text(res))
	}
	if img, ok := res.Content[1].(*mcp.ImageContent); !ok || string(img.Data) != "\x00\x01\x02" {
		t.Errorf("m_typed image block = %#v", res.Content[1])
	}
	res = call(t, cs, "m_untyped", nil)
	if structured(res) != `[1]` || text(res) != "hi" {
		t.Errorf("m_untyped: %s %q", structured(res), text(res))
	}

	// Protocol errors stay protocol errors.
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != jsonrpc.CodeInvalidParams || !strings.Contains(werr.Message, "unknown tool") {
		t.Errorf("unknown tool: %v", err)
	}

	// Sessions older than 2026-07-28 get object structured content only.
	old := connect(t, srv, "2025-11-25")
	if res := call(t, old, "l_array", nil); res.StructuredContent != nil || text(res) != "[1,2]" {
		t.Errorf("l_array at 2025-11-25: structured %s, text %s", structured(res), text(res))
	}
	if res := call(t, old, "l_object", nil); structured(res) != `{"n":1,"s":"x"}` {
		t.Errorf("l_object at 2025-11-25: structured %s", structured(res))
	}

	// IncludeMeta: the envelope's meta and warnings go to _meta.
	withMeta := connect(t, newServer(t, reg, &mcpserver.Options{IncludeMeta: true}), "")
	res = call(t, withMeta, "l_drift", nil)
	m, _ := res.Meta[mcpserver.MetaEnvelope].(map[string]any)
	if m["source"] != "local" || m["operationId"] != "l.drift" {
		t.Errorf("IncludeMeta: _meta = %v", res.Meta)
	}
	if ws, _ := res.Meta[mcpserver.MetaWarnings].([]any); len(ws) != 1 || !strings.Contains(fmt.Sprint(ws), "/n") {
		t.Errorf("IncludeMeta: warnings = %v", res.Meta[mcpserver.MetaWarnings])
	}
}

func TestListTTL(t *testing.T) {
	reg := runtime.NewRegistry(nil)
	register(t, reg, runtime.OperationSpec{ID: "a.b"}, nil)
	for _, tc := range []struct {
		ttl  time.Duration
		want int
	}{{0, int(mcpserver.DefaultListTTL.Milliseconds())}, {time.Minute, 60000}, {-1, 0}} {
		cs := connect(t, newServer(t, reg, &mcpserver.Options{ListTTL: tc.ttl}), "")
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil || res.TTLMs != tc.want || res.CacheScope != "public" || len(res.Tools) != 1 {
			t.Errorf("ListTTL %v: ttlMs %d, cacheScope %q, %v", tc.ttl, res.TTLMs, res.CacheScope, err)
		}
	}
}
