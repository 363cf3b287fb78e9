// Command mcpserve turns the petstore example's OpenAPI description into an
// MCP server: every operation of the generated client becomes a typed MCP
// tool (runtime/mcpserver). By default it starts the example's petstore
// server in-process on 127.0.0.1 and serves MCP over stdio:
//
//	go run -C examples/mcpserve .                  # stdio, for a client that starts it
//	go run -C examples/mcpserve . -http :8080      # streamable HTTP at http://localhost:8080/
//	go run -C examples/mcpserve . -upstream URL -key KEY
//
// With the MCP Inspector: npx @modelcontextprotocol/inspector go run -C examples/mcpserve .
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"

	"example.com/mcpserve/serve"
	"example.com/petstore/server"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP at this address instead of stdio")
	upstream := flag.String("upstream", "", "base URL of a petstore API (default: start the example's server in-process)")
	key := flag.String("key", "demo-key", "API key of the petstore API")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("mcpserve: ")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if *upstream == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		petstore := &http.Server{Handler: server.New(*key)}
		go petstore.Serve(ln) // returns when Close is called below
		defer petstore.Close()
		*upstream = "http://" + ln.Addr().String()
	}
	srv, err := serve.New(*upstream, *key)
	if err != nil {
		log.Fatal(err)
	}
	// stdout is the MCP stream: messages go to stderr.
	fmt.Fprintf(os.Stderr, "mcpserve: %d tools for the petstore API at %s\n", len(srv.Tools()), *upstream)
	if *addr == "" {
		if err := srv.ServeStdio(ctx); err != nil && ctx.Err() == nil {
			log.Fatal(err)
		}
		return
	}
	hs := &http.Server{Addr: *addr, Handler: srv.Handler()}
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	fmt.Fprintf(os.Stderr, "mcpserve: streamable HTTP at %s\n", *addr)
	if err := hs.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
