package emit

import (
	"go/format"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// TestUnionTextIsGofmt: the unions declareUnion writes as text are in
// exactly the form gofmt prints, in the cases the goldens have few or none
// of: no variants, one variant, variant types from other packages, a
// discriminator with tags and a field the constructor fills, required
// members, and doc text that needs reformatting.
func TestUnionTextIsGofmt(t *testing.T) {
	pet := &ir.Type{Name: "Dog", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "PetType", JSONName: "petType", Type: &ir.Type{Kind: ir.String}, Required: true},
	}}
	for _, u := range []*ir.Type{
		{Name: "Empty", Kind: ir.Union},
		{Name: "One", Kind: ir.Union, Variants: []*ir.Variant{{Name: "String", Type: &ir.Type{Kind: ir.String}, JSONKind: "string"}}},
		{Name: "Mixed", Kind: ir.Union, Doc: ir.Doc{Description: "A list:\n  - first\n  - second\n\n# Heading"}, Variants: []*ir.Variant{
			{Name: "Time", Type: &ir.Type{Kind: ir.String, GoType: "time.Time"}, JSONKind: "string"},
			{Name: "Raw", Type: nil, JSONKind: "object", Required: []string{"a", "b"}},
			{Name: "List", Type: &ir.Type{Kind: ir.Array, Elem: &ir.Type{Kind: ir.Int}}, JSONKind: "array"},
		}},
		{Name: "Pet", Kind: ir.Union, Discriminator: "petType", VariantKind: "PetKind", Variants: []*ir.Variant{
			{Name: "Dog", Const: "PetDog", Constructor: "NewDogPet", Type: pet, Tags: []string{"dog", "hound\"s"}, JSONKind: "object", Required: []string{"petType"}},
		}},
	} {
		g := newGen(&ir.Service{Kind: ir.OpenAPI}, Options{Package: "p", Version: "v1"})
		f := g.newFile()
		g.declareUnion(f, u)
		src := "package p\n\n" + strings.Join(f.decls, "\n\n") + "\n"
		got, err := format.Source([]byte(src))
		if err != nil {
			t.Fatalf("%s: %v\n%s", u.Name, err, src)
		}
		if string(got) != src {
			t.Errorf("%s: not in gofmt's form:\n%s\ngofmt:\n%s", u.Name, src, got)
		}
		if len(u.Variants) > 0 && !strings.Contains(src, ") Match(") {
			t.Errorf("%s: no Match method:\n%s", u.Name, src)
		}
	}
}
