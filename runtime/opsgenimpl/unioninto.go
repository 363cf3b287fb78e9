package opsgenimpl

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/opsgen/opsgen/runtime"
)

// VariantInto is VariantAs for the variant stored through out, a non-nil
// pointer to the variant's type: generated As<Variant> methods call it
// with a pointer to their result, so that nothing is compiled once per
// variant type. On error *out is what VariantAs would return with it:
// zero, or what decoding the JSON filled in before it failed.
func VariantInto(u runtime.UnionValue, out any) error {
	rv := reflect.ValueOf(out).Elem()
	uv, _, raw := rt.UnionParts(u)
	if uv != nil {
		// As VariantAs's the value's .(T): the same type, or an interface type the
		// value implements.
		if dv := reflect.ValueOf(uv); dv.Type() == rv.Type() || rv.Kind() == reflect.Interface && dv.Type().Implements(rv.Type()) {
			rv.Set(dv)
			return nil
		}
		b, err := json.Marshal(uv)
		if err != nil {
			return err
		}
		return unionInto(b, out)
	}
	return unionInto(raw, out)
}

// unionInto is UnionAs for the value stored through out.
func unionInto(raw json.RawMessage, out any) error {
	if len(raw) == 0 {
		return fmt.Errorf("opsgen: union holds no value")
	}
	return json.Unmarshal(raw, out)
}
