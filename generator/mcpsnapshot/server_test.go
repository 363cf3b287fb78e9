package mcpsnapshot

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as the stdio MCP servers of the tests: when
// serverEnv is set, TestMain runs the named server instead of the tests.
const serverEnv = "MCPTOOLS_TEST_SERVER"

func TestMain(m *testing.M) {
	switch s := os.Getenv(serverEnv); s {
	case "":
		os.Exit(m.Run())
	case "sdk":
		if err := newSDKServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		os.Exit(0)
	case "strict-2025-06-18", "strict-2025-11-25":
		os.Exit(runStrictServer(s[len("strict-"):]))
	default:
		log.Fatalf("unknown test server %q", s)
	}
}

// serverCommand returns the command that runs the named test server.
func serverCommand(t *testing.T, name string) ([]string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}, []string{serverEnv + "=" + name}
}

// Inputs and outputs of the go-sdk test server's typed tools.
type (
	searchInput struct {
		Query string `json:"query" jsonschema:"what to look for"`
		Limit int    `json:"limit,omitempty"`
	}
	searchHit struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
	}
	searchOutput struct {
		Hits []searchHit `json:"hits"`
	}
	pingInput struct{}
)

// newSDKServer is a go-sdk server with tools of several shapes, listed two
// per page so that snapshots must follow nextCursor.
// The name and version newSDKServer gives itself.
const (
	sdkServerName    = "mcptools-test"
	sdkServerVersion = "1.0.0"
)

func newSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: sdkServerName, Version: sdkServerVersion}, &mcp.ServerOptions{PageSize: 2})
	mcp.AddTool(s, &mcp.Tool{Name: "search_items", Title: "Search items", Description: "Searches the catalogue."},
		func(context.Context, *mcp.CallToolRequest, searchInput) (*mcp.CallToolResult, searchOutput, error) {
			return nil, searchOutput{}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "ping", Description: "Checks the server is up."},
		func(context.Context, *mcp.CallToolRequest, pingInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	readOnly := true
	s.AddTool(&mcp.Tool{
		Name:        "read-graph",
		Description: "Reads the knowledge graph.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: readOnly, IdempotentHint: true},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"depth":{"type":"integer","minimum":0}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"nodes":{"type":"array","items":{"$ref":"#/$defs/node"}}},` +
			`"$defs":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	return s
}

// strictTools is the listing of the strict test servers, in two pages. The
// "execution" field is one that go-sdk's mcp.Tool does not model.
var strictTools = [][]string{
	{
		`{"name":"zeta","description":"Last by name.","inputSchema":{"type":"object","properties":{"n":{"type":"number"}}},"execution":{"taskSupport":"optional"}}`,
		`{"name":"alpha","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}`,
	},
	{
		`{"name":"mid","inputSchema":{"type":"object","properties":{"s":{"type":"string"}}},"outputSchema":{"type":"array","items":{"type":"string"}},"_meta":{"vendor/x":1}}`,
	},
}

// runStrictServer is a raw JSON-RPC stdio server that speaks only the given
// protocol version and exits on any method it does not know, as some servers
// in the wild do. It returns the exit code.
func runStrictServer(version string) int {
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	initialized := false
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Cursor          string `json:"cursor"`
			} `json:"params"`
		}
		if err := json.Unmarshal(in.Bytes(), &msg); err != nil {
			fmt.Fprintln(os.Stderr, "bad message:", err)
			return 1
		}
		reply := func(result string) {
			out.Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": json.RawMessage(result)})
		}
		switch msg.Method {
		case "initialize":
			reply(fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"strict","version":"0.1"}}`, version))
		case "notifications/initialized":
			initialized = true
		case "tools/list":
			if !initialized {
				fmt.Fprintln(os.Stderr, "tools/list before initialized")
				return 1
			}
			page, next := strictTools[0], `"nextCursor":"page2",`
			if msg.Params.Cursor == "page2" {
				page, next = strictTools[1], ""
			}
			reply(fmt.Sprintf(`{%s"_meta":{"progressToken":7},"tools":[%s]}`, next, strings.Join(page, ",")))
		default:
			fmt.Fprintf(os.Stderr, "unknown method %q: exiting\n", msg.Method)
			return 3
		}
	}
	return 0
}
