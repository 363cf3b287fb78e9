// Command demo starts the petstore server in-process on 127.0.0.1, calls
// every operation through the generated client and prints each envelope:
// the data as indented JSON, then the HTTP meta. Then it asks for a pet that
// is gone and prints the typed error body the spec declares. Last, it calls
// operations by name through a runtime.Registry: a remote one and a local one.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/runtime"

	"example.com/petstore/api"
	"example.com/petstore/server"
)

const apiKey = "demo-key"

func main() {
	log.SetFlags(0)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: server.New(apiKey)}
	go srv.Serve(ln) // returns when Close is called below
	defer srv.Close()

	baseURL := "http://" + ln.Addr().String()
	fmt.Printf("petstore server listening on %s\n\n", baseURL)
	if err := run(context.Background(), api.NewClient(api.WithBaseURL(baseURL), api.WithAPIKey(apiKey))); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, c *api.Client) error {
	pets, err := c.ListPets(ctx, api.ListPetsParams{Limit: new(int32(10)), Status: new(api.PetStatusAvailable), Tags: []string{"dog"}})
	if err != nil {
		return err
	}
	show("ListPets(status=available, tags=[dog], limit=10)", pets)

	created, err := c.CreatePet(ctx, api.NewPet{Name: "Nibbles", Tags: []string{"hamster"}})
	if err != nil {
		return err
	}
	show("CreatePet(Nibbles)", created)
	id := created.Data.ID

	pet, err := c.GetPet(ctx, api.GetPetParams{PetID: id})
	if err != nil {
		return err
	}
	show(fmt.Sprintf("GetPet(%d)", id), pet)

	deleted, err := c.DeletePet(ctx, api.DeletePetParams{PetID: id})
	if err != nil {
		return err
	}
	show(fmt.Sprintf("DeletePet(%d)", id), deleted)

	// The pet is gone: the 404 is a *runtime.CallError carrying the status
	// and the body decoded into the spec's Error schema.
	_, err = c.GetPet(ctx, api.GetPetParams{PetID: id})
	fmt.Printf("== GetPet(%d) again\nerror: %v\n", id, err)
	if err == nil {
		return fmt.Errorf("GetPet(%d) after DeletePet: no error", id)
	}
	body, ok := runtime.ErrorBody[api.Error](err)
	if !ok {
		return fmt.Errorf("GetPet(%d) after DeletePet: no typed error body in %v", id, err)
	}
	fmt.Printf("status: %d\ntyped body (api.Error):\n", runtime.StatusCode(err))
	printJSON(body)
	fmt.Println()
	return callByName(ctx, c)
}

// callByName registers the client's operations in a runtime.Registry, beside
// a local Go operation, and calls both by name with JSON input: the way
// agents and glue code call them.
func callByName(ctx context.Context, c *api.Client) error {
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		return err
	}
	err := reg.Register(runtime.OperationSpec{ID: "local.greet", Description: "Greets a pet by name."},
		func(ctx context.Context, input json.RawMessage) (any, error) {
			var in struct{ Name string }
			if err := json.Unmarshal(input, &in); err != nil {
				return nil, err
			}
			return map[string]string{"greeting": "Hello, " + in.Name + "!"}, nil
		})
	if err != nil {
		return err
	}

	remote, err := reg.Execute(ctx, "petstore.getPet", json.RawMessage(`{"params": {"petId": 1}}`))
	if err != nil {
		return err
	}
	show(`Registry.Execute("petstore.getPet", {"params": {"petId": 1}})`, remote)
	local, err := reg.Execute(ctx, "local.greet", json.RawMessage(`{"name": "Rex"}`))
	if err != nil {
		return err
	}
	show(`Registry.Execute("local.greet", {"name": "Rex"})`, local)
	return nil
}

// show prints an envelope: its data as indented JSON, then its HTTP meta.
func show[T any](title string, env runtime.ResponseEnvelope[T]) {
	fmt.Printf("== %s\ndata:\n", title)
	printJSON(env.Data)
	if l := runtime.LocalMetaOf(env.Meta); l != nil {
		fmt.Printf("meta: source %s, operation %s\n\n", runtime.SourceOf(env.Meta), l.OperationID)
		return
	}
	m := runtime.HTTPMetaOf(env.Meta)
	fmt.Printf("meta: source %s, status %d, content type %q\n", runtime.SourceOf(env.Meta), m.StatusCode, m.ContentType)
	for _, k := range slices.Sorted(maps.Keys(m.Headers)) {
		fmt.Printf("  %s: %s\n", k, m.Headers[k])
	}
	for _, w := range env.Warnings {
		fmt.Printf("  warning: %s: %s\n", w.Pointer, w.Message)
	}
	fmt.Println()
}

func printJSON(v any) {
	b, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "  (cannot print: %v)\n", err)
		return
	}
	fmt.Println("  " + strings.TrimSpace(string(b)))
}
