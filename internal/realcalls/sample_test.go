package realcalls

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/internal/corpus"
)

// TestSampleBySize checks that the sample takes its share from each third
// by size, and is the same for the same seed.
func TestSampleBySize(t *testing.T) {
	dir := t.TempDir()
	var specs []corpus.Spec
	for i := range 30 {
		name := fmt.Sprintf("s%02d.json", i)
		p := filepath.Join(dir, name)
		// s00..s09 small, s10..s19 medium, s20..s29 large.
		if err := os.WriteFile(p, []byte(strings.Repeat(" ", 10+100*(i/10)+i)), 0o644); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, corpus.Spec{Name: name, Path: p})
	}
	got := SampleBySize(specs, 6, 3)
	if len(got) != 6 {
		t.Fatalf("%d specs, want 6", len(got))
	}
	for i, s := range got {
		var n int
		fmt.Sscanf(s.Name, "s%02d.json", &n)
		if n/10 != i/2 {
			t.Errorf("pick %d is %s, want one of the third %d", i, s.Name, i/2)
		}
	}
	if again := SampleBySize(specs, 6, 3); !slices.Equal(got, again) {
		t.Errorf("same seed, other sample: %v, %v", got, again)
	}
	if all := SampleBySize(specs, 0, 3); len(all) != 30 {
		t.Errorf("n=0 gave %d specs", len(all))
	}
}
