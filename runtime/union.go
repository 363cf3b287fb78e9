package runtime

import (
	"bytes"
	"encoding/json"
)

// UnionValue is what a generated union type embeds: the value of one of
// its variants, either as made by a constructor (the Go value and its
// variant) or as decoded (the JSON, decoded into a variant on request).
// It marshals to the variant's JSON (null for the zero value), so a union
// serializes wherever a body or parameter can be.
type UnionValue struct {
	raw     json.RawMessage
	v       any
	variant string
}

// IsZero reports whether the value holds nothing (no variant, no JSON). It
// is not inlined: every generated union type promotes it (see
// opsgenimpl.UnionOf).
//
//go:noinline
func (u UnionValue) IsZero() bool { return u.v == nil && len(u.raw) == 0 }

// Raw returns the value's JSON (nil for the zero value, or a value that
// does not marshal).
func (u UnionValue) Raw() json.RawMessage {
	if u.v != nil {
		b, err := json.Marshal(u.v)
		if err != nil {
			return nil
		}
		return b
	}
	return u.raw
}

// MarshalJSON writes the variant's JSON (null for the zero value).
func (u UnionValue) MarshalJSON() ([]byte, error) {
	if u.v != nil {
		return json.Marshal(u.v)
	}
	if len(u.raw) == 0 {
		return []byte("null"), nil
	}
	return u.raw, nil
}

// UnmarshalJSON keeps a copy of b; the variant is selected and decoded
// when asked for.
//
// Not inlined: see opsgenimpl.UnionOf.
//
//go:noinline
func (u *UnionValue) UnmarshalJSON(b []byte) error {
	*u = UnionValue{raw: bytes.Clone(b)}
	return nil
}
