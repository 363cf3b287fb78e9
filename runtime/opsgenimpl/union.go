package opsgenimpl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/opsgen/opsgen/runtime"
)

// Union describes the variants of a generated union type (a oneOf or anyOf
// schema), so that the generated Variant method can tell which variant a
// value holds without code of its own. Generated code declares one per
// union type.
type Union struct {
	// Discriminator is the property whose value selects the variant, or "".
	Discriminator string
	Variants      []UnionVariant
}

// UnionVariant is one member of a Union.
type UnionVariant struct {
	// Name is what Select returns for this variant.
	Name string
	// Tags are the discriminator values that select it.
	Tags []string
	// JSONKind is the JSON kind that can select it: "object", "array",
	// "string", "number", "integer", "boolean" or "null"; "" matches any.
	JSONKind string
	// Required are the properties whose presence selects it among objects.
	Required []string
}

// Select returns the Name of the variant raw holds, or "" when none matches.
//
// With a Discriminator, an object is matched by the string value of that
// property against the variants' Tags. Otherwise (or when the value is not
// an object) the candidates are the variants of raw's JSON kind (an
// integral number also matches "integer"); among objects, a variant
// matches when all its Required properties are present, and the one with
// the most Required properties wins; ties go to the first declared.
func (u *Union) Select(raw json.RawMessage) string {
	kind := jsonKind(raw)
	if kind == "" {
		return ""
	}
	var obj map[string]json.RawMessage
	if kind == "object" {
		if json.Unmarshal(raw, &obj) != nil {
			return ""
		}
		if u.Discriminator != "" {
			var tag string
			if json.Unmarshal(obj[u.Discriminator], &tag) != nil {
				return ""
			}
			for _, v := range u.Variants {
				for _, t := range v.Tags {
					if t == tag {
						return v.Name
					}
				}
			}
			return ""
		}
	}
	best, bestN := "", -1
	for _, v := range u.Variants {
		if !kindMatches(v.JSONKind, kind, raw) {
			continue
		}
		if kind == "object" && !hasAll(obj, v.Required) {
			continue
		}
		if len(v.Required) > bestN {
			best, bestN = v.Name, len(v.Required)
		}
	}
	return best
}

func hasAll(obj map[string]json.RawMessage, keys []string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			return false
		}
	}
	return true
}

// jsonKind returns the JSON kind of raw from its first significant byte,
// or "" when raw is empty.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

func kindMatches(want, got string, raw json.RawMessage) bool {
	switch {
	case want == "" || want == got:
		return true
	case want == "integer" && got == "number":
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
		return err == nil && f == math.Trunc(f)
	}
	return false
}

// UnionAs decodes the raw JSON of a union as one of its variants. The zero
// union (no raw JSON) is an error.
func UnionAs[T any](raw json.RawMessage) (T, error) {
	var v T
	if len(raw) == 0 {
		return v, fmt.Errorf("opsgen: union holds no value")
	}
	err := json.Unmarshal(raw, &v)
	return v, err
}

// MarshalRaw returns raw, or null when raw is empty (a zero union).
func MarshalRaw(raw json.RawMessage) ([]byte, error) {
	if len(raw) == 0 {
		return []byte("null"), nil
	}
	return raw, nil
}

// MarshalTuple writes a generated tuple type as a JSON array: items (the
// fixed positions) followed by the elements of rest (a slice, or nil).
func MarshalTuple(items []any, rest any) ([]byte, error) {
	arr := make([]json.RawMessage, 0, len(items))
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("opsgen: tuple item %d: %w", i, err)
		}
		arr = append(arr, b)
	}
	if rest != nil {
		b, err := json.Marshal(rest)
		if err != nil {
			return nil, fmt.Errorf("opsgen: tuple rest: %w", err)
		}
		var more []json.RawMessage
		if err := json.Unmarshal(b, &more); err != nil {
			return nil, fmt.Errorf("opsgen: tuple rest is not an array: %w", err)
		}
		arr = append(arr, more...)
	}
	return json.Marshal(arr)
}

// UnmarshalTuple reads a JSON array into a generated tuple type: items are
// pointers to its fixed positions, rest a pointer to the slice taking the
// remaining elements (or nil to ignore them). Positions missing from a
// short array keep their zero values.
func UnmarshalTuple(b []byte, items []any, rest any) error {
	var arr []json.RawMessage
	if err := json.Unmarshal(b, &arr); err != nil {
		return fmt.Errorf("opsgen: tuple: %w", err)
	}
	for i, it := range items {
		if i >= len(arr) {
			break
		}
		if err := json.Unmarshal(arr[i], it); err != nil {
			return fmt.Errorf("opsgen: tuple item %d: %w", i, err)
		}
	}
	if rest == nil || len(arr) <= len(items) {
		return nil
	}
	more, err := json.Marshal(arr[len(items):])
	if err != nil {
		return err
	}
	if err := json.Unmarshal(more, rest); err != nil {
		return fmt.Errorf("opsgen: tuple rest: %w", err)
	}
	return nil
}

// UnionOf returns a runtime.UnionValue holding v as the named variant.
//
// This function and the methods below that a generated union type calls or
// gets promoted are not inlined (go:noinline): a generated package has
// hundreds of union types, each with constructors, Variant, Match and a
// wrapper of every promoted method for itself and its pointer type, and an
// inlined body is compiled again into each of them. The call costs a few
// nanoseconds; the inlined copies cost seconds of every build of the
// package.
//
//go:noinline
func UnionOf(variant string, v any) runtime.UnionValue {
	return rt.UnionOf(variant, v)
}

// VariantOf returns the name of the variant u holds as d selects it
// (see Union.Select), or the variant it was made with.
//
// Not inlined: see UnionOf.
//
//go:noinline
func (d *Union) VariantOf(u runtime.UnionValue) string {
	v, variant, raw := rt.UnionParts(u)
	if v != nil {
		return variant
	}
	return d.Select(raw)
}

// VariantAs returns u as variant type T: the value it was made with when
// that is a T, else its JSON decoded into T. The zero union is an error.
func VariantAs[T any](u runtime.UnionValue) (T, error) {
	uv, _, raw := rt.UnionParts(u)
	if v, ok := uv.(T); ok {
		return v, nil
	}
	if uv != nil {
		b, err := json.Marshal(uv)
		if err != nil {
			var zero T
			return zero, err
		}
		return UnionAs[T](b)
	}
	return UnionAs[T](raw)
}
