package conform

import (
	"testing"
)

func TestECMAEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`^\u0041$`:   `^\x{0041}$`,
		`\\u0041`:    `\\u0041`,
		`\u00`:       `\u00`,
		`a\d\u00e9b`: `a\d\x{00e9}b`,
		`plain`:      `plain`,
	} {
		if got := ecmaEscapes(in); got != want {
			t.Errorf("ecmaEscapes(%q) = %q, want %q", in, got, want)
		}
	}
}
