// Command demo starts the notes MCP server in-process over streamable HTTP
// on 127.0.0.1, connects to it, calls every tool through the generated client
// and prints each envelope: the data as indented JSON, then the MCP meta
// (isError, content blocks, structured content).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"

	"example.com/notes/notesmcp"
	"example.com/notes/server"
)

func main() {
	log.SetFlags(0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	s := server.New()
	srv := &http.Server{Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	go srv.Serve(ln) // returns when Close is called below
	defer srv.Close()

	url := "http://" + ln.Addr().String()
	fmt.Printf("notes MCP server listening on %s (streamable HTTP)\n\n", url)
	ctx := context.Background()
	session, err := mcpclient.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()
	if err := run(ctx, notesmcp.NewClient(session)); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, c *notesmcp.Client) error {
	added, err := c.AddNote(ctx, notesmcp.AddNoteInput{Title: "Groceries", Body: "Milk, eggs, *coffee*.", Tags: runtime.NewNullable([]string{"todo"})})
	if err != nil {
		return err
	}
	show("add_note (output schema: structured content)", added)

	tag := "todo"
	listed, err := c.ListNotes(ctx, notesmcp.ListNotesInput{Tag: &tag})
	if err != nil {
		return err
	}
	show(`list_notes(tag "todo")`, listed)

	rendered, err := c.RenderNote(ctx, notesmcp.RenderNoteInput{ID: added.Data.ID})
	if err != nil {
		return err
	}
	show("render_note (no output schema: content blocks)", rendered)

	// A tool error is a result, not a Go error: the envelope says isError and
	// carries the server's message; mcpclient.AsError turns it into an error.
	missing, err := c.GetNote(ctx, notesmcp.GetNoteInput{ID: "n99"})
	if err != nil {
		return err
	}
	show(`get_note("n99") (tool error)`, missing)
	fmt.Printf("mcpclient.AsError: %v\n", mcpclient.AsError(missing))
	return nil
}

// show prints an envelope: its data as indented JSON, then its MCP meta.
func show[T any](title string, env runtime.ResponseEnvelope[T]) {
	fmt.Printf("== %s\ndata:\n", title)
	m := runtime.MCPMetaOf(env.Meta)
	if m != nil && m.IsError {
		fmt.Println("  (none: the tool reported an error)")
	} else {
		printJSON(env.Data)
	}
	if m == nil {
		fmt.Printf("meta: source %s\n\n", runtime.SourceOf(env.Meta))
		return
	}
	fmt.Printf("meta: source %s, isError %v\n", runtime.SourceOf(env.Meta), m.IsError)
	for i, b := range m.Content {
		fmt.Printf("  content[%d] %s: %s\n", i, b.Type, strings.ReplaceAll(b.Text, "\n", `\n`))
	}
	if len(m.StructuredContent) > 0 {
		fmt.Printf("  structured content: %s\n", m.StructuredContent)
	}
	for _, w := range env.Warnings {
		fmt.Printf("  warning: %s: %s\n", w.Pointer, w.Message)
	}
	fmt.Println()
}

func printJSON(v any) {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "  (cannot print: %v)\n", err)
		return
	}
	fmt.Println("  " + strings.TrimSpace(string(b)))
}
