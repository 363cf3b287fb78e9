package main

import (
	"strings"
	"testing"
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
