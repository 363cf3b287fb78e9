package jsonschema

import (
	"regexp"

	"github.com/opsgen/opsgen/generator/diag"
)

// FormatTypes is the built-in table of the Go types that hold string
// formats other than plain strings. Formats not listed stay string (uuid,
// uri, email, hostname, ...: no type in the standard library parses them
// both ways, and a string never turns a valid value into drift); a
// configuration's types mapping adds or replaces entries, x-go-type pins
// one schema. On a union (oneOf, anyOf, several types) or a tuple the chosen
// type holds the whole value, and the variants or items are not converted.
//
//	format     Go type
//	date-time  time.Time (ir.DateTime)
//	date       runtime.Date (ir.Date)
//	duration   runtime.Duration (ISO 8601)
//	ipv4       net/netip.Addr
//	ipv6       net/netip.Addr
//	byte       []byte, base64 (ir.Bytes)
//	binary     []byte or io.Reader (ir.Binary)
//	int32      int32, int64 int64, float float32, double float64
var FormatTypes = map[string]string{
	"duration": "github.com/opsgen/opsgen/runtime.Duration",
	"ipv4":     "net/netip.Addr",
	"ipv6":     "net/netip.Addr",
}

// goTypeRE is what a Go type given by x-go-type or the types mapping may
// look like: an optional import path and a dot, then an identifier.
var goTypeRE = regexp.MustCompile(`^(?:[A-Za-z0-9_.\-~]+(?:/[A-Za-z0-9_.\-~]+)*\.)?[A-Za-z_][A-Za-z0-9_]*$`)

// ValidGoType reports whether s can be used as a Go type of a value
// ("import/path.Name" or a bare identifier).
func ValidGoType(s string) bool { return goTypeRE.MatchString(s) }

// goTypeOf returns the Go type that holds the values of s instead of its
// kind's: x-go-type, then the types mapping by format, then the built-in
// table (only for strings). "" keeps the kind's type.
func (c *Converter) goTypeOf(s *Schema, w Where) string {
	if s.GoType != "" {
		if !ValidGoType(s.GoType) {
			c.warnf(diag.LeftOut, w, s, "x-go-type %q is not a Go type (import/path.Name); ignored", s.GoType)
			return ""
		}
		return s.GoType
	}
	if s.Format == "" {
		return ""
	}
	if gt, ok := c.opts.Types[s.Format]; ok {
		if !ValidGoType(gt) {
			c.warnf(diag.LeftOut, w, s, "types: %q for format %q is not a Go type (import/path.Name); ignored", gt, s.Format)
			return ""
		}
		return gt
	}
	if isString(s) {
		return FormatTypes[s.Format]
	}
	return ""
}

// isString reports whether s is a string schema (type string, maybe with null).
func isString(s *Schema) bool {
	ts := nonNull(s.Types)
	return len(ts) == 1 && ts[0] == "string"
}
