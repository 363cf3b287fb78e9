package openapi_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestDefsAreTheTypes checks what the loader promises the emitter about
// ir.Service.Defs: one def per named type, named after it and sorted, each
// with its schema, every reference in every schema pointing at one of
// them, and the schemas valid JSON once written.
func TestDefsAreTheTypes(t *testing.T) {
	for _, name := range []string{"types.yaml", "composition.yaml", "schemas31.yaml", "petstore.json", "github-issues.json", "swagger.yaml"} {
		svc, _ := load(t, name, openapi.Options{})
		if len(svc.Defs) == 0 || len(svc.Defs) != len(svc.Types) {
			t.Errorf("%s: %d defs for %d types", name, len(svc.Defs), len(svc.Types))
		}
		defs := map[*ir.Def]bool{}
		for i, tp := range svc.Types {
			if i < len(svc.Defs) && (svc.Defs[i] != tp.Def || tp.Def.Name != tp.Name || tp.Def.Schema == nil) {
				t.Errorf("%s: def %d is not type %s's", name, i, tp.Name)
			}
			defs[tp.Def] = true
		}
		if !slices.IsSortedFunc(svc.Defs, func(a, b *ir.Def) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("%s: defs not sorted", name)
		}
		schemas := map[string]*ir.Schema{}
		for _, d := range svc.Defs {
			schemas["def "+d.Name] = d.Schema
		}
		for _, op := range svc.Operations {
			schemas[op.ID+" input"], schemas[op.ID+" output"] = op.InputSchema, op.OutputSchema
			for _, r := range op.Responses {
				schemas[op.ID+" "+r.Status] = r.Schema
			}
		}
		refs := 0
		for where, s := range schemas {
			s.Walk(func(s *ir.Schema) {
				if s.Ref != nil {
					refs++
					if !defs[s.Ref] {
						t.Errorf("%s: %s refers to %s, not a def of the service", name, where, s.Ref.Name)
					}
				}
			})
			if s != nil && !json.Valid([]byte(s.String())) {
				t.Errorf("%s: %s is not JSON: %s", name, where, s)
			}
		}
		if refs == 0 {
			t.Errorf("%s: no references", name)
		}
	}
}
