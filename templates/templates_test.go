package templates

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/ir"
)

func TestInitTemplates(t *testing.T) {
	for _, data := range []InitData{
		{Package: "petstore", OpenAPI: "specs/pet store.yaml"},
		{Package: "tools", MCP: `odd"name.json`},
	} {
		yml, err := Execute("opsgen.yaml.tmpl", data)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(yml), "# yaml-language-server: $schema=opsgen.schema.json\n") {
			t.Errorf("starter config lacks the schema modeline:\n%s", yml)
		}
		cfg, err := config.Parse("opsgen.yaml", yml)
		if err != nil {
			t.Fatalf("starter config does not parse: %v\n%s", err, yml)
		}
		src := cfg.Sources[0]
		if cfg.Package != data.Package || cfg.Output != "." || src.OpenAPI != data.OpenAPI || src.MCP != data.MCP {
			t.Errorf("config %+v from %+v", cfg, data)
		}
		if (data.MCP != "") != (src.Kind() == ir.MCP) {
			t.Errorf("source kind %v for %+v", src.Kind(), data)
		}
		gen, err := Execute("generate.go.tmpl", data)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "generate.go", gen, parser.ParseComments)
		if err != nil {
			t.Fatalf("generate.go does not parse: %v", err)
		}
		if f.Name.Name != data.Package || !strings.Contains(string(gen), "\n//go:generate go tool opsgen generate -config opsgen.yaml\n") {
			t.Errorf("generate.go:\n%s", gen)
		}
	}
}
