// Package examplescheck holds the regeneration check of the examples under
// examples/: each example is copied to a temporary directory, regenerated
// with `go generate ./...`, and must come out byte for byte as committed.
// It is CI's `opsgen check` applied to opsgen's own examples. The examples
// are modules of their own, so this test in the root module is what makes
// `go test ./...` notice a stale example.
package examplescheck
