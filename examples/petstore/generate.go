// Package petstore is the opsgen petstore example: petstore.yaml is an
// OpenAPI 3.0 document, opsgen.yaml tells opsgen to turn it into the typed
// client in ./api, and server/ implements the API by hand. The test and
// cmd/demo call the server through the generated client.
//
// Regenerate the client after editing petstore.yaml or opsgen.yaml:
//
//	go generate ./...
package petstore

//go:generate go tool opsgen generate -config opsgen.yaml
