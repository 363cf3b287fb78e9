package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

const addInput = `{"type":"object","required":["a","b"],"properties":{"a":{"type":"number"},"b":{"type":"number"}},"additionalProperties":false}`
const addOutput = `{"type":"object","required":["sum"],"properties":{"sum":{"type":"number"},"unit":{"type":"string","default":"none"}}}`

func addHandler(ctx context.Context, input json.RawMessage) (any, error) {
	var in struct{ A, B float64 }
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	return map[string]any{"sum": in.A + in.B, "debug": "dropped by normalization"}, nil
}

func newTestRegistry(t *testing.T) *runtime.Registry {
	t.Helper()
	r := runtime.NewRegistry(quiet)
	err := r.Register(runtime.OperationSpec{
		ID: "math.add", Description: "Adds two numbers.",
		InputSchema: json.RawMessage(addInput), OutputSchema: json.RawMessage(addOutput),
	}, addHandler)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRegistryExecute(t *testing.T) {
	r := newTestRegistry(t)
	ctx := context.Background()
	for name, input := range map[string]any{
		"map": map[string]any{"a": 1, "b": 2},
		"struct": struct {
			A int `json:"a"`
			B int `json:"b"`
		}{1, 2},
		"json.RawMessage": json.RawMessage(`{"a":1,"b":2}`),
		"[]byte":          []byte(`{"a":1,"b":2}`),
	} {
		env, err := r.Execute(ctx, "math.add", input)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want := map[string]any{"sum": 3.0, "unit": "none"}
		if fmt.Sprint(env.Data) != fmt.Sprint(want) {
			t.Errorf("%s: data %v, want %v", name, env.Data, want)
		}
		if m := runtime.LocalMetaOf(env.Meta); m == nil || m.OperationID != "math.add" {
			t.Errorf("%s: meta %+v", name, env.Meta)
		}
	}
	typed, err := runtime.ExecuteAs[struct {
		Sum  float64 `json:"sum"`
		Unit string  `json:"unit"`
	}](ctx, r, "math.add", map[string]int{"a": 2, "b": 5})
	if err != nil || typed.Data.Sum != 7 || typed.Data.Unit != "none" {
		t.Errorf("ExecuteAs: %+v %v", typed, err)
	}
}

func TestRegistryErrors(t *testing.T) {
	r := newTestRegistry(t)
	ctx := context.Background()

	_, err := r.Execute(ctx, "math.sub", nil)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeOperationNotFound || ce.OperationID != "math.sub" {
		t.Errorf("unknown id: %v", err)
	}

	_, err = r.Execute(ctx, "math.add", map[string]any{"a": "one", "c": 1})
	if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation {
		t.Fatalf("bad input: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"math.add", "/a", "missing", "c"} {
		if !strings.Contains(msg, want) {
			t.Errorf("input error %q does not mention %q", msg, want)
		}
	}
	if len(ce.Issues) < 2 {
		t.Errorf("issues %+v", ce.Issues)
	}
	_, err = r.Execute(ctx, "math.add", []byte(`{"a":`))
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("malformed input: %v", err)
	}
	_, err = r.Execute(ctx, "math.add", nil) // nil is {}: a and b missing
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("nil input: %v", err)
	}
}

func TestRegistryHandlerFailures(t *testing.T) {
	r := runtime.NewRegistry(quiet)
	ctx := context.Background()
	plain := errors.New("disk full")
	notFound := runtime.Errorf(runtime.CodeAccessDenied, "files.read", "no access to %s", "/etc")
	must := func(id string, h runtime.Handler) {
		if err := r.Register(runtime.OperationSpec{ID: id}, h); err != nil {
			t.Fatal(err)
		}
	}
	must("files.write", func(context.Context, json.RawMessage) (any, error) { return nil, plain })
	must("files.read", func(context.Context, json.RawMessage) (any, error) { return nil, notFound })
	must("files.crash", func(context.Context, json.RawMessage) (any, error) { panic("nil map write") })
	must("files.slow", func(ctx context.Context, _ json.RawMessage) (any, error) {
		<-ctx.Done()
		return nil, fmt.Errorf("waiting for the disk: %w", ctx.Err())
	})

	_, err := r.Execute(ctx, "files.write", nil)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeExecution || !errors.Is(err, plain) || ce.OperationID != "files.write" {
		t.Errorf("plain error: %v", err)
	}
	_, err = r.Execute(ctx, "files.read", nil)
	if err != notFound {
		t.Errorf("CallError: got %v, want it passed through", err)
	}
	_, err = r.Execute(ctx, "files.crash", nil)
	var pe *runtime.PanicError
	if !errors.Is(err, runtime.ErrExecution) || !errors.As(err, &pe) {
		t.Fatalf("panic: %v", err)
	}
	if pe.Value != "nil map write" || !strings.Contains(string(pe.Stack), "registry_test.go") {
		t.Errorf("panic cause: %v\n%s", pe.Value, pe.Stack)
	}

	canceled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = r.Execute(canceled, "files.slow", nil)
	if !errors.Is(err, runtime.ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled handler: %v", err)
	}
}

func TestRegistryPassesEnvelopesThrough(t *testing.T) {
	r := runtime.NewRegistry(quiet)
	// A generated client registers its remote operations: the handler
	// returns the envelope of the remote call, HTTP meta and all.
	err := r.Register(runtime.OperationSpec{ID: "petstore.getPet", OutputSchema: json.RawMessage(petSchema)},
		func(ctx context.Context, input json.RawMessage) (any, error) {
			return opsgenimpl.HTTP(pet{ID: 1, Name: "rex"}, runtime.HTTPMeta{StatusCode: 200, ContentType: "application/json"}), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	env, err := runtime.ExecuteAs[pet](context.Background(), r, "petstore.getPet", map[string]any{"id": 1})
	if err != nil {
		t.Fatal(err)
	}
	// The envelope went through the pipeline in its transport; the
	// Registry does not check it again (see TestRegistryOnePipelinePass).
	if runtime.HTTPMetaOf(env.Meta) == nil || runtime.HTTPMetaOf(env.Meta).StatusCode != 200 || env.Data.Name != "rex" || env.Data.Status != "" || len(env.Warnings) != 0 {
		t.Errorf("%+v", env)
	}
}

func TestRegistryRegister(t *testing.T) {
	r := newTestRegistry(t)
	h := func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	for name, spec := range map[string]runtime.OperationSpec{
		"duplicate":        {ID: "math.add"},
		"no namespace":     {ID: "add"},
		"empty part":       {ID: "math."},
		"space":            {ID: "math.a b"},
		"bad input schema": {ID: "math.x", InputSchema: json.RawMessage(`{"type":"nope"}`)},
		"input not JSON":   {ID: "math.y", InputSchema: json.RawMessage(`{`)},
		"bad output":       {ID: "math.z", OutputSchema: json.RawMessage(`{"$ref":"#/nowhere"}`)},
	} {
		if err := r.Register(spec, h); err == nil {
			t.Errorf("%s: registered", name)
		} else if spec.ID != "" && !strings.Contains(err.Error(), spec.ID) {
			t.Errorf("%s: error %q does not name the operation", name, err)
		}
	}
	if err := r.Register(runtime.OperationSpec{ID: "math.nil"}, nil); err == nil {
		t.Error("nil handler registered")
	}
	if err := r.Register(runtime.OperationSpec{ID: "a.b.c-d_e"}, h); err != nil {
		t.Errorf("dotted id: %v", err)
	}
	ops := r.Operations()
	if len(ops) != 2 || ops[0].ID != "a.b.c-d_e" || ops[1].ID != "math.add" {
		t.Errorf("Operations() = %+v", ops)
	}
	spec, ok := r.Lookup("math.add")
	if !ok || spec.Description != "Adds two numbers." || string(spec.InputSchema) != addInput {
		t.Errorf("Lookup = %+v %v", spec, ok)
	}
	if _, ok := r.Lookup("math.nope"); ok {
		t.Error("Lookup of an unknown id succeeded")
	}
}

func TestRegistryConcurrent(t *testing.T) {
	r := newTestRegistry(t)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 32 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			env, err := runtime.ExecuteAs[struct{ Sum float64 }](context.Background(), r, "math.add", map[string]int{"a": i, "b": 1})
			if err == nil && env.Data.Sum != float64(i+1) {
				err = fmt.Errorf("sum %v, want %d", env.Data.Sum, i+1)
			}
			if err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if err := r.Register(runtime.OperationSpec{ID: fmt.Sprintf("gen.op%d", i)}, addHandler); err != nil {
				errs <- err
			}
			r.Operations()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(r.Operations()); n != 33 {
		t.Errorf("%d operations, want 33", n)
	}
}

// TestRegistryIDInErrors: a handler that names its operation without the
// registry's namespace (as a generated client names it by the API's id)
// has its errors name the registry id; another operation's id is left
// alone.
func TestRegistryIDInErrors(t *testing.T) {
	reg := runtime.NewRegistry(&runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)})
	fail := func(op string) runtime.Handler {
		return func(context.Context, json.RawMessage) (any, error) {
			return nil, &runtime.CallError{Code: runtime.CodeExecution, OperationID: op, Message: "HTTP 404 Not Found"}
		}
	}
	for id, h := range map[string]runtime.Handler{
		"inv.getItem":   fail("getItem"),
		"inv.other":     fail("inv.getItem"),
		"inv.nested":    fail("getItem"),
		"inv.prefixed":  fail("xprefixed"),
		"inv.anonymous": fail(""),
	} {
		if err := reg.Register(runtime.OperationSpec{ID: id}, h); err != nil {
			t.Fatal(err)
		}
	}
	for id, want := range map[string]string{
		"inv.getItem": "inv.getItem", "inv.other": "inv.getItem", "inv.nested": "getItem",
		"inv.prefixed": "xprefixed", "inv.anonymous": "",
	} {
		_, err := reg.Execute(context.Background(), id, nil)
		var ce *runtime.CallError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %v is not a CallError", id, err)
		} else if ce.OperationID != want {
			t.Errorf("%s: error %v names %q, want %q", id, err, ce.OperationID, want)
		}
	}
}
