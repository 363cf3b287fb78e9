package notes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"

	"example.com/notes/notesmcp"
	"example.com/notes/server"
)

// transports connects a client session to a fresh notes server, one way each.
var transports = map[string]func(t *testing.T) mcp.Transport{
	"in-memory": func(t *testing.T) mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := server.New().Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ss.Close() })
		return ct
	},
	"streamable-http": func(t *testing.T) mcp.Transport {
		s := server.New()
		ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		t.Cleanup(ts.Close)
		return &mcp.StreamableClientTransport{Endpoint: ts.URL}
	},
}

func connect(t *testing.T, transport mcp.Transport) *notesmcp.Client {
	t.Helper()
	session, err := mcpclient.Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })
	return notesmcp.NewClient(session)
}

func TestTools(t *testing.T) {
	for name, transport := range transports {
		t.Run(name, func(t *testing.T) { testTools(t, connect(t, transport(t))) })
	}
}

func testTools(t *testing.T, c *notesmcp.Client) {
	ctx := context.Background()

	// A tool with an output schema: Data is the structured content, typed.
	added, err := c.AddNote(ctx, notesmcp.AddNoteInput{Title: "Groceries", Body: "Milk.", Tags: runtime.NewNullable([]string{"todo"})})
	if err != nil {
		t.Fatal(err)
	}
	wantNote := notesmcp.AddNoteOutput{ID: "n2", Title: "Groceries", Body: "Milk.", Tags: runtime.NewNullable([]string{"todo"})}
	if !reflect.DeepEqual(added.Data, wantNote) {
		t.Errorf("add_note data = %+v, want %+v", added.Data, wantNote)
	}
	m := runtime.MCPMetaOf(added.Meta)
	if m == nil || m.IsError {
		t.Fatalf("add_note meta = %+v, want MCP meta without isError", added.Meta)
	}
	var structured map[string]any
	if err := json.Unmarshal(m.StructuredContent, &structured); err != nil || structured["id"] != "n2" {
		t.Errorf("add_note structured content = %s (%v), want the note n2", m.StructuredContent, err)
	}
	if len(added.Warnings) != 0 {
		t.Errorf("add_note warnings: %v", added.Warnings)
	}

	tag := "todo"
	listed, err := c.ListNotes(ctx, notesmcp.ListNotesInput{Tag: &tag})
	if err != nil {
		t.Fatal(err)
	}
	if got := listed.Data.Notes; len(got) != 1 || got[0].ID != "n2" || got[0].Title != "Groceries" {
		t.Errorf("list_notes(todo) = %+v, want only n2", got)
	}
	all, err := c.ListNotes(ctx, notesmcp.ListNotesInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(all.Data.Notes); got != 2 {
		t.Errorf("list_notes() returned %d notes, want 2", got)
	}

	// A tool without an output schema: Data is the content blocks.
	rendered, err := c.RenderNote(ctx, notesmcp.RenderNoteInput{ID: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	wantBlocks := []runtime.ContentBlock{runtime.TextBlock("# Welcome\n\nNotes live in **memory**.\n\nTags: intro\n")}
	if !reflect.DeepEqual(rendered.Data, wantBlocks) {
		t.Errorf("render_note data = %+v, want %+v", rendered.Data, wantBlocks)
	}

	// A tool error is a result with isError set, not a Go error.
	missing, err := c.GetNote(ctx, notesmcp.GetNoteInput{ID: "n99"})
	if err != nil {
		t.Fatalf("get_note(n99): err = %v, want an isError result", err)
	}
	m = runtime.MCPMetaOf(missing.Meta)
	if m == nil || !m.IsError {
		t.Fatalf("get_note(n99) meta = %+v, want isError", missing.Meta)
	}
	if text, _ := runtime.FirstText(m.Content); !strings.Contains(text, `note "n99" not found`) {
		t.Errorf("get_note(n99) content = %+v, want the server's message", m.Content)
	}
	if err := mcpclient.AsError(missing); !errors.Is(err, runtime.ErrExecution) {
		t.Errorf("AsError = %v, want EXECUTION_ERROR", err)
	}
	if err := mcpclient.AsError(added); err != nil {
		t.Errorf("AsError of a success = %v, want nil", err)
	}
}

// TestToolsJSONCurrent checks that the committed tools.json is the server's
// listing, so a tool change without `go generate` fails here.
func TestToolsJSONCurrent(t *testing.T) {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.New().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	got, err := mcpsnapshot.SnapshotTransport(context.Background(), ct)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("tools.json")
	if err != nil {
		t.Fatal(err)
	}
	// go generate snapshots the server over stdio, this test in memory:
	// the listings differ in the transport they name only.
	got = bytes.Replace(got, []byte(`"transport": "in-memory"`), []byte(`"transport": "stdio"`), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("tools.json is not the server's listing; run `go generate ./...`\ngot:\n%s", got)
	}
}
