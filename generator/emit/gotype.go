package emit

import (
	"path"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

// goType is a Go type expression as opsgen writes it: operators ("*", "[]",
// "map[string]") before a predeclared or generated name, or a name from an
// imported package. The form lets one computation serve both jennifer code
// and the text of declarations written without jennifer (text.go).
type goType struct {
	prefix string
	pkg    string // import path of name; "" for a predeclared or generated name
	name   string
	arg    *goType // the type argument of a generic name (runtime.Nullable[arg])
}

// importNames are the package names of the import paths a goType can name.
var importNames = map[string]string{
	"context":       "context",
	"encoding/json": "json",
	"io":            "io",
	"iter":          "iter",
	"time":          "time",
	pkgRuntime:      "runtime",
	pkgHTTP:         "httpclient",
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
	if t.pkg != "" {
		s = s.Qual(t.pkg, t.name)
	} else {
		s = s.Id(t.name)
	}
	if t.arg != nil {
		s = s.Types(t.arg.code())
	}
	return s
}

// text returns t as Go source, recording the import it needs.
func (t goType) text(imports map[string]string) string {
	arg := ""
	if t.arg != nil {
		arg = "[" + t.arg.text(imports) + "]"
	}
	if t.pkg == "" {
		return t.prefix + t.name + arg
	}
	imports[t.pkg] = t.name
	name, ok := importNames[t.pkg]
	if !ok {
		name = path.Base(t.pkg) // jennifer's guess too
	}
	return t.prefix + name + "." + t.name + arg
}

// rawMessageType is json.RawMessage, the type of anything opsgen cannot type.
var rawMessageType = qual("encoding/json", "RawMessage")

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
	if t.GoType != "" && t.Kind != ir.Union && t.Kind != ir.Tuple {
		return goTypeOf(t.GoType)
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
	case ir.String:
		return named("string")
	case ir.Date:
		return qual(pkgRuntime, "Date")
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
	case ir.Enum:
		return enumBase(t)
	case ir.Struct:
		// The loaders name every object; an IR built otherwise may not.
		g.warn(g.posOf(t), "unnamed object schema is represented as json.RawMessage")
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
