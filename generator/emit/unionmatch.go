package emit

import (
	"cmp"

	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

// declareUnionMatch declares the Match method of union t: one function
// parameter per variant, then one for a value no variant matches. A switch
// over Variant() is not checked for exhaustiveness by the compiler; Match
// is: a caller that leaves a variant out, or a variant added to the API,
// is a compile error where it is not handled.
func (g *gen) declareUnionMatch(f *generatedFile, t *ir.Type) {
	kind := cmp.Or(t.VariantKind, t.Name+"Kind")
	params := make([]jen.Code, 0, len(t.Variants)+1)
	cases := make([]jen.Code, 0, len(t.Variants))
	for _, v := range t.Variants {
		fn := "on" + v.Name
		params = append(params, jen.Id(fn).Func().Params(g.typ(f, v.Type, t.Pos)).Error())
		cases = append(cases, jen.Case(jen.Id(cmp.Or(v.Const, v.Name+t.Name))).Block(
			jen.List(jen.Id("v"), jen.Err()).Op(":=").Id("u").Dot("As"+v.Name).Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Return(jen.Id(fn).Call(jen.Id("v"))),
		))
	}
	params = append(params, jen.Id("none").Func().Params(f.Qual("encoding/json", "RawMessage")).Error())
	d := newDoc("Match calls the function of the variant u holds (" + kind + ") with its value and returns its error, or none with the JSON when no variant matches. Every variant is a parameter, so a caller that does not handle one does not compile.")
	f.decl(d, jen.Func().Params(jen.Id("u").Id(t.Name)).Id("Match").Params(params...).Error().Block(
		jen.Switch(jen.Id("u").Dot("Variant").Call()).Block(cases...),
		jen.Return(jen.Id("none").Call(jen.Id("u").Dot("Raw").Call())),
	))
}
