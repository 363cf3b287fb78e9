package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

// goType is a Go type expression as opsgen writes it: operators ("*", "[]",
// "map[string]") before a base type, which is a predeclared or generated
// name, a name from an imported package, or an unnamed struct. The form lets
// one computation serve both jennifer code and the text of declarations
// written without jennifer (text.go).
type goType struct {
	prefix string
	pkg    string // import path of name; "" for a predeclared or generated name
	name   string
	// inline is the jennifer code of an unnamed struct (then name is empty):
	// such types are only written through jennifer.
	inline jen.Code
}

// importNames are the package names of the import paths a goType can name.
var importNames = map[string]string{
	"encoding/json": "json",
	"io":            "io",
	"time":          "time",
	pkgRuntime:      "runtime",
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

// code returns t as jennifer code.
func (t goType) code() *jen.Statement {
	s := jen.Null()
	if t.prefix != "" {
		s = jen.Op(t.prefix)
	}
	switch {
	case t.inline != nil:
		return s.Add(t.inline)
	case t.pkg != "":
		return s.Qual(t.pkg, t.name)
	}
	return s.Id(t.name)
}

// text returns t as Go source, recording the import it needs; ok is false
// for a type with an unnamed struct.
func (t goType) text(imports map[string]string) (s string, ok bool) {
	switch {
	case t.inline != nil:
		return "", false
	case t.pkg != "":
		name, known := importNames[t.pkg]
		if !known {
			return "", false
		}
		imports[t.pkg] = t.name
		return t.prefix + name + "." + t.name, true
	}
	return t.prefix + t.name, true
}

// rawMessageType is json.RawMessage, the type of anything opsgen cannot type.
var rawMessageType = qual("encoding/json", "RawMessage")

// rawMessage is json.RawMessage as jennifer code.
func rawMessage() *jen.Statement { return rawMessageType.code() }

// typ returns the Go type of t where it is used (binary as []byte).
func (g *gen) typ(t *ir.Type) *jen.Statement { return g.goType(t, false).code() }

// goType returns the Go type of t; reader says binary data is sent from an
// io.Reader (request bodies, multipart file parts).
func (g *gen) goType(t *ir.Type, reader bool) goType {
	if t == nil {
		return rawMessageType
	}
	if t.Named() {
		return named(t.Name)
	}
	switch t.Kind {
	case ir.Bool:
		return named("bool")
	case ir.Int:
		if t.Format == "int32" {
			return named("int32")
		}
		return named("int64")
	case ir.Float:
		if t.Format == "float" {
			return named("float32")
		}
		return named("float64")
	case ir.String, ir.Date:
		return named("string")
	case ir.DateTime:
		return qual("time", "Time")
	case ir.Bytes:
		return named("byte").under("[]")
	case ir.Binary:
		if reader {
			return qual("io", "Reader")
		}
		return named("byte").under("[]")
	case ir.Array:
		return g.goType(t.Elem, false).under("[]")
	case ir.Map:
		return g.goType(mapElem(t), false).under("map[string]")
	case ir.Struct:
		if t.AdditionalProperties != nil {
			g.warn(g.posOf(t), "additional properties of an unnamed object are dropped (name the schema to keep them)")
		}
		return goType{inline: jen.Struct(fieldsCode(g.fields(nil, t, false))...)}
	case ir.Enum:
		return enumBase(t)
	case ir.Union, ir.Tuple:
		g.warn(g.posOf(t), "unnamed oneOf/anyOf/prefixItems schema is represented as json.RawMessage")
	}
	return rawMessageType
}

// enumBase is the Go type under an enum.
func enumBase(t *ir.Type) goType {
	switch t.Base {
	case ir.Int:
		return named("int64")
	case ir.Float:
		return named("float64")
	case ir.Bool:
		return named("bool")
	}
	return named("string")
}
