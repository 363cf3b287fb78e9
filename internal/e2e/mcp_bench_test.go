package e2e_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/e2e/mcpgen"
	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// BenchmarkMCPGeneratedCall measures a generated call, mcpgen's GetWeather
// (structured output, decoded into the generated type), over the
// in-memory transport with a session from mcpclient.Connect, in each
// validation mode. BenchmarkMCPRawCallTool is its baseline.
func BenchmarkMCPGeneratedCall(b *testing.B) {
	for _, mode := range []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn, runtime.ValidateStrict} {
		b.Run(mode.String(), func(b *testing.B) {
			c := mcpgen.NewClient(benchMCPSession(b, true), mcpgen.WithValidation(mode))
			ctx := context.Background()
			city := "Paris"
			in := mcpgen.GetWeatherInput{City: &city}
			want := mcpWeather
			b.ReportAllocs()
			for b.Loop() {
				env, err := c.GetWeather(ctx, in)
				if err != nil || !sameWeather(env.Data, want) {
					b.Fatalf("GetWeather = %+v, %v", env.Data, err)
				}
			}
		})
	}
}

// BenchmarkMCPRawCallTool is what the generated call replaces:
// session.CallTool on a bare go-sdk session, then the structured content
// marshalled and unmarshalled into the same struct.
func BenchmarkMCPRawCallTool(b *testing.B) {
	cs := benchMCPSession(b, false)
	ctx := context.Background()
	city := "Paris"
	in := mcpgen.GetWeatherInput{City: &city}
	want := mcpWeather
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcptest.ToolWeather, Arguments: in})
		if err != nil {
			b.Fatal(err)
		}
		js, err := json.Marshal(res.StructuredContent)
		if err != nil {
			b.Fatal(err)
		}
		var got mcpgen.GetWeatherOutput
		if err := json.Unmarshal(js, &got); err != nil || !sameWeather(got, want) {
			b.Fatalf("raw = %+v, %v", got, err)
		}
	}
}

// sameWeather compares two results field by field: generated structs are
// not comparable, and reflect.DeepEqual would weigh on the loop.
func sameWeather(a, b mcpgen.GetWeatherOutput) bool {
	return a.Temperature == b.Temperature && a.Conditions == b.Conditions && a.Humidity == b.Humidity
}

// benchMCPSession connects a client to the mcptest server in memory:
// through mcpclient.Connect when wrapped is set (as generated clients are
// used), with a bare go-sdk client otherwise.
func benchMCPSession(b *testing.B, wrapped bool) *mcp.ClientSession {
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
