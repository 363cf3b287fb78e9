package openapi_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// FuzzLoadData feeds mutated specs to the loader: it must never panic, and
// a nil error must come with a service.
func FuzzLoadData(f *testing.F) {
	files, err := filepath.Glob(specDir + "*")
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"components":{"schemas":{"A":{"oneOf":[{"$ref":"#/components/schemas/A"},{"type":"null"}]}}}}`))
	// Annotations of the wrong type (lenient.go).
	f.Add([]byte(`{"openapi":"3.0.0","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"T":{"type":"string","pattern":7,"examples":{"x":1},"description":[1]}}}}`))
	f.Add([]byte("swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query, type: string, pattern: 5}]\n      responses: {'200': {description: ok}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		svc, _, err := openapi.LoadData(context.Background(), data, specDir+"fuzz.yaml", openapi.Options{})
		if err == nil && svc == nil {
			t.Fatal("nil service without error")
		}
	})
}
