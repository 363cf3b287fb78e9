package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

const doc = `{"openapi":"3.0.0","info":{"title":"t","version":"1"},"security":[{"k":[]}],
"paths":{"/a":{"get":{"parameters":[{"name":"limit","in":"query","schema":{"type":"integer"}},{"name":"expand","in":"query","schema":{"type":"string"}}],
  "requestBody":{"content":{"application/x-www-form-urlencoded":{"schema":{"type":"object"}}}},
  "responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}},"default":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Err"}}}}}}},
 "/other":{"get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/Other"}}}}}}}},
"components":{"schemas":{
 "A":{"type":"object","discriminator":{"propertyName":"t","mapping":{"a":"#/components/schemas/A","o":"#/components/schemas/Other"}},
   "properties":{"b":{"anyOf":[{"type":"string"},{"$ref":"#/components/schemas/B"}]},"nav":{"type":"array","items":{"$ref":"#/components/schemas/Other"},"x-nav":true}}},
 "B":{"type":"object","properties":{"c":{"anyOf":[{"type":"string"},{"$ref":"#/components/schemas/C"}]}}},
 "C":{"type":"object"},"Other":{"type":"object"},"Err":{"type":"object"}}}}`

// TestTrim: the operation and what it reaches are kept, the cuts made.
func TestTrim(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(in, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, out, "x-nav", 1, "here", []string{"limit"}, []string{"200"}, false, []string{"get /a"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Info     map[string]any
		Security any
		Paths    map[string]map[string]struct {
			Parameters  []map[string]any
			RequestBody any
			Responses   map[string]any
		}
		Components struct{ Schemas map[string]map[string]any }
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	op := got.Paths["/a"]["get"]
	schemas := got.Components.Schemas
	props := func(name string) map[string]any { p, _ := schemas[name]["properties"].(map[string]any); return p }
	mapping := schemas["A"]["discriminator"].(map[string]any)["mapping"].(map[string]any)
	switch {
	case got.Info["x-trimmed-from"] != "here":
		t.Errorf("origin: %v", got.Info)
	case got.Security != nil || op.RequestBody != nil:
		t.Errorf("security %v, GET body %v kept", got.Security, op.RequestBody)
	case len(op.Parameters) != 1 || op.Parameters[0]["name"] != "limit":
		t.Errorf("parameters %v, want limit only", op.Parameters)
	case len(op.Responses) != 1 || op.Responses["200"] == nil:
		t.Errorf("responses %v, want 200 only", op.Responses)
	case got.Paths["/other"] != nil:
		t.Error("/other kept")
	case schemas["Err"] != nil || schemas["Other"] != nil || schemas["C"] != nil:
		t.Errorf("schemas %v: Err (a dropped response), Other (a dropped navigation property) and C (beyond -expand) kept", schemas)
	case props("A")["nav"] != nil:
		t.Error("navigation property kept")
	case len(props("A")["b"].(map[string]any)["anyOf"].([]any)) != 2:
		t.Error("A's expandable union (depth 1) cut")
	case len(props("B")["c"].(map[string]any)["anyOf"].([]any)) != 1:
		t.Error("B's expandable union (depth 2) kept whole")
	case mapping["o"] != nil || mapping["a"] == nil:
		t.Errorf("mapping %v, want a only", mapping)
	}
}
