package runtime_test

// The tests of this package run with the full validator installed, as a
// generated package whose schemas need it does; TestNoFullValidator in
// runtime/fullschema's tests covers a program without it.
import _ "github.com/opsgen/opsgen/runtime/fullschema"
