package petstore

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"

	"github.com/opsgen/opsgen/compare/petstore/oapiclient"
)

func TestOapiCodegen(t *testing.T) {
	ctx := context.Background()
	var created string
	c, err := oapiclient.NewClientWithResponses(server(t, &created), oapiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("X-API-Key", apiKey)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}

	// A list with query parameters; a date-time.
	status := oapiclient.ListPetsParamsStatus("available")
	r, err := c.ListPetsWithResponse(ctx, &oapiclient.ListPetsParams{Limit: new(int32(2)), Status: &status})
	if err != nil || r.JSON200 == nil || len(*r.JSON200) != 2 {
		t.Fatalf("list: %v", err)
	}
	if b := (*r.JSON200)[0].Born; b == nil || !b.Equal(born) {
		t.Errorf("born = %v", b)
	}

	// A declared 404: a field of the response struct.
	got, err := c.ShowPetByIdWithResponse(ctx, uuid.MustParse(missing))
	if err != nil || got.JSON404 == nil || got.JSON404.Message != "no such pet" {
		t.Fatalf("404: %v", err)
	}

	// An explicit null cannot be sent: a nil *string is left out.
	pet, err := c.CreatePetWithResponse(ctx, oapiclient.CreatePetJSONRequestBody{Name: "Kit"})
	if err != nil || pet.JSON201 == nil || pet.JSON201.Id != 3 || created != `{"name":"Kit"}` {
		t.Fatalf("create: %s %v", created, err)
	}
}
