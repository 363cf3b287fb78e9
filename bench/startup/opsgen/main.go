// Command opsgen constructs a generated client and exits: the start-up
// cost (package initialisation) and binary size a consumer pays for
// linking one. With a base URL argument it makes one call, so that the
// call path is linked as in a real program. See BenchmarkStartup.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/opsgen/opsgen/bench/opsgenclient"
)

func main() {
	base := "http://127.0.0.1:1"
	if len(os.Args) > 1 {
		base = os.Args[1]
	}
	c := opsgenclient.NewClient(opsgenclient.WithBaseURL(base))
	if len(os.Args) > 1 {
		env, err := c.ListPets(context.Background(), opsgenclient.ListPetsParams{})
		fmt.Println(len(env.Data.Items), err)
	}
}
