package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/golden/openapi/types"
	"github.com/opsgen/opsgen/internal/customtypes"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPTypes calls the client generated for types.yaml: typed errors
// per status, a union switched over, three-state nullable fields and
// formats held as Go types.
func TestHTTPTypes(t *testing.T) {
	ctx := context.Background()
	var id customtypes.UUID
	if err := id.UnmarshalText([]byte("7f1c2a90-0000-4000-8000-00000000abcd")); err != nil {
		t.Fatal(err)
	}
	srv := newWireServer(t, replyJSON(200, `{"id":"7f1c2a90-0000-4000-8000-00000000abcd","name":"Rex",
		"kind":{"type":"cat","lives":7},"born":"2020-02-29","nick":null,"feeding":"PT8H","lastSeenFrom":"192.0.2.1",
		"network":"192.0.2.0/24","weight":"4.5","position":[1,2]}`, ""))
	c := types.NewClient(types.WithBaseURL(srv.URL))
	env, err := c.GetPet(ctx, types.GetPetParams{ID: id, Since: &runtime.Date{Year: 2024, Month: time.March, Day: 1}})
	if err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/pets/7f1c2a90-0000-4000-8000-00000000abcd?since=2024-03-01")
	p := env.Data
	if p.ID != id || p.Born == nil || p.Born.In(time.UTC).Weekday() != time.Saturday {
		t.Errorf("id %v born %v", p.ID, p.Born)
	}
	if !p.Nick.IsNull() || p.Until.IsSet() {
		t.Errorf("nick %+v until %+v: want null and absent", p.Nick, p.Until)
	}
	if p.Feeding == nil || time.Duration(*p.Feeding) != 8*time.Hour || p.LastSeenFrom == nil || *p.LastSeenFrom != netip.MustParseAddr("192.0.2.1") ||
		p.Network == nil || p.Network.Bits() != 24 {
		t.Errorf("formats: %+v", p)
	}
	// x-go-type on a union (json.Number: its string variant here) and on a tuple.
	if p.Weight != "4.5" || string(p.Position) != "[1,2]" {
		t.Errorf("weight %q position %s", p.Weight, p.Position)
	}
	switch p.Kind.Variant() {
	case types.CatKind:
		cat, err := p.Kind.AsCat()
		if err != nil || cat.Lives != 7 {
			t.Errorf("AsCat = %+v, %v", cat, err)
		}
	default:
		t.Errorf("variant %q, want Cat", p.Kind.Variant())
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings: %v", env.Warnings)
	}

	// Drift: a date that is not one is dropped with a warning, never an error.
	srv.reset()
	srv.setReply(replyJSON(200, `{"id":"7f1c2a90-0000-4000-8000-00000000abcd","name":"Rex","kind":{"type":"dog","bark":true},"born":"someday"}`, ""))
	env, err = c.GetPet(ctx, types.GetPetParams{ID: id})
	if err != nil || env.Data.Born != nil || env.Data.Name != "Rex" || len(env.Warnings) == 0 {
		t.Errorf("drift: %+v %v %v", env.Data, env.Warnings, err)
	}
	if env.Data.Kind.Variant() != types.DogKind {
		t.Errorf("variant %q, want Dog", env.Data.Kind.Variant())
	}

	// Declared error statuses are the operation's types; others stay *CallError.
	for _, tt := range []struct {
		status int
		body   string
		check  func(error) bool
	}{
		{404, `{"title":"no pet","status":404}`, func(err error) bool {
			var e *types.GetPetNotFound
			return errors.As(err, &e) && e.Body.Title == "no pet" && e.HTTP.StatusCode == 404
		}},
		{409, ``, func(err error) bool {
			var e *types.GetPetConflict
			return errors.As(err, &e) && e.HTTP.StatusCode == 409
		}},
		{503, `{"title":"later"}`, func(err error) bool {
			var e *types.GetPetStatus5XX
			return errors.As(err, &e) && e.Body.Title == "later"
		}},
		{418, `{"title":"teapot"}`, func(err error) bool {
			_, plain := err.(*runtime.CallError)
			return plain && runtime.StatusCode(err) == 418
		}},
	} {
		srv.reset()
		srv.setReply(replyJSON(tt.status, tt.body, ""))
		_, err := c.GetPet(ctx, types.GetPetParams{ID: id})
		if !tt.check(err) {
			t.Errorf("status %d: %T %v", tt.status, err, err)
		}
	}

	// PATCH: absent, explicit null and a value are three requests.
	for _, tt := range []struct {
		patch types.PetPatch
		want  string
	}{
		{types.PetPatch{}, `{}`},
		{types.PetPatch{Name: runtime.Null[string](), Tags: runtime.Null[[]string]()}, `{"name":null,"tags":null}`},
		{types.PetPatch{Name: runtime.NewNullable("Max"), Owner: runtime.NewNullable(types.Owner{})}, `{"name":"Max","owner":{}}`},
	} {
		srv.reset()
		srv.setReply(replyJSON(200, `{"id":"7f1c2a90-0000-4000-8000-00000000abcd","name":"Max","kind":{"type":"dog","bark":false}}`, ""))
		if _, err := c.PatchPet(ctx, types.PatchPetParams{ID: id}, tt.patch); err != nil {
			t.Fatal(err)
		}
		if r := srv.only(t); string(r.Body) != tt.want {
			t.Errorf("PATCH body %s, want %s", r.Body, tt.want)
		}
	}
	// A union built in Go is sent as its variant's JSON, discriminator filled in.
	b, err := json.Marshal(types.KindFromCat(types.KindCat{Lives: 9}))
	if err != nil || string(b) != `{"lives":9,"type":"cat"}` {
		t.Errorf("KindFromCat marshals as %s, %v", b, err)
	}
}

// TestHTTPTypesValueMatch gets a value out of a union with the generated
// MatchKind: the function of the variant held, the error of a variant that
// does not decode, and none for JSON no variant matches.
func TestHTTPTypesValueMatch(t *testing.T) {
	describe := func(k types.Kind) (string, error) {
		return types.MatchKind(k,
			func(d types.KindDog) (string, error) { return fmt.Sprintf("dog bark=%v", d.Bark), nil },
			func(c types.KindCat) (string, error) { return fmt.Sprintf("cat lives=%d", c.Lives), nil },
			func(raw json.RawMessage) (string, error) { return "", fmt.Errorf("no variant: %s", raw) })
	}
	for _, tt := range []struct{ json, want, err string }{
		{`{"type":"cat","lives":7}`, "cat lives=7", ""},
		{`{"type":"dog","bark":true}`, "dog bark=true", ""},
		{`{"type":"fish"}`, "", `no variant: {"type":"fish"}`},
		{`{"type":"cat","lives":"many"}`, "", "lives"},
	} {
		var k types.Kind
		if err := json.Unmarshal([]byte(tt.json), &k); err != nil {
			t.Fatalf("%s: %v", tt.json, err)
		}
		got, err := describe(k)
		if got != tt.want || (tt.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("MatchKind(%s) = %q, %v; want %q, error containing %q", tt.json, got, err, tt.want, tt.err)
		}
	}
}
