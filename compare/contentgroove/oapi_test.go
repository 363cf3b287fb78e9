package contentgroove

import (
	"context"
	"net/http"
	"testing"

	"github.com/opsgen/opsgen/compare/contentgroove/oapiclient"
)

func TestOapiCodegen(t *testing.T) {
	ctx := context.Background()
	c, err := oapiclient.NewClientWithResponses(server(t), oapiclient.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", key)
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}

	// A media: its name; a null description is a nil *string, as an
	// absent one would be.
	r, err := c.GetMediaByIdWithResponse(ctx, media)
	if err != nil || r.JSON200 == nil || r.JSON200.Data == nil || r.JSON200.Data.Attributes == nil {
		t.Fatalf("media: %v", err)
	}
	a := r.JSON200.Data.Attributes
	if *a.Name != "Chimp Into Space" || a.Description != nil {
		t.Errorf("name %q, description %v", *a.Name, a.Description)
	}

	// A declared 404 without a schema: only the status code says so.
	r, err = c.GetMediaByIdWithResponse(ctx, "gone")
	if err != nil || r.StatusCode() != http.StatusNotFound {
		t.Fatalf("404: %v", err)
	}
}
