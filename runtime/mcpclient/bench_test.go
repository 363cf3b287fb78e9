package mcpclient_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// BenchmarkCall measures a generated call: Call with an output schema over
// the in-memory transport (through Connect's wrapper), validation off and warn.
func BenchmarkCall(b *testing.B) {
	for _, mode := range []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn} {
		b.Run(mode.String(), func(b *testing.B) {
			c := mcpclient.New(benchSession(b, true), mcpclient.WithValidation(mode))
			ctx := context.Background()
			args := map[string]any{"city": "Paris"}
			b.ReportAllocs()
			for b.Loop() {
				env, err := mcpclient.Call[mcptest.Weather](ctx, c, toolWeather, args)
				if err != nil || env.Data != mcptest.TheWeather {
					b.Fatalf("Call = %+v, %v", env.Data, err)
				}
			}
		})
	}
}

// BenchmarkRawCallTool is the baseline of BenchmarkCall: session.CallTool
// on a bare go-sdk session and a marshal/unmarshal of the structured
// content into the same struct.
func BenchmarkRawCallTool(b *testing.B) {
	cs := benchSession(b, false)
	ctx := context.Background()
	args := map[string]any{"city": "Paris"}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcptest.ToolWeather, Arguments: args})
		if err != nil {
			b.Fatal(err)
		}
		js, err := json.Marshal(res.StructuredContent)
		if err != nil {
			b.Fatal(err)
		}
		var w mcptest.Weather
		if err := json.Unmarshal(js, &w); err != nil || w != mcptest.TheWeather {
			b.Fatalf("raw = %+v, %v", w, err)
		}
	}
}

// benchSession connects a client to the mcptest server (served without
// ServerTransport) in memory, through Connect when wrapped is set and with a
// bare go-sdk client otherwise.
func benchSession(b *testing.B, wrapped bool) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	var cs *mcp.ClientSession
	if wrapped {
		cs, err = mcpclient.Connect(ctx, ct, nil)
	} else {
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "bare"}, nil).Connect(ctx, ct, nil)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}
