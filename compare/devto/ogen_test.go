package devto

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/compare/devto/ogenclient"
)

// noKey is the security source: ogen's client requires one even when no
// operation called needs a key.
type noKey struct{}

func (noKey) APIKey(context.Context, ogenclient.OperationName) (ogenclient.APIKey, error) {
	return ogenclient.APIKey{}, nil
}

func TestOgen(t *testing.T) {
	ctx := context.Background()
	c, err := ogenclient.NewClient(server(t), noKey{})
	if err != nil {
		t.Fatal(err)
	}

	// A list by tag; a date-time and a nullable field.
	articles, err := c.GetArticles(ctx, ogenclient.GetArticlesParams{PerPage: ogenclient.NewOptInt32(2), Tag: ogenclient.NewOptString("go")})
	if err != nil || len(articles) != 1 {
		t.Fatalf("articles: %v %v", articles, err)
	}
	a := articles[0]
	if !a.PublishedTimestamp.Equal(published) || !a.CoverImage.IsNull() {
		t.Errorf("published %v, cover %v", a.PublishedTimestamp, a.CoverImage)
	}

	// A declared 404: one of the result interface's types.
	res, err := c.GetOrganization(ctx, ogenclient.GetOrganizationParams{Username: "nobody"})
	if _, ok := res.(*ogenclient.GetOrganizationNotFoundApplicationJSON); err != nil || !ok {
		t.Fatalf("404: %T %v", res, err)
	}
}
