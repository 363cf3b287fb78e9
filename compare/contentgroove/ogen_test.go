package contentgroove

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/compare/contentgroove/ogenclient"
)

type bearer struct{}

func (bearer) BearerHeader(context.Context, ogenclient.OperationName) (ogenclient.BearerHeader, error) {
	return ogenclient.BearerHeader{APIKey: key}, nil
}

func TestOgen(t *testing.T) {
	ctx := context.Background()
	c, err := ogenclient.NewClient(server(t), bearer{})
	if err != nil {
		t.Fatal(err)
	}

	// A media: its name, and a description that is null (not absent).
	res, err := c.GetMediaById(ctx, ogenclient.GetMediaByIdParams{ID: media})
	m, ok := res.(*ogenclient.MediaResponseObject)
	if err != nil || !ok {
		t.Fatalf("media: %T %v", res, err)
	}
	a := m.Data.Value.Attributes.Value
	if a.Name.Value != "Chimp Into Space" || !a.Description.IsNull() {
		t.Errorf("name %q, description %v", a.Name.Value, a.Description)
	}

	// A declared 404: one of the result interface's types.
	res, err = c.GetMediaById(ctx, ogenclient.GetMediaByIdParams{ID: "gone"})
	if _, ok := res.(*ogenclient.GetMediaByIdNotFoundApplicationJSON); err != nil || !ok {
		t.Fatalf("404: %T %v", res, err)
	}
}
