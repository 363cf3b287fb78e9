package generator

import (
	"bytes"
	"context"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// strictClientTest runs against the petstore client generated with
// client.validation: strict. The server answers a pet without its required
// name.
const strictClientTest = `package petstore

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func TestValidationDefault(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(` + "`" + `{"id": 7}` + "`" + `))
	}))
	defer srv.Close()
	ctx := context.Background()
	in := ShowPetByIDParams{PetID: "7"}

	// The config's default: strict.
	_, err := NewClient(WithBaseURL(srv.URL)).ShowPetByID(ctx, in)
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("default mode: err = %v, want a validation error", err)
	}
	// The caller's option overrides the default.
	env, err := NewClient(WithBaseURL(srv.URL), WithValidation(runtime.ValidateWarn)).ShowPetByID(ctx, in)
	if err != nil || env.Data.ID != 7 || len(env.Warnings) == 0 {
		t.Errorf("WithValidation(ValidateWarn): %+v, %v; want data and warnings", env, err)
	}
	// And so does a call option.
	env, err = NewClient(WithBaseURL(srv.URL)).ShowPetByID(ctx, in, WithCallValidation(runtime.ValidateOff))
	if err != nil || env.Data.ID != 7 || len(env.Warnings) != 0 {
		t.Errorf("WithCallValidation(ValidateOff): %+v, %v; want data without warnings", env, err)
	}
}
`

// TestValidationDefault generates clients with each client.validation
// setting, compiles them, and runs a test of the strict HTTP client against
// a server whose answer does not match the schema.
func TestValidationDefault(t *testing.T) {
	dir := specDir(t)
	ctx := context.Background()
	gen := func(opts Options) map[string][]byte {
		t.Helper()
		res, err := Generate(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range res.Files {
			files[f.Name] = f.Content
		}
		return files
	}
	const strictLine = "opts = append([]Option{WithValidation(runtime.ValidateStrict)}, opts...)"
	for _, mode := range []string{"", "warn"} {
		opts := petstore(dir)
		opts.Config.Client.Validation = mode
		if c := gen(opts)["client.go"]; bytes.Contains(c, []byte("opts = append(")) {
			t.Errorf("validation %q: NewClient sets a mode:\n%s", mode, c)
		}
	}
	strict := petstore(dir)
	strict.Config.Client.Validation = "strict"
	httpFiles := gen(strict)
	if !bytes.Contains(httpFiles["client.go"], []byte(strictLine)) {
		t.Errorf("strict client.go lacks %q", strictLine)
	}
	off := Options{ConfigDir: dir, Config: &config.Config{Package: "tools", Output: "out",
		Sources: []config.Source{{MCP: "tools.json"}}, Client: config.Client{Validation: "off"}}}
	mcpFiles := gen(off)
	if !bytes.Contains(mcpFiles["client.go"], []byte("opts = append([]Option{WithValidation(runtime.ValidateOff)}, opts...)")) {
		t.Errorf("off MCP client.go:\n%s", mcpFiles["client.go"])
	}

	// Compile both inside the module (under a testdata directory, which
	// ./... patterns skip) and run the strict client's test.
	httpFiles["strict_test.go"] = []byte(strictClientTest)
	goInModule(t, map[string]map[string][]byte{"petstore": httpFiles, "tools": mcpFiles},
		[]string{"vet", "./petstore", "./tools"}, []string{"test", "-count=1", "./petstore"})
}
