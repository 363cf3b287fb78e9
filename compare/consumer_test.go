package compare

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/opsgen/opsgen/compare/oapiclient"
	"github.com/opsgen/opsgen/compare/ogenclient"
	"github.com/opsgen/opsgen/compare/opsgenclient"
	"github.com/opsgen/opsgen/runtime"
)

const pet = `{"id":"1","name":"Rex","born":"2020-02-29","nick":"R","kind":{"type":"cat","lives":7}}`

// server answers GET /pets/1 with pet, any other id with a 404 problem,
// and PATCH by recording the body.
func server(t *testing.T, patched *string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPatch {
			b, _ := io.ReadAll(r.Body)
			*patched = string(b)
		}
		if r.URL.Path != "/pets/1" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"title":"no pet"}`)
			return
		}
		io.WriteString(w, pet)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var leapDay = time.Date(2020, time.February, 29, 0, 0, 0, 0, time.UTC)

func TestOpsgen(t *testing.T) {
	ctx := context.Background()
	var patched string
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(server(t, &patched)))

	// A declared 404: the operation's own error type, its body typed.
	_, err := c.GetPet(ctx, opsgenclient.GetPetParams{ID: "2"})
	var nf *opsgenclient.GetPetNotFound
	if !errors.As(err, &nf) || nf.Body.Title != "no pet" {
		t.Fatalf("404: %v", err)
	}

	// A union: a switch over its variant constants.
	env, err := c.GetPet(ctx, opsgenclient.GetPetParams{ID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	lives := 0
	switch env.Data.Kind.Variant() {
	case opsgenclient.CatKind:
		cat, _ := env.Data.Kind.AsCat()
		lives = int(cat.Lives)
	case opsgenclient.DogKind:
	}
	if lives != 7 {
		t.Errorf("lives = %d", lives)
	}

	// A date: runtime.Date.
	if b := env.Data.Born; b == nil || b.In(time.UTC) != leapDay {
		t.Errorf("born = %v", b)
	}

	// An explicit null.
	if _, err := c.PatchPet(ctx, opsgenclient.PatchPetParams{ID: "1"}, opsgenclient.PetPatch{Nick: runtime.Null[string]()}); err != nil {
		t.Fatal(err)
	}
	if patched != `{"nick":null}` {
		t.Errorf("patch body = %s", patched)
	}
}

func TestOgen(t *testing.T) {
	ctx := context.Background()
	var patched string
	c, err := ogenclient.NewClient(server(t, &patched))
	if err != nil {
		t.Fatal(err)
	}

	// A declared 404: one of the result interface's types.
	res, err := c.GetPet(ctx, ogenclient.GetPetParams{ID: "2"})
	if p, ok := res.(*ogenclient.Problem); err != nil || !ok || p.Title != "no pet" {
		t.Fatalf("404: %T %v", res, err)
	}

	// A union: a switch over its Type field.
	res, err = c.GetPet(ctx, ogenclient.GetPetParams{ID: "1"})
	p, ok := res.(*ogenclient.Pet)
	if err != nil || !ok {
		t.Fatalf("%T %v", res, err)
	}
	lives := 0
	switch p.Kind.Type {
	case ogenclient.CatKind:
		lives = p.Kind.Cat.Lives
	case ogenclient.DogKind:
	}
	if lives != 7 {
		t.Errorf("lives = %d", lives)
	}

	// A date: time.Time in an OptDate.
	if b, ok := p.Born.Get(); !ok || !b.Equal(leapDay) {
		t.Errorf("born = %v", p.Born)
	}

	// An explicit null.
	if _, err := c.PatchPet(ctx, &ogenclient.PetPatch{Nick: ogenclient.OptNilString{Set: true, Null: true}}, ogenclient.PatchPetParams{ID: "1"}); err != nil {
		t.Fatal(err)
	}
	if patched != `{"nick":null}` {
		t.Errorf("patch body = %s", patched)
	}
}

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

	// A union: a switch over the discriminator's string value.
	r, err = c.GetPetWithResponse(ctx, "1")
	if err != nil || r.JSON200 == nil {
		t.Fatal(err)
	}
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
