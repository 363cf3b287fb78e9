package openapi_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// TestCompactDefs checks what ir.Service.CompactDefs promises the
// emitter, which then writes Defs without compacting them: every def the
// loader gives is valid JSON with no insignificant white space.
func TestCompactDefs(t *testing.T) {
	for _, name := range []string{"types.yaml", "composition.yaml", "schemas31.yaml", "petstore.json", "github-issues.json", "swagger.yaml"} {
		svc, _ := load(t, name, openapi.Options{})
		if !svc.CompactDefs {
			t.Errorf("%s: CompactDefs not set", name)
		}
		if len(svc.Defs) == 0 {
			t.Errorf("%s: no defs", name)
		}
		for k, d := range svc.Defs {
			var b bytes.Buffer
			if err := json.Compact(&b, d); err != nil {
				t.Errorf("%s: def %s is not JSON: %v", name, k, err)
			} else if !bytes.Equal(b.Bytes(), d) {
				t.Errorf("%s: def %s is not compact: %s", name, k, d)
			}
		}
	}
}
