package emit

import (
	"cmp"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// goType is a Go type expression as opsgen writes it: operators ("*", "[]",
// "map[string]") before a predeclared or generated name, or a name from an
// imported package (protogen's GoIdent, with operators). A generatedFile
// writes it (typeText, textWriter.P), recording the import.
type goType struct {
	prefix string
	pkg    string // import path of name; "" for a predeclared or generated name
	name   string
	arg    *goType // the type argument of a generic name (runtime.Nullable[arg])
}

func named(name string) goType { return goType{name: name} }

func qual(pkg, name string) goType { return goType{pkg: pkg, name: name} }

// ptr returns *t.
func (t goType) ptr() goType {
	t.prefix = "*" + t.prefix
	return t
}

// under returns op t, op being "[]" or "map[string]".
func (t goType) under(op string) goType {
	t.prefix = op + t.prefix
	return t
}

// rawMessageType is json.RawMessage, the type of anything opsgen cannot type.
var rawMessageType = qual("encoding/json", "RawMessage")

// goType returns the Go type of t; reader says binary data is sent from an
// io.Reader (request bodies, multipart file parts). at is the place being
// written (the field, parameter, operation or type), where warnings about
// a t without a position of its own point.
func (g *gen) goType(t *ir.Type, reader bool, at diag.Pos) goType {
	switch {
	case t == nil:
		return rawMessageType
	case t.Named():
		return g.typeRef(t.Name)
	case t.GoType != "" && t.Kind != ir.Union && t.Kind != ir.Tuple:
		return goTypeOf(t.GoType)
	case t.Kind == ir.Int && t.Format == "int32":
		return named("int32")
	case t.Kind == ir.Float && t.Format == "float":
		return named("float32")
	case t.Kind == ir.Binary && reader:
		return qual("io", "Reader")
	}
	if gt, ok := kindTypes[t.Kind]; ok {
		return gt
	}
	switch t.Kind {
	case ir.Array:
		return g.goType(t.Elem, false, at).under("[]")
	case ir.Map:
		return g.goType(mapElem(t), false, at).under("map[string]")
	case ir.Enum:
		return enumBase(t)
	case ir.Struct:
		// The loaders name every object; an IR built otherwise may not.
		g.warn(diag.RawJSON, cmp.Or(t.Pos, at), "unnamed object schema is represented as json.RawMessage")
	case ir.Union, ir.Tuple:
		g.warn(diag.RawJSON, cmp.Or(t.Pos, at), "unnamed oneOf/anyOf/prefixItems schema is represented as json.RawMessage")
	}
	return rawMessageType
}

// kindTypes are the Go types of the kinds that need nothing more (but
// the formats and readers goType checks first).
var kindTypes = map[ir.Kind]goType{
	ir.Bool: named("bool"), ir.Int: named("int64"), ir.Float: named("float64"), ir.String: named("string"),
	ir.Date: qual(pkgRuntime, "Date"), ir.DateTime: qual("time", "Time"),
	ir.Bytes: named("byte").under("[]"), ir.Binary: named("byte").under("[]"),
}

// enumBase is the Go type under an enum.
func enumBase(t *ir.Type) goType {
	if t.Base == ir.Int || t.Base == ir.Float || t.Base == ir.Bool {
		return kindTypes[t.Base]
	}
	return named("string")
}

// goTypeOf returns the Go type written "import/path.Name" (or a bare name),
// as x-go-type and the types mapping give it (checked by
// jsonschema.ValidGoType).
func goTypeOf(s string) goType {
	slash := strings.LastIndex(s, "/")
	if dot := strings.LastIndex(s, "."); dot > slash {
		return qual(s[:dot], s[dot+1:])
	}
	return named(s)
}
