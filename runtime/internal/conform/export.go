package conform

import "reflect"

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

var planKindNames = [...]string{pDelegate: "delegate", pString: "string", pBool: "bool", pInt: "int", pUint: "uint", pFloat: "float",
	pPointer: "pointer", pSlice: "slice", pStruct: "struct", pMap: "map", pNullable: "nullable", pTime: "time", pText: "text", pUnion: "union"}

// PlanOf describes the fused path's plan of t, for tests: its kind and the
// first type along its element chain that is delegated to encoding/json
// (nil when none is).
func PlanOf(t reflect.Type) (kind string, delegated reflect.Type) {
	p := planFor(t)
	for q := p.elem; q != nil; q = q.elem {
		if q.kind == pDelegate {
			return planKindNames[p.kind], q.typ
		}
	}
	return planKindNames[p.kind], nil
}
