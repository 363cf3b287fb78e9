package ir

import "slices"

// Schema is a JSON Schema (draft 2020-12) as a value: the schema the
// runtime compiles (opsgenimpl.Schema) to normalize and validate. It stays
// structured until the emitter writes it (generator/emit), so that a
// reference is a pointer to the definition it names, which merging types
// re-points (MergeIdentical) and renaming a type renames with it.
//
// A Schema is an object schema: Ref, when set, is its "$ref" member
// ("#/$defs/<Ref.Name>"), and Members are its other members.
type Schema struct {
	Ref *Def
	// Members are sorted by Key, each key once. A Value is decoded JSON
	// (nil, bool, float64, string, []any, map[string]any, and the integers
	// and []string a loader writes), a *Schema, a []*Schema, or Properties.
	Members []Member
}

// Member is one member of a Schema.
type Member struct {
	Key   string
	Value any
}

// Properties is an object whose members are schemas, sorted by Key
// ("properties").
type Properties []Property

// Property is one member of Properties.
type Property struct {
	Key    string
	Schema *Schema
}

// Def is a named schema of Service.Defs, the target of references.
type Def struct {
	// Name is the def's name under "$defs": its type's Go name (renaming
	// the type renames the def), or the old name of a type merged into
	// another (MergeIdentical).
	Name   string
	Schema *Schema
	// Input, when set, is the def's schema in a request, where it differs
	// from Schema (a member both required and write-only is required
	// there): an operation's bundled input schema writes it under Name.
	Input *Schema
}

// InputSchema is the schema of d in a request: Input, or Schema.
func (d *Def) InputSchema() *Schema {
	if d.Input != nil {
		return d.Input
	}
	return d.Schema
}

// Def returns the def named name, or nil.
func (s *Service) Def(name string) *Def {
	for _, d := range s.Defs {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// NewSchema returns the schema of members, which it sorts by key; of
// members with the same key, the last one counts (as for a map).
func NewSchema(members ...Member) *Schema {
	slices.SortStableFunc(members, func(a, b Member) int {
		switch {
		case a.Key < b.Key:
			return -1
		case a.Key > b.Key:
			return 1
		}
		return 0
	})
	out := members[:0]
	for i, m := range members {
		if i+1 < len(members) && members[i+1].Key == m.Key {
			continue
		}
		out = append(out, m)
	}
	return &Schema{Members: slices.Clip(out)}
}

// RefTo returns a schema that only refers to d.
func RefTo(d *Def) *Schema { return &Schema{Ref: d} }

// IsRef reports whether s only refers to a def (it has no other member).
func (s *Schema) IsRef() bool { return s != nil && s.Ref != nil && len(s.Members) == 0 }

// Get returns the value of the member key, or nil.
func (s *Schema) Get(key string) any {
	i, ok := slices.BinarySearchFunc(s.Members, key, func(m Member, k string) int {
		switch {
		case m.Key < k:
			return -1
		case m.Key > k:
			return 1
		}
		return 0
	})
	if !ok {
		return nil
	}
	return s.Members[i].Value
}

// With returns a copy of s with the member key set to v.
func (s *Schema) With(key string, v any) *Schema {
	members := append(slices.Clone(s.Members), Member{key, v})
	out := NewSchema(members...)
	out.Ref = s.Ref
	return out
}

// Walk calls fn with s and every schema it holds (not the defs it refers
// to), each before the schemas it holds.
func (s *Schema) Walk(fn func(*Schema)) {
	if s == nil {
		return
	}
	fn(s)
	for _, m := range s.Members {
		walkValue(m.Value, fn)
	}
}

func walkValue(v any, fn func(*Schema)) {
	switch v := v.(type) {
	case *Schema:
		v.Walk(fn)
	case []*Schema:
		for _, x := range v {
			x.Walk(fn)
		}
	case Properties:
		for _, p := range v {
			p.Schema.Walk(fn)
		}
	case []any: // decoded JSON holding schemas (DecodeSchema)
		for _, x := range v {
			walkValue(x, fn)
		}
	}
}

// Equal reports whether a and b are the same schema: the same members and
// references to the same defs (by pointer).
func (a *Schema) Equal(b *Schema) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || a.Ref != b.Ref || len(a.Members) != len(b.Members) {
		return false
	}
	for i, m := range a.Members {
		if m.Key != b.Members[i].Key || !equalValue(m.Value, b.Members[i].Value) {
			return false
		}
	}
	return true
}

func equalValue(a, b any) bool {
	switch a := a.(type) {
	case *Schema:
		b, ok := b.(*Schema)
		return ok && a.Equal(b)
	case []*Schema:
		b, ok := b.([]*Schema)
		return ok && slices.EqualFunc(a, b, (*Schema).Equal)
	case Properties:
		b, ok := b.(Properties)
		return ok && slices.EqualFunc(a, b, func(x, y Property) bool { return x.Key == y.Key && x.Schema.Equal(y.Schema) })
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equalValue)
	case []string:
		b, ok := b.([]string)
		return ok && slices.Equal(a, b)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, x := range a {
			y, ok := b[k]
			if !ok || !equalValue(x, y) {
				return false
			}
		}
		return true
	case nil, bool, float64, string, int, int64, uint64:
		return a == b
	}
	return false
}
