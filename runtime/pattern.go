package runtime

import (
	"regexp"
	"strings"
)

// CompilePattern compiles a JSON Schema "pattern" (ECMA-262 syntax) with
// Go's regexp. ECMA-262's \uXXXX escapes are rewritten \x{XXXX} first. A
// pattern Go cannot compile (lookaround, backreferences, repeat counts over
// 1000) yields nil: the pattern is not checked, rather than failing the
// whole schema. Real descriptions use such patterns (AWS: \S{1,8192}).
// runtime/fullschema reads patterns the same way.
func CompilePattern(s string) *regexp.Regexp {
	re, err := regexp.Compile(ecmaEscapes(s))
	if err != nil {
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
