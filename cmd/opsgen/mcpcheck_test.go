package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/testdeps"
)

// listingChanges change testServer's listing, as a server's next release
// might: "compatible" only adds to it, "breaking" also takes away.
var listingChanges = map[string]func(*mcp.Server){
	"compatible": func(s *mcp.Server) {
		mcp.AddTool(s, &mcp.Tool{Name: "reverse", Description: "Reverses its text."},
			func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, echoOut, error) {
				return nil, echoOut(in), nil
			})
		// echo gains an optional input member and an output member.
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes its text."},
			func(_ context.Context, _ *mcp.CallToolRequest, in struct {
				Text  string `json:"text"`
				Times int    `json:"times,omitempty"`
			}) (*mcp.CallToolResult, struct {
				Text   string `json:"text"`
				Length int    `json:"length"`
			}, error) {
				return nil, struct {
					Text   string `json:"text"`
					Length int    `json:"length"`
				}{in.Text, len(in.Text)}, nil
			})
	},
	"breaking": func(s *mcp.Server) {
		s.RemoveTools("add")
		// echo's output text becomes a number.
		mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes its text."},
			func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, struct {
				Text int `json:"text"`
			}, error) {
				return nil, struct {
					Text int `json:"text"`
				}{len(in.Text)}, nil
			})
	},
}

// checkResult is what one mcp check run printed and returned.
type checkResult struct {
	code           int
	stdout, stderr string
}

// wantCheck asserts an mcp check result: its exit code and, in order, the
// lines it printed on standard output.
func wantCheck(t *testing.T, what string, got checkResult, code int, lines ...string) {
	t.Helper()
	var printed []string
	if got.stdout != "" {
		printed = strings.Split(strings.TrimSuffix(got.stdout, "\n"), "\n")
	}
	if got.code != code || strings.Join(printed, "\n") != strings.Join(lines, "\n") {
		t.Errorf("%s: exit %d, stdout:\n%s\nstderr: %s\nwant exit %d, stdout:\n%s", what, got.code, got.stdout, got.stderr, code, strings.Join(lines, "\n"))
	}
}

// The changes listingChanges make, as mcp check prints them.
var (
	compatibleLines = []string{
		`COMPATIBLE echo: /inputSchema/properties/times: new optional input member "times"`,
		`COMPATIBLE echo: /outputSchema/properties/length: new output member "length" (ignored until regenerated)`,
		`COMPATIBLE reverse: tool added (regenerate to call it)`,
	}
	breakingLines = []string{
		`BREAKING   add: tool removed (the generated client still calls it)`,
		`BREAKING   echo: /outputSchema/properties/text/type: output type changed from string to integer (the generated client may fail to decode what the server returns)`,
	}
)

func TestMCPCheckStdio(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server := func(version string) []string {
		return []string{"-env", serverEnv + "=" + version, "--", exe, "-test.run=^$"}
	}
	snap := filepath.Join(t.TempDir(), "tools.json")
	if code, _, stderr := opsgen(t, append([]string{"mcp", "snapshot", "-o", snap}, server("1")...)...); code != 0 {
		t.Fatalf("snapshot: exit %d: %s", code, stderr)
	}
	check := func(version string) checkResult {
		code, stdout, stderr := opsgen(t, append([]string{"mcp", "check", "-snapshot", snap}, server(version)...)...)
		return checkResult{code, stdout, stderr}
	}
	wantCheck(t, "unchanged", check("1"), 0)
	r := check("compatible")
	wantCheck(t, "compatible", r, 0, compatibleLines...)
	if !strings.Contains(r.stderr, "compatible with "+snap+" (3 compatible changes") {
		t.Errorf("compatible: stderr %q", r.stderr)
	}
	r = check("breaking")
	wantCheck(t, "breaking", r, 1, breakingLines...)
	if !strings.Contains(r.stderr, "breaks the client generated from "+snap+" (2 breaking, 0 compatible changes)") {
		t.Errorf("breaking: stderr %q", r.stderr)
	}
}

// TestMCPCheckHTTP changes the listing of a running server between the
// snapshot and the checks.
func TestMCPCheckHTTP(t *testing.T) {
	var mu sync.Mutex
	s := testServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		mu.Lock()
		defer mu.Unlock()
		return s
	}, nil))
	defer srv.Close()
	snap := filepath.Join(t.TempDir(), "tools.json")
	if code, _, stderr := opsgen(t, "mcp", "snapshot", "-o", snap, "-url", srv.URL); code != 0 {
		t.Fatalf("snapshot: exit %d: %s", code, stderr)
	}
	check := func() checkResult {
		code, stdout, stderr := opsgen(t, "mcp", "check", "-snapshot", snap, "-url", srv.URL)
		return checkResult{code, stdout, stderr}
	}
	wantCheck(t, "unchanged", check(), 0)
	listingChanges["compatible"](s)
	wantCheck(t, "compatible", check(), 0, compatibleLines...)
	listingChanges["breaking"](s)
	// Both changes, against the first snapshot: the breaking echo replaced
	// the compatible one; reverse stays.
	wantCheck(t, "breaking", check(), 1, append(breakingLines, compatibleLines[2])...)

	// The capabilities choose the listing, as for snapshot: "summarize" is
	// listed to clients that support sampling only.
	code, stdout, _ := opsgen(t, "mcp", "check", "-snapshot", snap, "-capabilities", "sampling", "-url", srv.URL)
	if code != 1 || !strings.Contains(stdout, "COMPATIBLE summarize: tool added") {
		t.Errorf("-capabilities sampling: exit %d, stdout:\n%s", code, stdout)
	}
}

func TestMCPCheckFailures(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return testServer() }, nil))
	defer srv.Close()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	write(t, bad, `{"tools":[{"inputSchema":{}}]}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-snapshot", filepath.Join(dir, "missing.json"), "-url", srv.URL}, "missing.json: no such file"},
		{[]string{"-snapshot", bad, "-url", srv.URL}, bad + ": mcpdiff: old listing: /tools/0: no name"},
	} {
		code, stdout, stderr := opsgen(t, append([]string{"mcp", "check"}, tc.args...)...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// No server there: exit 1, naming the URL.
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	write(t, filepath.Join(dir, "ok.json"), `{"tools":[]}`)
	code, _, stderr := opsgen(t, "mcp", "check", "-snapshot", filepath.Join(dir, "ok.json"), "-url", gone.URL)
	if code != 1 || !strings.Contains(stderr, "opsgen mcp check: mcpsnapshot: snapshot of "+gone.URL) {
		t.Errorf("closed port: exit %d, stderr %q", code, stderr)
	}
}

// TestMCPCheckEverything checks the npm everything server against its own
// snapshot, and against snapshots edited as if the server had changed.
func TestMCPCheckEverything(t *testing.T) {
	bin := testdeps.MCPServer(t, "server-everything")
	snap := filepath.Join(t.TempDir(), "tools.json")
	if code, _, stderr := opsgen(t, "mcp", "snapshot", "-o", snap, "--", bin, "stdio"); code != 0 {
		t.Fatalf("snapshot: exit %d: %s", code, stderr)
	}
	check := func() checkResult {
		code, stdout, stderr := opsgen(t, "mcp", "check", "-snapshot", snap, "--", bin, "stdio")
		return checkResult{code, stdout, stderr}
	}
	wantCheck(t, "unchanged", check(), 0)

	// Edit the committed snapshot: a tool the server no longer lists, one
	// it lists but the snapshot lacks, a narrowed input enum on the
	// snapshot side (so the live one is wider) and a required input member
	// the snapshot did not have.
	var listing map[string]any
	if err := json.Unmarshal([]byte(read(t, snap)), &listing); err != nil {
		t.Fatal(err)
	}
	tools := listing["tools"].([]any)
	byName := map[string]map[string]any{}
	for _, tool := range tools {
		m := tool.(map[string]any)
		byName[m["name"].(string)] = m
	}
	for _, name := range []string{"echo", "get-sum"} {
		if byName[name] == nil {
			t.Fatalf("the everything server does not list %q any more; tools: %v", name, tools)
		}
	}
	var kept []any
	for _, tool := range tools {
		if tool.(map[string]any)["name"] != "get-sum" {
			kept = append(kept, tool)
		}
	}
	kept = append(kept, map[string]any{"name": "retired-tool", "inputSchema": map[string]any{"type": "object"}})
	echoIn := byName["echo"]["inputSchema"].(map[string]any)
	delete(echoIn["properties"].(map[string]any), "message")
	echoIn["required"] = []any{}
	listing["tools"] = kept
	b, err := json.Marshal(listing)
	if err != nil {
		t.Fatal(err)
	}
	write(t, snap, string(b))
	wantCheck(t, "edited", check(), 1,
		`BREAKING   echo: /inputSchema/properties/message: new required input member "message" (the generated client does not send it)`,
		`COMPATIBLE get-sum: tool added (regenerate to call it)`,
		`BREAKING   retired-tool: tool removed (the generated client still calls it)`)
}
