// Package serve makes the MCP server of the example: the petstore
// example's generated OpenAPI client (example.com/petstore/api, generated
// from ../petstore/petstore.yaml) registered in a runtime.Registry, served
// by runtime/mcpserver: one typed MCP tool per operation of the API.
package serve

import (
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"

	"example.com/petstore/api"
)

// New returns the MCP server of the petstore API at baseURL, called with
// apiKey.
func New(baseURL, apiKey string) (*mcpserver.Server, error) {
	reg := runtime.NewRegistry(nil)
	client := api.NewClient(api.WithBaseURL(baseURL), api.WithAPIKey(apiKey))
	if err := client.Register(reg); err != nil {
		return nil, err
	}
	return mcpserver.New(reg, &mcpserver.Options{
		Name:         "petstore",
		Instructions: "Tools of the opsgen petstore example: list, add, get and remove pets.",
	})
}
