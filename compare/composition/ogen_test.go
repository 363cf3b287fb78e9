package composition

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/compare/composition/ogenclient"
)

func TestOgen(t *testing.T) {
	ctx := context.Background()
	var patched string
	c, err := ogenclient.NewClient(server(t, &patched))
	if err != nil {
		t.Fatal(err)
	}

	// A declared 404: one of the result interface's types.
	res, err := c.GetPet(ctx, ogenclient.GetPetParams{ID: "2"})
	if p, ok := res.(*ogenclient.Problem); err != nil || !ok || p.Title != "no pet" {
		t.Fatalf("404: %T %v", res, err)
	}

	res, err = c.GetPet(ctx, ogenclient.GetPetParams{ID: "1"})
	p, ok := res.(*ogenclient.Pet)
	if err != nil || !ok {
		t.Fatalf("%T %v", res, err)
	}
	// allOf: one struct with the fields of both.
	if p.Name != "Rex" {
		t.Errorf("name = %q", p.Name)
	}

	// A oneOf: a switch over its Type field.
	lives := 0
	switch p.Kind.Type {
	case ogenclient.CatKind:
		lives = p.Kind.Cat.Lives
	case ogenclient.DogKind:
	}
	if lives != 7 {
		t.Errorf("lives = %d", lives)
	}

	// An anyOf: the same, in an OptTag.
	if tag, ok := p.Tag.Get(); !ok || tag.Type != ogenclient.StringTag || tag.String != "fluffy" {
		t.Errorf("tag = %v", p.Tag)
	}

	// A date: time.Time in an OptDate.
	if b, ok := p.Born.Get(); !ok || !b.Equal(leapDay) {
		t.Errorf("born = %v", p.Born)
	}

	// An explicit null.
	if _, err := c.PatchPet(ctx, &ogenclient.PetPatch{Nick: ogenclient.OptNilString{Set: true, Null: true}}, ogenclient.PatchPetParams{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	if patched != `{"nick":null}` {
		t.Errorf("patch body = %s", patched)
	}
}
