package emit

import (
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/ir"
)

// missingMember follows JSON pointer ptr through the response type t and
// returns what the schema says is not there ("member \"next\" of /meta"),
// or "" when the member is declared or the schema cannot tell (any value,
// a union, a map). The runtime reads pagination pointers from the raw body,
// so a member the schema leaves out may still come; a pointer that matches
// nothing declared is likely a typo, which would end iteration after the
// first page.
func missingMember(t *ir.Type, ptr string) string {
	if ptr == "" {
		return ""
	}
	tokens := strings.Split(ptr[1:], "/")
	for i, tok := range tokens {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		at := "/" + strings.Join(tokens[:i], "/")
		if i == 0 {
			at = "the body"
		}
		if t == nil {
			return ""
		}
		switch t.Kind {
		case ir.Struct:
			var next *ir.Type
			found := false
			for _, f := range t.Fields {
				if f != nil && f.JSONName == tok {
					next, found = f.Type, true
					break
				}
			}
			if !found {
				if t.AdditionalProperties != nil {
					next = t.AdditionalProperties
				} else {
					return "member " + quoted(tok) + " of " + at
				}
			}
			t = next
		case ir.Map:
			t = t.Elem
		case ir.Array:
			if _, err := strconv.ParseUint(tok, 10, 64); err != nil {
				return "member " + quoted(tok) + " of " + at + ", an array"
			}
			t = t.Elem
		case ir.Tuple:
			n, err := strconv.ParseUint(tok, 10, 64)
			switch {
			case err != nil:
				return "member " + quoted(tok) + " of " + at + ", an array"
			case n < uint64(len(t.Items)):
				t = t.Items[n]
			default:
				t = t.Elem
			}
		case ir.Any, ir.Union:
			return ""
		default:
			return "member " + quoted(tok) + " of " + at + ", which is not an object"
		}
	}
	return ""
}
