// Command petsserver serves the operations of the generated OpenAPI client
// internal/petsapi, calling the API at -upstream, as an MCP server over
// stdio: the built binary that runtime/mcpserver's stdio test talks to
// with raw JSON-RPC lines.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"
	"github.com/opsgen/opsgen/runtime/mcpserver/internal/petsapi"
)

func main() {
	upstream := flag.String("upstream", "", "base URL of the pets API")
	maxRequest := flag.Int64("max-request", 0, "mcpserver.Options.MaxRequestBytes")
	flag.Parse()
	log.SetFlags(0)
	reg := runtime.NewRegistry(nil)
	if err := petsapi.NewClient(petsapi.WithBaseURL(*upstream)).Register(reg); err != nil {
		log.Fatal(err)
	}
	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "pets", Version: "test", MaxRequestBytes: *maxRequest})
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := srv.ServeStdio(ctx); err != nil {
		log.Fatal(err)
	}
}
