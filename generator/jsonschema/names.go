package jsonschema

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// Name groups: lower groups claim their names first, so a component schema
// keeps its name when an invented one (OpResponse) wants it too.
const (
	GroupOverride  = iota // config overrides and x-go-name
	GroupComponent        // component schemas and other reference targets
	GroupOperation        // params structs and operation bodies/responses
	GroupInline           // inline schemas named after their parent
)

// nameReq asks for a package-level Go name.
type nameReq struct {
	group int
	key   string // stable: the place of the node
	pos   diag.Pos
	want  string
	set   func(string)
}

// requestTypeName asks for a name for t, defined at w (sub is appended to
// its pointer in the key).
func (c *Converter) requestTypeName(t *ir.Type, group int, w Where, sub, want string) {
	key := c.nameKey(w, sub)
	c.requests = append(c.requests, nameReq{group: group, key: key, pos: diag.Pos{File: w.File, Pointer: w.Ptr}, want: want, set: func(n string) { t.Name = n }})
}

// nameKey is the key that orders the name request of a type defined at w
// (sub appended to its pointer).
func (c *Converter) nameKey(w Where, sub string) string {
	if c.opts.Key != nil {
		return c.opts.Key(w.File, w.Ptr+sub)
	}
	return w.File + "#" + w.Ptr + sub
}

// RequestName asks for a package-level name other than a type's (a params
// struct): set receives it. key orders the requests of a group and pos is
// where a warning about the name points.
func (c *Converter) RequestName(group int, key string, pos diag.Pos, want string, set func(string)) {
	c.requests = append(c.requests, nameReq{group: group, key: key, pos: pos, want: want, set: set})
}

// AllocateNames gives every requested name, then the enum constants, a
// unique name in the one package namespace, and names the variants of
// unions. Requests are served in an order that does not depend on the
// document's order: by group, then key.
func (c *Converter) AllocateNames() {
	ns := naming.NewNamespace(ir.Reserved...)
	slices.SortStableFunc(c.requests, func(a, b nameReq) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.key, b.key))
	})
	for _, r := range c.requests {
		want := naming.Sanitize(r.want, "Type")
		got := ns.Alloc(want)
		if got != want && r.group == GroupOverride {
			c.diags.Warn(diag.Renamed, r.pos, "name %q is taken; using %q", want, got)
		}
		r.set(got)
	}
	types := c.Types()
	// Every named type has a def, which references to it point at.
	for _, t := range types {
		t.Def = &ir.Def{Name: t.Name}
	}
	// Enum constants share the package namespace; name them in type order.
	for _, t := range types {
		if t.Kind != ir.Enum {
			continue
		}
		for i, v := range t.Values {
			v.Name = ns.Alloc(t.Name + cmp.Or(naming.Suffix(fmt.Sprint(v.Value)), "Value"+strconv.Itoa(i+1)))
		}
	}
	// Unions: their variants, then the type naming them, its constants
	// and the constructors.
	for _, t := range types {
		if t.Kind == ir.Union {
			nameVariants(t)
			t.VariantKind = ns.Alloc(t.Name + "Kind")
			for _, v := range t.Variants {
				// DogPet, as ogen names them: PetDog is often the
				// variant's own type.
				v.Const = ns.Alloc(v.Name + t.Name)
				v.Constructor = ns.Alloc(t.Name + "From" + v.Name)
			}
		}
	}
	// The value-returning matches last, so that they take no name an
	// earlier name had.
	for _, t := range types {
		if t.Kind == ir.Union {
			t.ValueMatch = ns.Alloc("Match" + t.Name)
		}
	}
}

// nameVariants names the variants of a union after their types (or their
// JSON kind), uniquely within the union.
func nameVariants(t *ir.Type) {
	ns := naming.NewNamespace()
	for i, v := range t.Variants {
		want := cmp.Or(v.Name, v.Type.Name) // v.Name: asked for by the conversion (variantName)
		if want == "" && v.JSONKind != "" {
			want = naming.Ident(v.JSONKind, "")
		}
		v.Name = ns.Alloc(cmp.Or(want, "Variant"+strconv.Itoa(i+1)))
	}
}

// Types lists the named types sorted by name.
func (c *Converter) Types() []*ir.Type {
	var out []*ir.Type
	for t := range c.src {
		if t.Name != "" {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b *ir.Type) int { return cmp.Compare(a.Name, b.Name) })
	return out
}
