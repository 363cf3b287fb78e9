package emit

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/opsgen/opsgen/generator/ir"
)

// declareUnionMatch declares the Match method of union t: one function
// parameter per variant, then one for a value no variant matches. A switch
// over Variant() is not checked for exhaustiveness by the compiler; Match
// is: a caller that leaves a variant out, or a variant added to the API,
// is a compile error where it is not handled. w is empty, and is left so.
func (g *gen) declareUnionMatch(w *textWriter, t *ir.Type) {
	kind := cmp.Or(t.VariantKind, t.Name+"Kind")
	params, cases := "", ""
	for _, v := range t.Variants {
		fn := "on" + v.Name
		params += fn + " func(" + w.typeText(g.goType(v.Type, false, t.Pos)) + ") error, "
		cases += "\tcase " + cmp.Or(v.Const, v.Name+t.Name) + ":\n\t\tv, err := u.As" + v.Name +
			"()\n\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn " + fn + "(v)\n"
	}
	w.doc(newDoc("Match calls the function of the variant u holds (" + kind + ") with its value and returns its error, or none with the JSON when no variant matches. Every variant is a parameter, so a caller that does not handle one does not compile.").lines())
	w.b.WriteString("func (u " + t.Name + ") Match(" + params + "none func(" + w.typeText(rawMessageType) + ") error) error {\n\tswitch u.Variant() {\n" +
		cases + "\t}\n\treturn none(u.Raw())\n}\n")
	w.f.text(w.b.String())
	w.b.Reset()
	g.declareUnionValueMatch(w, t)
}

// declareUnionValueMatch declares Match<Type>, Match returning a value:
// a generic function, as methods cannot have type parameters. It saves the
// caller a closure writing to an outer variable.
func (g *gen) declareUnionValueMatch(w *textWriter, t *ir.Type) {
	r := g.typeParamName()
	params, cases := "", ""
	for _, v := range t.Variants {
		fn := "on" + v.Name
		params += fn + " func(" + w.typeText(g.goType(v.Type, false, t.Pos)) + ") (" + r + ", error), "
		cases += "\tcase " + cmp.Or(v.Const, v.Name+t.Name) + ":\n\t\tv, err := u.As" + v.Name +
			"()\n\t\tif err != nil {\n\t\t\tvar zero " + r + "\n\t\t\treturn zero, err\n\t\t}\n\t\treturn " + fn + "(v)\n"
	}
	name := cmp.Or(t.ValueMatch, "Match"+t.Name)
	w.doc(newDoc(name + " is " + t.Name + ".Match returning a value: it calls the function of the variant u holds with its value and returns its result, or none's with the JSON when no variant matches. Every variant is a parameter, so a caller that does not handle one does not compile.").lines())
	w.b.WriteString("func " + name + "[" + r + " any](u " + t.Name + ", " + params + "none func(" + w.typeText(rawMessageType) + ") (" + r + ", error)) (" + r + ", error) {\n\tswitch u.Variant() {\n" +
		cases + "\t}\n\treturn none(u.Raw())\n}\n")
	w.f.text(w.b.String())
	w.b.Reset()
}

// typeParamName is the name of a generated function's type parameter: R,
// unless the package declares a type of that name, which it would hide.
func (g *gen) typeParamName() string {
	for i := 0; ; i++ {
		r := "R"
		if i > 0 {
			r += strconv.Itoa(i)
		}
		if !slices.ContainsFunc(g.types, func(t *ir.Type) bool { return t.Name == r }) {
			return r
		}
	}
}
