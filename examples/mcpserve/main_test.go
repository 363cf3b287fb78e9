package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"example.com/mcpserve/serve"
	"example.com/petstore/server"
)

// TestTools serves the petstore API as MCP tools and calls one through an
// MCP client session.
func TestTools(t *testing.T) {
	ctx := context.Background()
	petstore := httptest.NewServer(server.New("k"))
	defer petstore.Close()
	srv, err := serve.New(petstore.URL, "k")
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if want := []string{"petstore_createPet", "petstore_deletePet", "petstore_getPet", "petstore_listPets"}; !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "petstore_getPet", Arguments: map[string]any{"params": map[string]any{"petId": 3}}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res.StructuredContent)
	if want := `{"id":3,"name":"Bubbles","status":"sold","tags":["fish"]}`; res.IsError || string(got) != want {
		t.Errorf("getPet(3): isError %v, structuredContent %s, want %s", res.IsError, got, want)
	}
}

// TestStdio builds the command and talks to it over stdio in raw JSON-RPC
// lines, as an MCP client that starts it does.
func TestStdio(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mcpserve")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"petstore_listPets","arguments":{"params":{"status":"sold"}}}}`,
	} {
		io.WriteString(stdin, line+"\n")
	}
	var answers []map[string]any
	done := make(chan struct{})
	go func() {
		defer close(done)
		for len(answers) < 2 && lines.Scan() {
			var m map[string]any
			json.Unmarshal(lines.Bytes(), &m)
			answers = append(answers, m)
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no answers within 30s")
	}
	if len(answers) != 2 {
		t.Fatalf("answers: %v", answers)
	}
	res, _ := answers[1]["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 || content[0].(map[string]any)["text"] != `[{"id":3,"name":"Bubbles","status":"sold","tags":["fish"]}]` {
		t.Errorf("tools/call listPets: %v", answers[1])
	}
	// Protocol 2025-11-25 allows only object structured content: the list
	// is in the text block only.
	if _, ok := res["structuredContent"]; ok {
		t.Errorf("structuredContent at 2025-11-25: %v", res)
	}
}
