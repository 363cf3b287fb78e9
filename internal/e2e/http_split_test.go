package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/split"
	"github.com/opsgen/opsgen/golden/openapi/split/pets"
	"github.com/opsgen/opsgen/golden/openapi/split/petstoys"
	"github.com/opsgen/opsgen/golden/openapi/split/users"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPSplit calls operations of two operation packages of the split
// golden (split: tags) through one root client: its options, credentials
// and server URL reach every package, the root's types come back, the
// packages' error types type their failures, and the root's call options
// apply.
func TestHTTPSplit(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(200, `[{"id":1,"name":"Rex"},{"id":2,"name":"Tom","tag":"cat","home":{"city":"Oslo"}},{"id":3,"name":"Kit","home":null}]`, ""))
	c := split.NewClient(split.WithBaseURL(srv.URL), split.WithBearer("tok"), split.WithHeader("X-Client", "split"))

	env, err := pets.New(c).ListPets(ctx, pets.ListPetsParams{Limit: new(int32(2))}, split.WithRequestHeader("X-Call", "1"))
	if err != nil {
		t.Fatal(err)
	}
	// Pet is only pets' operations' type, declared in pets; Address is
	// users' too, declared in the root. Home, optional and nullable, is
	// absent, a value and null: runtime.Nullable of a pointer, in a split
	// API.
	if len(env.Data) != 3 || env.Data[0].Name != "Rex" || env.Data[1].ID != 2 || *env.Data[1].Tag != "cat" || len(env.Warnings) != 0 {
		t.Errorf("data %+v, warnings %v", env.Data, env.Warnings)
	}
	if len(env.Data) == 3 {
		home, ok := env.Data[1].Home.Get()
		if env.Data[0].Home.IsSet() || !ok || home.City == nil || *home.City != "Oslo" || !env.Data[2].Home.IsNull() {
			t.Errorf("homes %+v, %+v, %+v", env.Data[0].Home, env.Data[1].Home, env.Data[2].Home)
		}
		sent, err := json.Marshal(pets.Pet{ID: 4, Name: "Max", Home: runtime.NewNullable(&split.Address{City: new("Rome")})})
		if err != nil || string(sent) != `{"home":{"city":"Rome"},"id":4,"name":"Max"}` {
			t.Errorf("Marshal = %s, %v", sent, err)
		}
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/pets?limit=2")
	checkWireHeader(t, r, "Authorization", "Bearer tok")
	checkWireHeader(t, r, "X-Client", "split")
	checkWireHeader(t, r, "X-Call", "1")

	// The package of a dotted tag ("pets.Toys"), the same client.
	srv.reset()
	srv.setReply(replyJSON(200, `[{"id":5,"squeaks":true}]`, ""))
	toyEnv, err := petstoys.New(c).ListToys(ctx, petstoys.ListToysParams{PetID: 1})
	if err != nil || len(toyEnv.Data) != 1 || toyEnv.Data[0].ID != 5 || toyEnv.Data[0].Squeaks == nil || !*toyEnv.Data[0].Squeaks {
		t.Errorf("ListToys = %+v, %v", toyEnv.Data, err)
	}
	checkWireLine(t, srv.only(t), "GET", "/pets/1/toys")

	// The second package (an untagged operation, by its path /v1/users):
	// the shared error type of the component response NotFound (declared in
	// the root), with the root's Error as body.
	srv.reset()
	srv.setReply(replyJSON(404, `{"message":"no such user"}`, ""))
	_, err = users.New(c).GetUser(ctx, users.GetUserParams{Name: "ann"})
	var notFound *split.NotFoundError
	if !errors.As(err, &notFound) || notFound.Body.Message != "no such user" || notFound.CallError.HTTP.StatusCode != 404 {
		t.Errorf("GetUser error = %v (%T)", err, err)
	}
	checkWireLine(t, srv.only(t), "GET", "/v1/users/ann")

	// The operation without a package stays a method of the root's Client.
	srv.reset()
	srv.setReply(nil)
	if _, err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/")
}

// TestHTTPSplitRegistry registers the operations of a split API, each
// package its own, under the root's namespace, calls one by id, and types
// its failure with the package's TypedError.
func TestHTTPSplitRegistry(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(201, `{"id":9,"name":"Rex"}`, ""))
	c := split.NewClient(split.WithBaseURL(srv.URL), split.WithBearer("tok"))
	reg := runtime.NewRegistry(nil)
	for _, register := range []func(*runtime.Registry) error{c.Register, pets.New(c).Register, users.New(c).Register} {
		if err := register(reg); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for _, op := range reg.Operations() {
		ids = append(ids, op.ID)
	}
	slices.Sort(ids)
	if want := []string{"split.createPet", "split.getUser", "split.listPets", "split.ping", "split.showPet"}; !slices.Equal(ids, want) {
		t.Errorf("registered %q\nwant %q", ids, want)
	}

	env, err := reg.Execute(ctx, "split.createPet", json.RawMessage(`{"body":{"id":9,"name":"Rex"}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/pets")
	checkWireHeader(t, r, "Authorization", "Bearer tok")
	if string(r.Body) != `{"id":9,"name":"Rex"}` {
		t.Errorf("body = %s", r.Body)
	}
	if pet, ok := env.Data.(pets.Pet); !ok || pet.ID != 9 {
		t.Errorf("data = %#v", env.Data)
	}

	// A failure by id: TypedError of the operation's package types it.
	srv.reset()
	srv.setReply(replyJSON(404, `{"message":"gone"}`, ""))
	_, err = reg.Execute(ctx, "split.getUser", json.RawMessage(`{"params":{"name":"bob"}}`))
	ce := wantCallError(t, err, runtime.CodeExecution)
	var notFound *split.NotFoundError
	if typed := users.TypedError(ce); !errors.As(typed, &notFound) || notFound.Body.Message != "gone" {
		t.Errorf("TypedError = %v (%T)", typed, typed)
	}
	if pets.TypedError(ce) != nil {
		t.Error("another package's TypedError typed getUser's failure")
	}
}
