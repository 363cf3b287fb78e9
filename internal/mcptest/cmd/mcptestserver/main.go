// Command mcptestserver runs the mcptest MCP server: over stdin/stdout by
// default (for subprocess tests), or as a streamable HTTP server with
// -http ADDR, printing its URL on stderr.
//
// Usage:
//
//	mcptestserver [-http ADDR]
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

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/internal/mcptest"
)

func main() {
	addr := flag.String("http", "", "serve streamable HTTP on `ADDR` (host:port) instead of stdio")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *addr == "" {
		if err := mcptest.NewServer().Run(ctx, mcptest.ServerTransport(&mcp.StdioTransport{})); err != nil && ctx.Err() == nil {
			log.Fatal(err)
		}
		return
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "mcptestserver: serving http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: mcptest.Handler()}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
