// Package runtime is what users of opsgen's generated code call: the
// envelope every operation returns, its errors, the Registry that calls
// operations by name, and the value types generated code declares
// (Nullable, Date, Duration, UnionValue).
//
// Every generated operation returns a [ResponseEnvelope]: Data, typed from
// the operation's output schema, Warnings when the data did not match it,
// and the Meta of the transport ([*LocalMeta], [*HTTPMeta], [*MCPMeta]):
//
//	env, err := client.GetPet(ctx, api.GetPetParams{ID: 7})
//	if err != nil {
//		return err // transport failures, HTTP statuses outside 2xx: *CallError
//	}
//	pet := env.Data
//	status := runtime.HTTPMetaOf(env.Meta).StatusCode // nil for other sources
//
// Data that drifted from its schema never fails a call, except in
// [ValidateStrict] mode: what normalization cannot fix is a [Warning], and
// a value the Go type cannot hold is dropped with one. The result pipeline
// that does this (detect, wrap, normalize, validate) is described in
// package runtime/opsgenimpl, which generated code calls; a [Pipeline]
// holds its settings.
//
// # Registry
//
// A [Registry] holds operations by "namespace.name" id with their JSON
// Schemas and a [Handler]. [Registry.Execute] validates the input against
// the input schema, runs the handler (a panic becomes an EXECUTION_ERROR
// carrying a [*PanicError]), and runs the pipeline on the result, so that
// local and remote operations are called the same way:
//
//	env, err := reg.Execute(ctx, "petstore.getPet", map[string]any{"id": 7})
//
// Generated clients register all their operations with their Register
// method; [ExecuteAs] decodes the data into a T.
//
// Packages beside this one: runtime/httpclient and runtime/mcpclient are
// the transports, runtime/mcpserver serves a Registry over MCP,
// runtime/mcpconv reads and writes the MCP content conventions, and
// runtime/opsgenimpl is for generated code only.
package runtime
