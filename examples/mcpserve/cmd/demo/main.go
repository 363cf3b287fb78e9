// Command demo starts the petstore example's server in-process, serves its
// API as MCP tools (package serve) over an in-memory transport, and acts
// as an MCP client: it lists the tools with their annotations, then calls
// a few and prints each result as the client receives it (structured
// content, text, isError).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/mcpserve/serve"
	"example.com/petstore/server"
)

const apiKey = "demo-key"

func main() {
	log.SetFlags(0)
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	petstore := &http.Server{Handler: server.New(apiKey)}
	go petstore.Serve(ln) // returns when Close is called below
	defer petstore.Close()

	srv, err := serve.New("http://"+ln.Addr().String(), apiKey)
	if err != nil {
		log.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "demo", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("== tools/list")
	for _, t := range tools.Tools {
		a, _ := json.Marshal(t.Annotations)
		fmt.Printf("%-20s %-30s output schema: %-5v annotations: %s\n", t.Name, t.Description, t.OutputSchema != nil, a)
	}
	calls := []struct {
		tool string
		args string
	}{
		{"petstore_listPets", `{"params":{"status":"available","limit":10}}`},
		{"petstore_createPet", `{"body":{"name":"Nibbles","tags":["hamster"]}}`},
		{"petstore_getPet", `{"params":{"petId":4}}`},
		{"petstore_deletePet", `{"params":{"petId":4}}`},
		{"petstore_getPet", `{"params":{"petId":4}}`},  // gone: an isError result naming the code
		{"petstore_createPet", `{"body":{"name":""}}`}, // invalid arguments: isError VALIDATION_ERROR
	}
	for _, c := range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			log.Fatalf("%s: %v", c.tool, err)
		}
		fmt.Printf("\n== tools/call %s %s\n", c.tool, c.args)
		if res.StructuredContent != nil {
			b, _ := json.Marshal(res.StructuredContent)
			fmt.Printf("structuredContent: %s\n", b)
		}
		for _, content := range res.Content {
			if t, ok := content.(*mcp.TextContent); ok {
				fmt.Printf("text: %s\n", t.Text)
			}
		}
		fmt.Printf("isError: %v\n", res.IsError)
	}
}
