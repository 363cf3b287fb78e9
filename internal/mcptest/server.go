// Package mcptest provides a real go-sdk MCP server with tools that cover
// what opsgen's MCP caller must handle (structured output, plain content,
// isError, ToolEnvelope V1, dotbot, unknown block types, schema drift, slow
// calls, paginated listings) and helpers that connect to it in memory or
// over streamable HTTP. cmd/mcptestserver runs it as a subprocess (stdio) or
// an HTTP server.
//
// It is for tests; it depends on nothing beyond go-sdk, the runtime and the
// standard library (testing included).
package mcptest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/mcpconv"
)

// Names of the tools of NewServer.
const (
	// ToolWeather declares WeatherSchema and returns Weather as structuredContent.
	ToolWeather = "get_weather"
	// ToolWeatherText declares WeatherSchema but returns the JSON in a text
	// block only (after a markdown block), without structuredContent.
	ToolWeatherText = "get-weather-text"
	// ToolDrift declares WeatherSchema and returns structuredContent that
	// drifts from it: DriftJSON (a wrong-typed and an extra field).
	ToolDrift = "weather.drift"
	// ToolEcho has no output schema; it returns its "text" argument as a text block.
	ToolEcho = "echo"
	// ToolFail returns an isError result with FailText.
	ToolFail = "always-fail"
	// ToolMixed returns one block of each type (text with annotations,
	// image, audio, resource, resource_link) and _meta {"progressToken": "abc"}.
	ToolMixed = "mixed_content"
	// ToolEnvelope returns ToolEnvelope V1 blocks around WorkflowPayload; with
	// {"version": 2} its envelope claims version 2.
	ToolEnvelope = "workflow.system_design"
	// ToolDotbot returns a dotbot envelope (DotbotData) as JSON in a text
	// block; with {"mismatch": true} the envelope declares "ok" despite an error.
	ToolDotbot = "dotbot.solution-info"
	// ToolUnknownBlock returns UnknownBlock, a block of a type no MCP
	// version defines (see ServerTransport).
	ToolUnknownBlock = "future_block"
	// ToolReplay returns the content blocks of its "content" argument (as
	// runtime.ContentBlock JSON), to replay recorded results such as the
	// test vectors.
	ToolReplay = "content.replay"
	// ToolSlow sleeps for its "seconds" argument, or until canceled when
	// it is 0 or absent, then returns "done".
	ToolSlow = "slow"
	// ToolProgress sends its "steps" argument's number of progress
	// notifications (progress 1..steps of total steps, message "step N")
	// when the request has a progress token, then returns a text block
	// holding the JSON of the request's _meta.
	ToolProgress = "progress"
)

// FillerTools is the number of extra tools ("filler.tool_00", ...) that,
// with PageSize, make tools/list take several pages.
const FillerTools = 12

// PageSize is the tools/list page size of NewServer.
const PageSize = 5

// WeatherSchema is the output schema of the weather tools.
const WeatherSchema = `{"type":"object","properties":{"temperature":{"type":"number"},"conditions":{"type":"string"},"humidity":{"type":"integer"}},"required":["temperature","conditions","humidity"],"additionalProperties":false}`

// Weather is the output of ToolWeather.
type Weather struct {
	Temperature float64 `json:"temperature"`
	Conditions  string  `json:"conditions"`
	Humidity    int     `json:"humidity"`
}

// TheWeather is what the weather tools report.
var TheWeather = Weather{Temperature: 22.5, Conditions: "Partly cloudy", Humidity: 65}

// DriftJSON is the structuredContent of ToolDrift: temperature has the
// wrong type and wind is not in WeatherSchema.
const DriftJSON = `{"temperature":"hot","conditions":"Sunny","humidity":40,"wind":12}`

// FailText is the text of ToolFail's isError result.
const FailText = "Error: ENOENT: no such file or directory"

// UnknownBlock is the content block ToolUnknownBlock sends.
const UnknownBlock = `{"type":"hologram","frames":3}`

// WorkflowPayload is the payload of ToolEnvelope's envelope.
type WorkflowPayload struct {
	DisplayName   string `json:"displayName"`
	InstructionID string `json:"instructionId"`
	Steps         []Step `json:"steps"`
}

// Step is one step of a WorkflowPayload.
type Step struct {
	Kind    string `json:"kind"`
	Label   string `json:"label"`
	Summary string `json:"summary"`
}

// TheWorkflow is ToolEnvelope's payload.
var TheWorkflow = WorkflowPayload{
	DisplayName:   "System Design: Feature Authentication",
	InstructionID: "system-design",
	Steps:         []Step{{Kind: "design", Label: "Architecture", Summary: "Define the auth flow and components"}},
}

// EnvelopeSummary is block 0 of ToolEnvelope's result.
const EnvelopeSummary = "## System Design: Feature Authentication"

// EnvelopeTime is the ts of ToolEnvelope's envelope.
var EnvelopeTime = time.Date(2025, 6, 17, 18, 30, 0, 0, time.UTC)

// DotbotData is the data of ToolDotbot's envelope.
type DotbotData struct {
	Solution struct {
		Name string `json:"name"`
	} `json:"solution"`
}

// unknownBlockMarker is the text block ToolUnknownBlock really returns; the
// wrappers of ServerTransport and Handler replace its wire form with
// UnknownBlock, because go-sdk cannot marshal a content type it does not know.
const unknownBlockMarker = "mcptest:unknown-block"

// NewServer returns a go-sdk server with the tools named by the Tool*
// constants plus FillerTools filler tools, listing PageSize tools per page.
// Serve it through ServerTransport or Handler for ToolUnknownBlock to send
// its unknown block.
func NewServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "1"}, &mcp.ServerOptions{PageSize: PageSize})
	object := json.RawMessage(`{"type":"object"}`)
	weatherSchema := json.RawMessage(WeatherSchema)

	mcp.AddTool(s, &mcp.Tool{Name: ToolWeather, Description: "Current weather.", OutputSchema: weatherSchema},
		func(context.Context, *mcp.CallToolRequest, struct {
			City string `json:"city,omitempty"`
		}) (*mcp.CallToolResult, Weather, error) {
			// The text block is set here because go-sdk's own fallback
			// re-marshals the output with sorted keys; this one keeps the
			// field order of the envelope vectors.
			js, err := json.Marshal(TheWeather)
			return text(string(js)), TheWeather, err
		})

	s.AddTool(&mcp.Tool{Name: ToolWeatherText, InputSchema: object, OutputSchema: weatherSchema},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			js, _ := json.Marshal(TheWeather)
			return text("Here is the weather:", string(js)), nil
		})

	s.AddTool(&mcp.Tool{Name: ToolDrift, InputSchema: object, OutputSchema: weatherSchema},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := text(DriftJSON)
			res.StructuredContent = json.RawMessage(DriftJSON)
			return res, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: ToolEcho, Description: "Echoes its text."},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Text string `json:"text"`
		}) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})

	s.AddTool(&mcp.Tool{Name: ToolFail, InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := text(FailText)
			res.IsError = true
			return res, nil
		})

	s.AddTool(&mcp.Tool{Name: ToolMixed, InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Meta: mcp.Meta{"progressToken": "abc"},
				Content: []mcp.Content{
					&mcp.TextContent{Text: "hello", Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.5, LastModified: "2025-06-18T00:00:00Z"}},
					&mcp.ImageContent{Data: []byte("\x89PNG\r\n\x1a\n"), MIMEType: "image/png"},
					&mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///tmp/a.txt", MIMEType: "text/plain", Text: "a"}},
					&mcp.ResourceLink{URI: "file:///tmp/b.bin", Name: "b.bin", Description: "a file", MIMEType: "application/octet-stream"},
				},
			}, nil
		})

	mcp.AddTool(s, &mcp.Tool{Name: ToolEnvelope},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Version int `json:"version,omitempty"`
		}) (*mcp.CallToolResult, any, error) {
			blocks, err := mcpconv.EncodeToolEnvelope("system-design", EnvelopeTime, TheWorkflow, EnvelopeSummary)
			if err != nil {
				return nil, nil, err
			}
			if in.Version != 0 {
				blocks[1].Text = mcpconv.ToolEnvelopePrefix + base64JSON(fmt.Sprintf(
					`{"payload":{"x":1},"meta":{"tool":"system-design","ts":"2025-06-17T18:30:00Z","version":%d}}`, in.Version))
			}
			content, err := mcpclient.ToSDK(blocks)
			return &mcp.CallToolResult{Content: content}, nil, err
		})

	mcp.AddTool(s, &mcp.Tool{Name: ToolDotbot},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			Mismatch bool `json:"mismatch,omitempty"`
		}) (*mcp.CallToolResult, any, error) {
			var data DotbotData
			data.Solution.Name = "Axiome"
			info := mcpconv.DotbotInfo{
				Tool: ToolDotbot, Version: "1.0.0", Summary: "Axiome solution.",
				Audit:  mcpconv.DotbotAudit{Timestamp: "2026-01-02T13:57:00Z", DurationMS: 95, Source: ".bot/mcp/tools/solution-info/script.ps1"},
				Intent: &mcpconv.DotbotIntent{RecommendedNext: "solution.structure", Reason: "Look at the projects next."},
			}
			if in.Mismatch {
				info.Errors = []mcpconv.DotbotIssue{{Code: "IO_ERROR", Message: "disk full"}}
			}
			js, err := mcpconv.EncodeDotbot(info, data)
			if err != nil {
				return nil, nil, err
			}
			if in.Mismatch {
				// EncodeDotbot always writes the computed status; declare a wrong one.
				var m map[string]any
				_ = json.Unmarshal(js, &m)
				m["status"] = "ok"
				js, _ = json.Marshal(m)
			}
			return text(string(js)), nil, nil
		})

	s.AddTool(&mcp.Tool{Name: ToolUnknownBlock, InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text(unknownBlockMarker), nil
		})

	s.AddTool(&mcp.Tool{Name: ToolReplay, InputSchema: object},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Content []runtime.ContentBlock `json:"content"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			content, err := mcpclient.ToSDK(in.Content)
			return &mcp.CallToolResult{Content: content}, err
		})

	mcp.AddTool(s, &mcp.Tool{Name: ToolSlow, Description: "Sleeps."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
			Seconds float64 `json:"seconds,omitempty"`
		}) (*mcp.CallToolResult, any, error) {
			var timeout <-chan time.Time
			if in.Seconds > 0 {
				timeout = time.After(time.Duration(in.Seconds * float64(time.Second)))
			}
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-timeout:
				return text("done"), nil, nil
			}
		})

	mcp.AddTool(s, &mcp.Tool{Name: ToolProgress, Description: "Reports progress, then echoes the request's _meta."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			Steps int `json:"steps,omitempty"`
		}) (*mcp.CallToolResult, any, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= in.Steps; i++ {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i)})
					if err != nil {
						return nil, nil, err
					}
				}
			}
			meta := req.Params.Meta
			if meta == nil {
				meta = mcp.Meta{}
			}
			js, err := json.Marshal(meta)
			return text(string(js)), nil, err
		})

	for i := range FillerTools {
		name := fmt.Sprintf("filler.tool_%02d", i)
		s.AddTool(&mcp.Tool{Name: name, InputSchema: object},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text(name), nil
			})
	}
	return s
}

func text(texts ...string) *mcp.CallToolResult {
	res := &mcp.CallToolResult{}
	for _, t := range texts {
		res.Content = append(res.Content, &mcp.TextContent{Text: t})
	}
	return res
}
