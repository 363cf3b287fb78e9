package devto

import (
	"context"
	"errors"
	"testing"

	"github.com/opsgen/opsgen/compare/devto/opsgenclient"
)

func TestOpsgen(t *testing.T) {
	ctx := context.Background()
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(server(t)))

	// A list by tag; a date-time and a nullable field.
	env, err := c.GetArticles(ctx, opsgenclient.GetArticlesParams{PerPage: new(int32(2)), Tag: new("go")})
	if err != nil || len(env.Data) != 1 {
		t.Fatalf("articles: %v %v", env.Data, err)
	}
	a := env.Data[0]
	if !a.PublishedTimestamp.Equal(published) || a.CoverImage != nil {
		t.Errorf("published %v, cover %v", a.PublishedTimestamp, a.CoverImage)
	}

	// A declared 404 (the spec gives no schema: the body is raw JSON).
	_, err = c.GetOrganization(ctx, opsgenclient.GetOrganizationParams{Username: "nobody"})
	var nf *opsgenclient.GetOrganizationNotFound
	if !errors.As(err, &nf) || string(nf.Body) != `{"error":"not found","status":404}` {
		t.Fatalf("404: %v", err)
	}
}
