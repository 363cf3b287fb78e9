package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPick resolves fixed picks against the roots in order and reports a
// pick found under none with its file and line.
func TestPick(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, p := range []string{filepath.Join(a, "x.json"), filepath.Join(b, "y", "z.yaml"), filepath.Join(a, "w.json")} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fixed := filepath.Join(t.TempDir(), "fixed.txt")
	if err := os.WriteFile(fixed, []byte("# comment\nx.json\n\ny/z.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	specs, err := pick(fixed, 5, 1, []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	// The sample adds what the first root has besides the fixed picks.
	if got := strings.Join(names, " "); got != "x.json y/z.yaml w.json" {
		t.Errorf("picked %s", got)
	}
	if err := os.WriteFile(fixed, []byte("x.json\nnope.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pick(fixed, 0, 1, []string{a, b}); err == nil || !strings.Contains(err.Error(), "fixed.txt:2: nope.json") {
		t.Errorf("missing pick: %v", err)
	}
}
