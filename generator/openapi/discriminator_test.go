package openapi_test

import (
	"context"
	"reflect"
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
	equalJSON(t, "Pet", svc.Def("Pet"), `{"oneOf":[`+variant("Dog", `["dog","doggo"]`)+`,`+variant("Cat", `["cat"]`)+`]}`)
	equalJSON(t, "Implicit", svc.Def("Implicit"), `{"oneOf":[`+variant("Dog", `["Dog"]`)+`,`+variant("Cat", `["Cat"]`)+`]}`)
	equalJSON(t, "PartlyMapped", svc.Def("PartlyMapped"), `{"oneOf":[`+variant("Dog", `["woof"]`)+`,`+variant("Cat", `["Cat"]`)+`]}`)
	// Without a discriminator, variants stay as they are.
	equalJSON(t, "ByShape", svc.Def("ByShape"), `{"anyOf":[{"type":"string"},{"type":"integer"},{"$ref":"#/$defs/Base"}]}`)
}

// TestDiscriminatorOwnValues: without a mapping, a variant whose own
// schema fixes the discriminator property to values other than its name
// (Spotify's TrackObject: "type" is "track") is selected by those values,
// not by the name its data can never hold; a variant that leaves the
// property open keeps the implicit name.
func TestDiscriminatorOwnValues(t *testing.T) {
	const doc = `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
"components": {"schemas": {
  "Item": {"discriminator": {"propertyName": "type"}, "oneOf": [
    {"$ref": "#/components/schemas/TrackObject"},
    {"$ref": "#/components/schemas/EpisodeObject"},
    {"$ref": "#/components/schemas/Other"}]},
  "TrackObject": {"type": "object", "properties": {"type": {"type": "string", "enum": ["track"]}, "name": {"type": "string"}}},
  "EpisodeObject": {"type": "object", "properties": {"type": {"type": "string", "enum": ["episode", "EpisodeObject"]}}},
  "Other": {"type": "object", "properties": {"type": {"type": "string"}}}}}}`
	svc, _, err := openapi.LoadData(context.Background(), []byte(doc), "item.json", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	variant := func(name, tags string) string {
		return `{"allOf":[{"$ref":"#/$defs/` + name + `"},{"properties":{"type":{"enum":` + tags + `}},"required":["type"]}]}`
	}
	equalJSON(t, "Item", svc.Def("Item"), `{"oneOf":[`+variant("TrackObject", `["track"]`)+`,`+
		variant("EpisodeObject", `["EpisodeObject"]`)+`,`+variant("Other", `["Other"]`)+`]}`)
	var tags [][]string
	for _, v := range typ(t, svc, "Item").Variants {
		tags = append(tags, v.Tags)
	}
	if want := [][]string{{"track"}, {"EpisodeObject"}, {"Other"}}; !reflect.DeepEqual(tags, want) {
		t.Errorf("variant tags %v, want %v", tags, want)
	}
}
