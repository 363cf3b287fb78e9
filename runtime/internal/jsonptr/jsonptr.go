// Package jsonptr holds the runtime's JSON pointer (RFC 6901) helpers: the
// escaping of a reference token and the lookup of a pointer in a decoded
// JSON document. The generator has its own (generator/jsonptr); the
// runtime never imports the generator.
package jsonptr

import (
	"fmt"
	"strconv"
	"strings"
)

// Escape escapes a reference token: "~" becomes "~0" and "/" becomes "~1".
func Escape(token string) string {
	if !strings.ContainsAny(token, "~/") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~", "~0"), "/", "~1")
}

// Unescape reverses Escape.
func Unescape(token string) string {
	if !strings.Contains(token, "~") {
		return token
	}
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}

// Join returns the pointer of the tokens, each escaped.
func Join(tokens []string) string {
	var sb strings.Builder
	for _, t := range tokens {
		sb.WriteByte('/')
		sb.WriteString(Escape(t))
	}
	return sb.String()
}

// Lookup returns the value at ptr ("" for the whole document) in doc, a
// document decoded into map[string]any, []any and scalars. The error says
// which token is missing.
func Lookup(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if ptr[0] != '/' {
		return nil, fmt.Errorf("%q is not a JSON pointer", ptr)
	}
	cur := doc
	for tok := range strings.SplitSeq(ptr[1:], "/") {
		tok = Unescape(tok)
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, fmt.Errorf("no %q in the document", tok)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil, fmt.Errorf("no index %q in the document", tok)
			}
			cur = v[i]
		default:
			return nil, fmt.Errorf("%q is inside a %s", tok, kind(v))
		}
	}
	return cur, nil
}

// kind names the JSON kind of a decoded value.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	}
	return "number"
}
