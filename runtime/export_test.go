package runtime

// SetFused turns the fused path (fused.go) on or off and returns what it
// was, for tests that compare it with the two passes.
func SetFused(on bool) bool {
	was := fusedEnabled
	fusedEnabled = on
	return was
}

// FusedDecode runs the fused path alone with schema (nil: decode only) and
// reports whether it decoded body into out.
func FusedDecode(schema *Schema, body []byte, out any) bool {
	var n *node
	if schema != nil {
		if schema.Compile(); schema.root == nil || schema.fallback != nil {
			return false
		}
		n = schema.root
	}
	return decodeFused(n, body, out)
}
