package openapi

import (
	"fmt"
	"sort"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// Name groups: lower groups claim their names first, so a component schema
// keeps its name when an invented one (OpResponse) wants it too.
const (
	groupOverride  = iota // config overrides and x-go-name
	groupComponent        // component schemas and other $ref targets
	groupOperation        // params structs and operation bodies/responses
	groupInline           // inline schemas named after their parent
)

// nameReq asks for a package-level Go name.
type nameReq struct {
	group int
	key   string // stable: file#pointer of the node
	want  string
	set   func(string)
}

func (l *loader) requestTypeName(t *ir.Type, group int, key, want string) {
	l.requests = append(l.requests, nameReq{group: group, key: key, want: want, set: func(n string) { t.Name = n }})
}

func (l *loader) requestName(group int, key, want string, set func(string)) {
	l.requests = append(l.requests, nameReq{group: group, key: key, want: want, set: set})
}

// allocateNames gives every requested name, then the enum constants, a
// unique name in the one package namespace. Requests are served in an order
// that does not depend on the document's order: by group, then key.
func (l *loader) allocateNames() {
	ns := naming.NewNamespace(ir.Reserved...)
	sort.SliceStable(l.requests, func(i, j int) bool {
		a, b := l.requests[i], l.requests[j]
		if a.group != b.group {
			return a.group < b.group
		}
		return a.key < b.key
	})
	for _, r := range l.requests {
		want := naming.Sanitize(r.want, "Type")
		got := ns.Alloc(want)
		if got != want && r.group == groupOverride {
			l.diags.Warnf(keyPos(r.key), "name %q is taken; using %q", want, got)
		}
		r.set(got)
	}
	// Enum constants share the package namespace; name them in type order.
	types := l.namedTypes()
	for _, t := range types {
		if t.Kind != ir.Enum {
			continue
		}
		for i, v := range t.Values {
			suffix := naming.Suffix(fmt.Sprint(v.Value))
			if suffix == "" {
				suffix = fmt.Sprintf("Value%d", i+1)
			}
			v.Name = ns.Alloc(t.Name + suffix)
		}
	}
	for _, t := range types {
		if t.Kind == ir.Union {
			nameVariants(t)
		}
	}
}

// nameVariants names the variants of a union after their types (or their
// JSON kind), uniquely within the union.
func nameVariants(t *ir.Type) {
	ns := naming.NewNamespace()
	for i, v := range t.Variants {
		want := v.Type.Name
		if want == "" && v.JSONKind != "" {
			want = naming.Ident(v.JSONKind, "")
		}
		if want == "" {
			want = fmt.Sprintf("Variant%d", i+1)
		}
		v.Name = ns.Alloc(want)
	}
}

// namedTypes lists the named types sorted by name.
func (l *loader) namedTypes() []*ir.Type {
	seen := map[*ir.Type]bool{}
	var out []*ir.Type
	for t := range l.src {
		if t.Name != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
