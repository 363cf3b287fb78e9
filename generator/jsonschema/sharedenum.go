package jsonschema

import (
	"cmp"
	"encoding/json"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/naming"
)

// Parameters of many operations often carry the same inline enum:
// Microsoft Graph repeats the $select, $expand and $orderby values of an
// entity in every operation on it (9,189 inline enums, 966 distinct). An
// inline enum of a parameter becomes one type per distinct schema instead
// of one per operation. Its name is the shortest of the names its uses
// ask for (the first in byte order among equals), so it does not depend
// on the order of the document.

// sharedEnum is the type of identical parameter enums.
type sharedEnum struct {
	entry Entry
	req   int // its name request, in Converter.requests
}

// sharedEnumKey returns the key under which the schema s at w is shared:
// an inline enum of a parameter (or of a parameter's items) with no name
// of its own (x-go-name, config), keyed by everything its Go type and
// documentation come from. ok is false for any other schema.
func (c *Converter) sharedEnumKey(s *Schema, w Where) (key string, ok bool) {
	if !hasValue(s.Enum) || s.GoName != "" || s.GoType != "" || !strings.Contains(w.Ptr, "/parameters/") ||
		len(s.Properties) > 0 || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Items != nil {
		return "", false
	}
	if _, over := c.opts.Names["#"+w.Ptr]; over && w.File == c.opts.Source {
		return "", false
	}
	b, err := json.Marshal([]any{s.Types, s.Nullable, s.Format, s.Title, s.Description, s.Deprecated,
		s.ReadOnly, s.WriteOnly, s.Default, s.Const, s.Enum, s.Keywords})
	if err != nil {
		return "", false
	}
	return string(b), true
}

// sharedEnum converts the parameter enum s at w, or returns the type an
// identical one already has, offering it the name w asks for.
func (c *Converter) sharedEnum(s *Schema, w Where, key string) Entry {
	if se, ok := c.enums[key]; ok {
		c.cache[s] = se.entry
		r := &c.requests[se.req]
		want := naming.Sanitize(w.Name, "Type")
		if cmp.Or(cmp.Compare(len(want), len(r.want)), strings.Compare(want, r.want)) < 0 {
			r.want, r.key, r.pos = want, c.nameKey(w, ""), diag.Pos{File: w.File, Pointer: w.Ptr}
			c.place(se.entry.Type, s, w)
		}
		return se.entry
	}
	n := len(c.requests)
	e := c.named(s, w, w.Name, GroupInline)
	if len(c.requests) == n+1 && c.requests[n].want == naming.Sanitize(w.Name, "Type") {
		if c.enums == nil {
			c.enums = map[string]*sharedEnum{}
		}
		c.enums[key] = &sharedEnum{entry: e, req: n}
	}
	return e
}
