package mcpclient_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpconv"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// TestDotbotStructuredContent calls a go-sdk tool that sends its dotbot
// envelope as structuredContent (and a summary text block, as a server
// would), with each way of selecting the convention.
func TestDotbotStructuredContent(t *testing.T) {
	type solution struct {
		Name string `json:"name"`
	}
	info := mcpconv.DotbotInfo{Tool: "solution-info", Version: "1.0.0", Summary: "One solution.",
		Warnings: []mcpconv.DotbotIssue{{Code: "STALE", Message: "index is old"}},
		Audit:    mcpconv.DotbotAudit{Timestamp: "2026-01-02T13:57:00Z", DurationMS: 7, Source: "script.ps1"}}
	envelope, err := mcpconv.EncodeDotbot(info, solution{Name: "Axiome"})
	if err != nil {
		t.Fatal(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "structured-dotbot"}, nil)
	s.AddTool(&mcp.Tool{Name: "info", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "One solution."}},
				StructuredContent: json.RawMessage(envelope),
			}, nil
		})
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	session := connect(t, ct)
	payloadSchema := opsgenimpl.NewSchema(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}`)

	for _, tc := range []struct {
		name     string
		client   *mcpclient.Client
		tool     *mcpclient.Tool
		wantData bool
	}{
		{"dotbot", mcpclient.New(session, quiet), &mcpclient.Tool{Name: "info", Convention: mcpconv.ConventionDotbot}, true},
		{"auto", mcpclient.New(session, quiet), &mcpclient.Tool{Name: "info", Convention: mcpconv.ConventionAuto}, true},
		// The payload's schema (a configured output schema) types Data;
		// the envelope around it is not decoded as the data.
		{"payload schema", mcpclient.New(session, quiet), &mcpclient.Tool{Name: "info", Convention: mcpconv.ConventionDotbot, OutputSchema: payloadSchema}, true},
		{"client default", mcpclient.New(session, quiet, mcpclient.WithConvention(mcpconv.ConventionAuto)), &mcpclient.Tool{Name: "info"}, true},
		// Without a convention the dotbot envelope is plain structured content.
		{"none", mcpclient.New(session, quiet), &mcpclient.Tool{Name: "info"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := mustCall[solution](t, tc.client, tc.tool, nil)
			conv := runtime.MCPMetaOf(env.Meta).Convention
			if !tc.wantData {
				if conv != nil || env.Data != (solution{}) {
					t.Errorf("convention %+v, Data %+v", conv, env.Data)
				}
				return
			}
			if env.Data.Name != "Axiome" || len(env.Warnings) != 0 {
				t.Errorf("Data = %+v, warnings %v", env.Data, env.Warnings)
			}
			d, _ := conv.(*mcpconv.DotbotInfo)
			if d == nil || conv.ConventionName() != mcpconv.ConventionDotbot {
				t.Fatalf("convention %+v", conv)
			}
			if d.Tool != "solution-info" || d.Status != mcpconv.DotbotWarning || !reflect.DeepEqual(d.Warnings, info.Warnings) || d.Audit != info.Audit {
				t.Errorf("dotbot info %+v", d)
			}
		})
	}

	// With the blocks as data, the blocks stay and the envelope is on the meta.
	blocks := mustCall[[]runtime.ContentBlock](t, mcpclient.New(session, quiet), &mcpclient.Tool{Name: "info", Convention: mcpconv.ConventionAuto}, nil)
	if len(blocks.Data) != 1 || blocks.Data[0].Text != "One solution." || runtime.MCPMetaOf(blocks.Meta).Convention == nil {
		t.Errorf("blocks: %+v", blocks)
	}
}
