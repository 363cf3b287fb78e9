package mcpclient_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/generator/mcptools"
	"github.com/opsgen/opsgen/internal/testdeps"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// The reference MCP servers (npm @modelcontextprotocol/server-everything,
// server-memory and server-filesystem, pinned by scripts/mcp-servers.sh)
// are run over stdio from the module's .work/mcp-servers, where `make
// mcp-servers` (part of `make test`) installs them. Without them the tests
// skip (and fail under CI); they never install anything themselves.

// referenceServer returns the path of a reference server's executable.
func referenceServer(t *testing.T, name string) string {
	t.Helper()
	return testdeps.MCPServer(t, name)
}

// connectReference starts a reference server over stdio.
func connectReference(t *testing.T, argv []string, env ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcpclient.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second},
		&mcpclient.ConnectOptions{Name: "opsgen-reference-test", Version: "1.2.3"})
	if err != nil {
		t.Fatalf("connect %v: %v", argv, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// referenceListing snapshots a reference server and loads the listing as
// opsgen generate would, returning the listing and the loader's warnings.
func referenceListing(t *testing.T, argv []string, caps string, env ...string) (listing struct {
	ProtocolVersion string
	ServerInfo      struct{ Name, Title, Version string }
	Tools           []map[string]any
}, warnings []string) {
	t.Helper()
	opts := mcpsnapshot.SnapshotOptions{Command: argv, Env: env, Timeout: time.Minute}
	if caps != "" {
		var err error
		if opts.Capabilities, err = mcpsnapshot.ParseCapabilities(caps); err != nil {
			t.Fatal(err)
		}
	}
	data, err := mcpsnapshot.Snapshot(context.Background(), opts)
	if err != nil {
		t.Fatalf("snapshot %v: %v", argv, err)
	}
	if err := json.Unmarshal(data, &listing); err != nil {
		t.Fatal(err)
	}
	svc, diags, err := mcptools.LoadData(context.Background(), data, "tools.json", mcptools.LoadOptions{})
	if err != nil {
		t.Fatalf("loading the listing of %v: %v", argv, err)
	}
	if len(svc.Operations) != len(listing.Tools) || svc.ServerName != listing.ServerInfo.Name {
		t.Errorf("%d operations for %d tools; server %q", len(svc.Operations), len(listing.Tools), svc.ServerName)
	}
	for _, d := range diags {
		warnings = append(warnings, d.String())
	}
	return listing, warnings
}

func toolNamesOf(tools []map[string]any) []string {
	var names []string
	for _, t := range tools {
		names = append(names, t["name"].(string))
	}
	return names
}

func TestReferenceEverything(t *testing.T) {
	argv := []string{referenceServer(t, "server-everything"), "stdio"}

	t.Run("snapshot", func(t *testing.T) {
		plain, warnings := referenceListing(t, argv, "")
		if plain.ServerInfo.Name != "mcp-servers/everything" || plain.ServerInfo.Version == "" || plain.ProtocolVersion == "" {
			t.Errorf("serverInfo %+v, protocol %q", plain.ServerInfo, plain.ProtocolVersion)
		}
		// The one task-only tool is reported, at its place.
		if len(warnings) != 1 || !strings.Contains(warnings[0], "/execution/taskSupport") || !strings.Contains(warnings[0], `"simulate-research-query"`) {
			t.Errorf("warnings: %q", warnings)
		}
		all, _ := referenceListing(t, argv, "roots,sampling,elicitation")
		names, allNames := toolNamesOf(plain.Tools), toolNamesOf(all.Tools)
		// Tools the server lists only to clients that can be asked for a
		// sample or an elicitation.
		for _, gated := range []string{"trigger-sampling-request", "trigger-elicitation-request"} {
			if slices.Contains(names, gated) || !slices.Contains(allNames, gated) {
				t.Errorf("%s: listed by default %v, with -capabilities %v", gated, slices.Contains(names, gated), slices.Contains(allNames, gated))
			}
		}
		if len(allNames) <= len(names) {
			t.Errorf("%d tools with all capabilities, %d without", len(allNames), len(names))
		}
	})

	cs := connectReference(t, argv)
	c := mcpclient.New(cs)

	t.Run("progress", func(t *testing.T) {
		var got []mcpclient.Progress
		tool := &mcpclient.Tool{Name: "trigger-long-running-operation"}
		env, err := mcpclient.Call[string](context.Background(), c, tool, map[string]any{"duration": 0.5, "steps": 5},
			mcpclient.WithProgress(func(_ context.Context, p mcpclient.Progress) { got = append(got, p) }))
		if err != nil || !strings.Contains(env.Data, "Steps: 5") {
			t.Fatalf("call: %q, %v", env.Data, err)
		}
		if len(got) != 5 {
			t.Fatalf("%d progress notifications, want 5: %+v", len(got), got)
		}
		for i, p := range got {
			if p.Progress != float64(i+1) || p.Total != 5 || p.Tool != tool.Name {
				t.Errorf("notification %d: %+v", i, p)
			}
		}
	})

	t.Run("structured", func(t *testing.T) {
		tool := &mcpclient.Tool{Name: "get-structured-content", OutputSchema: opsgenimpl.NewSchema(`{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"},"humidity":{"type":"number"}},"required":["temperature","conditions","humidity"]}`)}
		env, err := mcpclient.Call[map[string]any](context.Background(), c, tool, map[string]any{"location": "New York"})
		if err != nil || env.Data["conditions"] == nil || len(env.Warnings) != 0 {
			t.Errorf("get-structured-content: %v, %v, warnings %v", env.Data, err, env.Warnings)
		}
	})

	t.Run("task required", func(t *testing.T) {
		tool := &mcpclient.Tool{Name: "simulate-research-query", TaskSupport: "required"}
		env, err := mcpclient.Call[[]runtime.ContentBlock](context.Background(), c, tool, map[string]any{"topic": "Go"})
		// The server answers with an isError result that says why, and the
		// envelope has a warning saying what opsgen cannot do.
		if err != nil || !strings.Contains(mcpclient.AsError(env).Error(), "requires task augmentation") {
			t.Fatalf("a task-only tool called directly: %v, %v", err, mcpclient.AsError(env))
		}
		if len(env.Warnings) != 1 || !strings.Contains(env.Warnings[0].Message, "go-sdk v1.8.0 cannot make") {
			t.Errorf("warnings: %v", env.Warnings)
		}
	})
}

func TestReferenceMemory(t *testing.T) {
	argv := []string{referenceServer(t, "server-memory")}
	env := "MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "memory.jsonl")
	listing, warnings := referenceListing(t, argv, "", env)
	if len(warnings) != 0 || listing.ServerInfo.Name != "memory-server" || !slices.Contains(toolNamesOf(listing.Tools), "read_graph") {
		t.Errorf("listing of %q: %v, warnings %q", listing.ServerInfo.Name, toolNamesOf(listing.Tools), warnings)
	}

	cs := connectReference(t, argv, env)
	var seen []string
	c := mcpclient.New(cs, mcpclient.WithBeforeCall(func(_ context.Context, p *mcp.CallToolParams) error {
		seen = append(seen, p.Name)
		return nil
	}))
	type entity struct {
		Name         string   `json:"name"`
		EntityType   string   `json:"entityType"`
		Observations []string `json:"observations"`
	}
	type graph struct {
		Entities []entity `json:"entities"`
	}
	graphSchema := opsgenimpl.NewSchema(`{"type":"object","properties":{"entities":{"type":"array"},"relations":{"type":"array"}}}`)
	create := &mcpclient.Tool{Name: "create_entities", OutputSchema: graphSchema}
	if _, err := mcpclient.Call[graph](context.Background(), c, create, map[string]any{
		"entities": []entity{{Name: "opsgen", EntityType: "project", Observations: []string{"generates Go clients"}}},
	}, mcpclient.WithMeta(map[string]any{"trace": "t1"})); err != nil {
		t.Fatal(err)
	}
	read := &mcpclient.Tool{Name: "read_graph", OutputSchema: graphSchema}
	g, err := mcpclient.Call[graph](context.Background(), c, read, nil)
	if err != nil || len(g.Data.Entities) != 1 || g.Data.Entities[0].Name != "opsgen" {
		t.Errorf("read_graph: %+v, %v", g.Data, err)
	}
	if !slices.Equal(seen, []string{"create_entities", "read_graph"}) {
		t.Errorf("before-call hook saw %v", seen)
	}
}

func TestReferenceFilesystem(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{referenceServer(t, "server-filesystem"), dir}
	listing, warnings := referenceListing(t, argv, "")
	if len(warnings) != 0 || !slices.Contains(toolNamesOf(listing.Tools), "write_file") {
		t.Errorf("listing: %v, warnings %q", toolNamesOf(listing.Tools), warnings)
	}

	cs := connectReference(t, argv)
	c := mcpclient.New(cs, mcpclient.WithTimeout(30*time.Second))
	type text struct {
		Content string `json:"content"`
	}
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"content":{"type":"string"}},"required":["content"]}`)
	path := filepath.Join(dir, "note.txt")
	if _, err := mcpclient.Call[text](context.Background(), c, &mcpclient.Tool{Name: "write_file", OutputSchema: schema},
		map[string]any{"path": path, "content": "hello from opsgen"}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "hello from opsgen" {
		t.Errorf("file on disk: %q, %v", b, err)
	}
	got, err := mcpclient.Call[text](context.Background(), c, &mcpclient.Tool{Name: "read_text_file", OutputSchema: schema}, map[string]any{"path": path})
	if err != nil || got.Data.Content != "hello from opsgen" {
		t.Errorf("read_text_file: %+v, %v", got.Data, err)
	}
	// Outside the allowed directory: a tool error, a result.
	res, err := mcpclient.Call[text](context.Background(), c, &mcpclient.Tool{Name: "read_text_file", OutputSchema: schema}, map[string]any{"path": "/etc/hostname"})
	if err != nil || !runtime.MCPMetaOf(res.Meta).IsError {
		t.Errorf("read outside the root: isError %v, %v", runtime.MCPMetaOf(res.Meta) != nil && runtime.MCPMetaOf(res.Meta).IsError, err)
	}
}
