package petstore

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/opsgen/opsgen/compare/petstore/ogenclient"
)

type key struct{}

func (key) ApiKey(context.Context, ogenclient.OperationName) (ogenclient.ApiKey, error) {
	return ogenclient.ApiKey{APIKey: apiKey}, nil
}

func TestOgen(t *testing.T) {
	ctx := context.Background()
	var created string
	c, err := ogenclient.NewClient(server(t, &created), key{})
	if err != nil {
		t.Fatal(err)
	}

	// A list with query parameters; a date-time.
	res, err := c.ListPets(ctx, ogenclient.ListPetsParams{Limit: ogenclient.NewOptInt32(2), Status: ogenclient.NewOptListPetsStatus(ogenclient.ListPetsStatusAvailable)})
	pets, ok := res.(*ogenclient.ListPetsOKApplicationJSON)
	if err != nil || !ok || len(*pets) != 2 {
		t.Fatalf("list: %T %v", res, err)
	}
	if b, ok := (*pets)[0].Born.Get(); !ok || !b.Equal(born) {
		t.Errorf("born = %v", (*pets)[0].Born)
	}

	// A declared 404: one of the result interface's types.
	got, err := c.ShowPetById(ctx, ogenclient.ShowPetByIdParams{PetId: uuid.MustParse(missing)})
	if e, ok := got.(*ogenclient.Error); err != nil || !ok || e.Message != "no such pet" {
		t.Fatalf("404: %T %v", got, err)
	}

	// An explicit null.
	pet, err := c.CreatePet(ctx, &ogenclient.CreatePetReq{Name: "Kit", Tag: ogenclient.OptNilString{Set: true, Null: true}})
	if err != nil || pet.ID != 3 || created != `{"name":"Kit","tag":null}` {
		t.Fatalf("create: %s %v", created, err)
	}
}
