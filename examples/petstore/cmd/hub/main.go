// Command hub serves the petstore's operations over the opsgen call
// protocol (package callproto) on NATS: it starts the petstore HTTP server
// in-process, registers the generated client's operations in a
// runtime.Registry beside a local subscription ("local.ticks"), and
// answers the call.requested events of spokes (cmd/spoke) until it is
// interrupted.
//
// With no -nats URL it starts an embedded NATS server and writes its URL to
// -url-file (for the demo script to hand to the spoke). The policy: role
// "reader" may call every petstore query and local.*; "writer" may also
// create pets; only "admin" may delete them.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"iter"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/runtime"

	"example.com/petstore/api"
	"example.com/petstore/server"
)

const apiKey = "demo-key"

func main() {
	log.SetFlags(0)
	log.SetPrefix("hub: ")
	natsURL := flag.String("nats", "", "URL of a NATS server or cluster (default: start an embedded server)")
	urlFile := flag.String("url-file", "", "write the NATS URL to this file once serving")
	flag.Parse()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: server.New(apiKey)}
	go srv.Serve(ln) // returns when Close is called below
	defer srv.Close()

	reg := runtime.NewRegistry(nil)
	client := api.NewClient(api.WithBaseURL("http://"+ln.Addr().String()), api.WithAPIKey(apiKey))
	if err := client.Register(reg); err != nil {
		log.Fatal(err)
	}
	if err := reg.RegisterSubscription(runtime.OperationSpec{
		ID:           "local.ticks",
		Description:  "Counts to n, one tick every 50ms.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":100}},"required":["n"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"tick":{"type":"integer"},"of":{"type":"integer"}},"required":["tick","of"]}`),
	}, ticks); err != nil {
		log.Fatal(err)
	}

	bus, err := natsbus.Connect(natsbus.Options{URL: *natsURL, Name: "petstore-hub"})
	if err != nil {
		log.Fatal(err)
	}
	defer bus.Close()
	policy := callproto.Rules(
		callproto.Rule{Operation: "petstore.listPets", Roles: []string{"reader"}},
		callproto.Rule{Operation: "petstore.getPet", Roles: []string{"reader"}},
		callproto.Rule{Operation: "local.*", Roles: []string{"reader"}},
		callproto.Rule{Operation: "petstore.createPet", Roles: []string{"writer"}},
		callproto.Rule{Operation: "*", Roles: []string{"admin"}},
	)
	h, err := callproto.NewCallHandler(reg, bus, callproto.HandlerOptions{Policy: policy})
	if err != nil {
		log.Fatal(err)
	}
	defer h.Close()
	for _, op := range reg.Operations() {
		log.Printf("serving %s (%s)", op.ID, kindOf(op))
	}
	log.Printf("NATS at %s", bus.URL())
	if *urlFile != "" {
		if err := os.WriteFile(*urlFile, []byte(bus.URL()), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	log.Print("stopping")
}

func kindOf(op runtime.OperationSpec) runtime.Kind {
	if op.Kind == "" {
		return runtime.KindQuery
	}
	return op.Kind
}

// ticks is the local subscription: it yields raw values, which the
// registry wraps as local envelopes, one fresh timestamp each.
func ticks(ctx context.Context, input []byte) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		var in struct{ N int }
		if err := json.Unmarshal(input, &in); err != nil {
			yield(nil, err)
			return
		}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for i := 1; i <= in.N; i++ {
			select {
			case <-ctx.Done():
				yield(nil, ctx.Err())
				return
			case <-t.C:
			}
			if !yield(map[string]int{"tick": i, "of": in.N}, nil) {
				return
			}
		}
	}
}
