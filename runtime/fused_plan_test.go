package runtime

import (
	"reflect"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime/internal/conform"
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
		kind string
	}{
		{reflect.TypeFor[Nullable[string]](), "nullable"},
		{reflect.TypeFor[Nullable[[]union]](), "nullable"},
		{reflect.TypeFor[time.Time](), "time"},
		{reflect.TypeFor[*time.Time](), "pointer"},
		{reflect.TypeFor[Nullable[time.Time]](), "nullable"},
		{reflect.TypeFor[Date](), "text"},
		{reflect.TypeFor[*Date](), "pointer"},
		{reflect.TypeFor[union](), "union"},
		{reflect.TypeFor[*union](), "pointer"},
		{reflect.TypeFor[enum](), "string"},
		{reflect.TypeFor[map[string]Nullable[int64]](), "map"},
		{reflect.TypeFor[notUnion](), "delegate"}, // its UnmarshalJSON is UnionValue's, dropping Extra: encoding/json's to call
	} {
		kind, delegated := conform.PlanOf(c.typ)
		if kind != c.kind {
			t.Errorf("%v: plan kind %s, want %s", c.typ, kind, c.kind)
		}
		if delegated != nil {
			t.Errorf("%v: %v delegated", c.typ, delegated)
		}
	}
}
