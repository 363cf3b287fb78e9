package conform

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Pattern is a compiled JSON Schema "pattern": a *regexp.Regexp, from the
// compiler package runtime/pattern installs.
type Pattern interface {
	// MatchString reports whether s contains a match of the pattern.
	MatchString(s string) bool
	// String returns the source text of the pattern.
	String() string
}

// PatternCompiler compiles a regular expression of Go's syntax
// (regexp.Compile).
type PatternCompiler func(expr string) (Pattern, error)

var patternCompiler atomic.Pointer[PatternCompiler]

// SetPatternCompiler installs the compiler of "pattern" keywords. Package
// runtime/pattern installs Go's regexp in its initialisation:
//
//	import _ "github.com/opsgen/opsgen/runtime/pattern"
//
// Generated code imports it when its schemas have patterns; without it,
// patterns are not checked (the runtime logs that once). It is apart from
// package runtime so that a program whose schemas have none does not link
// package regexp (about 0.25 MB of a stripped binary).
func SetPatternCompiler(c PatternCompiler) { patternCompiler.Store(&c) }

// patternsUnchecked logs, once per process, that a pattern was met
// without a compiler.
var patternsUnchecked sync.Once

// CompilePattern compiles a JSON Schema "pattern" (ECMA-262 syntax) with
// the installed compiler (see SetPatternCompiler). ECMA-262's \uXXXX
// escapes are rewritten \x{XXXX} first. A pattern Go cannot compile
// (lookaround, backreferences, repeat counts over 1000) yields nil: the
// pattern is not checked, rather than failing the whole schema. Real
// descriptions use such patterns (AWS: \S{1,8192}). So does the lack of
// a compiler. runtime/fullschema reads patterns the same way.
func CompilePattern(s string) Pattern {
	c := patternCompiler.Load()
	if c == nil {
		patternsUnchecked.Do(func() {
			LogWarning(`opsgen: a schema uses "pattern", which the runtime checks only with runtime/pattern imported; patterns are not checked`)
		})
		return nil
	}
	re, err := (*c)(ecmaEscapes(s))
	if err != nil || re == nil {
		return nil
	}
	return re
}

// ecmaEscapes rewrites the \uXXXX escapes of an ECMA-262 pattern as Go's
// \x{XXXX}, leaving escaped backslashes alone.
func ecmaEscapes(s string) string {
	if !strings.Contains(s, `\u`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) && isHex(s[i+2:i+6]) {
			b.WriteString(`\x{` + s[i+2:i+6] + `}`)
			i += 5
			continue
		}
		b.WriteString(s[i : i+2])
		i++
	}
	return b.String()
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
