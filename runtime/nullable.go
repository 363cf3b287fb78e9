package runtime

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Nullable is an optional property whose schema allows null: it tells the
// three states apart that a pointer cannot, absent (the zero value), null
// and a value. Generated structs use it, with the omitzero option, for
// properties that are optional and nullable:
//
//	type PetPatch struct {
//		Name runtime.Nullable[string] `json:"name,omitzero"`
//	}
//
//	PetPatch{}                                  // {}
//	PetPatch{Name: runtime.Null[string]()}      // {"name":null}
//	PetPatch{Name: runtime.NewNullable("Rex")}  // {"name":"Rex"}
//
// and a decoded response says which state it read (IsSet, IsNull, Get).
// Required or non-nullable properties keep their plain Go types.

type Nullable[T any] struct {
	value T
	state nullState
}

type nullState uint8

const (
	stateAbsent nullState = iota
	stateNull
	stateValue
)

// NewNullable returns a Nullable holding v.
func NewNullable[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: stateValue} }

// Null returns a Nullable holding null (sent as an explicit JSON null).
func Null[T any]() Nullable[T] { return Nullable[T]{state: stateNull} }

// None of the methods is inlined (go:noinline): a generated package has
// hundreds of Nullable types, and the compiler writes wrappers of every
// method for each of them; an inlined body is compiled again into each
// wrapper (GitHub's client: 293 types, 7,500 functions).

// IsSet reports whether the property was present: null or a value.
//
//go:noinline
func (n Nullable[T]) IsSet() bool { return n.state != stateAbsent }

// IsNull reports whether the property was an explicit null.
//
//go:noinline
func (n Nullable[T]) IsNull() bool { return n.state == stateNull }

// IsZero reports whether the property is absent, so that the omitzero
// option leaves it out of JSON.
//
//go:noinline
func (n Nullable[T]) IsZero() bool { return n.state == stateAbsent }

// Get returns the value and whether there is one (false for absent and null).
//
//go:noinline
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == stateValue }

// Or returns the value, or def when absent or null.
//
//go:noinline
func (n Nullable[T]) Or(def T) T {
	if n.state == stateValue {
		return n.value
	}
	return def
}

// Ptr returns a pointer to a copy of the value, or nil when absent or null.
//
//go:noinline
func (n Nullable[T]) Ptr() *T {
	if n.state != stateValue {
		return nil
	}
	v := n.value
	return &v
}

// Set makes n hold v.
//
// The methods build their values themselves rather than call NewNullable
// and Null: each of those would be one more function compiled for every
// Nullable type of a generated package.
//
//go:noinline
func (n *Nullable[T]) Set(v T) { *n = Nullable[T]{value: v, state: stateValue} }

// SetNull makes n hold null.
//
//go:noinline
func (n *Nullable[T]) SetNull() { *n = Nullable[T]{state: stateNull} }

// Unset makes n absent.
//
//go:noinline
func (n *Nullable[T]) Unset() { *n = Nullable[T]{} }

// MarshalJSON writes the value, or null (for null, and for an absent value
// written without omitzero).
//
//go:noinline
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != stateValue {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON reads null or a value; a property absent from the JSON
// leaves n absent.
//
//go:noinline
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = Nullable[T]{state: stateNull}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = Nullable[T]{value: v, state: stateValue}
	return nil
}

// nullableName is the start of the name reflect gives every Nullable type.
var nullableName = func() string {
	n := reflect.TypeFor[Nullable[int]]().Name()
	return n[:len("Nullable[")]
}()

// nullableElem lets the drift repair (gotype.go) see through a Nullable to
// the type of its value: for a Nullable type it returns the type of its
// value field and true. It is a function and not a method on purpose:
// every method of Nullable is compiled once more (and wrapped twice) for
// each type a generated package puts in a Nullable.
func nullableElem(t reflect.Type) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct || t.PkgPath() != nullableType.PkgPath() || !strings.HasPrefix(t.Name(), nullableName) {
		return nil, false
	}
	return t.Field(0).Type, true
}

var nullableType = reflect.TypeFor[Nullable[int]]()
