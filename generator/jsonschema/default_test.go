package jsonschema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// badDefaultSpec declares defaults its own types reject, as VTEX's price
// rules do ({type: integer, default: ""}), beside defaults that fit.
const badDefaultSpec = `openapi: 3.0.3
info: {title: defaults, version: "1"}
paths: {}
components:
  schemas:
    Rule:
      type: object
      properties:
        id: {type: integer, default: ""}
        count: {type: integer, default: 3}
        ratio: {type: number, default: 0.5}
        half: {type: integer, default: 0.5}
        name: {type: string, default: ""}
        tags: {type: array, items: {type: string}, default: "none"}
        any: {default: "x"}
`

// TestDefaultOfAnotherType: a default its schema's type rejects is left out
// of the schema the runtime fills defaults from (it would fill "" into an
// integer and warn about a member the body never had); the others stay.
func TestDefaultOfAnotherType(t *testing.T) {
	svc, _, err := openapi.LoadData(context.Background(), []byte(badDefaultSpec), "defaults.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	def := typeOf(t, svc, "Rule").Def
	if def == nil || def.Schema == nil {
		t.Fatal("Rule has no schema")
	}
	b, _ := def.Schema.AppendJSON(nil)
	got := string(b)
	for _, want := range []string{`"count":{"default":3,`, `"ratio":{"default":0.5,`, `"name":{"default":"",`, `"any":{"default":"x"}`} {
		if !strings.Contains(got, want) {
			t.Errorf("schema lacks %s: %s", want, got)
		}
	}
	for _, bad := range []string{`"id":{"default"`, `"half":{"default"`, `"tags":{"default"`} {
		if strings.Contains(got, bad) {
			t.Errorf("schema keeps the default of another type (%s): %s", bad, got)
		}
	}
}
