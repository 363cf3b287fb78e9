// Package jsonptr holds the generator's JSON pointers (RFC 6901) and
// positions in source text, shared by the loaders so that a diagnostic's
// place does not depend on which path found it.
//
// Pointers are written without the leading "#" ("/paths/~1pets/get"); the
// empty pointer is the whole document.
//
// Positions: lines and columns are 1-based, and a column counts characters
// (Unicode code points) from the start of its line, as gopkg.in/yaml.v3 and
// kin-openapi's origins count them for YAML; a tab is one character. The
// position of an object member is that of its key (its opening quote in
// JSON), the position of an array element or of the document that of its
// value. A pointer that does not exist in the text is placed at the deepest
// node on its path that does.
package jsonptr

import (
	"strconv"
	"strings"
)

var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// Escape escapes one reference token: "~" becomes "~0", "/" becomes "~1".
func Escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return escaper.Replace(token)
}

// Unescape undoes Escape.
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return unescaper.Replace(token)
}

// Append returns ptr extended by one token (escaped here).
func Append(ptr, token string) string { return ptr + "/" + Escape(token) }

// Tokens returns the unescaped tokens of ptr; nil for the empty pointer.
// A leading "#" is ignored; percent-encoding is not undone.
func Tokens(ptr string) []string {
	ptr = strings.TrimPrefix(ptr, "#")
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = Unescape(t)
	}
	return toks
}

// Lookup returns the value at ptr in a decoded JSON or YAML value
// (map[string]any and []any); ok is false when there is none.
func Lookup(v any, ptr string) (any, bool) {
	for _, tok := range Tokens(ptr) {
		switch n := v.(type) {
		case map[string]any:
			c, ok := n[tok]
			if !ok {
				return nil, false
			}
			v = c
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = n[i]
		default:
			return nil, false
		}
	}
	return v, true
}
