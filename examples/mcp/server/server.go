// Package server is a small notes server built with the MCP go-sdk, the
// remote end of the opsgen MCP example. Its tools cover the three result
// shapes a generated client meets: structured content with an output schema
// (add_note, list_notes, get_note), plain content without one (render_note),
// and tool errors reported as results with isError set (get_note and
// render_note for an unknown id).
package server

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Note is a note as the tools send it.
type Note struct {
	ID    string   `json:"id" jsonschema:"the note's id, assigned by the server"`
	Title string   `json:"title"`
	Body  string   `json:"body"`
	Tags  []string `json:"tags,omitempty"`
}

// AddNoteInput is the input of add_note.
type AddNoteInput struct {
	Title string   `json:"title" jsonschema:"a short title"`
	Body  string   `json:"body" jsonschema:"the text of the note, Markdown"`
	Tags  []string `json:"tags,omitempty" jsonschema:"labels to find the note by"`
}

// ListNotesInput is the input of list_notes.
type ListNotesInput struct {
	Tag string `json:"tag,omitempty" jsonschema:"only notes with this tag"`
}

// ListNotesOutput is the output of list_notes.
type ListNotesOutput struct {
	Notes []Note `json:"notes"`
}

// NoteID is the input of the tools that take one note.
type NoteID struct {
	ID string `json:"id" jsonschema:"the note's id"`
}

// store is the server's notes, in the order they were added.
type store struct {
	mu    sync.Mutex
	notes []Note
}

// New returns the notes server, holding one note ("n1").
func New() *mcp.Server {
	st := &store{notes: []Note{{ID: "n1", Title: "Welcome", Body: "Notes live in **memory**.", Tags: []string{"intro"}}}}
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "add_note",
		Title:       "Add a note",
		Description: "Stores a new note and returns it with its id.",
	}, st.add)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "list_notes",
		Description: "Lists the notes, oldest first.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, st.list)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "get_note",
		Description: "Returns one note. An unknown id is a tool error.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, st.get)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "render_note",
		Description: "Renders one note as Markdown text. An unknown id is a tool error.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, st.render)
	return s
}

func (st *store) add(_ context.Context, _ *mcp.CallToolRequest, in AddNoteInput) (*mcp.CallToolResult, Note, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	n := Note{ID: fmt.Sprintf("n%d", len(st.notes)+1), Title: in.Title, Body: in.Body, Tags: in.Tags}
	st.notes = append(st.notes, n)
	return nil, n, nil
}

func (st *store) list(_ context.Context, _ *mcp.CallToolRequest, in ListNotesInput) (*mcp.CallToolResult, ListNotesOutput, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	out := ListNotesOutput{Notes: []Note{}}
	for _, n := range st.notes {
		if in.Tag == "" || slices.Contains(n.Tags, in.Tag) {
			out.Notes = append(out.Notes, n)
		}
	}
	return nil, out, nil
}

func (st *store) get(_ context.Context, _ *mcp.CallToolRequest, in NoteID) (*mcp.CallToolResult, Note, error) {
	n, err := st.find(in.ID)
	return nil, n, err // go-sdk turns an error into a result with isError set
}

func (st *store) render(_ context.Context, _ *mcp.CallToolRequest, in NoteID) (*mcp.CallToolResult, any, error) {
	n, err := st.find(in.ID)
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n", n.Title, n.Body)
	if len(n.Tags) > 0 {
		fmt.Fprintf(&b, "\nTags: %s\n", strings.Join(n.Tags, ", "))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, nil, nil
}

func (st *store) find(id string) (Note, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := slices.IndexFunc(st.notes, func(n Note) bool { return n.ID == id })
	if i < 0 {
		return Note{}, fmt.Errorf("note %q not found", id)
	}
	return st.notes[i], nil
}
