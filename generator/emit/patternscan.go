package emit

import (
	"encoding/json"
	"strings"
)

// maxScanDepth is encoding/json's nesting limit: a deeper document does not
// decode, so scanPattern leaves it to decodePattern.
const maxScanDepth = 10000

// scanPattern is decodePattern without decoding, for valid JSON: one pass
// over the text that keeps, for each open object, whether its last member
// named "pattern" so far has a string value (the last of duplicate members
// is the one a decoded map keeps), and reports found when such an object
// closes. Strings are passed over whole (bytes up to the closing quote);
// a string followed by ':' is a member name. A name with escapes is decoded
// to be compared. ok is false, and the caller decodes, when the text is
// deeper than encoding/json decodes or a name does not decode. On text that
// is not JSON the answer is unspecified.
func scanPattern(doc string) (found, ok bool) {
	const (
		array     = iota // an open array
		object           // an open object, no string "pattern" (yet)
		patterned        // an open object whose last "pattern" is a string
	)
	var stack []byte
	for i := 0; i < len(doc); {
		switch doc[i] {
		case '"':
			end, escaped := stringEnd(doc, i)
			j := skipSpace(doc, end)
			if j >= len(doc) || doc[j] != ':' || len(stack) == 0 {
				i = end // a value
				continue
			}
			name := doc[i+1 : end-1]
			if escaped {
				var s string
				if json.Unmarshal([]byte(doc[i:end]), &s) != nil {
					return false, false
				}
				name = s
			}
			i = skipSpace(doc, j+1)
			if name == "pattern" {
				if i < len(doc) && doc[i] == '"' {
					stack[len(stack)-1] = patterned
				} else {
					stack[len(stack)-1] = object
				}
			}
		case '{', '[':
			if len(stack) == maxScanDepth {
				return false, false
			}
			if doc[i] == '{' {
				stack = append(stack, object)
			} else {
				stack = append(stack, array)
			}
			i++
		case '}', ']':
			if len(stack) > 0 {
				if stack[len(stack)-1] == patterned {
					return true, true
				}
				stack = stack[:len(stack)-1]
			}
			i++
		default:
			i++
		}
	}
	return false, true
}

// stringEnd returns the index after the closing quote of the string that
// starts at doc[i] (a quote), or len(doc) when it is not closed, and whether
// the string has a backslash escape.
func stringEnd(doc string, i int) (end int, escaped bool) {
	i++
	for {
		q := strings.IndexByte(doc[i:], '"')
		if q < 0 {
			return len(doc), true
		}
		// The quote closes the string unless an odd number of backslashes
		// precede it.
		n := 0
		for k := i + q - 1; k >= i && doc[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			escaped = escaped || strings.IndexByte(doc[i:i+q], '\\') >= 0
			return i + q + 1, escaped
		}
		escaped = true
		i += q + 1
	}
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(doc string, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}
