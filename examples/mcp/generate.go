// Package notes is the opsgen MCP example: server/ is a notes server built
// with the MCP go-sdk, tools.json is its tool listing captured by
// `opsgen mcp snapshot`, and opsgen.yaml tells opsgen to turn the listing into
// the typed client in ./notesmcp. The test and cmd/demo call the server
// through the generated client.
//
// Regenerate the listing and the client after changing the server's tools:
//
//	go generate ./...
package notes

//go:generate go tool opsgen mcp snapshot -o tools.json -- go run ./cmd/server
//go:generate go tool opsgen generate -config opsgen.yaml
