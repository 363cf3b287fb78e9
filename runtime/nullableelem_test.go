package runtime

import (
	"reflect"
	"testing"
)

// TestNullableElem: the drift repair sees through every Nullable, and
// through nothing else.
func TestNullableElem(t *testing.T) {
	type named struct{ N int }
	// A struct of Nullable's shape that is not a Nullable.
	type notNullable struct {
		value named     //lint:ignore U1000 only its shape matters
		state nullState //lint:ignore U1000 only its shape matters
	}
	for _, tt := range []struct {
		t    reflect.Type
		want reflect.Type
	}{
		{reflect.TypeFor[Nullable[string]](), reflect.TypeFor[string]()},
		{reflect.TypeFor[Nullable[named]](), reflect.TypeFor[named]()},
		{reflect.TypeFor[Nullable[[]Nullable[int]]](), reflect.TypeFor[[]Nullable[int]]()},
		{reflect.TypeFor[notNullable](), nil},
		{reflect.TypeFor[*Nullable[int]](), nil},
		{reflect.TypeFor[int](), nil},
	} {
		got, ok := nullableElem(tt.t)
		if ok != (tt.want != nil) || got != tt.want {
			t.Errorf("nullableElem(%v) = %v, %v; want %v", tt.t, got, ok, tt.want)
		}
	}
}
