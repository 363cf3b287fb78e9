package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

// Structs whose schema states no type (ir.Type.NonObject).
//
// "properties" without "type" constrains objects only, so an array, a
// string or null is as valid as an object: azure's search-searchindex
// AutocompleteResult is such a schema, and its server sends an array. The
// struct stays the struct, for objects, and gets a NonObject field
// (json.RawMessage, not in the JSON object) that its UnmarshalJSON fills
// with any other value as it came, and that its MarshalJSON writes back
// instead of the fields: the value round-trips and decoding it is no drift.

// nonObjectField is the field of a NonObject struct.
func nonObjectField() field {
	return field{
		doc: []string{
			"NonObject holds the value, as it came, when it is not a JSON object",
			"(the schema states no type, so any JSON value is valid). When set,",
			"MarshalJSON writes it instead of the fields.",
		},
		name: ir.NonObjectField, typ: rawMessageType, tag: "-",
	}
}

// jsonMethods declares the MarshalJSON and UnmarshalJSON of struct t with
// the given bodies (which handle JSON objects), both after "type plain
// <t>", t without the methods; for a NonObject struct the methods first
// deal with NonObject.
func (g *gen) jsonMethods(f *generatedFile, t *ir.Type, marshalDoc string, marshal []jen.Code, unmarshalDoc string, unmarshal []jen.Code) {
	marshal = append([]jen.Code{jen.Type().Id("plain").Id(t.Name)}, marshal...)
	unmarshal = append([]jen.Code{jen.Type().Id("plain").Id(t.Name)}, unmarshal...)
	if t.NonObject {
		marshalDoc += " A value in NonObject is written as it is."
		marshal = append([]jen.Code{
			jen.If(jen.Id("v").Dot(ir.NonObjectField).Op("!=").Nil()).Block(jen.Return(jen.Id("v").Dot(ir.NonObjectField), jen.Nil())),
		}, marshal...)
		unmarshalDoc += " A value that is not an object is kept in NonObject."
		unmarshal = append([]jen.Code{
			jen.If(
				jen.Id("raw").Op(":=").Add(f.Qual("bytes", "TrimSpace")).Call(jen.Id("b")),
				jen.Len(jen.Id("raw")).Op(">").Lit(0).Op("&&").Id("raw").Index(jen.Lit(0)).Op("!=").Id("'{'"),
			).Block(
				jen.Op("*").Id("v").Op("=").Id(t.Name).Values(jen.Dict{
					jen.Id(ir.NonObjectField): jen.Append(f.Qual("encoding/json", "RawMessage").Call(jen.Nil()), jen.Id("raw").Op("...")),
				}),
				jen.Return(jen.Nil()),
			),
			jen.Id("v").Dot(ir.NonObjectField).Op("=").Nil(),
		}, unmarshal...)
	}
	f.decl(newDoc(marshalDoc),
		jen.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(marshal...))
	f.decl(newDoc(unmarshalDoc),
		jen.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(unmarshal...))
}

// plainNonObjectMethods declares the methods of a NonObject struct that
// needs no others: objects are read and written by encoding/json.
func (g *gen) plainNonObjectMethods(f *generatedFile, t *ir.Type) {
	g.jsonMethods(f, t, "MarshalJSON writes the fields as one object.", []jen.Code{
		jen.Return(f.Qual("encoding/json", "Marshal").Call(jen.Id("plain").Call(jen.Id("v")))),
	}, "UnmarshalJSON reads an object into the fields.", []jen.Code{
		jen.Return(f.Qual("encoding/json", "Unmarshal").Call(jen.Id("b"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")))),
	})
}
