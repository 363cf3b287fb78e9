package runtime

import (
	"bytes"
	"reflect"
	"unsafe"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// The checker, normalizer and decoder of the pipeline are package
// runtime/internal/conform; this file is what joins it to this package's
// types.

func init() {
	conform.SetTypes(conform.Types{
		NullableElem:  nullableElem,
		NullableNull:  uint8(stateNull),
		NullableValue: uint8(stateValue),
		UnionValue:    reflect.TypeFor[UnionValue](),
		SetUnionRaw: func(p unsafe.Pointer, raw []byte) {
			// UnionValue's UnmarshalJSON: a copy of the value's JSON.
			*(*UnionValue)(p) = UnionValue{raw: bytes.Clone(raw)}
		},
	})
}

// Warning and conform.Issue are the same struct (this conversion compiles
// only while they are), so a slice of one is a slice of the other.
var _ = Warning(conform.Issue{})

// warningsOf returns issues as warnings, sharing their memory.
func warningsOf(issues []conform.Issue) []Warning {
	if issues == nil {
		return nil
	}
	return unsafe.Slice((*Warning)(unsafe.Pointer(unsafe.SliceData(issues))), len(issues))
}

// decodeFit decodes b into out, dropping the values out's Go type cannot
// hold with a warning each (without operation id; see conform.DecodeFit).
// It fails only when b is not JSON (CodeDecode) or out is not a non-nil
// pointer.
func decodeFit(operationID string, b []byte, out any) ([]Warning, error) {
	issues, err := conform.DecodeFit(b, out)
	if err != nil {
		return nil, decodeError(operationID, err)
	}
	return warningsOf(issues), nil
}

// fusedSchema is the schema the fused path checks with in p's mode: none
// in ValidateOff mode.
func fusedSchema(p *Pipeline, s *conform.Schema) *conform.Schema {
	if p.mode() == ValidateOff {
		return nil
	}
	return s
}
