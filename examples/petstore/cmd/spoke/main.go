// Command spoke calls the petstore's operations on a hub (cmd/hub) over the
// opsgen call protocol on NATS, in another process: by operation id with
// JSON input, and through the generated client's own methods and types
// (api.WithRemote: the call protocol as the client's transport), as a
// subscription (a local stream of the hub), and once where the hub's policy
// denies it. It prints each envelope in its wire form.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/runtime"

	"example.com/petstore/api"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("spoke: ")
	natsURL := flag.String("nats", "", "URL of the hub's NATS server (required)")
	flag.Parse()
	if *natsURL == "" {
		fmt.Fprintln(os.Stderr, "usage: spoke -nats URL")
		os.Exit(2)
	}
	bus, err := natsbus.Connect(natsbus.Options{URL: *natsURL, Name: "petstore-spoke"})
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	who := &callproto.Identity{Subject: "demo-spoke", Roles: []string{"reader", "writer"}}
	spoke, err := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Identity: who})
	if err != nil {
		log.Fatal(err)
	}
	defer spoke.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, spoke); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, spoke *callproto.PendingRequestMap) error {
	fmt.Printf("spoke %s, identity demo-spoke (roles reader, writer)\n\n", spoke.ID())

	// By id, with JSON input: what an agent or glue code sends.
	env, err := spoke.Call(ctx, "petstore.listPets", json.RawMessage(`{"params": {"limit": 2}}`))
	if err != nil {
		return err
	}
	show(`Call("petstore.listPets", {"params": {"limit": 2}})`, env)

	// The generated client's own methods, with the spoke as transport: the
	// hub runs them against the API; input and output are api's types.
	pets := api.NewClient(api.WithRemote(spoke))
	created, err := pets.CreatePet(ctx, api.NewPet{Name: "Nibbles", Tags: []string{"hamster"}})
	if err != nil {
		return err
	}
	show("pets.CreatePet(api.NewPet{Name: \"Nibbles\"})  (api.WithRemote(spoke))", created)
	pet, err := pets.GetPet(ctx, api.GetPetParams{PetID: created.Data.ID})
	if err != nil {
		return err
	}
	show(fmt.Sprintf("pets.GetPet(api.GetPetParams{PetID: %d})", created.Data.ID), pet)
	fmt.Printf("   typed: pet.Data.Name = %q, pet.Data.Status = %q\n\n", pet.Data.Name, pet.Data.Status)

	// A subscription: the hub's local stream, one envelope per tick.
	type tick struct {
		Tick int `json:"tick"`
		Of   int `json:"of"`
	}
	fmt.Println(`== SubscribeAs[tick]("local.ticks", {"n": 5})`)
	for env, err := range callproto.SubscribeAs[tick](ctx, spoke, "local.ticks", map[string]int{"n": 5}) {
		if err != nil {
			return err
		}
		b, _ := json.Marshal(env)
		fmt.Printf("   %s\n", b)
	}
	fmt.Println()

	// Denied: only an admin may delete.
	_, err = pets.DeletePet(ctx, api.DeletePetParams{PetID: created.Data.ID})
	fmt.Printf("== pets.DeletePet() as demo-spoke\n   error: %v\n   errors.Is(err, runtime.ErrAccessDenied) = %v\n", err, isDenied(err))
	if !isDenied(err) {
		return fmt.Errorf("deletePet was not denied: %v", err)
	}
	return nil
}

func isDenied(err error) bool { return errors.Is(err, runtime.ErrAccessDenied) }

// show prints an envelope in its wire form.
func show[T any](title string, env runtime.ResponseEnvelope[T]) {
	b, err := json.MarshalIndent(env, "   ", "  ")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("== %s\n   %s\n\n", title, b)
}
