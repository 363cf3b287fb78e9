// Package bench compares the per-call cost of an opsgen client with a
// hand-written net/http + encoding/json client, with oapi-codegen's
// generated client (v2.8.2, client-with-responses) and with ogen's (v1.24.0,
// jx decoders that validate as they decode) for the same spec
// (spec/pets.yaml), over a loopback httptest server and over a transport
// answering from memory; and the start-up and binary size of a program
// linking a generated client (startup/).
//
// It is a separate module so that oapi-codegen's and ogen's runtimes never
// enter the root module. Regenerate the clients with go generate (see generate.go).
package bench

//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/pets.yaml -package opsgenclient -out bench/opsgenclient
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package oapiclient -o oapiclient/client.gen.go spec/pets.yaml
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 --target ogenclient --package ogenclient --clean spec/pets.yaml
