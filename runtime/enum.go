package runtime

// EnumKnown reports whether v is one of values. The Known method of a
// generated string enum calls it with the enum's values:
//
//	func (v PetStatus) Known() bool { return runtime.EnumKnown(string(v), knownPetStatus) }
//
//	var knownPetStatus = []string{"available", "pending", "sold"}
//
// A switch over the constants in each Known method costs the compiler far
// more (GitHub's API declares 3,002 enums), for no gain outside hot loops.
// It is not inlined, for the same reason: inlined, its loop is compiled into
// every Known method and into the wrapper of each for the pointer type.
//
//go:noinline
func EnumKnown(v string, values []string) bool {
	for _, x := range values {
		if x == v {
			return true
		}
	}
	return false
}
