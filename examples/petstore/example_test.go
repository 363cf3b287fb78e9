package petstore_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/opsgen/opsgen/runtime"

	"example.com/petstore/api"
	"example.com/petstore/server"
)

// Example calls the petstore through the generated client.
func Example() {
	ts := httptest.NewServer(server.New("secret"))
	defer ts.Close()

	c := api.NewClient(api.WithBaseURL(ts.URL), api.WithAPIKey("secret"))
	env, err := c.ListPets(context.Background(), api.ListPetsParams{Status: new(api.PetStatusAvailable)})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range env.Data {
		fmt.Println(p.ID, p.Name, p.Status)
	}
	m := runtime.HTTPMetaOf(env.Meta)
	fmt.Println("HTTP", m.StatusCode, "x-total-count:", m.Headers["x-total-count"])
	// Output:
	// 1 Rex available
	// 2 Felix available
	// HTTP 200 x-total-count: 2
}
