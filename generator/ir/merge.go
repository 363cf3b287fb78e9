package ir

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// MergeIdentical declares structurally identical object and enum types
// once. MCP listings repeat their shapes (a tool's output holds the
// entities another tool takes), and each repetition would otherwise be a
// type of its own, so that one tool's result needs a conversion before it
// can be passed to another.
//
// Two types are identical when their Go shapes are (fields with the same
// Go and JSON names, flags and types, or the same enum values);
// documentation does not count, nor do the parts of their JSON Schemas that
// do not change the Go type (additionalProperties: false, bounds): the
// memory server's input entities are open objects and its output entities
// closed ones, and a Go value of one must still be passable as the other.
// A merged type whose schema differs from its keeper's keeps that schema in
// Defs under its old name, so each operation validates as its document
// says; identical schemas are declared once. Types used directly as a
// tool's input or output keep their own names and are not merged. Each group becomes its
// member with the best name: the longest suffix the names share, starting
// at a word (EntitiesItem for CreateEntitiesInputEntitiesItem and
// ReadGraphOutputEntitiesItem) when no other name takes it, else the
// shortest name (ties: the first in order). Merging repeats until nothing
// changes, so containers of merged types merge too. References in Defs
// and in the operations' schemas follow: they point at defs, which are
// named after their types.
func MergeIdentical(svc *Service) {
	keep := map[*Type]bool{}
	for _, op := range svc.Operations {
		if op.Tool != nil {
			keep[op.Tool.InputType] = true
			keep[op.Tool.OutputType] = true
		}
	}
	for {
		groups := map[string][]*Type{}
		var keys []string
		for _, t := range svc.Types {
			if keep[t] || (t.Kind != Struct && t.Kind != Enum) || t.GoType != "" {
				continue
			}
			k := shapeKey(t)
			if groups[k] == nil {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], t)
		}
		to := map[*Type]*Type{}
		taken := map[string]bool{}
		for _, t := range svc.Types {
			taken[t.Name] = true
			for _, v := range t.Values {
				taken[v.Name] = true
			}
			taken[t.VariantKind] = true // "" is no name pickKeeper asks for
			taken[t.ValueMatch] = true
			for _, v := range t.Variants {
				taken[v.Const] = true
				taken[v.Constructor] = true
			}
		}
		for _, r := range Reserved {
			taken[r] = true
		}
		for _, d := range svc.Defs {
			taken[d.Name] = true // a def kept under a merged type's old name
		}
		for _, k := range keys {
			g := groups[k]
			if len(g) < 2 {
				continue
			}
			keeper := pickKeeper(g, taken)
			for _, t := range g {
				if t != keeper {
					to[t] = keeper
				}
			}
		}
		if len(to) == 0 {
			return
		}
		applyMerge(svc, to)
	}
}

// pickKeeper chooses the member that stays, renamed to the group's
// shared suffix when that is free.
func pickKeeper(g []*Type, taken map[string]bool) *Type {
	best := slices.MinFunc(g, func(a, b *Type) int {
		return cmp.Or(cmp.Compare(len(a.Name), len(b.Name)), cmp.Compare(a.Name, b.Name))
	})
	suffix := g[0].Name
	for _, t := range g[1:] {
		for !strings.HasSuffix(t.Name, suffix) {
			suffix = suffix[1:]
		}
	}
	// Start at a word: an upper-case letter.
	for suffix != "" && !(suffix[0] >= 'A' && suffix[0] <= 'Z') {
		suffix = suffix[1:]
	}
	if len(suffix) < 3 || suffix == best.Name || taken[suffix] {
		return best
	}
	// An enum's constants are named after it: they follow when they can.
	consts := make([]string, len(best.Values))
	for i, v := range best.Values {
		consts[i] = v.Name
		if v.Name == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(v.Name, best.Name); ok && !taken[suffix+rest] {
			consts[i] = suffix + rest
		} else if best.Kind == Enum {
			return best
		}
	}
	for i, v := range best.Values {
		taken[consts[i]] = true
		v.Name = consts[i]
	}
	taken[suffix] = true
	best.Name = suffix
	return best
}

// shapeKey is the Go shape of t: what a declaration of it says, with
// named types by name and without documentation.
func shapeKey(t *Type) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(t.Kind)) + "|" + t.Format + "|" + strconv.FormatBool(t.Nullable))
	switch t.Kind {
	case Struct:
		for _, f := range t.Fields {
			b.WriteString("|" + f.Name + ":" + f.JSONName + ":" + strconv.FormatBool(f.Required) + strconv.FormatBool(f.Nullable) +
				strconv.FormatBool(f.ReadOnly) + strconv.FormatBool(f.WriteOnly) + ":" + typeRef(f.Type))
		}
		if t.AdditionalProperties != nil {
			b.WriteString("|+" + typeRef(t.AdditionalProperties))
		}
	case Enum:
		b.WriteString("|" + strconv.Itoa(int(t.Base)))
		for _, v := range t.Values {
			b.WriteString("|" + strconv.Quote(strings.TrimSpace(jsonValue(v.Value))))
		}
	}
	return b.String()
}

func jsonValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return "?"
}

// typeRef is how a field refers to t: a named type by name, an anonymous
// one by its shape.
func typeRef(t *Type) string {
	if t == nil {
		return "nil"
	}
	if t.Named() {
		return "=" + t.Name
	}
	s := strconv.Itoa(int(t.Kind)) + "/" + t.Format + "/" + t.GoType + "/" + strconv.FormatBool(t.Nullable)
	switch t.Kind {
	case Array, Map:
		s += "[" + typeRef(cmp.Or(t.Elem, t.AdditionalProperties)) + "]"
	case Tuple:
		for _, it := range t.Items {
			s += "(" + typeRef(it) + ")"
		}
		if t.Elem != nil {
			s += "..." + typeRef(t.Elem)
		}
	case Enum:
		s += "{" + shapeKey(t) + "}"
	}
	return s
}

// applyMerge replaces every use of a key of to by its value and drops the
// merged types. A merged type whose schema is its keeper's has its def
// dropped too, and the references to it re-pointed at the keeper's; one
// whose schema differs keeps its def, under its old name. Renamed keepers
// need nothing: a def is named after its type.
func applyMerge(svc *Service, to map[*Type]*Type) {
	repoint := map[*Def]*Def{}
	keepDef := map[*Def]bool{}
	for from, into := range to {
		if from.Def == nil || into.Def == nil {
			continue
		}
		if from.Def.Schema.Equal(into.Def.Schema) && from.Def.InputSchema().Equal(into.Def.InputSchema()) {
			repoint[from.Def] = into.Def
		} else {
			keepDef[from.Def] = true
		}
	}
	seen := map[*Type]bool{}
	var fix func(p **Type)
	fix = func(p **Type) {
		if *p == nil {
			return
		}
		if into, ok := to[*p]; ok {
			*p = into
		}
		t := *p
		if seen[t] {
			return
		}
		seen[t] = true
		for _, f := range t.Fields {
			fix(&f.Type)
		}
		fix(&t.AdditionalProperties)
		fix(&t.Elem)
		for i := range t.Items {
			fix(&t.Items[i])
		}
		for _, v := range t.Variants {
			fix(&v.Type)
		}
	}
	typeDefs := map[*Def]bool{}
	for _, t := range svc.Types {
		typeDefs[t.Def] = true
	}
	var defs []*Def
	for _, d := range svc.Defs {
		if keepDef[d] || !typeDefs[d] {
			defs = append(defs, d) // kept by an earlier merge, or now
		}
	}
	var kept []*Type
	for _, t := range svc.Types {
		if _, gone := to[t]; gone {
			continue
		}
		kept = append(kept, t)
		if t.Def != nil {
			t.Def.Name = t.Name
			defs = append(defs, t.Def)
		}
	}
	var schemas []*Schema
	for _, d := range defs {
		schemas = append(schemas, d.Schema, d.Input)
	}
	for _, t := range kept {
		fix(&t)
	}
	for _, op := range svc.Operations {
		for _, p := range op.Params {
			fix(&p.Type)
		}
		if op.Body != nil {
			fix(&op.Body.Type)
		}
		for _, r := range op.Responses {
			fix(&r.Type)
			schemas = append(schemas, r.Schema)
		}
		if op.Tool != nil {
			fix(&op.Tool.InputType)
			fix(&op.Tool.OutputType)
		}
		schemas = append(schemas, op.InputSchema, op.OutputSchema)
	}
	if len(repoint) > 0 {
		for _, s := range schemas {
			s.Walk(func(s *Schema) {
				if into, ok := repoint[s.Ref]; ok {
					s.Ref = into
				}
			})
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Name < kept[j].Name })
	slices.SortFunc(defs, func(a, b *Def) int { return cmp.Compare(a.Name, b.Name) })
	svc.Types = kept
	svc.Defs = defs
}
