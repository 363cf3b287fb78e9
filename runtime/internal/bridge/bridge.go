// Package bridge hands package runtime/opsgenimpl the unexported parts of
// package runtime that generated code reaches through it (the decoder of
// the result pipeline, the internals of UnionValue), without exporting
// them from runtime, whose API is what users call.
//
// Package runtime sets Runtime in its initialization to a value whose
// methods opsgenimpl names by an interface of its own; since opsgenimpl
// imports runtime, Runtime is set before opsgenimpl reads it.
package bridge

// Runtime is package runtime's implementation of what opsgenimpl calls.
var Runtime any
