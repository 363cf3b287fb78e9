package emit

import (
	"cmp"

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
}
