package runtime

import (
	"encoding/json"
	"testing"
)

type patch struct {
	Name  Nullable[string] `json:"name,omitzero"`
	Age   Nullable[int]    `json:"age,omitzero"`
	Inner Nullable[struct {
		N int `json:"n"`
	}] `json:"inner,omitzero"`
}

func TestNullableThreeStates(t *testing.T) {
	for _, tt := range []struct {
		p    patch
		want string
	}{
		{patch{}, `{}`},
		{patch{Name: Null[string]()}, `{"name":null}`},
		{patch{Name: NewNullable("Rex"), Age: NewNullable(0)}, `{"name":"Rex","age":0}`},
	} {
		b, err := json.Marshal(tt.p)
		if err != nil || string(b) != tt.want {
			t.Errorf("Marshal = %s, %v; want %s", b, err, tt.want)
		}
	}
	var p patch
	if err := json.Unmarshal([]byte(`{"name":null,"age":3}`), &p); err != nil {
		t.Fatal(err)
	}
	if !p.Name.IsSet() || !p.Name.IsNull() || p.Name.Ptr() != nil {
		t.Errorf("name: %+v", p.Name)
	}
	if v, ok := p.Age.Get(); !ok || v != 3 || p.Age.IsNull() || *p.Age.Ptr() != 3 {
		t.Errorf("age: %+v", p.Age)
	}
	if p.Inner.IsSet() || p.Inner.Or(struct {
		N int `json:"n"`
	}{N: 9}).N != 9 {
		t.Errorf("inner: %+v", p.Inner)
	}
	p.Age.SetNull()
	p.Name.Set("x")
	p.Inner.Unset()
	if b, _ := json.Marshal(p); string(b) != `{"name":"x","age":null}` {
		t.Errorf("after setters: %s", b)
	}
}

// A value that does not fit a Nullable's type is drift: dropped with a
// warning (absent), the rest kept; null still fits.
func TestNullableDrift(t *testing.T) {
	var p patch
	warnings, err := decodeFit("op", []byte(`{"name":"ok","age":"three","inner":{"n":"x"}}`), &p)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name.Or("") != "ok" || p.Age.IsSet() || len(warnings) == 0 {
		t.Errorf("got %+v, warnings %v", p, warnings)
	}
	if v, ok := p.Inner.Get(); !ok || v.N != 0 {
		t.Errorf("inner kept without its bad member: %+v", p.Inner)
	}
	p = patch{}
	warnings, err = decodeFit("op", []byte(`{"age":null}`), &p)
	if err != nil || len(warnings) != 0 || !p.Age.IsNull() {
		t.Errorf("null: %+v %v %v", p, warnings, err)
	}
}
