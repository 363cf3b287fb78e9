package mcpsnapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/mcptools"
	"github.com/opsgen/opsgen/internal/mcptest"
)

// mcptestListing is the committed snapshot of the internal/mcptest server.
var mcptestListing = filepath.Join("..", "..", "testdata", "specs", "mcp", "mcptest-server.json")

func TestSnapshotMCPTestServer(t *testing.T) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcptest.NewServer().Connect(ctx, mcptest.ServerTransport(st), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	got, err := SnapshotTransport(ctx, ct)
	if err != nil {
		t.Fatalf("SnapshotTransport: %v", err)
	}
	if *update {
		if err := os.WriteFile(mcptestListing, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(mcptestListing)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("snapshot differs from %s (run with -update if the change is intended):\n%s", mcptestListing, got)
	}

	// The same listing over streamable HTTP and from the stdio binary.
	http, err := Snapshot(ctx, SnapshotOptions{URL: mcptest.StreamableHTTP(t), Timeout: time.Minute})
	if err != nil {
		t.Fatalf("Snapshot over HTTP: %v", err)
	}
	if !sameListing(http, want) {
		t.Errorf("HTTP snapshot differs:\n%s", http)
	}
	bin := filepath.Join(t.TempDir(), "mcptestserver")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/opsgen/opsgen/internal/mcptest/cmd/mcptestserver").CombinedOutput(); err != nil {
		t.Fatalf("building mcptestserver: %v\n%s", err, out)
	}
	stdio, err := Snapshot(ctx, SnapshotOptions{Command: []string{bin}, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("Snapshot over stdio: %v", err)
	}
	if !sameListing(stdio, want) || transportOf(stdio) != "stdio" {
		t.Errorf("stdio snapshot differs:\n%s", stdio)
	}

	// The listing loads: one operation per tool, the paginated fillers included.
	svc, diags, err := mcptools.LoadData(ctx, want, "mcptest-server.json", mcptools.LoadOptions{})
	if err != nil {
		t.Fatalf("LoadData: %v", err)
	}
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d)
	}
	var listing struct{ Tools []json.RawMessage }
	if err := json.Unmarshal(want, &listing); err != nil {
		t.Fatal(err)
	}
	if n := len(svc.Operations); n != len(listing.Tools) || n <= mcptest.FillerTools+mcptest.PageSize {
		t.Errorf("%d operations for %d tools (%d filler tools, pages of %d)", n, len(listing.Tools), mcptest.FillerTools, mcptest.PageSize)
	}
	weather := toolOp(t, svc, mcptest.ToolWeather)
	if out := weather.Tool.OutputType; out == nil || len(out.Fields) != 3 || weather.GoName != "GetWeather" {
		t.Errorf("get_weather: %s output %+v", weather.GoName, out)
	}
	if echo := toolOp(t, svc, mcptest.ToolEcho); echo.Tool.OutputType != nil {
		t.Errorf("echo has an output type")
	}
}

// toolOp returns the operation of a tool, failing the test when absent.
func toolOp(t *testing.T, svc *ir.Service, tool string) *ir.Operation {
	t.Helper()
	for _, o := range svc.Operations {
		if o.ID == tool {
			return o
		}
	}
	t.Fatalf("no operation for tool %q", tool)
	return nil
}
