package emit

import (
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

// registryFile declares (*Client).Register, the table of operations it
// registers (static data, cheap to compile) and one small function per
// operation that decodes its input and calls its method.
func (g *gen) registryFile() *file {
	f := g.newFile()
	var entries []jen.Code
	var calls []jen.Code
	var skipped []string
	usesHint := false // some operation has hints: declare hint
	ids := map[string]bool{}
	for _, op := range g.ops {
		id := registryID(g.opts.Namespace, op.ID)
		if ids[id] {
			g.warn(op.Pos, "operation %s would be registered as %s like another one; it is not registered", quoted(op.ID), quoted(id))
			continue
		}
		if id != g.opts.Namespace+"."+op.ID {
			g.warn(op.Pos, "operation %s is registered as %s (registry ids allow only letters, digits, '_', '-' and '.')", quoted(op.ID), quoted(id))
		}
		ids[id] = true
		body := g.handler(op, id)
		if body == nil {
			skipped = append(skipped, op.GoName)
			continue
		}
		spec := []jen.Code{jen.Line().Add(kv("ID", jen.Lit(id)))}
		if desc := description(op); desc != "" {
			spec = append(spec, jen.Line().Add(kv("Description", jen.Lit(desc))))
		}
		info, hinted := specInfo(op)
		spec = append(spec, info...)
		usesHint = usesHint || hinted
		if s := g.bundle(op.InputSchema); op.InputSchema != nil && s != "" {
			spec = append(spec, jen.Line().Add(kv("InputSchema", jen.Qual("encoding/json", "RawMessage").Call(jsonLit(s)))))
		}
		if s := g.bundle(op.OutputSchema); op.OutputSchema != nil && s != "" {
			spec = append(spec, jen.Line().Add(kv("OutputSchema", jen.Qual("encoding/json", "RawMessage").Call(jsonLit(s)))))
			if v := g.schemaVar(op.OutputSchema, "outSchema"+op.GoName, op.Pos); v != "" {
				spec = append(spec, jen.Line().Add(kv("Output", jen.Id(v))))
			}
		}
		entries = append(entries, jen.Line().Values(jen.Qual(pkgRuntime, "OperationSpec").Values(append(spec, jen.Line())...), jen.Parens(jen.Op("*").Id("Client")).Dot("call"+op.GoName)))
		calls = append(calls, jen.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("call"+op.GoName).Params(
			jen.Id("ctx").Qual("context", "Context"), jen.Id("input").Qual("encoding/json", "RawMessage"),
		).Params(jen.Any(), jen.Error()).Block(body...), jen.Line())
	}
	input := `{"params": {...}, "body": ...}`
	if g.svc.Kind == ir.MCP {
		input = "the tool's arguments"
	}
	d := newDoc("Register registers every operation of the client with r under the id \"" + g.opts.Namespace + ".<operation id>\", with its input and output JSON Schemas, so that it can be called by name (runtime.Registry.Execute). The input of an operation is " + input + "; its handler calls the client's method and returns the envelope.")
	if len(skipped) > 0 {
		d.para("Not registered (streams, binary or file bodies): " + strings.Join(skipped, ", ") + ".")
	}
	decl(f, d, jen.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Register").Params(jen.Id("r").Op("*").Qual(pkgRuntime, "Registry")).Error().Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("registryOps")).Block(
			jen.Id("call").Op(":=").Id("op").Dot("call"),
			jen.Id("h").Op(":=").Func().Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("input").Qual("encoding/json", "RawMessage")).Params(jen.Any(), jen.Error()).Block(
				jen.Return(jen.Id("call").Call(jen.Id("c"), jen.Id("ctx"), jen.Id("input"))),
			),
			jen.If(jen.Err().Op(":=").Id("r").Dot("Register").Call(jen.Id("op").Dot("spec"), jen.Id("h")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		),
		jen.Return(jen.Nil()),
	))
	f.Comment("// registryOps are the operations Register registers.")
	f.Var().Id("registryOps").Op("=").Index().Struct(
		jen.Id("spec").Qual(pkgRuntime, "OperationSpec"),
		jen.Id("call").Func().Params(jen.Op("*").Id("Client"), jen.Qual("context", "Context"), jen.Qual("encoding/json", "RawMessage")).Params(jen.Any(), jen.Error()),
	).Values(append(entries, jen.Line())...)
	f.Line()
	for _, c := range calls {
		f.Add(c)
	}
	if usesHint {
		decl(f, newDoc("hint returns a pointer to b, for runtime.OperationHints."),
			jen.Func().Id("hint").Params(jen.Id("b").Bool()).Op("*").Bool().Block(jen.Return(jen.Op("&").Id("b"))))
	}
	decl(f, newDoc("decodeInput decodes the input of operation id into v."),
		jen.Func().Id("decodeInput").Params(jen.Id("id").String(), jen.Id("input").Qual("encoding/json", "RawMessage"), jen.Id("v").Any()).Error().Block(
			jen.If(jen.Len(jen.Id("input")).Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
			jen.If(jen.Err().Op(":=").Qual("encoding/json", "Unmarshal").Call(jen.Id("input"), jen.Id("v")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Qual(pkgRuntime, "NewError").Call(jen.Qual(pkgRuntime, "CodeValidation"), jen.Id("id"), jen.Lit("decoding input"), jen.Err())),
			),
			jen.Return(jen.Nil()),
		))
	return f
}

// registryID is the registry id of an operation: namespace.id with the
// characters runtime.Registry does not allow replaced by '_'.
func registryID(ns, id string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.') {
			return r
		}
		return '_'
	}, id)
	parts := strings.Split(clean, ".")
	for i, p := range parts {
		if p == "" {
			parts[i] = "_"
		}
	}
	return ns + "." + strings.Join(parts, ".")
}

// description is the one-line description of an operation in the registry.
func description(op *ir.Operation) string {
	for _, s := range []string{op.Doc.Summary, op.Doc.Description} {
		if lines := textLines(s); len(lines) > 0 {
			return lines[0]
		}
	}
	if op.Tool != nil {
		return sanitize(op.Tool.Title)
	}
	return ""
}

// handler returns the body of op's registry function (decode the input,
// call the method), or nil (with a warning) when op cannot be called with
// JSON input.
func (g *gen) handler(op *ir.Operation, id string) []jen.Code {
	var fields, args []jen.Code
	args = append(args, jen.Id("ctx"))
	var in jen.Code
	switch {
	case op.Kind == ir.MCPTool:
		if hasInput(op.Tool) {
			in = g.typ(op.Tool.InputType)
			args = append(args, jen.Id("in"))
		}
	case op.Stream:
		g.warn(op.Pos, "stream operation %s is not registered", quoted(op.ID))
		return nil
	default:
		if op.ParamsName != "" {
			fields = append(fields, jen.Id("Params").Id(op.ParamsName).Tag(map[string]string{"json": "params"}))
			args = append(args, jen.Id("in").Dot("Params"))
		}
		if b := op.Body; b != nil && b.Kind != ir.BodyNone {
			if !g.jsonBody(b) {
				g.warn(op.Pos, "operation %s has a binary or file body and is not registered", quoted(op.ID))
				return nil
			}
			typ, _ := g.bodyType(op)
			fields = append(fields, jen.Id("Body").Add(typ.code()).Tag(map[string]string{"json": "body"}))
			args = append(args, jen.Id("in").Dot("Body"))
		}
		if len(fields) > 0 {
			in = jen.Struct(fields...)
		}
	}
	var body []jen.Code
	if in != nil {
		body = append(body,
			jen.Var().Id("in").Add(in),
			jen.If(jen.Err().Op(":=").Id("decodeInput").Call(jen.Lit(id), jen.Id("input"), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	body = append(body,
		jen.List(jen.Id("env"), jen.Err()).Op(":=").Id("c").Dot(op.GoName).Call(args...),
		jen.Return(jen.Id("env"), jen.Err()))
	return body
}

// jsonBody reports whether a request body can be given as JSON input.
func (g *gen) jsonBody(b *ir.Body) bool {
	switch b.Kind {
	case ir.BodyJSON, ir.BodyForm, ir.BodyText:
		return true
	case ir.BodyMultipart:
		if b.Type == nil || b.Type.Kind != ir.Struct {
			return false
		}
		for _, fl := range b.Type.Fields {
			if fl.Type != nil && fl.Type.Kind == ir.Binary {
				return false
			}
		}
		return true
	}
	return false
}

// specInfo returns the OperationSpec fields that describe op for servers
// (runtime/mcpserver): its title, HTTP method, deprecation and an MCP
// tool's annotations; and whether they call hint.
func specInfo(op *ir.Operation) ([]jen.Code, bool) {
	var out []jen.Code
	hinted := false
	if op.Tool != nil && sanitize(op.Tool.Title) != "" {
		out = append(out, jen.Line().Add(kv("Title", jen.Lit(sanitize(op.Tool.Title)))))
	}
	if op.Kind == ir.HTTPCall && op.Method != "" {
		out = append(out, jen.Line().Add(kv("Method", jen.Lit(strings.ToUpper(op.Method)))))
	}
	if op.Doc.Deprecated {
		out = append(out, jen.Line().Add(kv("Deprecated", jen.True())))
	}
	if t := op.Tool; t != nil {
		var hints []jen.Code
		for _, h := range []struct {
			name string
			v    *bool
		}{{"ReadOnly", t.ReadOnly}, {"Destructive", t.Destructive}, {"Idempotent", t.Idempotent}, {"OpenWorld", t.OpenWorld}} {
			if h.v != nil {
				hints = append(hints, kv(h.name, jen.Id("hint").Call(jen.Lit(*h.v))))
			}
		}
		if len(hints) > 0 {
			hinted = true
			out = append(out, jen.Line().Add(kv("Hints", jen.Op("&").Qual(pkgRuntime, "OperationHints").Values(hints...))))
		}
	}
	return out, hinted
}
