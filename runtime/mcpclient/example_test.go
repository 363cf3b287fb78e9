package mcpclient_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Weather is the type generated code would declare for get_weather's output schema.
type Weather struct {
	Temperature float64 `json:"temperature"`
	Conditions  string  `json:"conditions"`
	Humidity    int     `json:"humidity"`
}

// getWeather is the descriptor generated code declares for the tool.
var getWeather = &mcpclient.Tool{Name: "get_weather", OutputSchema: opsgenimpl.NewSchema(mcptest.WeatherSchema)}

func Example() {
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, serverT, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()

	// Connect wraps the transport so unknown content block types never fail a call.
	session, err := mcpclient.Connect(ctx, clientT, nil)
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c := mcpclient.New(session, mcpclient.WithValidation(runtime.ValidateStrict))

	env, err := mcpclient.Call[Weather](ctx, c, getWeather, map[string]any{"city": "Paris"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v isError=%v\n", env.Data, runtime.MCPMetaOf(env.Meta).IsError)

	// A tool error is a result; AsError makes it a Go error on request.
	res, err := mcpclient.Call[[]runtime.ContentBlock](ctx, c, &mcpclient.Tool{Name: "always-fail"}, nil)
	fmt.Println(err, runtime.MCPMetaOf(res.Meta).IsError, mcpclient.AsError(res))
	// Output:
	// {Temperature:22.5 Conditions:Partly cloudy Humidity:65} isError=false
	// <nil> true EXECUTION_ERROR always-fail: Error: ENOENT: no such file or directory
}

// Progress notifications and _meta of one call, and a middleware that sees
// every call's tool name.
func ExampleWithProgress() {
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, serverT, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	session, err := mcpclient.Connect(ctx, clientT, &mcpclient.ConnectOptions{Name: "example-agent", Version: "0.1.0"})
	if err != nil {
		panic(err)
	}
	defer session.Close()

	logCalls := func(next mcpclient.Invoker) mcpclient.Invoker {
		return func(ctx context.Context, params *mcp.CallToolParams) (*mcp.CallToolResult, error) {
			fmt.Println("calling", params.Name)
			return next(ctx, params)
		}
	}
	c := mcpclient.New(session, mcpclient.WithMiddleware(logCalls))
	tool := &mcpclient.Tool{Name: "progress"}
	_, err = mcpclient.Call[string](ctx, c, tool, map[string]any{"steps": 3},
		mcpclient.WithProgress(func(_ context.Context, p mcpclient.Progress) {
			fmt.Printf("%s: %v/%v %s\n", p.Tool, p.Progress, p.Total, p.Message)
		}),
		mcpclient.WithMeta(map[string]any{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}))
	fmt.Println(err)
	// Output:
	// calling progress
	// progress: 1/3 step 1
	// progress: 2/3 step 2
	// progress: 3/3 step 3
	// <nil>
}
