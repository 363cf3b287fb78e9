package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/opsgen/opsgen/generator/mcpsnapshot"
)

// TestListingsAreSnapshots: the listings the clients are generated from
// (testdata/specs/mcp) are what opsgen mcp snapshot reads from the pinned
// servers today, not hand-written.
func TestListingsAreSnapshots(t *testing.T) {
	for _, name := range []string{"memory", "filesystem", "everything"} {
		t.Run(name, func(t *testing.T) {
			argv := []string{serverBin(t, "server-"+name)}
			if name == "filesystem" {
				argv = append(argv, t.TempDir())
			}
			got, err := mcpsnapshot.Snapshot(context.Background(), mcpsnapshot.SnapshotOptions{
				Command: argv, Env: []string{"MEMORY_FILE_PATH=" + filepath.Join(t.TempDir(), "m.jsonl")}, Timeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "specs", "mcp", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("testdata/specs/mcp/%s.json differs from the server's listing; refresh it with opsgen mcp snapshot", name)
			}
		})
	}
}
