//go:build mcpinterop

package mcpinterop

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/mcptools"
	"github.com/opsgen/opsgen/internal/testdeps"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// transport is one way of reaching a server.
type transport struct {
	name    string
	connect func(t *testing.T) mcp.Transport
}

// server is a real MCP server, the transports it offers, and a check of
// one session with it.
type server struct {
	name       string
	transports []transport
	check      func(t *testing.T, c *mcpclient.Client, tools map[string]*mcp.Tool)
}

// versions are the protocol versions a session is asked for: go-sdk's
// default (2026-07-28, through server/discover, falling back to
// initialize) and the older ones, which servers may negotiate down.
var versions = []string{"", "2025-11-25", "2025-06-18", "2025-03-26"}

func stdio(argv ...string) transport {
	return transport{"stdio", func(t *testing.T) mcp.Transport {
		return &mcp.CommandTransport{Command: exec.Command(argv[0], argv[1:]...), TerminateDuration: 2 * time.Second}
	}}
}

// httpServer starts argv's HTTP mode once per test and connects with mk.
func httpServer(name string, argv []string, path string, mk func(url string) mcp.Transport) transport {
	return transport{name, func(t *testing.T) mcp.Transport {
		return mk("http://127.0.0.1:" + testdeps.ServeHTTP(t, argv, nil) + path)
	}}
}

func streamable(url string) mcp.Transport {
	return &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
}

func sse(url string) mcp.Transport { return &mcp.SSEClientTransport{Endpoint: url} }

func servers(t *testing.T) []server {
	everything := testdeps.MCPServer(t, "server-everything")
	memory := testdeps.MCPServer(t, "server-memory")
	filesystem := testdeps.MCPServer(t, "server-filesystem")
	pdf := filepath.Join(testdeps.Root(t), ".work", "mcp-interop", "node_modules", ".bin", "mcp-pdf-server")
	if _, err := os.Stat(pdf); err != nil {
		t.Skipf("%s is not installed: run make mcp-interop", pdf)
	}
	dir := t.TempDir()
	pdfFile := filepath.Join(dir, "tiny.pdf")
	pdfBytes := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	if err := os.WriteFile(pdfFile, pdfBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MEMORY_FILE_PATH", filepath.Join(dir, "memory.jsonl"))
	return []server{
		{"everything", []transport{
			stdio(everything, "stdio"),
			httpServer("streamable HTTP", []string{everything, "streamableHttp"}, "/mcp", streamable),
			httpServer("SSE", []string{everything, "sse"}, "/sse", sse),
		}, func(t *testing.T, c *mcpclient.Client, tools map[string]*mcp.Tool) {
			env, err := mcpclient.Call[map[string]any](context.Background(), c, typed(t, tools, "get-structured-content"), map[string]any{"location": "Chicago"})
			if err != nil || env.Data["temperature"] == nil || len(env.Warnings) != 0 {
				t.Errorf("get-structured-content: %v, %v, %v", env.Data, err, env.Warnings)
			}
			research, err := mcpclient.Call[string](context.Background(), c, &mcpclient.Tool{Name: "simulate-research-query", TaskSupport: "required"}, map[string]any{"topic": "interop"})
			if err != nil || !strings.Contains(research.Data, "# Research Report: interop") {
				t.Errorf("simulate-research-query (a task): %v, %q", err, research.Data)
			}
		}},
		{"memory", []transport{stdio(memory)}, func(t *testing.T, c *mcpclient.Client, tools map[string]*mcp.Tool) {
			ctx := context.Background()
			_, err := mcpclient.Call[json.RawMessage](ctx, c, typed(t, tools, "create_entities"), map[string]any{"entities": []map[string]any{{"name": "opsgen", "entityType": "tool", "observations": []string{"generates clients"}}}})
			if err != nil {
				t.Fatalf("create_entities: %v", err)
			}
			env, err := mcpclient.Call[struct {
				Entities []struct{ Name, EntityType string }
			}](ctx, c, typed(t, tools, "read_graph"), map[string]any{})
			if err != nil || len(env.Data.Entities) == 0 || env.Data.Entities[len(env.Data.Entities)-1].Name != "opsgen" {
				t.Errorf("read_graph: %+v, %v", env.Data, err)
			}
		}},
		{"filesystem", []transport{stdio(filesystem, dir)}, func(t *testing.T, c *mcpclient.Client, tools map[string]*mcp.Tool) {
			env, err := mcpclient.Call[map[string]any](context.Background(), c, typed(t, tools, "read_text_file"), map[string]any{"path": pdfFile})
			if err != nil || !strings.Contains(env.Data["content"].(string), "%PDF-1.4") {
				t.Errorf("read_text_file: %v, %v", env.Data, err)
			}
		}},
		{"pdf", []transport{
			// Over stdio the server takes the client's roots for its
			// directories (none here): the file is allowed by name.
			stdio(pdf, "--stdio", pdfFile),
			httpServer("streamable HTTP", []string{pdf, dir}, "/mcp", streamable),
		}, func(t *testing.T, c *mcpclient.Client, tools map[string]*mcp.Tool) {
			env, err := mcpclient.Call[struct {
				URL        string  `json:"url"`
				Bytes      string  `json:"bytes"`
				TotalBytes float64 `json:"totalBytes"`
				HasMore    bool    `json:"hasMore"`
			}](context.Background(), c, typed(t, tools, "read_pdf_bytes"), map[string]any{"url": pdfFile})
			if err != nil || mcpclient.AsError(env) != nil {
				t.Fatalf("read_pdf_bytes: %v, %v", err, mcpclient.AsError(env))
			}
			got, _ := base64.StdEncoding.DecodeString(env.Data.Bytes)
			if string(got) != string(pdfBytes) || env.Data.TotalBytes != float64(len(pdfBytes)) || env.Data.HasMore || len(env.Warnings) != 0 {
				t.Errorf("read_pdf_bytes: %+v (%q), warnings %v", env.Data, got, env.Warnings)
			}
		}},
	}
}

// typed returns the mcpclient.Tool of a listed tool, with its output
// schema as the generated client would have it.
func typed(t *testing.T, tools map[string]*mcp.Tool, name string) *mcpclient.Tool {
	t.Helper()
	tool, ok := tools[name]
	if !ok {
		t.Fatalf("the server lists no tool %q", name)
	}
	mt := &mcpclient.Tool{Name: name}
	if tool.OutputSchema != nil {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		mt.OutputSchema = opsgenimpl.NewSchema(string(b))
	}
	return mt
}

// TestInterop connects to each server over each transport on each protocol
// version, loads its listing as opsgen generate would, and checks typed
// calls. The protocol version each combination negotiated is logged.
func TestInterop(t *testing.T) {
	for _, srv := range servers(t) {
		t.Run(srv.name, func(t *testing.T) {
			for _, tr := range srv.transports {
				t.Run(tr.name, func(t *testing.T) {
					negotiated := map[string]string{}
					for _, version := range versions {
						asked := version
						if asked == "" {
							asked = "default"
						}
						t.Run(asked, func(t *testing.T) {
							ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
							defer cancel()
							cs, err := mcpclient.Connect(ctx, tr.connect(t), &mcpclient.ConnectOptions{Session: &mcp.ClientSessionOptions{ProtocolVersion: version}})
							if err != nil {
								t.Fatalf("connect: %v", err)
							}
							defer cs.Close()
							negotiated[asked] = cs.InitializeResult().ProtocolVersion
							tools := map[string]*mcp.Tool{}
							var raw []json.RawMessage
							for tool, err := range cs.Tools(ctx, nil) {
								if err != nil {
									t.Fatalf("tools/list: %v", err)
								}
								tools[tool.Name] = tool
								b, _ := json.Marshal(tool)
								raw = append(raw, b)
							}
							listing, _ := json.Marshal(map[string]any{"tools": raw})
							svc, _, err := mcptools.LoadData(ctx, listing, srv.name+".json", mcptools.LoadOptions{})
							if err != nil || len(svc.Operations) != len(tools) {
								t.Fatalf("loading the listing: %v (%d tools)", err, len(tools))
							}
							srv.check(t, mcpclient.New(cs), tools)
						})
					}
					t.Logf("%s over %s negotiated %v", srv.name, tr.name, negotiated)
				})
			}
		})
	}
}
