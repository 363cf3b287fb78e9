// Package golden holds the Go packages that opsgen generates from the specs
// in testdata/specs, one directory per spec: golden/openapi/<package> for
// testdata/specs/openapi/<name>.{yaml,json} and golden/mcp/<package> for
// testdata/specs/mcp/<name>.json, where the package name is the spec's file
// name without extension, dashes and other characters Go does not allow
// (e2e-http.yaml: golden/openapi/e2ehttp, package e2ehttp). They are
// committed so that a change to the generator shows up as a reviewable diff.
//
// TestGolden fails when a golden differs from a fresh generation (byte for
// byte, with no missing or leftover files) and builds and vets every golden
// package; `make golden` (go test ./golden -run TestGolden -update) rewrites
// them. The negative specs (documents opsgen must refuse) have no golden:
// TestNegative checks their error messages and positions instead.
package golden
