package mcpserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStdioInspectorFlow builds internal/petsserver and talks to it as a
// user with the MCP Inspector (or any client of protocol 2025-11-25)
// would, in raw JSON-RPC lines: initialize, notifications/initialized,
// tools/list, tools/call. Then it sends a line over the request size cap,
// which ends the session and the program.
func TestStdioInspectorFlow(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "petsserver")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/petsserver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	backend := newBackend(t, nil)
	cmd := exec.Command(bin, "-upstream", backend.URL, "-max-request", "65536")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)

	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %.80s: %v", line, err)
		}
	}
	// answer reads the next line, which must be the answer to request id.
	answer := func(id int) map[string]any {
		t.Helper()
		done := make(chan bool, 1)
		go func() { done <- lines.Scan() }()
		select {
		case ok := <-done:
			if !ok {
				t.Fatalf("no answer to request %d: %v (stderr: %s)", id, lines.Err(), stderr.String())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to request %d within 20s", id)
		}
		var msg map[string]any
		if err := json.Unmarshal(lines.Bytes(), &msg); err != nil {
			t.Fatalf("answer %q: %v", lines.Text(), err)
		}
		if msg["jsonrpc"] != "2.0" || msg["id"] != float64(id) {
			t.Fatalf("answer %s, want one to request %d", lines.Text(), id)
		}
		return msg
	}
	result := func(id int) map[string]any {
		t.Helper()
		msg := answer(id)
		res, ok := msg["result"].(map[string]any)
		if !ok {
			t.Fatalf("answer to %d is not a result: %v", id, msg)
		}
		return res
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"inspector","version":"0.17"}}}`)
	init := result(1)
	if init["protocolVersion"] != "2025-11-25" || init["serverInfo"].(map[string]any)["name"] != "pets" {
		t.Errorf("initialize: %v", init)
	}
	if _, ok := init["capabilities"].(map[string]any)["tools"]; !ok {
		t.Errorf("initialize: no tools capability: %v", init)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools := map[string]map[string]any{}
	for _, x := range result(2)["tools"].([]any) {
		tl := x.(map[string]any)
		tools[tl["name"].(string)] = tl
	}
	if len(tools) != 6 {
		t.Errorf("tools/list: %d tools, want 6", len(tools))
	}
	if _, ok := tools["pets_getPet"]["outputSchema"]; !ok {
		t.Errorf("pets_getPet has no output schema: %v", tools["pets_getPet"])
	}
	if _, ok := tools["pets_listPets"]["outputSchema"]; ok {
		t.Errorf("pets_listPets has an array output schema at protocol 2025-11-25")
	}

	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pets_getPet","arguments":{"params":{"petId":2}}}}`)
	res := result(3)
	// The backend sends "email": null; the client's Owner.Email is an
	// optional nullable field (runtime.Nullable), so the null survives.
	want := `{"id":2,"name":"Felix","owner":{"email":null,"name":"Bob"},"status":"sold"}`
	if sc, _ := json.Marshal(res["structuredContent"]); string(sc) != want || res["isError"] == true {
		t.Errorf("getPet: %v", res)
	}
	if c := res["content"].([]any)[0].(map[string]any); c["type"] != "text" || c["text"] != want {
		t.Errorf("getPet text block: %v", c)
	}

	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pets_listPets","arguments":{"params":{"status":"sold"}}}}`)
	res = result(4)
	if _, ok := res["structuredContent"]; ok || res["content"].([]any)[0].(map[string]any)["text"] != "["+want+"]" {
		t.Errorf("listPets at 2025-11-25: %v", res)
	}

	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"pets_getPet","arguments":{"params":{"petId":"two"}}}}`)
	res = result(5)
	if res["isError"] != true || !strings.HasPrefix(res["content"].([]any)[0].(map[string]any)["text"].(string), "VALIDATION_ERROR pets.getPet: invalid input: /params/petId") {
		t.Errorf("getPet with a bad id: %v", res)
	}

	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`)
	if e, ok := answer(6)["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
		t.Errorf("unknown tool: %v", e)
	}

	// The server may stop reading (and exit) before the whole line is
	// written: a broken pipe is expected then.
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"pets_createPet","arguments":{"body":{"name":"`+strings.Repeat("x", 70000)+`"}}}}`+"\n")
	exited := make(chan error, 1)
	go func() {
		io.Copy(io.Discard, stdout)
		exited <- cmd.Wait()
	}()
	select {
	case err := <-exited:
		if err == nil || !strings.Contains(stderr.String(), "maximum line length") {
			t.Errorf("after an oversized line: exit %v, stderr %q", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after an oversized line")
	}
}
