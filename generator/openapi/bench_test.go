package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// bigSpec builds a JSON spec with n component schemas (each referring to
// the next, with an inline object and an enum) and n operations using them.
func bigSpec(n int) []byte {
	schemas := map[string]any{}
	paths := map[string]any{}
	for i := 0; i < n; i++ {
		next := fmt.Sprintf("#/components/schemas/Thing%d", (i+1)%n)
		schemas[fmt.Sprintf("Thing%d", i)] = map[string]any{
			"type":     "object",
			"required": []string{"id"},
			"properties": map[string]any{
				"id":     map[string]any{"type": "integer", "format": "int64"},
				"name":   map[string]any{"type": "string", "nullable": true},
				"status": map[string]any{"type": "string", "enum": []string{"open", "closed", "all"}},
				"next":   map[string]any{"$ref": next},
				"tags":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				"owner":  map[string]any{"type": "object", "properties": map[string]any{"login": map[string]any{"type": "string"}}},
			},
		}
		paths[fmt.Sprintf("/things%d/{id}", i)] = map[string]any{
			"get": map[string]any{
				"operationId": fmt.Sprintf("getThing%d", i),
				"parameters": []any{
					map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "integer"}},
					map[string]any{"name": "per_page", "in": "query", "schema": map[string]any{"type": "integer"}},
				},
				"responses": map[string]any{
					"200": map[string]any{"description": "ok", "content": map[string]any{"application/json": map[string]any{
						"schema": map[string]any{"type": "array", "items": map[string]any{"$ref": fmt.Sprintf("#/components/schemas/Thing%d", i)}}}}},
					"404": map[string]any{"description": "missing"},
				},
			},
		}
	}
	b, _ := json.Marshal(map[string]any{
		"openapi": "3.0.3", "info": map[string]any{"title": "big", "version": "1"},
		"paths": paths, "components": map[string]any{"schemas": schemas},
	})
	return b
}

func BenchmarkLoadData(b *testing.B) {
	data := bigSpec(3000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		svc, _, err := openapi.LoadData(context.Background(), data, "big.json", openapi.Options{})
		if err != nil || len(svc.Operations) != 3000 {
			b.Fatalf("err=%v", err)
		}
	}
}

// BenchmarkBareDecode is the floor of BenchmarkLoadData: json.Unmarshal of
// the same document into any.
func BenchmarkBareDecode(b *testing.B) {
	data := bigSpec(3000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadGitHub loads GitHub's REST description (version 1.1.4,
// 3.7 MB of JSON) from the shared specs beside the repository, when it is
// available.
func BenchmarkLoadGitHub(b *testing.B) {
	spec := githubSpecPath(b)
	data, err := os.ReadFile(spec)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := openapi.LoadData(context.Background(), data, spec, openapi.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
