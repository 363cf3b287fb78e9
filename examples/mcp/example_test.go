package notes_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"

	"example.com/notes/notesmcp"
	"example.com/notes/server"
)

// Example calls the notes server through the generated client, over the
// go-sdk's in-memory transport.
func Example() {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.New().Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	session, err := mcpclient.Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	c := notesmcp.NewClient(session)
	env, err := c.ListNotes(ctx, notesmcp.ListNotesInput{})
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range env.Data.Notes {
		fmt.Println(n.ID, n.Title, n.Tags.Or(nil))
	}
	fmt.Println("isError:", runtime.MCPMetaOf(env.Meta).IsError)
	// Output:
	// n1 Welcome [intro]
	// isError: false
}
