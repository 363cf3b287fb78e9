package emit

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// registryFile declares (*Client).Register, the table of operations it
// registers (static data, cheap to compile) and one small function per
// operation that decodes its input and calls its method.
func (g *gen) registryFile() *generatedFile {
	f := g.newFile()
	var entries []regEntry
	var subEntries []jen.Code
	var calls []jen.Code
	var streams []string
	// Operations registered through a function of their own (funcs) or
	// through httpclient.CallMethod (methods).
	funcs, methods := false, false
	binary := false   // some input holds binary content
	usesHint := false // some operation has hints: declare hint
	ids := map[string]bool{}
	var typed []jen.Code // TypedError's cases
	for _, op := range g.ops {
		id := registryID(g.opts.Namespace, op.ID)
		if ids[id] {
			g.warn(diag.LeftOut, op.Pos, "operation %s would be registered as %s like another one; it is not registered", quoted(op.ID), quoted(id))
			continue
		}
		if id != g.opts.Namespace+"."+op.ID {
			g.warn(diag.Renamed, op.Pos, "operation %s is registered as %s (registry ids allow only letters, digits, '_', '-' and '.')", quoted(op.ID), quoted(id))
		}
		ids[id] = true
		if declaresErrors(op) {
			typed = append(typed, jen.Case(jen.Lit(id)).Block(jen.Return(f.Qual(pkgHTTP, "TypedError").Call(jen.Id("ce"), jen.Id("responses"+op.GoName)))))
		}
		members, viaMethod := g.methodMembers(op)
		spec := []jen.Code{jen.Line().Add(kv("ID", jen.Lit(id)))}
		if desc := description(op); desc != "" {
			spec = append(spec, jen.Line().Add(kv("Description", jen.Lit(desc))))
		}
		info, hinted := specInfo(f, op)
		spec = append(spec, info...)
		usesHint = usesHint || hinted
		if s := g.inputSchema(op); op.InputSchema != nil && s != "" {
			spec = append(spec, jen.Line().Add(kv("InputSchema", f.Qual("encoding/json", "RawMessage").Call(jsonLit(s)))))
			binary = binary || op.Kind == ir.HTTPCall && strings.Contains(s, `"contentEncoding":"base64"`)
		}
		if s := g.bundle(op.OutputSchema); op.OutputSchema != nil && s != "" {
			spec = append(spec, jen.Line().Add(kv("OutputSchema", f.Qual("encoding/json", "RawMessage").Call(jsonLit(s)))))
			if v := g.schemaVar(op.OutputSchema, "outSchema"+op.GoName, op.Pos); v != "" {
				spec = append(spec, jen.Line().Add(kv("Output", jen.Id(v))))
			}
		}
		if viaMethod {
			// Called by httpclient.CallMethod: a table entry, no function.
			var in jen.Code = jen.Nil()
			if len(members) > 0 {
				in = strLits(members)
			}
			entries = append(entries, regEntry{spec: spec, method: jen.Parens(jen.Op("*").Id("Client")).Dot(op.GoName), in: in})
			methods = true
			continue
		}
		// A stream is a subscription: its function returns the sequence of
		// the method's envelopes.
		name, results := "call"+op.GoName, jen.Params(jen.Any(), jen.Error())
		if op.Stream {
			name, results = "subscribe"+op.GoName, f.Qual("iter", "Seq2").Types(jen.Any(), jen.Error())
		}
		calls = append(calls, jen.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(name).Params(
			jen.Id("ctx").Add(f.Qual("context", "Context")), jen.Id("input").Add(f.Qual("encoding/json", "RawMessage")),
		).Add(results).Block(g.handler(f, op, id)...))
		if op.Stream {
			streams = append(streams, op.GoName)
			subEntries = append(subEntries, jen.Line().Values(f.Qual(pkgRuntime, "OperationSpec").Values(append(spec, jen.Line())...), jen.Parens(jen.Op("*").Id("Client")).Dot(name)))
		} else {
			entries = append(entries, regEntry{spec: spec, call: jen.Parens(jen.Op("*").Id("Client")).Dot(name)})
			funcs = true
		}
	}
	input := `{"params": {...}, "body": ...}`
	if g.svc.Kind == ir.MCP {
		input = "the tool's arguments"
	}
	d := newDoc("Register registers every operation of the client with r under the id \"" + g.opts.Namespace + ".<operation id>\", with its input and output JSON Schemas, so that it can be called by name (runtime.Registry.Execute). The input of an operation is " + input + "; its handler calls the client's method and returns the envelope.")
	if binary {
		d.para("Binary content (a binary request body, a multipart file) is given as a base64 string (contentEncoding base64 in the input schema); files are sent with their field name as file name.")
	}
	if len(streams) > 0 {
		d.para("Streams (text/event-stream) are registered as subscriptions, called with runtime.Registry.Subscribe: " + strings.Join(streams, ", ") + ". Each event is one envelope.")
	}
	callFunc := jen.Return(jen.Id("call").Call(jen.Id("c"), jen.Id("ctx"), jen.Id("input")))
	var register []jen.Code
	// Only with entries: f.Qual records an import when called, and an
	// unused import does not compile (a document without operations).
	if len(entries) > 0 {
		// The handler of a table entry: its function, or CallMethod.
		var loop, handler []jen.Code
		if funcs {
			loop, handler = append(loop, jen.Id("call").Op(":=").Id("op").Dot("call")), []jen.Code{callFunc}
		}
		if methods {
			loop = append(loop, jen.List(jen.Id("id"), jen.Id("method"), jen.Id("in")).Op(":=").List(jen.Id("op").Dot("spec").Dot("ID"), jen.Id("op").Dot("method"), jen.Id("op").Dot("in")))
			viaMethod := jen.Return(f.Qual(pkgHTTP, "CallMethod").Call(jen.Id("ctx"), jen.Id("id"), jen.Id("input"), jen.Id("method"), jen.Id("c"), jen.Id("in").Op("...")))
			if funcs {
				viaMethod = jen.If(jen.Id("call").Op("==").Nil()).Block(viaMethod)
			}
			handler = append([]jen.Code{viaMethod}, handler...)
		}
		loop = append(loop,
			jen.Id("h").Op(":=").Func().Params(jen.Id("ctx").Add(f.Qual("context", "Context")), jen.Id("input").Add(f.Qual("encoding/json", "RawMessage"))).Params(jen.Any(), jen.Error()).Block(handler...),
			ifErr(jen.Id("r").Dot("Register").Call(jen.Id("op").Dot("spec"), jen.Id("h")), jen.Err()),
		)
		register = append(register, jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("registryOps")).Block(loop...))
	}
	if len(subEntries) > 0 {
		register = append(register, jen.For(jen.List(jen.Id("_"), jen.Id("op")).Op(":=").Range().Id("registrySubs")).Block(
			jen.Id("call").Op(":=").Id("op").Dot("call"),
			jen.Id("h").Op(":=").Func().Params(jen.Id("ctx").Add(f.Qual("context", "Context")), jen.Id("input").Index().Byte()).Add(f.Qual("iter", "Seq2")).Types(jen.Any(), jen.Error()).Block(callFunc),
			ifErr(jen.Id("r").Dot("RegisterSubscription").Call(jen.Id("op").Dot("spec"), jen.Id("h")), jen.Err()),
		))
	}
	register = append(register, jen.Return(jen.Nil()))
	f.decl(d, jen.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Register").Params(jen.Id("r").Op("*").Add(f.Qual(pkgRuntime, "Registry"))).Error().Block(register...))
	if len(entries) > 0 {
		fields := []jen.Code{jen.Id("spec").Add(f.Qual(pkgRuntime, "OperationSpec"))}
		if funcs {
			call := jen.Id("call").Func().Params(jen.Op("*").Id("Client"), f.Qual("context", "Context"), f.Qual("encoding/json", "RawMessage")).Params(jen.Any(), jen.Error())
			if methods {
				call.Comment("nil: method")
			}
			fields = append(fields, call)
		}
		if methods {
			fields = append(fields,
				jen.Id("method").Any().Comment("the method, called by httpclient.CallMethod"),
				jen.Id("in").Index().String().Comment("the input members of its arguments after ctx"))
		}
		var rows []jen.Code
		for _, e := range entries {
			row := []jen.Code{f.Qual(pkgRuntime, "OperationSpec").Values(append(e.spec, jen.Line())...)}
			if funcs {
				row = append(row, cmp.Or[jen.Code](e.call, jen.Nil()))
			}
			if methods {
				row = append(row, cmp.Or[jen.Code](e.method, jen.Nil()), cmp.Or[jen.Code](e.in, jen.Nil()))
			}
			rows = append(rows, jen.Line().Values(row...))
		}
		f.commented("registryOps are the operations Register registers.", jen.Var().Id("registryOps").Op("=").Index().Struct(fields...).Values(append(rows, jen.Line())...))
	}
	if len(subEntries) > 0 {
		f.commented("registrySubs are the streams Register registers as subscriptions.", jen.Var().Id("registrySubs").Op("=").Index().Struct(
			jen.Id("spec").Add(f.Qual(pkgRuntime, "OperationSpec")),
			jen.Id("call").Func().Params(jen.Op("*").Id("Client"), f.Qual("context", "Context"), f.Qual("encoding/json", "RawMessage")).Add(f.Qual("iter", "Seq2")).Types(jen.Any(), jen.Error()),
		).Values(append(subEntries, jen.Line())...))
	}
	if len(typed) > 0 {
		f.decl(newDoc("TypedError returns ce, the failure of an operation registered by Register as the call protocol returns it (callproto.SpokeOptions.TypedErrors: its call.error carries the HTTP status, headers and body), as a direct call returns it: the operation's error type for the status, its body decoded. It returns nil when the operation declares no type for the status, or ce is no HTTP failure of these operations. A client configured WithRemote needs none of this: its methods type their errors."),
			jen.Func().Id("TypedError").Params(jen.Id("ce").Op("*").Add(f.Qual(pkgRuntime, "CallError"))).Error().Block(
				jen.Switch(jen.Id("ce").Dot("OperationID")).Block(typed...),
				jen.Return(jen.Nil()),
			))
	}
	for _, c := range calls {
		f.decl(nil, c)
	}
	if usesHint {
		f.decl(newDoc("hint returns a pointer to b, for runtime.OperationHints."),
			jen.Func().Id("hint").Params(jen.Id("b").Bool()).Op("*").Bool().Block(jen.Return(jen.Op("&").Id("b"))))
	}
	if len(calls) == 0 {
		return f
	}
	f.decl(newDoc("decodeInput decodes the input of operation id into v."),
		jen.Func().Id("decodeInput").Params(jen.Id("id").String(), jen.Id("input").Add(f.Qual("encoding/json", "RawMessage")), jen.Id("v").Any()).Error().Block(
			jen.If(jen.Len(jen.Id("input")).Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
			ifErr(f.Qual("encoding/json", "Unmarshal").Call(jen.Id("input"), jen.Id("v")),
				f.Qual(pkgRuntime, "NewError").Call(f.Qual(pkgRuntime, "CodeValidation"), jen.Id("id"), jen.Lit("decoding input"), jen.Err())),
			jen.Return(jen.Nil()),
		))
	return f
}

// declaresErrors reports whether op is an HTTP operation whose responses
// table declares an error type (a Response with Error set, see http.go).
func declaresErrors(op *ir.Operation) bool {
	if op.Kind != ir.HTTPCall {
		return false
	}
	for _, r := range op.Responses {
		if r.ErrorName != "" || r.Kind == ir.BodyJSON && r.Type != nil && !strings.HasPrefix(r.Status, "2") {
			return true
		}
	}
	return false
}

// regEntry is a row of the registry table: the operation's spec, and its
// function (call) or its method and the input members of its arguments.
type regEntry struct {
	spec             []jen.Code
	call, method, in jen.Code
}

// methodMembers returns the registry input members ("params", "body") of
// the arguments of op's method after ctx, when httpclient.CallMethod can
// decode its input into them: an HTTP operation (not a stream) whose body,
// if any, is taken as the method takes it (binary content is base64 in
// the input, which the method takes as a reader: those keep a function).
func (g *gen) methodMembers(op *ir.Operation) ([]string, bool) {
	if op.Kind != ir.HTTPCall || op.Stream {
		return nil, false
	}
	var members []string
	if op.ParamsName != "" {
		members = append(members, "params")
	}
	if b := op.Body; b != nil && b.Kind != ir.BodyNone {
		if kind := g.bodyKind(op); kind == ir.BodyBinary || g.sendsFiles(kind, b.Type) {
			return nil, false
		}
		members = append(members, "body")
	}
	return members, true
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

// handler returns the body of op's registry function: decode the input and
// call the method; for a stream, return the sequence of its envelopes.
func (g *gen) handler(f *generatedFile, op *ir.Operation, id string) []jen.Code {
	var fields, args, convert []jen.Code
	args = append(args, jen.Id("ctx"))
	var in jen.Code
	switch {
	case op.Kind == ir.MCPTool:
		if hasInput(op.Tool) {
			in = g.typ(f, op.Tool.InputType, op.Pos)
			args = append(args, jen.Id("in"))
		}
	default:
		if op.ParamsName != "" {
			fields = append(fields, jen.Id("Params").Id(op.ParamsName).Tag(map[string]string{"json": "params"}))
			args = append(args, jen.Id("in").Dot("Params"))
		}
		if b := op.Body; b != nil && b.Kind != ir.BodyNone {
			field, arg, stmts := g.bodyInput(f, op)
			fields = append(fields, field)
			args = append(args, arg)
			convert = stmts
		}
		if len(fields) > 0 {
			in = jen.Struct(fields...)
		}
	}
	// A stream's input is decoded when iteration starts; a bad one is the
	// sequence's only element.
	fail := []jen.Code{jen.Return(jen.Nil(), jen.Err())}
	if op.Stream {
		fail = []jen.Code{jen.Id("yield").Call(jen.Nil(), jen.Err()), jen.Return()}
	}
	var body []jen.Code
	if in != nil {
		body = append(body,
			jen.Var().Id("in").Add(in),
			jen.If(jen.Err().Op(":=").Id("decodeInput").Call(jen.Lit(id), jen.Id("input"), jen.Op("&").Id("in")), jen.Err().Op("!=").Nil()).Block(fail...))
	}
	body = append(body, convert...)
	if op.Stream {
		body = append(body, jen.For(jen.List(jen.Id("env"), jen.Err()).Op(":=").Range().Id("c").Dot(op.GoName).Call(args...)).Block(
			jen.If(jen.Op("!").Id("yield").Call(jen.Id("env"), jen.Err())).Block(jen.Return())))
		return []jen.Code{jen.Return(jen.Func().Params(jen.Id("yield").Func().Params(jen.Any(), jen.Error()).Bool()).Block(body...))}
	}
	return append(body,
		jen.List(jen.Id("env"), jen.Err()).Op(":=").Id("c").Dot(op.GoName).Call(args...),
		jen.Return(jen.Id("env"), jen.Err()))
}

// inputSchema returns the bundled input schema of op, with binary content
// described as JSON callers send it: every string of format binary gets
// contentEncoding base64 (as encoding/json writes []byte), and a binary
// body becomes a base64 string of its media type.
func (g *gen) inputSchema(op *ir.Operation) string {
	s := g.bundle(op.InputSchema)
	if op.Kind != ir.HTTPCall {
		return s // an MCP tool's schema is the tool's own
	}
	binaryBody := op.Body != nil && op.Body.Kind != ir.BodyNone && g.bodyKind(op) == ir.BodyBinary
	if s == "" || !binaryBody && !strings.Contains(s, `"binary"`) {
		return s
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber() // numbers keep their text
	var root map[string]any
	if dec.Decode(&root) != nil {
		return s
	}
	eachObject(root, func(v map[string]any) {
		if _, ok := v["contentEncoding"]; !ok && v["format"] == "binary" {
			v["contentEncoding"] = "base64"
		}
	})
	if props, ok := root["properties"].(map[string]any); ok && binaryBody {
		body := map[string]any{"type": "string", "contentEncoding": "base64"}
		if mt := op.Body.MediaType; mt != "" {
			body["contentMediaType"] = mt
		}
		props["body"] = body
	}
	out, err := json.Marshal(root)
	if err != nil {
		return s
	}
	return string(out)
}

// bodyInput returns the Body field of op's registry input, the argument
// passed to the method, and the statements that make the argument from
// the field (nil when the field is passed as is).
//
// JSON, form, text bodies and multipart bodies without files are the
// method's body type. Binary content, which a JSON caller cannot send as
// bytes, is a base64 string (contentEncoding base64 in the input schema,
// see inputSchema): a binary body is a []byte the handler passes as a
// bytes.Reader, and a multipart body with file fields is a struct like the
// body's with []byte for each io.Reader field, copied into the body type.
func (g *gen) bodyInput(f *generatedFile, op *ir.Operation) (field, arg jen.Code, convert []jen.Code) {
	b := op.Body
	tag := map[string]string{"json": "body"}
	kind := g.bodyKind(op)
	if kind == ir.BodyBinary {
		field = jen.Id("Body").Index().Byte().Tag(tag)
		if b.Required {
			return field, f.Qual("bytes", "NewReader").Call(jen.Id("in").Dot("Body")), nil
		}
		// An absent body is a nil io.Reader, not a reader of nothing.
		return field, jen.Id("body"), []jen.Code{
			jen.Var().Id("body").Add(f.Qual("io", "Reader")),
			jen.If(jen.Id("in").Dot("Body").Op("!=").Nil()).Block(
				jen.Id("body").Op("=").Add(f.Qual("bytes", "NewReader")).Call(jen.Id("in").Dot("Body"))),
		}
	}
	typ, ptr := g.bodyType(op)
	if !g.sendsFiles(kind, b.Type) {
		return jen.Id("Body").Add(f.typeCode(typ)).Tag(tag), jen.Id("in").Dot("Body"), nil
	}
	// A struct of the body's fields, binary ones as []byte (nilable: no
	// pointer), and the copy into the body type.
	var defs, copies, readers []jen.Code
	src := jen.Id("in").Dot("Body")
	for i, fd := range g.fields(b.Type, b.Type, false) { // one per b.Type.Fields, in order
		if fd.tag == "-" {
			// Not in JSON: left zero. A property name that cannot be a
			// struct tag cannot be read into this anonymous struct.
			if fl := b.Type.Fields[i]; !validTagName(fl.JSONName) {
				g.warn(diag.LeftOut, fl.Pos, "property %s of the multipart body of %s cannot be a Go struct tag; the registry's input leaves it out (the method sends it)", quoted(fl.JSONName), op.ID)
			}
			continue
		}
		defs = append(defs, jen.Id(fd.name).Add(f.typeCode(fd.typ)).Tag(map[string]string{"json": fd.tag}))
		if fl := b.Type.Fields[i]; fl.Type != nil && fl.Type.Kind == ir.Binary {
			readers = append(readers, jen.If(src.Clone().Dot(fl.Name).Op("!=").Nil()).Block(
				jen.Id("body").Dot(fl.Name).Op("=").Add(f.Qual("bytes", "NewReader")).Call(src.Clone().Dot(fl.Name))))
		} else {
			copies = append(copies, jen.Id(fl.Name).Op(":").Add(src.Clone().Dot(fl.Name)))
		}
	}
	st := jen.Struct(defs...)
	lit := jen.Id(b.Type.Name).Values(copies...)
	if ptr {
		// An optional body: nil stays nil.
		field = jen.Id("Body").Op("*").Add(st).Tag(tag)
		convert = []jen.Code{
			jen.Var().Id("body").Op("*").Id(b.Type.Name),
			jen.If(src.Clone().Op("!=").Nil()).Block(append([]jen.Code{jen.Id("body").Op("=").Op("&").Add(lit)}, readers...)...),
		}
		return field, jen.Id("body"), convert
	}
	field = jen.Id("Body").Add(st).Tag(tag)
	convert = append([]jen.Code{jen.Id("body").Op(":=").Add(lit)}, readers...)
	return field, jen.Id("body"), convert
}

// sendsFiles reports whether a body of type t sent as kind is a multipart
// struct with binary fields (io.Reader file parts).
func (g *gen) sendsFiles(kind ir.BodyKind, t *ir.Type) bool {
	return kind == ir.BodyMultipart && g.multipart[t] && slices.ContainsFunc(t.Fields, func(fl *ir.Field) bool {
		return fl.Type != nil && fl.Type.Kind == ir.Binary
	})
}

// specInfo returns the OperationSpec fields that describe op for servers
// (runtime/mcpserver): its title, HTTP method, deprecation and an MCP
// tool's annotations; and whether they call hint.
func specInfo(f *generatedFile, op *ir.Operation) ([]jen.Code, bool) {
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
	if !op.Stream { // a stream is a subscription (RegisterSubscription)
		kind := "KindMutation"
		if opIsQuery(op) {
			kind = "KindQuery"
		}
		out = append(out, jen.Line().Add(kv("Kind", f.Qual(pkgRuntime, kind))))
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
			out = append(out, jen.Line().Add(kv("Hints", jen.Op("&").Add(f.Qual(pkgRuntime, "OperationHints")).Values(hints...))))
		}
	}
	return out, hinted
}

// opIsQuery reports whether op only reads: an HTTP GET or HEAD, or an MCP
// tool annotated readOnlyHint. Everything else is a mutation (the safe
// assumption for policies and retries: it may change something).
func opIsQuery(op *ir.Operation) bool {
	if op.Tool != nil {
		return op.Tool.ReadOnly != nil && *op.Tool.ReadOnly
	}
	m := strings.ToUpper(op.Method)
	return op.Kind == ir.HTTPCall && (m == "GET" || m == "HEAD")
}

// remoteIDs maps the operations a client routes through its WithRemote
// option (httpclient's or mcpclient's) to their registry ids: with
// registry: true, every registered operation (binary content is read and
// sent as base64 by the runtime, the form the registry takes it in).
// Computed once per generation.
func (g *gen) remoteIDs() map[*ir.Operation]string {
	if g.remote != nil {
		return g.remote
	}
	g.remote = map[*ir.Operation]string{}
	if !g.opts.Registry {
		return g.remote
	}
	seen := map[string]bool{}
	for _, op := range g.ops {
		id := registryID(g.opts.Namespace, op.ID)
		if seen[id] {
			continue // not registered (registryFile warns)
		}
		seen[id] = true
		g.remote[op] = id
	}
	return g.remote
}
