package e2e_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/composition"
	"github.com/opsgen/opsgen/golden/openapi/forwardcompat"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// A newer server's pet: members the schema does not declare (at the top
// and in a nested object), an enum value and a union variant it does not
// know.
const newerPet = `{"name":"Rex","kind":"hamster","color":"red","tags":["a",{"b":1}],` +
	`"owner":{"email":"a@b.c","phone":"+33 1"},"toy":{"type":"kite","span":3.50,"note":"new"}}`

// Generated with keepUnknownMembers (the forwardcompat golden), what the
// schema does not declare is reachable on each value, and a value sent
// back writes it all again; the raw body is there for a caller who asks.
func TestHTTPForwardCompatibility(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, newerPet, ""))
	client := forwardcompat.NewClient(forwardcompat.WithBaseURL(srv.URL), forwardcompat.WithLogger(slog.New(slog.DiscardHandler)))
	var raw []byte
	env, err := client.GetPet(context.Background(), forwardcompat.GetPetParams{ID: "1"}, httpclient.WithRawBody(&raw))
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) != newerPet {
		t.Errorf("raw body %s", raw)
	}
	pet := env.Data
	if pet.Name != "Rex" || pet.Kind != "hamster" || pet.Kind.Known() {
		t.Errorf("declared members: %+v", pet)
	}
	if string(pet.AdditionalProperties["color"]) != `"red"` || string(pet.AdditionalProperties["tags"]) != `["a",{"b":1}]` || len(pet.AdditionalProperties) != 2 {
		t.Errorf("undeclared members: %s", pet.AdditionalProperties)
	}
	if pet.Owner == nil || *pet.Owner.Email != "a@b.c" || string(pet.Owner.AdditionalProperties["phone"]) != `"+33 1"` {
		t.Errorf("nested undeclared members: %+v", pet.Owner)
	}
	if pet.Toy == nil || pet.Toy.Variant() != "" {
		t.Errorf("unknown variant: %+v", pet.Toy)
	}

	// Sent back: the same JSON value, the unknown variant byte for byte.
	srv.setReply(nil)
	srv.reset()
	if _, err := client.PutPet(context.Background(), forwardcompat.PutPetParams{ID: "1"}, pet); err != nil {
		t.Fatal(err)
	}
	sent := srv.only(t).Body
	var got, want any
	if err := json.Unmarshal(sent, &got); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(newerPet), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sent back\n %s\nwant the same value as\n %s", sent, newerPet)
	}
	for _, part := range []string{`"toy":{"type":"kite","span":3.50,"note":"new"}`, `"kind":"hamster"`} {
		if !strings.Contains(string(sent), part) {
			t.Errorf("sent back %s: %s not written as received", sent, part)
		}
	}
}

// Without keepUnknownMembers too, a union variant the client does not know
// (the composition golden's Pet) is kept as received and written back byte
// for byte, as is an enum value it does not know.
func TestHTTPUnknownVariantRoundTrip(t *testing.T) {
	const parrot = `{"petType":"parrot","id":7,"wings":2,"song":{"notes":["do","re"],"tempo":1.50}}`
	srv := newWireServer(t, replyJSON(200, parrot, ""))
	client := composition.NewClient(composition.WithBaseURL(srv.URL), composition.WithLogger(slog.New(slog.DiscardHandler)))
	env, err := client.GetPet(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if v := env.Data.Variant(); v != "" {
		t.Errorf("variant %q, want none", v)
	}
	b, err := json.Marshal(env.Data)
	if err != nil || string(b) != parrot {
		t.Errorf("re-encoded %s, %v; want %s", b, err, parrot)
	}
	var c composition.Color
	if err := json.Unmarshal([]byte(`"ultra-violet"`), &c); err != nil || c.Known() {
		t.Fatalf("%q %v", c, err)
	}
	if b, _ := json.Marshal(c); string(b) != `"ultra-violet"` {
		t.Errorf("enum re-encoded %s", b)
	}
}
