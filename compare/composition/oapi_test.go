package composition

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/compare/composition/oapiclient"
)

func TestOapiCodegen(t *testing.T) {
	ctx := context.Background()
	var patched string
	c, err := oapiclient.NewClientWithResponses(server(t, &patched))
	if err != nil {
		t.Fatal(err)
	}

	// A declared 404: a field of the response struct, nil for other statuses.
	r, err := c.GetPetWithResponse(ctx, "2")
	if err != nil || r.JSON404 == nil || r.JSON404.Title != "no pet" {
		t.Fatalf("404: %v", err)
	}

	r, err = c.GetPetWithResponse(ctx, "1")
	if err != nil || r.JSON200 == nil {
		t.Fatal(err)
	}
	// allOf: one struct with the fields of both.
	if r.JSON200.Name != "Rex" {
		t.Errorf("name = %q", r.JSON200.Name)
	}

	// A oneOf: a switch over the discriminator's string value.
	lives := 0
	disc, _ := r.JSON200.Kind.Discriminator()
	switch disc {
	case "cat":
		cat, _ := r.JSON200.Kind.AsCat()
		lives = cat.Lives
	case "dog":
	}
	if lives != 7 {
		t.Errorf("lives = %d", lives)
	}

	// An anyOf: no variant is named; try each type in turn.
	if tag := r.JSON200.Tag; tag == nil {
		t.Error("no tag")
	} else if s, err := tag.AsTag0(); err != nil || s != "fluffy" {
		t.Errorf("tag = %q %v", s, err)
	}

	// A date: openapi_types.Date, a time.Time inside.
	if b := r.JSON200.Born; b == nil || !b.Time.Equal(leapDay) {
		t.Errorf("born = %v", b)
	}

	// An explicit null cannot be sent: a nil *string is left out.
	if _, err := c.PatchPetWithResponse(ctx, "1", oapiclient.PetPatch{Nick: nil}); err != nil {
		t.Fatal(err)
	}
	if patched != `{}` {
		t.Errorf("patch body = %s", patched)
	}
}
