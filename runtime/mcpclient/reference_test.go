//lint:file-ignore SA1019 sampling and roots are deprecated by MCP 2026-07-28 but still in use (deprecation window): servers ask for them, and this file answers or asks

package mcpclient_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
		// The task-only tool loads without a warning: Call follows tasks.
		if len(warnings) != 0 {
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
		researchTask(t, c)
	})
}

// researchTask calls the everything server's task-only tool
// simulate-research-query: the call becomes a 2025-11-25 task, which Call
// follows through tasks/get to the result of tasks/result.
func researchTask(t *testing.T, c *mcpclient.Client) {
	t.Helper()
	tool := &mcpclient.Tool{Name: "simulate-research-query", TaskSupport: "required"}
	var statuses []mcpclient.TaskStatus
	env, err := mcpclient.Call[string](context.Background(), c, tool, map[string]any{"topic": "Go generics"},
		mcpclient.WithTaskStatus(func(_ context.Context, s mcpclient.TaskStatus) { statuses = append(statuses, s) }))
	if err != nil || mcpclient.AsError(env) != nil {
		t.Fatalf("simulate-research-query: %v, %v", err, mcpclient.AsError(env))
	}
	if !strings.Contains(env.Data, "# Research Report: Go generics") || !strings.Contains(env.Data, "Stage 4: Generating report") || len(env.Warnings) != 0 {
		t.Errorf("data %q, warnings %v", env.Data, env.Warnings)
	}
	// The task was created working, went through the server's stages (one
	// a second, polled at its interval of a second) and completed.
	if len(statuses) < 3 || statuses[0].Status != "working" || statuses[len(statuses)-1].Status != "completed" {
		t.Fatalf("statuses %+v", statuses)
	}
	id := statuses[0].TaskID
	var stages []string
	for _, s := range statuses {
		if s.TaskID != id || s.Tool != tool.Name {
			t.Errorf("status %+v of another task", s)
		}
		if strings.HasSuffix(s.Message, "...") {
			stages = append(stages, s.Message)
		}
	}
	known := []string{"Gathering sources...", "Analyzing content...", "Synthesizing findings...", "Generating report..."}
	for _, m := range stages {
		if !slices.Contains(known, m) {
			t.Errorf("stage message %q", m)
		}
	}
	if len(stages) < 2 {
		t.Errorf("stage messages %q: polling at the server's interval sees at least two of four", stages)
	}
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

// startReferenceHTTP runs the everything server's HTTP transport mode
// ("streamableHttp" or "sse") and returns its base URL.
func startReferenceHTTP(t *testing.T, mode string) string {
	t.Helper()
	return "http://127.0.0.1:" + testdeps.ServeHTTP(t, []string{referenceServer(t, "server-everything"), mode}, nil)
}

func TestReferenceEverythingHTTP(t *testing.T) {
	base := startReferenceHTTP(t, "streamableHttp")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	researchTask(t, mcpclient.New(cs))
}

// referenceInput answers the everything server's requests for input, and
// records the forms it was shown.
type referenceInput struct {
	mu    sync.Mutex
	forms []*mcpclient.ElicitRequest
	// answer fills in a form.
	answer func(*mcpclient.ElicitRequest) *mcpclient.ElicitResponse
}

func (in *referenceInput) input() *mcpclient.Input {
	return &mcpclient.Input{
		Elicit: func(_ context.Context, req *mcpclient.ElicitRequest) (*mcpclient.ElicitResponse, error) {
			in.mu.Lock()
			in.forms = append(in.forms, req)
			in.mu.Unlock()
			return in.answer(req), nil
		},
		Sample: func(_ context.Context, p *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			var prompt string
			if len(p.Messages) > 0 {
				if tc, ok := p.Messages[0].Content.(*mcp.TextContent); ok {
					prompt = tc.Text
				}
			}
			return &mcp.CreateMessageResult{Model: "opsgen-test-model", Role: "assistant",
				Content: &mcp.TextContent{Text: "sampled answer to <" + prompt + ">"}}, nil
		},
	}
}

// field returns the form's field name.
func field(t *testing.T, f *mcpclient.Form, name string) mcpclient.FormField {
	t.Helper()
	for _, fd := range f.Fields {
		if fd.Name == name {
			return fd
		}
	}
	t.Fatalf("no field %q in %+v", name, f.Fields)
	return mcpclient.FormField{}
}

func TestReferenceEverythingInput(t *testing.T) {
	transports := map[string]func(*testing.T) mcp.Transport{
		"stdio": func(t *testing.T) mcp.Transport {
			cmd := exec.Command(referenceServer(t, "server-everything"), "stdio")
			return &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
		},
		"streamable HTTP": func(t *testing.T) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: startReferenceHTTP(t, "streamableHttp") + "/mcp"}
		},
	}
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) {
			in := &referenceInput{}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cs, err := mcpclient.Connect(ctx, transport(t), &mcpclient.ConnectOptions{Input: in.input()})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			c := mcpclient.New(cs)
			call := func(tool string, args map[string]any) string {
				t.Helper()
				env, err := mcpclient.Call[[]runtime.ContentBlock](ctx, c, &mcpclient.Tool{Name: tool}, args)
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				var texts []string
				for _, b := range env.Data {
					texts = append(texts, b.Text)
				}
				if e := mcpclient.AsError(env); e != nil {
					return "isError: " + e.Error()
				}
				return strings.Join(texts, "\n")
			}

			// An elicitation form, typed from its requestedSchema.
			in.answer = func(req *mcpclient.ElicitRequest) *mcpclient.ElicitResponse {
				return mcpclient.Accept(map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7, "legacyTitledEnum": "pet-2",
					"untitledMultipleSelectEnum": []string{"Piano", "Bass"}})
			}
			text := call("trigger-elicitation-request", map[string]any{})
			for _, want := range []string{"- Name: Ada Lovelace", "- Agreed to terms: true", "- Favorite Integer: 7", `"Piano"`} {
				if !strings.Contains(text, want) {
					t.Errorf("elicitation result lacks %q:\n%s", want, text)
				}
			}
			if len(in.forms) != 1 || in.forms[0].Mode != "form" || in.forms[0].Form == nil {
				t.Fatalf("forms %+v", in.forms)
			}
			f := in.forms[0].Form
			if fd := field(t, f, "name"); !fd.Required || fd.Type != mcpclient.FieldString || len(f.Fields) != 13 {
				t.Errorf("%d fields, name %+v", len(f.Fields), fd)
			}
			if fd := field(t, f, "integer"); fd.Type != mcpclient.FieldInteger || *fd.Minimum != 1 || *fd.Maximum != 100 || fd.Default != float64(42) {
				t.Errorf("integer %+v", fd)
			}
			if fd := field(t, f, "email"); fd.Format != "email" {
				t.Errorf("email %+v", fd)
			}
			if fd := field(t, f, "titledSingleSelectEnum"); fd.Type != mcpclient.FieldChoice || len(fd.Options) != 3 || fd.Options[1] != (mcpclient.FormOption{Value: "hero-2", Title: "Green Lantern"}) {
				t.Errorf("titled choice %+v", fd)
			}
			if fd := field(t, f, "legacyTitledEnum"); fd.Options[1] != (mcpclient.FormOption{Value: "pet-2", Title: "Dogs"}) {
				t.Errorf("enumNames %+v", fd)
			}
			if fd := field(t, f, "titledMultipleSelectEnum"); fd.Type != mcpclient.FieldChoices || len(fd.Options) != 3 || *fd.MaxItems != 3 {
				t.Errorf("multiple choice %+v", fd)
			}

			// An answer that does not fill in the form is not sent: the
			// server's request fails, and its tool says so.
			in.answer = func(*mcpclient.ElicitRequest) *mcpclient.ElicitResponse {
				return mcpclient.Accept(map[string]any{"integer": 1000})
			}
			if text := call("trigger-elicitation-request", map[string]any{}); !strings.Contains(text, "isError") || strings.Contains(text, "User provided") {
				t.Errorf("a bad answer: %s", text)
			}
			in.answer = func(*mcpclient.ElicitRequest) *mcpclient.ElicitResponse { return mcpclient.Decline() }
			if text := call("trigger-elicitation-request", map[string]any{}); !strings.Contains(text, "User declined") {
				t.Errorf("declined: %s", text)
			}

			// Sampling.
			text = call("trigger-sampling-request", map[string]any{"prompt": "the answer?"})
			if !strings.Contains(text, "sampled answer to <") || !strings.Contains(text, "the answer?") || !strings.Contains(text, "opsgen-test-model") {
				t.Errorf("sampling result: %s", text)
			}

			// A task that asks for input on the way (2025-11-25: the
			// request travels beside tasks/result).
			in.answer = func(req *mcpclient.ElicitRequest) *mcpclient.ElicitResponse {
				fd := field(t, req.Form, "interpretation")
				if fd.Type != mcpclient.FieldChoice || !fd.Required || len(fd.Options) != 3 {
					t.Errorf("interpretation %+v", fd)
				}
				return mcpclient.Accept(map[string]any{"interpretation": "historical"})
			}
			env, err := mcpclient.Call[string](ctx, c, &mcpclient.Tool{Name: "simulate-research-query", TaskSupport: "required"},
				map[string]any{"topic": "Go", "ambiguous": true})
			if err != nil || !strings.Contains(env.Data, "# Research Report: Go (historical)") {
				t.Errorf("research with clarification: %v\n%s", err, env.Data)
			}
		})
	}
}
