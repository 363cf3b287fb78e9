package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/opsgen/opsgen/runtime"
)

// An envelope carries the data and the meta of the transport, and has the
// specs' wire form.
func Example_envelope() {
	type Pet struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
	}
	env := runtime.ResponseEnvelope[Pet]{Data: Pet{ID: 7, Name: "rex"}, Meta: &runtime.HTTPMeta{
		StatusCode:  200,
		Headers:     map[string]string{"content-type": "application/json"},
		ContentType: "application/json",
	}}
	fmt.Println(runtime.SourceOf(env.Meta), runtime.HTTPMetaOf(env.Meta).StatusCode, runtime.Unwrap(env).Name)

	b, _ := json.Marshal(env)
	fmt.Println(string(b))

	var back runtime.ResponseEnvelope[Pet]
	if err := json.Unmarshal(b, &back); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", back.Data)
	// Output:
	// http 200 rex
	// {"data":{"id":7,"name":"rex"},"meta":{"source":"http","statusCode":200,"headers":{"content-type":"application/json"},"contentType":"application/json"}}
	// {ID:7 Name:rex}
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
