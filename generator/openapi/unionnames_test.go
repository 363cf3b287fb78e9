package openapi_test

import (
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// TestUnionNamesStepAside: a union's constructors, variant type and
// constants are allocated in the package namespace with the types, so a
// schema that already has one of those names (PetFromDog, PetKind, DogPet)
// keeps it and the union's name takes a suffix. Before, the constructor
// name was made by the emitter and collided: "union constructor name
// "PetFromDog" is already declared".
func TestUnionNamesStepAside(t *testing.T) {
	svc, diags := load(t, "unioncollide.yaml", openapi.Options{})
	if diags.HasErrors() {
		t.Fatalf("diagnostics: %v", diags)
	}
	pet := typ(t, svc, "Pet")
	typ(t, svc, "PetFromDog")
	typ(t, svc, "PetKind")
	typ(t, svc, "DogPet")
	if pet.VariantKind != "PetKind2" {
		t.Errorf("variant kind = %q", pet.VariantKind)
	}
	want := map[string][2]string{"Dog": {"DogPet2", "PetFromDog2"}, "Cat": {"CatPet", "PetFromCat"}}
	for _, v := range pet.Variants {
		if got := [2]string{v.Const, v.Constructor}; got != want[v.Name] {
			t.Errorf("variant %s: const, constructor = %v, want %v", v.Name, got, want[v.Name])
		}
	}
}
