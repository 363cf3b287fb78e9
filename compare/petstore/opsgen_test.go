package petstore

import (
	"context"
	"errors"
	"testing"

	"github.com/opsgen/opsgen/compare/petstore/opsgenclient"
	"github.com/opsgen/opsgen/runtime"
)

func TestOpsgen(t *testing.T) {
	ctx := context.Background()
	var created string
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(server(t, &created)), opsgenclient.WithAPIKey(apiKey))

	// A list with query parameters; a date-time.
	env, err := c.ListPets(ctx, opsgenclient.ListPetsParams{Limit: new(int32(2)), Status: new(opsgenclient.ListPetsStatusAvailable)})
	if err != nil || len(env.Data) != 2 {
		t.Fatalf("list: %v %v", env.Data, err)
	}
	if b := env.Data[0].Born; b == nil || !b.Equal(born) {
		t.Errorf("born = %v", b)
	}

	// A declared 404.
	_, err = c.ShowPetByID(ctx, opsgenclient.ShowPetByIDParams{PetID: missing})
	var nf *opsgenclient.ShowPetByIDNotFound
	if !errors.As(err, &nf) || nf.Body.Message != "no such pet" {
		t.Fatalf("404: %v", err)
	}

	// An explicit null.
	pet, err := c.CreatePet(ctx, opsgenclient.CreatePetBody{Name: "Kit", Tag: runtime.Null[string]()})
	if err != nil || pet.Data.ID != 3 || created != `{"name":"Kit","tag":null}` {
		t.Fatalf("create: %s %v", created, err)
	}
}
