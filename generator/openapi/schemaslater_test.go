package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// TestSchemasLater checks that a service returned before its types'
// schemas are built has, once Schemas returns, the Defs and Schema of a
// service loaded in full; and that a context stopped first is reported
// by the loader or leaves the caller a done context to report.
func TestSchemasLater(t *testing.T) {
	files, _ := filepath.Glob(specDir + "*")
	compared := 0
	for _, f := range files {
		name := filepath.Base(f)
		want, _, err := openapi.Load(context.Background(), f, openapi.Options{})
		if err != nil {
			continue // the documents made to fail
		}
		got, _, err := openapi.Load(context.Background(), f, openapi.Options{SchemasLater: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got.Schemas()
		got.Schemas() // again: returns at once
		if !maps.EqualFunc(got.Defs, want.Defs, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
			t.Errorf("%s: Defs differ", name)
		}
		for i, ty := range got.Types {
			if !reflect.DeepEqual(ty.Schema, want.Types[i].Schema) {
				t.Errorf("%s: the schema of %s differs", name, ty.Name)
			}
		}
		compared++
	}
	if compared < 10 {
		t.Fatalf("compared %d documents", compared)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	svc, _, err := openapi.Load(ctx, specDir+"petstore.json", openapi.Options{SchemasLater: true})
	if err == nil {
		svc.Schemas()
		t.Fatal("a stopped context: no error")
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
