//lint:file-ignore SA1019 roots and sampling are deprecated in MCP 2026-07-28 but servers still list some tools only to clients that advertise them, so snapshot -capabilities must be able to

package mcpsnapshot

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// newGatedServer lists "ask_user" only to clients that support
// elicitation and "summarize" only to those that support sampling, as
// servers do that need those features for a tool.
func newGatedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "gated", Version: "3.0.0"}, nil)
	for _, name := range []string{"always", "ask_user", "summarize"} {
		s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
	}
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if !ok || err != nil {
				return res, err
			}
			caps := req.(*mcp.ListToolsRequest).ClientCapabilities()
			lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool {
				return t.Name == "ask_user" && (caps == nil || caps.Elicitation == nil) ||
					t.Name == "summarize" && (caps == nil || caps.Sampling == nil)
			})
			return lr, nil
		}
	})
	return s
}

func toolNames(t *testing.T, listing []byte) []string {
	t.Helper()
	var l struct{ Tools []struct{ Name string } }
	if err := json.Unmarshal(listing, &l); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range l.Tools {
		names = append(names, tool.Name)
	}
	return names
}

func TestSnapshotCapabilities(t *testing.T) {
	for _, tc := range []struct {
		caps string // "-" for nil: go-sdk's default
		want []string
	}{
		{"-", []string{"always"}},
		{"roots", []string{"always"}},
		{"elicitation", []string{"always", "ask_user"}},
		{"sampling,elicitation,roots", []string{"always", "ask_user", "summarize"}},
		{"none", []string{"always"}},
	} {
		var caps *mcp.ClientCapabilities
		if tc.caps != "-" {
			var err error
			if caps, err = ParseCapabilities(tc.caps); err != nil {
				t.Fatal(err)
			}
		}
		s := newGatedServer()
		transports := map[string]func() SnapshotOptions{
			"inmemory": func() SnapshotOptions {
				ct, st := mcp.NewInMemoryTransports()
				if _, err := s.Connect(context.Background(), st, nil); err != nil {
					t.Fatal(err)
				}
				return SnapshotOptions{Transport: ct}
			},
			"http": func() SnapshotOptions {
				srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
				t.Cleanup(srv.Close)
				return SnapshotOptions{URL: srv.URL}
			},
		}
		for _, name := range []string{"inmemory", "http"} {
			opts := transports[name]()
			opts.Capabilities, opts.Timeout = caps, time.Minute
			got, err := Snapshot(context.Background(), opts)
			if err != nil {
				t.Fatalf("%s %s: %v", tc.caps, name, err)
			}
			if names := toolNames(t, got); !slices.Equal(names, tc.want) {
				t.Errorf("-capabilities %s over %s: tools %v, want %v", tc.caps, name, names, tc.want)
			}
		}
	}
}

func TestParseCapabilities(t *testing.T) {
	caps, err := ParseCapabilities(" sampling , roots")
	if err != nil || caps.Sampling == nil || caps.RootsV2 == nil || !caps.RootsV2.ListChanged || caps.Elicitation != nil {
		t.Errorf("ParseCapabilities = %+v, %v", caps, err)
	}
	caps, err = ParseCapabilities("")
	if err != nil || caps.Sampling != nil || caps.RootsV2 != nil || caps.Elicitation != nil {
		t.Errorf(`ParseCapabilities("") = %+v, %v`, caps, err)
	}
	if _, err := ParseCapabilities("sampling,tasks"); err == nil || !strings.Contains(err.Error(), `"tasks"`) || !strings.Contains(err.Error(), "elicitation") {
		t.Errorf("unknown capability: %v", err)
	}
}
