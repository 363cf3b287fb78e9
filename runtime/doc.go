// Package runtime is what users of opsgen's generated code call: the
// [ResponseEnvelope] every operation returns, its errors ([*CallError]),
// the [Registry] that calls operations by name, and the value types
// generated code declares (Nullable, Date, Duration, UnionValue).
//
//	env, err := client.GetPet(ctx, api.GetPetParams{ID: 7})
//	if err != nil {
//		return err // transport failures, HTTP statuses outside 2xx: *CallError
//	}
//	pet := env.Data
//	status := runtime.HTTPMetaOf(env.Meta).StatusCode // nil for other sources
//
// Data that drifted from its schema never fails a call, except in
// [ValidateStrict] mode: it comes with [Warning]s. Packages beside this one:
// httpclient and mcpclient (the transports), mcpserver (a Registry over
// MCP), mcpconv (MCP content conventions), opsgenimpl (generated code only).
package runtime
