// Package conform checks JSON data against its JSON Schema, normalizes it
// (drops what the schema does not declare, fills defaults, drops values of
// the wrong type) and decodes it into Go values: the schema compiler, the
// walker, the fused one-pass decoder and the repair of values a Go type
// cannot hold. Package runtime's result pipeline (described in package
// runtime/opsgenimpl) is its one user; it cannot import runtime, so the
// runtime value types it decodes specially (Nullable, UnionValue) are
// installed by runtime through SetTypes, and its Issue is runtime's Warning.
package conform
