package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"
)

// A registry with one local operation, served as an MCP server and called
// by an MCP client over an in-memory transport. A generated client's
// Register puts its remote operations in the registry the same way.
func ExampleNew() {
	ctx := context.Background()
	reg := runtime.NewRegistry(nil)
	err := reg.Register(runtime.OperationSpec{
		ID:           "math.add",
		Description:  "Add two numbers.",
		InputSchema:  json.RawMessage(`{"type":"object","required":["a","b"],"properties":{"a":{"type":"number"},"b":{"type":"number"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}}}`),
		Hints:        &runtime.OperationHints{ReadOnly: new(bool)},
	}, func(ctx context.Context, input json.RawMessage) (any, error) {
		var in struct{ A, B float64 }
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return map[string]float64{"sum": in.A + in.B}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "math"})
	if err != nil {
		log.Fatal(err)
	}

	// Serve one session; a program would call srv.ServeStdio(ctx) or
	// serve srv.Handler() over HTTP instead.
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for _, args := range []string{`{"a":2,"b":3}`, `{"a":2}`} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "math_add", Arguments: json.RawMessage(args)})
		if err != nil {
			log.Fatal(err)
		}
		sc, _ := json.Marshal(res.StructuredContent)
		fmt.Printf("isError=%v structuredContent=%s text=%s\n", res.IsError, sc, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// isError=false structuredContent={"sum":5} text={"sum":5}
	// isError=true structuredContent=null text=VALIDATION_ERROR math.add: invalid input: missing required property "b"
}
