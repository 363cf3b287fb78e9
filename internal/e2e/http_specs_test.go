package e2e_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/opsgen/opsgen/golden/openapi/composition"
	"github.com/opsgen/opsgen/golden/openapi/petstore"
	"github.com/opsgen/opsgen/golden/openapi/swagger"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPSwagger calls the client generated from a Swagger 2.0 document:
// every collectionFormat on the wire, basic auth, a body parameter.
func TestHTTPSwagger(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `[{"id":1,"note":null},{"id":2,"note":"n"}]`, ""))
	c := swagger.NewClient(swagger.WithBaseURL(srv.URL+"/v2"), swagger.WithBasic("u", "p"), swagger.WithToken("unused"))

	env, err := c.ListItems(ctx, swagger.ListItemsParams{
		IDs:   []int64{1, 2},
		Csv:   []string{"a", "b"},
		Maybe: ptrTo("m"),
		Multi: []string{"x", "y"},
		Ssv:   []string{"a", "b"},
		Tags:  []string{"t1", "t2"},
		Tsv:   []string{"a", "b"}, // no OpenAPI 3 equivalent: sent as csv (with a warning at generation)
		XIDs:  []string{"i", "j"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/v2/items/1,2?csv=a,b&maybe=m&multi=x&multi=y&ssv=a%20b&tags=t1%7Ct2&tsv=a,b")
	checkWireHeader(t, r, "X-Ids", "i,j")
	checkWireHeader(t, r, "Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte("u:p")))
	if len(env.Data) != 2 || env.Data[0].ID != 1 || !env.Data[0].Note.IsNull() || env.Data[1].Note.Or("") != "n" {
		t.Errorf("data = %+v", env.Data)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings for x-nullable null: %v", env.Warnings)
	}

	srv.reset()
	srv.setReply(replyJSON(201, `{"id":3}`, ""))
	created, err := c.CreateItem(ctx, swagger.Item{ID: 3, Note: runtime.NewNullable("new")})
	if err != nil || created.Data.ID != 3 {
		t.Fatalf("CreateItem = %+v, %v", created, err)
	}
	r = srv.only(t)
	checkWireLine(t, r, "POST", "/v2/items")
	checkWireHeader(t, r, "Content-Type", "application/json")
	if string(r.Body) != `{"id":3,"note":"new"}` {
		t.Errorf("body = %s", r.Body)
	}

	// Absent and an explicit null are two requests (the PATCH case).
	for _, tt := range []struct {
		note runtime.Nullable[string]
		want string
	}{{runtime.Nullable[string]{}, `{"id":4}`}, {runtime.Null[string](), `{"id":4,"note":null}`}} {
		srv.reset()
		srv.setReply(replyJSON(201, `{"id":4}`, ""))
		if _, err := c.CreateItem(ctx, swagger.Item{ID: 4, Note: tt.note}); err != nil {
			t.Fatal(err)
		}
		if r := srv.only(t); string(r.Body) != tt.want {
			t.Errorf("body = %s, want %s", r.Body, tt.want)
		}
	}
}

// TestHTTPDefaultValidation: the swagger golden is generated with
// client.validation: strict, so drift is an error unless the caller
// chooses otherwise.
func TestHTTPDefaultValidation(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(201, `{"id":"three"}`, ""))
	_, err := swagger.NewClient(swagger.WithBaseURL(srv.URL), swagger.WithBasic("u", "p")).CreateItem(ctx, swagger.Item{ID: 3})
	ce := wantCallError(t, err, runtime.CodeValidation)
	if len(ce.Issues) == 0 || ce.Issues[0].Pointer != "/id" {
		t.Errorf("issues = %v", ce.Issues)
	}
	env, err := swagger.NewClient(swagger.WithBaseURL(srv.URL), swagger.WithBasic("u", "p"), swagger.WithValidation(runtime.ValidateWarn), quietSwagger).
		CreateItem(ctx, swagger.Item{ID: 3})
	if err != nil || len(env.Warnings) == 0 {
		t.Errorf("with WithValidation(warn): %+v, %v", env, err)
	}
}

// quietSwagger keeps the pipeline's warnings out of the test log.
var quietSwagger = swagger.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

// TestHTTPPetstore: a JSON array result whose items get the schema's
// defaults, date-times decoded, an apiKey header, and security: [] on
// createPet.
func TestHTTPPetstore(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `[{"id":1,"name":"a"},{"id":2,"name":"b","status":"sold","born":"2024-01-02T03:04:05Z","owner":{"user_id":"u"}}]`, ""))
	c := petstore.NewClient(petstore.WithBaseURL(srv.URL), petstore.WithAPIKey("k"))

	env, err := c.ListPets(ctx, petstore.ListPetsParams{Limit: ptrTo(int32(10)), Status: ptrTo(petstore.ListPetsStatusPending)})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/pets?limit=10&status=pending")
	checkWireHeader(t, r, "X-API-Key", "k")
	if len(env.Data) != 2 {
		t.Fatalf("data = %+v", env.Data)
	}
	if s := env.Data[0].Status; s == nil || *s != petstore.PetStatusAvailable {
		t.Errorf("pet 1 status = %v, want the default available", s)
	}
	born := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	if p := env.Data[1]; p.Status == nil || *p.Status != petstore.PetStatusSold || p.Born == nil || !p.Born.Equal(born) || p.Owner == nil || *p.Owner.UserID != "u" {
		t.Errorf("pet 2 = %+v", p)
	}

	srv.reset()
	srv.setReply(replyJSON(201, `{"id":3,"name":"c"}`, ""))
	if _, err := c.CreatePet(ctx, petstore.CreatePetBody{Name: "c"}); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireHeader(t, r, "X-API-Key") // security: [] on createPet
	if string(r.Body) != `{"name":"c"}` {
		t.Errorf("body = %s", r.Body)
	}

	srv.reset()
	srv.setReply(replyJSON(404, `{"code":404,"message":"no pet"}`, ""))
	//lint:ignore SA1019 deprecated operations are generated and must work too
	_, err = c.ShowPetByID(ctx, petstore.ShowPetByIDParams{PetID: "9b2c"})
	if e, ok := runtime.ErrorBody[petstore.Error](err); !ok || e.Code != 404 || e.Message != "no pet" {
		t.Errorf("ShowPetByID error = %v, typed %+v %v", err, e, ok)
	}
	// The declared 404 is the operation's own error type, its body typed.
	var nf *petstore.ShowPetByIDNotFound
	if !errors.As(err, &nf) || nf.Body.Code != 404 || nf.Body.Message != "no pet" || nf.HTTP.StatusCode != 404 {
		t.Errorf("errors.As(*ShowPetByIDNotFound) on %T %v", err, err)
	}
	checkWireLine(t, srv.only(t), "GET", "/pets/9b2c")
}

// TestHTTPComposition decodes a oneOf result with a discriminator mapping.
func TestHTTPComposition(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		body, variant string
		lives         int32 // of a Cat
	}{
		{`{"petType":"doggo","id":1,"bark":true,"created":"2024-01-02T03:04:05Z"}`, "Dog", 0},
		{`{"petType":"cat","id":2}`, "Cat", 9}, // lives: Cat's default
		// Also a Dog by shape: the discriminator decides, and normalizing
		// as a Cat keeps lives.
		{`{"petType":"cat","id":2,"bark":true,"lives":3}`, "Cat", 3},
	} {
		srv := newWireServer(t, replyJSON(200, tt.body, ""))
		env, err := composition.NewClient(composition.WithBaseURL(srv.URL)).GetPet(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if v := env.Data.Variant(); string(v) != tt.variant {
			t.Errorf("%s: variant %q, want %s", tt.body, v, tt.variant)
		}
		switch tt.variant {
		case "Dog":
			d, err := env.Data.AsDog()
			if err != nil || d.ID != 1 || !d.Bark || d.Created == nil || d.Created.Year() != 2024 {
				t.Errorf("AsDog = %+v, %v", d, err)
			}
		case "Cat":
			c, err := env.Data.AsCat()
			if err != nil || c.ID != 2 || c.PetType != "cat" || c.Lives == nil || *c.Lives != tt.lives {
				t.Errorf("AsCat = %+v, %v", c, err)
			}
		}
		if len(env.Warnings) != 0 {
			t.Errorf("%s: warnings %v", tt.body, env.Warnings)
		}
	}
}
