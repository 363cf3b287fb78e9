// Package bench compares the per-call cost of an opsgen client with a
// hand-written net/http + encoding/json client and with oapi-codegen's
// generated client (v2.8.2, client-with-responses) for the same spec
// (spec/pets.yaml), against the same loopback httptest server.
//
// It is a separate module so that oapi-codegen's runtime never enters the
// root module. Regenerate the clients with go generate (see generate.go).
package bench

//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/pets.yaml -package opsgenclient -out bench/opsgenclient
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package oapiclient -o oapiclient/client.gen.go spec/pets.yaml
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 --target ogenclient --package ogenclient --clean spec/pets.yaml
