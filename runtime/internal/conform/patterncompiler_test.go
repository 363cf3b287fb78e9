package conform

import "regexp"

// The tests of this package check patterns with Go's regexp, as programs
// that import runtime/pattern do (it cannot be imported here: it imports
// this package).
func init() {
	SetPatternCompiler(func(expr string) (Pattern, error) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, err
		}
		return re, nil
	})
}
