package opsgenimpl

import "strings"

// EnumKnown reports whether v is one of values, the values of an enum
// joined by NUL bytes. The Known method of a generated string enum calls it
// with a string literal:
//
//	func (v PetStatus) Known() bool {
//		return opsgenimpl.EnumKnown(string(v), "available\x00pending\x00sold")
//	}
//
// An enum with a value that has a NUL byte gets a switch instead. A switch
// over the constants in each Known method, or a []string of the values in
// static data, costs the compiler far more (GitHub's API declares 3,002
// enums): a literal is one string, shared by every enum with the same
// values. It is not inlined, for the same reason: inlined, its loop is
// compiled into every Known method and into the wrapper of each for the
// pointer type.
//
//go:noinline
func EnumKnown(v, values string) bool {
	for {
		x, rest, more := strings.Cut(values, "\x00")
		if x == v {
			return true
		}
		if !more {
			return false
		}
		values = rest
	}
}
