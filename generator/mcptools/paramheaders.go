package mcptools

import (
	"maps"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// paramHeaders collects the x-mcp-header annotations (MCP 2026-07-28,
// SEP-2243) of the properties of schema, the input schema at ptr, and of
// the properties of its nested objects, in path order. An annotation that
// breaks the rules (not on a string, integer or boolean property; not a
// non-empty HTTP token; a name used twice, case aside) is reported and
// left out, as go-sdk's client leaves such a tool out.
func paramHeaders(schema any, ptr string, pos *positions, diags *diag.List) []ir.ParamHeader {
	var out []ir.ParamHeader
	seen := map[string]string{} // lower-cased header -> pointer of its first use
	var walk func(obj map[string]any, ptr string, path []string)
	walk = func(obj map[string]any, ptr string, path []string) {
		props, _ := obj["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			prop, ok := props[name].(map[string]any)
			if !ok {
				continue
			}
			pptr := ptr + "/properties/" + escapePointer(name)
			ppath := append(slices.Clip(path), name)
			if v, ok := prop["x-mcp-header"]; ok {
				hptr := pptr + "/x-mcp-header"
				header, _ := v.(string)
				typ, _ := prop["type"].(string)
				switch {
				case !isToken(header):
					diags.Warn(diag.LeftOut, pos.pos(hptr), "x-mcp-header must be a non-empty HTTP token, found %s; ignored", describe(v))
				case typ != "string" && typ != "integer" && typ != "boolean":
					diags.Warn(diag.LeftOut, pos.pos(hptr), "x-mcp-header %q is on a property of type %s (want string, integer or boolean); ignored", header, describe(prop["type"]))
				case seen[strings.ToLower(header)] != "":
					diags.Warn(diag.LeftOut, pos.pos(hptr), "x-mcp-header %q is used twice (first at %s); ignored", header, seen[strings.ToLower(header)])
				default:
					seen[strings.ToLower(header)] = hptr
					out = append(out, ir.ParamHeader{Path: ppath, Header: header})
				}
			}
			walk(prop, pptr, ppath)
		}
	}
	if obj, ok := schema.(map[string]any); ok {
		walk(obj, ptr, nil)
	}
	return out
}

// describe shows a JSON value in a message: a string quoted, else its kind.
func describe(v any) string {
	if s, ok := v.(string); ok {
		return `"` + s + `"`
	}
	return jsonKind(v)
}

// escapePointer escapes a JSON pointer token.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// isToken reports whether s is an HTTP token (RFC 9110 tchar+).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}
