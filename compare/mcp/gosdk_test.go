package mcp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestGoSDKMemory(t *testing.T) {
	ctx := context.Background()
	from, to := memoryServer(t), memoryServer(t)
	entity := map[string]any{"name": "opsgen", "entityType": "project", "observations": []string{"generates Go clients"}}
	if _, err := from.CallTool(ctx, &mcp.CallToolParams{Name: "create_entities", Arguments: map[string]any{"entities": []any{entity}}}); err != nil {
		t.Fatal(err)
	}
	// The result is structured content of type any: pass it on by key.
	g, err := from.CallTool(ctx, &mcp.CallToolParams{Name: "read_graph", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	entities := g.StructuredContent.(map[string]any)["entities"]
	created, err := to.CallTool(ctx, &mcp.CallToolParams{Name: "create_entities", Arguments: map[string]any{"entities": entities}})
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Entities []struct{ Observations []string }
	}
	b, _ := json.Marshal(created.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Entities) != 1 || out.Entities[0].Observations[0] != "generates Go clients" {
		t.Fatalf("copied: %s %v", b, err)
	}
}

func TestGoSDKFilesystem(t *testing.T) {
	ctx := context.Background()
	cs, dir := fsServer(t)
	path := filepath.Join(dir, "note.txt")
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{"path": path, "content": "hello"}}); err != nil {
		t.Fatal(err)
	}
	got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": path}})
	if err != nil {
		t.Fatal(err)
	}
	if content, _ := got.StructuredContent.(map[string]any)["content"].(string); content != "hello" {
		t.Fatalf("read: %v", got.StructuredContent)
	}
	// A path outside the allowed directory: the tool's isError result.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": "/etc/hostname"}})
	if err != nil || !res.IsError {
		t.Fatalf("outside: %v %v", res, err)
	}
}

func TestGoSDKEverything(t *testing.T) {
	ctx := context.Background()
	cs := connect(t, "server-everything", nil)
	sum, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-sum", Arguments: map[string]any{"a": 2, "b": 3}})
	if err != nil || len(sum.Content) != 1 {
		t.Fatalf("sum: %v %v", sum, err)
	}
	if text, ok := sum.Content[0].(*mcp.TextContent); !ok || !strings.Contains(text.Text, "5") {
		t.Fatalf("sum: %#v", sum.Content[0])
	}
	weather, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get-structured-content", Arguments: map[string]any{"location": "Chicago"}})
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Temperature float64
		Conditions  string
	}
	b, _ := json.Marshal(weather.StructuredContent)
	if err := json.Unmarshal(b, &w); err != nil || w.Conditions == "" || w.Temperature == 0 {
		t.Fatalf("weather: %s %v", b, err)
	}
}
