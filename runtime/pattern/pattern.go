// Package pattern installs Go's regexp as the runtime's compiler of JSON
// Schema "pattern" keywords (see conform.SetPatternCompiler). Importing it
// for its side effect is enough:
//
//	import _ "github.com/opsgen/opsgen/runtime/pattern"
//
// Generated code imports it only when its schemas have patterns, and so do
// runtime/fullschema and runtime/mcpclient (whose schemas come at run
// time). Without it, patterns are not checked (the runtime logs that once)
// and package regexp is not linked.
package pattern

import (
	"regexp"

	"github.com/opsgen/opsgen/runtime/internal/conform"
)

func init() { conform.SetPatternCompiler(Compile) }

// Compile compiles expr (Go's syntax) with regexp.Compile.
func Compile(expr string) (conform.Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	return re, nil
}
