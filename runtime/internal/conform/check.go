package conform

import (
	"cmp"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"unsafe"
)

// Issue is one mismatch between data and its schema, or a value its Go
// type cannot hold. Package runtime's Warning has the same fields, in the
// same order (runtime converts one to the other).
type Issue struct {
	OperationID string
	Pointer     string
	Message     string
}

// Types are package runtime's value types that the fused decoder decodes
// as their methods would (see fused.go) and the drift repair sees
// through. Package runtime sets them in its initialization (SetTypes);
// this package cannot import it.
type Types struct {
	// NullableElem returns the T of a runtime.Nullable[T], and whether t
	// is one. Its state is a uint8 field at StateOffset's result.
	NullableElem func(t reflect.Type) (elem reflect.Type, ok bool)
	// NullableNull and NullableValue are the values of a Nullable's
	// state for null and for a value.
	NullableNull, NullableValue uint8
	// UnionValue is runtime.UnionValue; SetUnionRaw stores a copy of JSON
	// in the UnionValue at p, as its UnmarshalJSON does.
	UnionValue  reflect.Type
	SetUnionRaw func(p unsafe.Pointer, raw []byte)
}

var types = Types{NullableElem: func(reflect.Type) (reflect.Type, bool) { return nil, false }}

// SetTypes installs package runtime's types; call it before any decoding.
func SetTypes(t Types) { types = t }

func nullableElem(t reflect.Type) (reflect.Type, bool) { return types.NullableElem(t) }

// UnusableError is the error of a schema that does not compile: data is
// then decoded without it.
type UnusableError struct{ Err error }

func (e *UnusableError) Error() string { return "output schema is unusable: " + e.Err.Error() }

// Unwrap returns the compiler's error.
func (e *UnusableError) Unwrap() error { return e.Err }

// Check is the one implementation of normalize and validate: it walks
// body against s and returns the body to decode (body itself when nothing
// changes, with changed false) and the issues, without operation ids.
// dropUndeclared drops members the schema does not declare (for targets
// that are not structs). A schema that does not compile is an error
// (an *UnusableError); data that is not JSON is encoding/json's error.
func (s *Schema) Check(body []byte, dropUndeclared bool) (out []byte, changed bool, issues []Issue, err error) {
	if cerr := s.Compile(); s.root == nil {
		return nil, false, nil, &UnusableError{cerr}
	}
	w := newWalker(body, dropUndeclared)
	defer w.release()
	w.document(s.root)
	if w.err != nil {
		var v any
		if jerr := json.Unmarshal(body, &v); jerr != nil {
			return nil, false, nil, jerr
		}
		return nil, false, nil, w.err
	}
	issues = append(w.issues, w.notes...)
	out, ok := w.normalized()
	if !ok {
		out = body
		issues = append(issues, Issue{Message: "normalization skipped: the schema's overlapping parts disagree"})
	}
	if s.fallback != nil {
		issues = append(issues, fallbackIssues(s, out, issues)...)
	}
	return out, ok && len(w.edits) > 0, issues, nil
}

// Fused tries the one-pass path (see fused.go) with s (nil: decode only):
// it returns true when out holds the decoded body and there is nothing to
// report.
func Fused(s *Schema, body []byte, out any) bool {
	if !fusedEnabled {
		return false
	}
	var n *node
	if s != nil {
		if s.Compile(); s.root == nil || s.fallback != nil {
			return false
		}
		n = s.root
	}
	return decodeFused(n, body, out)
}

// DecodeFit decodes the well-formed JSON b into out (a non-nil pointer),
// dropping the values out's Go type cannot hold, with an issue (without
// operation id) for each. Its error is encoding/json's for b that is not
// JSON, or an out that is no non-nil pointer.
func DecodeFit(b []byte, out any) ([]Issue, error) { return decodeFit(b, out) }

// StructTarget reports whether t decodes objects into structs: then
// encoding/json drops undeclared members and the walker need not.
func StructTarget(t reflect.Type) bool {
	for t != nil {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			if t == reflect.TypeFor[json.RawMessage]() {
				return false
			}
			t = t.Elem()
		case reflect.Struct:
			return true
		default:
			return false
		}
	}
	return false
}

// fallbackIssues validates data with the fallback validator, returning the
// issues at pointers the walker did not already report.
func fallbackIssues(schema *Schema, data []byte, known []Issue) []Issue {
	reported := map[string]bool{}
	for _, k := range known {
		reported[k.Pointer] = true
	}
	var out []Issue
	for _, w := range schema.fallback.Validate(data) {
		if !reported[w.Pointer] {
			out = append(out, w)
		}
	}
	// The validator's order need not be stable; sort for deterministic output.
	sort.Sort(byPointer(out))
	return out
}

// byPointer sorts warnings by pointer, then message. It is a sort.Interface
// rather than a slices.SortFunc so that the program shares net/http's
// instance of sort's code instead of linking a copy for Issue.
type byPointer []Issue

func (s byPointer) Len() int      { return len(s) }
func (s byPointer) Swap(i, j int) { s[i], s[j] = s[j], s[i] }
func (s byPointer) Less(i, j int) bool {
	return cmp.Or(strings.Compare(s[i].Pointer, s[j].Pointer), strings.Compare(s[i].Message, s[j].Message)) < 0
}
