package opsgenimpl_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Decode normalizes and validates a body against the output schema before
// decoding it: a field of the wrong type is dropped with a warning instead
// of failing the whole result, and defaults are filled.
func ExampleDecode() {
	schema := opsgenimpl.NewSchema(`{
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
	warnings, err := opsgenimpl.Decode(context.Background(), p, "pets.getPet", schema,
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
	_, err = opsgenimpl.Decode(context.Background(), p, "pets.getPet", schema, []byte(`{"id":"7"}`), &pet)
	fmt.Println(errors.Is(err, runtime.ErrValidation), err)
	// Output:
	// {ID:0 Name:rex Status:available}
	// pets.getPet /id: expected integer, got string
	// true VALIDATION_ERROR pets.getPet: result does not match its schema (1 issues; first at "/id": expected integer, got string)
}

// A schema set from one document: refs of its schemas resolve into it.
// (Generated code declares its schemas as static Defs instead.)
func ExampleNewSchemaSet() {
	set := opsgenimpl.NewSchemaSet(`{"$defs": {
		"Node": {"type": "object", "properties": {
			"name": {"type": "string"},
			"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
		}}
	}}`)
	tree := set.Ref(`{"$ref": "#/$defs/Node"}`)
	var out any
	ws, _ := opsgenimpl.Decode(context.Background(), &runtime.Pipeline{Logger: slog.New(slog.DiscardHandler)}, "fs.tree", tree,
		[]byte(`{"name":"/","children":[{"name":"etc","size":4096},{"name":7}]}`), &out)
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	fmt.Println(ws)
	// Output:
	// {"children":[{"name":"etc"},{}],"name":"/"}
	// [fs.tree /children/1/name: expected string, got integer]
}

// Process is the pipeline for Go values: results of local handlers and
// stream events. An envelope passes through with its meta.
func ExampleProcess() {
	p := &runtime.Pipeline{}
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"n":{"type":"integer"}}}`)
	env, _ := opsgenimpl.Process(context.Background(), p, "counter.get", schema, map[string]any{"n": 1, "debug": true})
	fmt.Println(runtime.SourceOf(env.Meta), env.Data)

	remote := opsgenimpl.HTTP(map[string]any{"n": 2}, runtime.HTTPMeta{StatusCode: 200})
	env, _ = opsgenimpl.Process(context.Background(), p, "counter.get", schema, remote)
	fmt.Println(runtime.SourceOf(env.Meta), env.Data, runtime.HTTPMetaOf(env.Meta).StatusCode)
	// Output:
	// local map[n:1]
	// http map[n:2] 200
}
