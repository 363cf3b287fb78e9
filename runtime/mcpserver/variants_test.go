package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/mcpsnapshot"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpserver"
)

// discriminatedPet is the output schema a generated OpenAPI client
// registers for a oneOf of Dog and Cat with a discriminator mapping
// (golden/openapi/composition): each branch refines its definition with
// the discriminator's values.
const discriminatedPet = `{"$defs":{` +
	`"Cat":{"properties":{"lives":{"type":"integer"},"petType":{"type":"string"}},"required":["petType"],"type":"object"},` +
	`"Dog":{"properties":{"bark":{"type":"boolean"},"petType":{"type":"string"}},"required":["petType"],"type":"object"},` +
	`"Pet":{"oneOf":[{"allOf":[{"$ref":"#/$defs/Dog"},{"properties":{"petType":{"enum":["dog","doggo"]}},"required":["petType"]}]},` +
	`{"allOf":[{"$ref":"#/$defs/Cat"},{"properties":{"petType":{"enum":["cat"]}},"required":["petType"]}]}]}},` +
	`"type":"object","properties":{"pet":{"$ref":"#/$defs/Pet"}}}`

// TestVariantNamesRoundTrip: the variants of a union keep their names
// (Dog, Cat, as the API's client has them) through the MCP server, a
// snapshot and the MCP client generated from it, in both modes; they were
// PetVariant0 and PetVariant1.
func TestVariantNamesRoundTrip(t *testing.T) {
	for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateStrict} {
		reg := runtime.NewRegistry(nil)
		register(t, reg, runtime.OperationSpec{ID: "zoo.getPet", Method: "GET", OutputSchema: json.RawMessage(discriminatedPet)}, nil)
		srv := newServer(t, reg, &mcpserver.Options{Validation: mode, HTTP: &mcp.StreamableHTTPOptions{Stateless: true}})
		hs := httptest.NewServer(srv.Handler())
		listing, err := mcpsnapshot.Snapshot(context.Background(), mcpsnapshot.SnapshotOptions{URL: hs.URL})
		hs.Close()
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "tools.json"), listing, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "opsgen.yaml"), []byte("package: zoo\noutput: .\nsources:\n  - mcp: tools.json\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(filepath.Join(dir, "opsgen.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := generator.Generate(context.Background(), generator.Options{Config: cfg, ConfigDir: dir, Version: genVersion})
		if err != nil {
			t.Fatal(err)
		}
		var types string
		for _, f := range res.Files {
			if f.Name == "types.go" {
				types = string(f.Content)
			}
		}
		if !strings.Contains(types, "is one of: Dog, Cat.") || strings.Contains(types, "Variant0") {
			t.Errorf("%v: the union's variants in the generated client:\n%s", mode, types)
		}
	}
}
