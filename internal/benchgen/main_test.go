package main

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestReason checks the line picked from a failed generator's stderr:
// log lines skipped, ogen's chain of causes reduced to its last link,
// long lines cut.
func TestReason(t *testing.T) {
	for _, tc := range []struct{ stderr, want string }{
		{"INFO\tconvenient\tnot available\nWARN\tHeader name\n\nFeature \"x\" is not implemented yet.\nTry to create ogen.yml\n", `Feature "x" is not implemented yet.`},
		{"generate:\n    main.run\n        /go/main.go:463\n  - build IR:\n    main.generate\n  - reference \"A\" type name conflict: \"A\":\n    gen.(*tstorage).merge\n", `reference "A" type name conflict: "A":`},
		{"error generating code: duplicate typename\n", "error generating code: duplicate typename"},
		{"", "(no message)"},
		{"- spec.json:1:2 -> " + strings.Repeat("x", 300) + "\n", "- spec.json:1:2 -> " + strings.Repeat("x", 200-len("- spec.json:1:2 -> ")) + "..."},
	} {
		if got := reason(tc.stderr); got != tc.want {
			t.Errorf("reason(%q) = %q, want %q", tc.stderr, got, tc.want)
		}
	}
}

// TestRoundRatio checks that the ratio to the bare decode is taken round
// by round: a slow round of both sides does not move it, unlike the ratio
// of the medians.
func TestRoundRatio(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var ds []time.Duration
		for _, x := range v {
			ds = append(ds, time.Duration(x)*time.Millisecond)
		}
		return ds
	}
	r := result{walls: ms(300, 600, 310)}
	if got := roundRatio(r, ms(100, 200, 100)); got != "3.00x" {
		t.Errorf("roundRatio = %s, want 3.00x", got)
	}
	if got := roundRatio(result{walls: ms(300), err: errors.New("x")}, ms(100)); got != "-" {
		t.Errorf("failed: %s, want -", got)
	}
	if got := roundRatio(r, ms(100, 0, 100)); got != "-" {
		t.Errorf("not JSON: %s, want -", got)
	}
}
