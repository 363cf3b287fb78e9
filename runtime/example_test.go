package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/opsgen/opsgen/runtime"
)

// An envelope carries the data and the meta of the transport, and has the
// specs' wire form.
func Example_envelope() {
	type Pet struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	env := runtime.HTTP(Pet{ID: 7, Name: "rex"}, runtime.HTTPMeta{
		StatusCode:  200,
		Headers:     map[string]string{"content-type": "application/json"},
		ContentType: "application/json",
	})
	fmt.Println(runtime.SourceOf(env.Meta), runtime.HTTPMetaOf(env.Meta).StatusCode, runtime.Unwrap(env).Name)

	b, _ := json.Marshal(env)
	fmt.Println(string(b))
	fmt.Println(runtime.IsResponseEnvelope(b), runtime.IsResponseEnvelope([]byte(`{"data":1,"meta":{"author":"me"}}`)))

	var back runtime.ResponseEnvelope[Pet]
	if err := json.Unmarshal(b, &back); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", back.Data)
	// Output:
	// http 200 rex
	// {"data":{"id":7,"name":"rex"},"meta":{"source":"http","statusCode":200,"headers":{"content-type":"application/json"},"contentType":"application/json"}}
	// true false
	// {ID:7 Name:rex}
}

// Decode normalizes and validates a body against the output schema before
// decoding it: a field of the wrong type is dropped with a warning instead
// of failing the whole result, and defaults are filled.
func ExampleDecode() {
	schema := runtime.NewSchema(`{
		"type": "object",
		"properties": {
			"id": {"type": "integer"},
			"name": {"type": "string"},
			"status": {"type": "string", "default": "available"}
		}
	}`)
	type Pet struct {
		ID     int    `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status,omitempty"`
	}
	p := &runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)}
	var pet Pet
	warnings, err := runtime.Decode(context.Background(), p, "pets.getPet", schema,
		[]byte(`{"id":"7","name":"rex"}`), &pet)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", pet)
	for _, w := range warnings {
		fmt.Println(w)
	}

	// In strict mode the mismatch is an error.
	p.Mode = runtime.ValidateStrict
	_, err = runtime.Decode(context.Background(), p, "pets.getPet", schema, []byte(`{"id":"7"}`), &pet)
	fmt.Println(errors.Is(err, runtime.ErrValidation), err)
	// Output:
	// {ID:0 Name:rex Status:available}
	// pets.getPet /id: expected integer, got string
	// true VALIDATION_ERROR pets.getPet: result does not match its schema (1 issues; first at "/id": expected integer, got string)
}

// Generated code declares one schema set per package and refers into it.
func ExampleSchemaSet_Ref() {
	set := runtime.NewSchemaSet(`{"$defs": {
		"Node": {"type": "object", "properties": {
			"name": {"type": "string"},
			"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
		}}
	}}`)
	tree := set.Ref(`{"$ref": "#/$defs/Node"}`)
	var out any
	ws, _ := runtime.Decode(context.Background(), &runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)}, "fs.tree", tree,
		[]byte(`{"name":"/","children":[{"name":"etc","size":4096},{"name":7}]}`), &out)
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	fmt.Println(ws)
	// Output:
	// {"children":[{"name":"etc"},{}],"name":"/"}
	// [fs.tree /children/1/name: expected string, got integer]
}

// The Registry calls operations by name: input validated, handler run,
// result through the pipeline.
func ExampleRegistry_Execute() {
	reg := runtime.NewRegistry(nil)
	err := reg.Register(runtime.OperationSpec{
		ID:           "math.add",
		Description:  "Adds two numbers.",
		InputSchema:  json.RawMessage(`{"type":"object","required":["a","b"],"properties":{"a":{"type":"number"},"b":{"type":"number"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}}}`),
	}, func(ctx context.Context, input json.RawMessage) (any, error) {
		var in struct{ A, B float64 }
		if err := json.Unmarshal(input, &in); err != nil {
			return nil, err
		}
		return map[string]float64{"sum": in.A + in.B}, nil
	})
	if err != nil {
		panic(err)
	}
	env, err := reg.Execute(context.Background(), "math.add", map[string]any{"a": 2, "b": 3})
	fmt.Println(env.Data, runtime.LocalMetaOf(env.Meta).OperationID, err)

	_, err = reg.Execute(context.Background(), "math.add", map[string]any{"a": 2})
	fmt.Println(err)
	_, err = reg.Execute(context.Background(), "math.mul", nil)
	fmt.Println(errors.Is(err, runtime.ErrOperationNotFound))
	// Output:
	// map[sum:5] math.add <nil>
	// VALIDATION_ERROR math.add: invalid input: missing required property "b"
	// true
}

// Process is the pipeline for Go values: results of local handlers and
// stream events. An envelope passes through with its meta.
func ExamplePipeline_Process() {
	p := &runtime.Pipeline{}
	schema := runtime.NewSchema(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	env, _ := p.Process(context.Background(), "counter.get", schema, map[string]any{"n": 1, "debug": true})
	fmt.Println(runtime.SourceOf(env.Meta), env.Data)

	remote := runtime.HTTP(map[string]any{"n": 2}, runtime.HTTPMeta{StatusCode: 200})
	env, _ = p.Process(context.Background(), "counter.get", schema, remote)
	fmt.Println(runtime.SourceOf(env.Meta), env.Data, runtime.HTTPMetaOf(env.Meta).StatusCode)
	// Output:
	// local map[n:1]
	// http map[n:2] 200
}
