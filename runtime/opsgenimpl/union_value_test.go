package opsgenimpl

import (
	"encoding/json"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

type testDog struct {
	Kind string `json:"kind"`
	Bark bool   `json:"bark"`
}

type testCat struct {
	Kind  string `json:"kind"`
	Lives int    `json:"lives"`
}

var testPet = &Union{Discriminator: "kind", Variants: []UnionVariant{
	{Name: "Dog", Tags: []string{"dog"}, JSONKind: "object"},
	{Name: "Cat", Tags: []string{"cat"}, JSONKind: "object"},
}}

func TestUnionValueConstructed(t *testing.T) {
	u := UnionOf("Dog", testDog{Kind: "dog", Bark: true})
	if got := testPet.VariantOf(u); got != "Dog" {
		t.Fatalf("VariantOf = %q", got)
	}
	b, err := json.Marshal(struct {
		Pet runtime.UnionValue `json:"pet"`
	}{u})
	if err != nil || string(b) != `{"pet":{"kind":"dog","bark":true}}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	d, err := VariantAs[testDog](u)
	if err != nil || !d.Bark {
		t.Fatalf("VariantAs[testDog] = %+v, %v", d, err)
	}
	// Asking for another variant decodes the JSON of the held one.
	c, err := VariantAs[testCat](u)
	if err != nil || c.Kind != "dog" || c.Lives != 0 {
		t.Fatalf("VariantAs[testCat] = %+v, %v", c, err)
	}
}

func TestUnionValueDecoded(t *testing.T) {
	var v struct {
		Pet runtime.UnionValue `json:"pet"`
	}
	if err := json.Unmarshal([]byte(`{"pet":{"kind":"cat","lives":7}}`), &v); err != nil {
		t.Fatal(err)
	}
	if got := testPet.VariantOf(v.Pet); got != "Cat" {
		t.Fatalf("VariantOf = %q", got)
	}
	c, err := VariantAs[testCat](v.Pet)
	if err != nil || c.Lives != 7 {
		t.Fatalf("VariantAs = %+v, %v", c, err)
	}
	if string(v.Pet.Raw()) != `{"kind":"cat","lives":7}` {
		t.Fatalf("Raw = %s", v.Pet.Raw())
	}
	var zero runtime.UnionValue
	if !zero.IsZero() || testPet.VariantOf(zero) != "" {
		t.Fatal("zero value holds a variant")
	}
	if b, _ := json.Marshal(zero); string(b) != "null" {
		t.Fatalf("zero marshals as %s", b)
	}
	if _, err := VariantAs[testCat](zero); err == nil {
		t.Fatal("VariantAs on the zero value succeeded")
	}
}
