package pattern_test

import (
	"testing"

	"github.com/opsgen/opsgen/runtime/internal/conform"
	_ "github.com/opsgen/opsgen/runtime/pattern"
)

// Importing the package installs Go's regexp: patterns are checked, and
// ECMA-262's \u escapes are read; a pattern Go cannot compile is not
// checked.
func TestInstalled(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		match      bool
	}{
		{`^[A-Z]+$`, "ABC", true},
		{`^[A-Z]+$`, "abc", false},
		{`^\u0041+$`, "AAA", true},
		{`^\u0041+$`, "B", false},
	} {
		p := conform.CompilePattern(c.pattern)
		if p == nil {
			t.Fatalf("%s: not compiled", c.pattern)
		}
		if got := p.MatchString(c.s); got != c.match {
			t.Errorf("%s on %q: %v, want %v", c.pattern, c.s, got, c.match)
		}
	}
	if p := conform.CompilePattern(`^(?!x)`); p != nil {
		t.Errorf("lookahead compiled: %v", p)
	}
}
