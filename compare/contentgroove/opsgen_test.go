package contentgroove

import (
	"context"
	"errors"
	"testing"

	"github.com/opsgen/opsgen/compare/contentgroove/opsgenclient"
)

func TestOpsgen(t *testing.T) {
	ctx := context.Background()
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(server(t)), opsgenclient.WithBearerHeader(key))

	// A media: its name, and a description that is null (not absent).
	env, err := c.GetMediaByID(ctx, opsgenclient.GetMediaByIDParams{ID: media})
	if err != nil || env.Data.Data == nil || env.Data.Data.Attributes == nil {
		t.Fatalf("media: %v", err)
	}
	a := env.Data.Data.Attributes
	if *a.Name != "Chimp Into Space" || !a.Description.IsNull() {
		t.Errorf("name %q, description %v", *a.Name, a.Description)
	}

	// A declared 404 (the spec gives no schema: the body is raw JSON).
	_, err = c.GetMediaByID(ctx, opsgenclient.GetMediaByIDParams{ID: "gone"})
	var nf *opsgenclient.GetMediaByIDNotFound
	if !errors.As(err, &nf) || len(nf.Body) == 0 {
		t.Fatalf("404: %v", err)
	}
}
