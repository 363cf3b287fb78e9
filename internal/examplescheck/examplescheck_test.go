package examplescheck

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// examples lists the example modules under examples/.
var examples = []string{"petstore", "mcp"}

func TestExamplesRegenerate(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(root, "examples", name)
			dir := t.TempDir()
			want := copyTree(t, src, dir)
			pointReplaceAt(t, filepath.Join(dir, "go.mod"), root)

			cmd := exec.Command("go", "generate", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOWORK=off") // the copy is its own module, outside any workspace
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go generate ./... in a copy of examples/%s: %v\n%s", name, err, out)
			}

			got := readTree(t, dir)
			for path, w := range want {
				if path == "go.mod" {
					continue // rewritten above
				}
				g, ok := got[path]
				switch {
				case !ok:
					t.Errorf("examples/%s/%s: deleted by go generate", name, path)
				case !bytes.Equal(g, w):
					t.Errorf("examples/%s/%s: stale (run `go generate ./...` in examples/%s): %s", name, path, name, firstDiff(g, w))
				}
			}
			for path := range got {
				if _, ok := want[path]; !ok {
					t.Errorf("examples/%s/%s: written by go generate but not committed", name, path)
				}
			}
		})
	}
}

// copyTree copies the regular files of src into dst and returns their contents
// keyed by slash-separated path relative to src.
func copyTree(t *testing.T, src, dst string) map[string][]byte {
	t.Helper()
	files := readTree(t, src)
	for path, b := range files {
		p := filepath.Join(dst, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// readTree returns the regular files under dir keyed by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// replaceRE matches the example's replace directive for opsgen.
var replaceRE = regexp.MustCompile(`(?m)^replace github\.com/opsgen/opsgen => .*$`)

// pointReplaceAt makes the copied go.mod's replace directive point at the
// repository root, which the copy no longer sits inside.
func pointReplaceAt(t *testing.T, gomod, root string) {
	t.Helper()
	b, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	if !replaceRE.Match(b) {
		t.Fatalf("%s: no `replace github.com/opsgen/opsgen => ...` directive", gomod)
	}
	b = replaceRE.ReplaceAllLiteral(b, []byte("replace github.com/opsgen/opsgen => "+strconv.Quote(root)))
	if err := os.WriteFile(gomod, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d: regenerated %q, committed %q", i+1, gl, wl)
		}
	}
	return "same lines, different bytes"
}
