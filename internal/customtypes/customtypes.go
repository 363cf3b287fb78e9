// Package customtypes holds a Go type that generated code uses through the
// configuration's types mapping in the goldens (format uuid), standing in
// for a library type such as github.com/google/uuid.UUID.
package customtypes

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// UUID is an RFC 9562 UUID in its text form (8-4-4-4-12 hex digits).
type UUID [16]byte

// MarshalText writes the canonical lower-case form.
func (u UUID) MarshalText() ([]byte, error) {
	h := hex.EncodeToString(u[:])
	return []byte(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]), nil
}

// UnmarshalText reads the 8-4-4-4-12 form.
func (u *UUID) UnmarshalText(b []byte) error {
	s := string(b)
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return fmt.Errorf("uuid %q: want 8-4-4-4-12 hex digits", s)
	}
	raw, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
	if err != nil {
		return fmt.Errorf("uuid %q: %w", s, err)
	}
	copy(u[:], raw)
	return nil
}
