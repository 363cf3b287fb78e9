package opsgenimpl_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// VariantInto gives what VariantAs gives, value and error, for values
// built with UnionOf (the same type, another type, an interface type) and
// decoded from JSON (a match, a mismatch, nothing).
func TestVariantIntoIsVariantAs(t *testing.T) {
	type pet struct {
		Name string `json:"name"`
		Age  int    `json:"age"`
	}
	type named struct {
		Name string `json:"name"`
	}
	decoded := func(s string) runtime.UnionValue {
		var u runtime.UnionValue
		if err := json.Unmarshal([]byte(s), &u); err != nil {
			t.Fatal(err)
		}
		return u
	}
	for _, u := range []runtime.UnionValue{
		opsgenimpl.UnionOf("Pet", pet{Name: "Rex", Age: 3}),
		opsgenimpl.UnionOf("Named", named{Name: "Tom"}),
		opsgenimpl.UnionOf("Chan", make(chan int)), // does not marshal
		decoded(`{"name":"Kit","age":2}`),
		decoded(`{"name":"Kit","age":"two"}`), // fails after the name
		decoded(`"text"`),
		{},
	} {
		check := func(want any, wantErr error, got any, gotErr error) {
			t.Helper()
			if !reflect.DeepEqual(want, got) || (wantErr == nil) != (gotErr == nil) {
				t.Errorf("%#v: VariantAs %#v, %v; VariantInto %#v, %v", u, want, wantErr, got, gotErr)
			}
		}
		p, err := opsgenimpl.VariantAs[pet](u)
		var p2 pet
		check(p, err, p2, opsgenimpl.VariantInto(u, &p2))
		a, err := opsgenimpl.VariantAs[any](u)
		var a2 any
		check(a, err, a2, opsgenimpl.VariantInto(u, &a2))
		s, err := opsgenimpl.VariantAs[string](u)
		var s2 string
		check(s, err, s2, opsgenimpl.VariantInto(u, &s2))
	}
}
