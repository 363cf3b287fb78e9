package runtime

import (
	"reflect"
	"testing"
	"time"
)

// TestFusedPlansGeneratedTypes: the types generated code uses are decoded
// by the fused path itself, not handed to encoding/json value by value.
func TestFusedPlansGeneratedTypes(t *testing.T) {
	type union struct{ UnionValue }
	type enum string
	type notUnion struct {
		UnionValue
		Extra int
	}
	for _, c := range []struct {
		typ  reflect.Type
		kind planKind
	}{
		{reflect.TypeFor[Nullable[string]](), pNullable},
		{reflect.TypeFor[Nullable[[]union]](), pNullable},
		{reflect.TypeFor[time.Time](), pTime},
		{reflect.TypeFor[*time.Time](), pPointer},
		{reflect.TypeFor[Nullable[time.Time]](), pNullable},
		{reflect.TypeFor[Date](), pText},
		{reflect.TypeFor[*Date](), pPointer},
		{reflect.TypeFor[union](), pUnion},
		{reflect.TypeFor[*union](), pPointer},
		{reflect.TypeFor[enum](), pString},
		{reflect.TypeFor[map[string]Nullable[int64]](), pMap},
		{reflect.TypeFor[notUnion](), pDelegate}, // its UnmarshalJSON is UnionValue's, dropping Extra: encoding/json's to call
	} {
		p := planFor(c.typ)
		if p.kind != c.kind {
			t.Errorf("%v: plan kind %d, want %d", c.typ, p.kind, c.kind)
		}
		for q := p.elem; q != nil; q = q.elem {
			if q.kind == pDelegate {
				t.Errorf("%v: %v delegated", c.typ, q.typ)
			}
		}
	}
}
