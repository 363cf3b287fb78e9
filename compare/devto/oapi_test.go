package devto

import (
	"context"
	"net/http"
	"testing"

	"github.com/opsgen/opsgen/compare/devto/oapiclient"
)

func TestOapiCodegen(t *testing.T) {
	ctx := context.Background()
	c, err := oapiclient.NewClientWithResponses(server(t))
	if err != nil {
		t.Fatal(err)
	}

	// A list by tag; a date-time and a nullable field.
	r, err := c.GetArticlesWithResponse(ctx, &oapiclient.GetArticlesParams{PerPage: new(oapiclient.PerPageParam30to1000(2)), Tag: new("go")})
	if err != nil || r.JSON200 == nil || len(*r.JSON200) != 1 {
		t.Fatalf("articles: %v", err)
	}
	a := (*r.JSON200)[0]
	if !a.PublishedTimestamp.Equal(published) || a.CoverImage != nil {
		t.Errorf("published %v, cover %v", a.PublishedTimestamp, a.CoverImage)
	}

	// A declared 404 without a schema: only the status code says so.
	o, err := c.GetOrganizationWithResponse(ctx, "nobody")
	if err != nil || o.StatusCode() != http.StatusNotFound {
		t.Fatalf("404: %v", err)
	}
}
