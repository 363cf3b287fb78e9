// Package bench compares the per-call cost of opsgen's generated clients
// with ogen's (v1.24.0, jx decoders that validate as they decode),
// oapi-codegen's (v2.8.2, client-with-responses) and a hand-written net/http
// + encoding/json client: on a toy pets schema (spec/pets.yaml) over a
// loopback httptest server and over a transport answering from memory, and
// on real payloads (realpayload_test.go: GitHub issue lists, Stripe payout
// lists, Microsoft Graph user lists, from trimmed real descriptions in
// spec/); and the start-up and binary size of a program linking a
// generated client (startup/).
//
// It is a separate module so that oapi-codegen's and ogen's runtimes never
// enter the root module. The peers' clients are not committed: `make peers`
// (run by `make bench`) generates them into peers/ (gitignored) with
//
//	go generate -run peers/ .
//
// opsgen's own clients (opsgenclient/, opsgen/) are committed and
// regenerated with `go generate -run opsgen .`.
package bench

//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/pets.yaml -package opsgenclient -out bench/opsgenclient
//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/github-issues.json -package github -out bench/opsgen/github
//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/stripe-payouts.json -package stripe -out bench/opsgen/stripe
//go:generate go -C .. run ./cmd/opsgen generate -openapi bench/spec/graph-users.json -package graph -out bench/opsgen/graph

// ogen v1.24.0 generates the pets and GitHub clients only: for Stripe's
// payouts it stops at "complex anyOf" (the expandable destination: an ID
// or one of four objects) and for Graph's users at "complex anyOf" (Graph's
// anyOf of a type and a nullable object), both not implemented.
//go:generate mkdir -p peers/oapi/pets peers/oapi/github peers/oapi/stripe peers/oapi/graph
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 --target peers/ogen/pets --package pets --clean spec/pets.yaml
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 --target peers/ogen/github --package github --clean spec/github-issues.json

//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package pets -o peers/oapi/pets/client.gen.go spec/pets.yaml
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package github -o peers/oapi/github/client.gen.go spec/github-issues.json
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package stripe -o peers/oapi/stripe/client.gen.go spec/stripe-payouts.json
//go:generate go run github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2 -generate types,client -package graph -o peers/oapi/graph/client.gen.go spec/graph-users.json
