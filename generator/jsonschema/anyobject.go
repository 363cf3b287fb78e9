package jsonschema

import "slices"

// orAnyObject recognises "X or null" written as a union of X and an open
// object: anyOf: [{$ref: X}, {type: object, nullable: true}], the idiom
// Microsoft Graph's description uses for its 3,500 nullable references.
// When X is an object whose Go struct holds every object the open branch
// accepts (see holdsAnyObject), the open branch adds nothing a Go value
// could keep: the variants become X alone, nullable when the open branch
// is. Otherwise keep is returned unchanged and the union stays. The JSON
// Schema the runtime validates with keeps the union as written.
func orAnyObject(keep []part, nullable bool) ([]part, bool) {
	for i, open := range keep {
		other := keep[1-i]
		if isOpenObject(open.s) && holdsAnyObject(other.s.resolve()) {
			return []part{other}, nullable || open.s.Nullable
		}
	}
	return keep, nullable
}

// variantCount is the number of variants a oneOf or anyOf of parts has:
// its parts other than null, X alone for "X or null" (orAnyObject).
func variantCount(parts []*Schema) int {
	parts = nonNullSchemas(parts)
	if len(parts) == 2 {
		keep, _ := orAnyObject([]part{{parts[0], 0}, {parts[1], 1}}, false)
		return len(keep)
	}
	return len(parts)
}

// isOpenObject reports whether s is an object schema that constrains
// nothing else: {type: object}, maybe nullable and documented.
func isOpenObject(s *Schema) bool {
	if s == nil || s.Ref != "" || !slices.Contains(s.Types, "object") || len(nonNull(s.Types)) != 1 {
		return false
	}
	open := s.AdditionalProperties == nil || (s.AdditionalProperties.Always != nil && *s.AdditionalProperties.Always)
	return open && len(s.Properties) == 0 && len(s.Required) == 0 && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 &&
		s.Enum == nil && s.Const == nil && s.Not == nil && !s.NotIf && len(s.Keywords) == 0 && s.GoType == "" &&
		s.Items == nil && len(s.PrefixItems) == 0 && s.Always == nil
}

// holdsAnyObject reports whether the Go value of s (resolved), an object
// made of its allOf parts, holds any object: every part allows other
// properties and states nothing that rejects an object by its shape
// (additionalProperties: false, a union, not, an enum, a const, validation
// keywords such as minProperties, x-go-type). Required members do not
// count: the decoded struct leaves a missing one zero, and validation
// checks the union as written (Graph's entities all require
// "@odata.type", which its open branch does not).
func holdsAnyObject(s *Schema) bool {
	return s != nil && openObjectParts(s, map[*Schema]bool{})
}

// openObjectParts reports whether s and its allOf parts are objects that
// allow any other property.
func openObjectParts(s *Schema, seen map[*Schema]bool) bool {
	if s == nil {
		return false
	}
	if seen[s] {
		return true // a cycle of allOf: judged where it started
	}
	seen[s] = true
	if s.Always != nil || (s.Types != nil && !slices.Equal(nonNull(s.Types), []string{"object"})) {
		return false
	}
	if s.AdditionalProperties != nil && (s.AdditionalProperties.Always == nil || !*s.AdditionalProperties.Always) {
		return false
	}
	if len(s.AnyOf)+len(s.OneOf) > 0 || s.Enum != nil || s.Const != nil || s.Not != nil || s.NotIf ||
		len(s.Keywords) > 0 || s.GoType != "" || s.Items != nil || len(s.PrefixItems) > 0 {
		return false
	}
	if s.Types == nil && len(s.Properties) == 0 && len(s.AllOf) == 0 {
		return false // no sign of an object at all: any value
	}
	for _, p := range s.AllOf {
		if !openObjectParts(p.resolve(), seen) {
			return false
		}
	}
	return true
}
