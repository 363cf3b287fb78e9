package openapi_test

import (
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// TestDiscriminatorSchema: the JSON Schema of a oneOf with a discriminator
// makes each variant require its discriminator values, so that a value
// matches exactly one variant even when the variants share a base.
func TestDiscriminatorSchema(t *testing.T) {
	svc, _ := load(t, "composition.yaml", openapi.Options{})
	variant := func(name, tags string) string {
		return `{"allOf":[{"$ref":"#/$defs/` + name + `"},{"properties":{"petType":{"enum":` + tags + `}},"required":["petType"]}]}`
	}
	equalJSON(t, "Pet", svc.Defs["Pet"], `{"oneOf":[`+variant("Dog", `["dog","doggo"]`)+`,`+variant("Cat", `["cat"]`)+`]}`)
	equalJSON(t, "Implicit", svc.Defs["Implicit"], `{"oneOf":[`+variant("Dog", `["Dog"]`)+`,`+variant("Cat", `["Cat"]`)+`]}`)
	equalJSON(t, "PartlyMapped", svc.Defs["PartlyMapped"], `{"oneOf":[`+variant("Dog", `["woof"]`)+`,`+variant("Cat", `["Cat"]`)+`]}`)
	// Without a discriminator, variants stay as they are.
	equalJSON(t, "ByShape", svc.Defs["ByShape"], `{"anyOf":[{"type":"string"},{"type":"integer"},{"$ref":"#/$defs/Base"}]}`)
}
