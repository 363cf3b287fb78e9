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
	f.Fuzz(func(t *testing.T, data []byte) {
		svc, _, err := openapi.LoadData(context.Background(), data, specDir+"fuzz.yaml", openapi.Options{})
		if err == nil && svc == nil {
			t.Fatal("nil service without error")
		}
	})
}
