package opsgenimpl

import (
	"testing"
)

func TestEnumKnown(t *testing.T) {
	for _, tt := range []struct {
		values string // joined by NUL
		v      string
		want   bool
	}{
		{"available\x00pending\x00sold\x00", "available", true},
		{"available\x00pending\x00sold\x00", "sold", true},
		{"available\x00pending\x00sold\x00", "", true},
		{"available\x00pending\x00sold\x00", "Sold", false},
		{"available\x00pending\x00sold\x00", "sold ", false},
		{"available\x00pending\x00sold\x00", "pending\x00sold", false},
		{"available\x00pending\x00sold", "", false},
		{"available\x00pending\x00sold", "lost", false},
		{"available\x00pending\x00sold", "availabl", false},
		{"sold", "sold", true},
		{"", "", true},
		{"", "sold", false},
	} {
		if got := EnumKnown(tt.v, tt.values); got != tt.want {
			t.Errorf("EnumKnown(%q, %q) = %v, want %v", tt.v, tt.values, got, tt.want)
		}
	}
}
