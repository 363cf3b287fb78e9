package emit

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// registryFile declares (*Client).Register, the table of operations it
// registers (static data, cheap to compile) and one small function per
// operation that decodes its input and calls its method.
func (g *gen) registryFile() *generatedFile {
	f := g.newFile()
	var entries, subEntries []regEntry
	var calls []func(w *textWriter)
	var streams []string
	// Operations registered through a function of their own (funcs) or
	// through httpclient.CallMethod (methods).
	funcs, methods := false, false
	binary := false   // some input holds binary content
	usesHint := false // some operation has hints: declare hint
	ids := map[string]bool{}
	rawMessage := qual("encoding/json", "RawMessage")
	var typed []string // TypedError's cases, their lines
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
			typed = append(typed, "\tcase "+litText(id)+":", "\t\treturn "+f.typeText(qual(pkgHTTP, "TypedError"))+"(ce, responses"+op.GoName+")")
		}
		members, viaMethod := g.methodMembers(op)
		spec := []keyValue{{"ID", litText(id)}}
		if desc := description(op); desc != "" {
			spec = append(spec, keyValue{"Description", litText(desc)})
		}
		info, hinted := specInfo(f, op)
		spec = append(spec, info...)
		usesHint = usesHint || hinted
		if s := g.inputSchema(op); op.InputSchema != nil && s != "" {
			spec = append(spec, keyValue{"InputSchema", f.typeText(rawMessage) + "(" + jsonString(s) + ")"})
			binary = binary || op.Kind == ir.HTTPCall && strings.Contains(s, `"contentEncoding":"base64"`)
		}
		if s := g.bundle(op.OutputSchema, false); op.OutputSchema != nil && s != "" {
			spec = append(spec, keyValue{"OutputSchema", f.typeText(rawMessage) + "(" + jsonString(s) + ")"})
			if v := g.schemaVar(op.OutputSchema, "outSchema"+op.GoName); v != "" {
				spec = append(spec, keyValue{"Output", v})
			}
		}
		if viaMethod {
			// Called by httpclient.CallMethod: a table entry, no function.
			in := "nil"
			if len(members) > 0 {
				in = strLitsText(members)
			}
			entries = append(entries, regEntry{spec: spec, method: "(*Client)." + op.GoName, in: in})
			methods = true
			continue
		}
		// A stream is a subscription: its function returns the sequence of
		// the method's envelopes.
		name, results := "call"+op.GoName, []any{"(any, error)"}
		if op.Stream {
			name, results = "subscribe"+op.GoName, []any{qual("iter", "Seq2"), "[any, error]"}
		}
		handler := g.handler(f, op, id)
		calls = append(calls, func(w *textWriter) {
			w.P(append([]any{"func (c *Client) ", name, "(ctx ", qual("context", "Context"), ", input ", rawMessage, ") "}, append(results, " {")...)...)
			handler(w)
			w.P("}")
		})
		if op.Stream {
			streams = append(streams, op.GoName)
			subEntries = append(subEntries, regEntry{spec: spec, call: "(*Client)." + name})
		} else {
			entries = append(entries, regEntry{spec: spec, call: "(*Client)." + name})
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
		d.para("Streams (event streams and JSON sequences) are registered as subscriptions, called with runtime.Registry.Subscribe: " + strings.Join(streams, ", ") + ". Each event or item is one envelope.")
	}
	f.write(d, func(w *textWriter) {
		w.P("func (c *Client) Register(r *", qual(pkgRuntime, "Registry"), ") error {")
		// Only with entries: qualifying an identifier records an import,
		// and an unused import does not compile (a document without
		// operations).
		if len(entries) > 0 {
			// The handler of a table entry: its function, or CallMethod.
			w.P("\tfor _, op := range registryOps {")
			if funcs {
				w.P("\t\tcall := op.call")
			}
			if methods {
				w.P("\t\tid, method, in := op.spec.ID, op.method, op.in")
			}
			w.P("\t\th := func(ctx ", qual("context", "Context"), ", input ", rawMessage, ") (any, error) {")
			switch {
			case methods && funcs:
				w.P("\t\t\tif call == nil {")
				w.P("\t\t\t\treturn ", qual(pkgHTTP, "CallMethod"), "(ctx, id, input, method, c, in...)")
				w.P("\t\t\t}")
				w.P("\t\t\treturn call(c, ctx, input)")
			case methods:
				w.P("\t\t\treturn ", qual(pkgHTTP, "CallMethod"), "(ctx, id, input, method, c, in...)")
			default:
				w.P("\t\t\treturn call(c, ctx, input)")
			}
			w.P("\t\t}")
			w.P("\t\tif err := r.Register(op.spec, h); err != nil {")
			w.P("\t\t\treturn err")
			w.P("\t\t}")
			w.P("\t}")
		}
		if len(subEntries) > 0 {
			w.P("\tfor _, op := range registrySubs {")
			w.P("\t\tcall := op.call")
			w.P("\t\th := func(ctx ", qual("context", "Context"), ", input []byte) ", qual("iter", "Seq2"), "[any, error] {")
			w.P("\t\t\treturn call(c, ctx, input)")
			w.P("\t\t}")
			w.P("\t\tif err := r.RegisterSubscription(op.spec, h); err != nil {")
			w.P("\t\t\treturn err")
			w.P("\t\t}")
			w.P("\t}")
		}
		w.P("\treturn nil")
		w.P("}")
	})
	if len(entries) > 0 {
		f.writeCommented("registryOps are the operations Register registers.", func(w *textWriter) {
			spec := w.typeText(qual(pkgRuntime, "OperationSpec"))
			fields := []tableField{{name: "spec", typ: spec}}
			if funcs {
				fields = append(fields, tableField{name: "call", typ: "func(*Client, " + w.typeText(qual("context", "Context")) + ", " + w.typeText(rawMessage) + ") (any, error)"})
				if methods {
					fields[1].comment = "nil: method"
				}
			}
			if methods {
				fields = append(fields,
					tableField{name: "method", typ: "any", comment: "the method, called by httpclient.CallMethod"},
					tableField{name: "in", typ: "[]string", comment: "the input members of its arguments after ctx"})
			}
			w.P("var registryOps = []struct {")
			w.tableFields(fields)
			w.P("}{")
			for _, e := range entries {
				w.specRow(spec, e.spec)
				if funcs {
					w.b.WriteString(", " + cmp.Or(e.call, "nil"))
				}
				if methods {
					w.b.WriteString(", " + cmp.Or(e.method, "nil") + ", " + cmp.Or(e.in, "nil"))
				}
				w.P("},")
			}
			w.P("}")
		})
	}
	if len(subEntries) > 0 {
		f.writeCommented("registrySubs are the streams Register registers as subscriptions.", func(w *textWriter) {
			spec := w.typeText(qual(pkgRuntime, "OperationSpec"))
			w.P("var registrySubs = []struct {")
			w.tableFields([]tableField{{name: "spec", typ: spec}, {name: "call", typ: "func(*Client, " + w.typeText(qual("context", "Context")) + ", " + w.typeText(rawMessage) + ") " + w.typeText(qual("iter", "Seq2")) + "[any, error]"}})
			w.P("}{")
			for _, e := range subEntries {
				w.specRow(spec, e.spec)
				w.P(", ", e.call, "},")
			}
			w.P("}")
		})
	}
	if len(typed) > 0 {
		f.write(newDoc("TypedError returns ce, the failure of an operation registered by Register as the call protocol returns it (callproto.SpokeOptions.TypedErrors: its call.error carries the HTTP status, headers and body), as a direct call returns it: the operation's error type for the status, its body decoded. It returns nil when the operation declares no type for the status, or ce is no HTTP failure of these operations. A client configured WithRemote needs none of this: its methods type their errors."), func(w *textWriter) {
			w.P("func TypedError(ce *", qual(pkgRuntime, "CallError"), ") error {")
			w.P("\tswitch ce.OperationID {")
			for _, l := range typed {
				w.P(l)
			}
			w.P("\t}")
			w.P("\treturn nil")
			w.P("}")
		})
	}
	for _, c := range calls {
		f.write(nil, c)
	}
	if usesHint {
		f.write(newDoc("hintTrue and hintFalse are the values runtime.OperationHints point to, shared by the specs (which must not modify them): variables, not a function, so that the specs are static data a program that does not register them does not link."), func(w *textWriter) {
			w.P("var hintTrue, hintFalse = true, false")
		})
	}
	if len(calls) == 0 {
		return f
	}
	f.write(newDoc("decodeInput decodes the input of operation id into v."), func(w *textWriter) {
		w.P("func decodeInput(id string, input ", rawMessage, ", v any) error {")
		w.P("\tif len(input) == 0 {")
		w.P("\t\treturn nil")
		w.P("\t}")
		w.P("\tif err := ", qual("encoding/json", "Unmarshal"), "(input, v); err != nil {")
		w.P("\t\treturn ", qual(pkgRuntime, "NewError"), "(", qual(pkgRuntime, "CodeValidation"), ", id, \"decoding input\", err)")
		w.P("\t}")
		w.P("\treturn nil")
		w.P("}")
	})
	return f
}

// declaresErrors reports whether op is an HTTP operation whose responses
// table declares an error type (a Response with Error set, see http.go).
func declaresErrors(op *ir.Operation) bool {
	if op.Kind != ir.HTTPCall {
		return false
	}
	for _, r := range op.Responses {
		if r.ErrorName != "" || typedKind(r.Kind) && r.Type != nil && !strings.HasPrefix(r.Status, "2") {
			return true
		}
	}
	return false
}

// regEntry is a row of the registry table: the operation's spec, and its
// function (call) or its method and the input members of its arguments
// (Go code; "" for nil).
type regEntry struct {
	spec             []keyValue
	call, method, in string
}

// tableField is a field of a registry table's struct type.
type tableField struct{ name, typ, comment string }

// tableFields writes the fields of a registry table's struct type, aligned
// as gofmt aligns them: the names over all lines, the types only over the
// lines with comments (which follow the others).
func (w *textWriter) tableFields(fields []tableField) {
	nameW, typW := 0, 0
	for _, f := range fields {
		nameW = max(nameW, len(f.name))
		if f.comment != "" {
			typW = max(typW, utf8.RuneCountInString(f.typ))
		}
	}
	for _, f := range fields {
		w.b.WriteString("\t" + f.name)
		w.pad(nameW - len(f.name) + 1)
		w.b.WriteString(f.typ)
		if f.comment != "" {
			w.pad(typW - utf8.RuneCountInString(f.typ) + 1)
			w.b.WriteString(commentLine(f.comment))
		}
		w.b.WriteByte('\n')
	}
}

// specRow starts a row of a registry table: "{" and the operation's
// runtime.OperationSpec literal (spec is its qualified name), without a
// line break after it.
func (w *textWriter) specRow(spec string, kvs []keyValue) {
	w.P("\t{", spec, "{")
	w.keyValues("\t\t", kvs)
	w.b.WriteString("\t}")
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

// handler returns the writer of the body of op's registry function:
// decode the input and call the method; for a stream, return the sequence
// of its envelopes. Its types are resolved now, in the order of the
// declarations.
func (g *gen) handler(f *generatedFile, op *ir.Operation, id string) func(w *textWriter) {
	args := []string{"ctx"}
	var in inputType
	var convert func(w *textWriter, indent string)
	switch {
	case op.Kind == ir.MCPTool:
		if hasInput(op.Tool) {
			in.named = f.typeText(g.goType(op.Tool.InputType, false, op.Pos))
			args = append(args, "in")
		}
	default:
		if op.ParamsName != "" {
			in.params = op.ParamsName
			args = append(args, "in.Params")
		}
		if b := op.Body; b != nil && b.Kind != ir.BodyNone {
			var arg string
			in.body, arg, convert = g.bodyInput(f, op)
			args = append(args, arg)
		}
	}
	call := "c." + op.GoName + "(" + strings.Join(args, ", ") + ")"
	return func(w *textWriter) {
		indent := "\t"
		if op.Stream {
			// A stream's input is decoded when iteration starts; a bad one
			// is the sequence's only element.
			w.P("\treturn func(yield func(any, error) bool) {")
			indent = "\t\t"
		}
		if in.named != "" || in.params != "" || in.body != nil {
			in.write(w, indent)
			w.P(indent, "if err := decodeInput(", litText(id), ", input, &in); err != nil {")
			if op.Stream {
				w.P(indent, "\tyield(nil, err)")
				w.P(indent, "\treturn")
			} else {
				w.P(indent, "\treturn nil, err")
			}
			w.P(indent, "}")
		}
		if convert != nil {
			convert(w, indent)
		}
		if op.Stream {
			w.P(indent, "for env, err := range ", call, " {")
			w.P(indent, "\tif !yield(env, err) {")
			w.P(indent, "\t\treturn")
			w.P(indent, "\t}")
			w.P(indent, "}")
			w.P("\t}")
			return
		}
		w.P(indent, "env, err := ", call)
		w.P(indent, "return env, err")
	}
}

// inputType is the type of a registry function's decoded input: a named
// type (an MCP tool's input), or a struct of the parameters struct and the
// body.
type inputType struct {
	named, params string
	body          *bodyField
}

// bodyField is the Body field of a registry input: its type, or the
// fields of the struct it is (a pointer to, if ptr).
type bodyField struct {
	typ    string
	fields []structField // when typ is ""
	ptr    bool
}

// write writes "var in ..." after indent, as gofmt prints it.
func (in inputType) write(w *textWriter, indent string) {
	if in.named != "" {
		w.P(indent, "var in ", in.named)
		return
	}
	w.P(indent, "var in struct {")
	nameW := 0
	if in.params != "" {
		nameW = len("Params")
	}
	if in.body != nil {
		nameW = max(nameW, len("Body"))
	}
	b := in.body
	multiLine := b != nil && b.typ == "" && len(b.fields) > 0
	typW := 0 // the types' column, over single-line fields
	if in.params != "" {
		typW = utf8.RuneCountInString(in.params)
		if b != nil && !multiLine {
			typW = max(typW, utf8.RuneCountInString(b.text()))
		}
	}
	field := func(name, typ, tag string) {
		w.b.WriteString(indent + "\t" + name)
		w.pad(nameW - len(name) + 1)
		w.b.WriteString(typ)
		w.pad(typW - utf8.RuneCountInString(typ) + 1)
		w.P(tag)
	}
	if in.params != "" {
		field("Params", in.params, tagText("params"))
	}
	switch {
	case b == nil:
	case multiLine:
		w.b.WriteString(indent + "\tBody")
		w.pad(nameW - len("Body") + 1)
		if b.ptr {
			w.b.WriteByte('*')
		}
		w.P("struct {")
		w.fieldLines(indent+"\t\t", b.fields)
		w.P(indent, "\t} ", tagText("body"))
	default:
		typW = max(typW, utf8.RuneCountInString(b.text()))
		field("Body", b.text(), tagText("body"))
	}
	w.P(indent, "}")
}

// text is the single-line text of a body field's type.
func (b *bodyField) text() string {
	if b.typ != "" {
		return b.typ
	}
	if b.ptr {
		return "*struct{}"
	}
	return "struct{}"
}

// inputSchema returns the bundled input schema of op, with binary content
// described as JSON callers send it: every string of format binary gets
// contentEncoding base64 (as encoding/json writes []byte), and a binary
// body becomes a base64 string of its media type.
func (g *gen) inputSchema(op *ir.Operation) string {
	s := g.bundle(op.InputSchema, true)
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
func (g *gen) bodyInput(f *generatedFile, op *ir.Operation) (bf *bodyField, arg string, convert func(w *textWriter, indent string)) {
	b := op.Body
	kind := g.bodyKind(op)
	if kind == ir.BodyBinary {
		bf = &bodyField{typ: "[]byte"}
		newReader := f.typeText(qual("bytes", "NewReader"))
		if b.Required {
			return bf, newReader + "(in.Body)", nil
		}
		// An absent body is a nil io.Reader, not a reader of nothing.
		reader := f.typeText(qual("io", "Reader"))
		return bf, "body", func(w *textWriter, indent string) {
			w.P(indent, "var body ", reader)
			w.P(indent, "if in.Body != nil {")
			w.P(indent, "\tbody = ", newReader, "(in.Body)")
			w.P(indent, "}")
		}
	}
	typ, ptr := g.bodyType(op)
	if !g.sendsFiles(kind, b.Type) {
		return &bodyField{typ: f.typeText(typ)}, "in.Body", nil
	}
	// A struct of the body's fields, binary ones as []byte (nilable: no
	// pointer), and the copy into the body type.
	var defs []field
	var copies, readers []string
	for i, fd := range g.fields(b.Type, b.Type, false) { // one per b.Type.Fields, in order
		if fd.tag == "-" {
			// Not in JSON: left zero. A property name that cannot be a
			// struct tag cannot be read into this anonymous struct.
			if fl := b.Type.Fields[i]; !validTagName(fl.JSONName) {
				g.warn(diag.LeftOut, fl.Pos, "property %s of the multipart body of %s cannot be a Go struct tag; the registry's input leaves it out (the method sends it)", quoted(fl.JSONName), op.ID)
			}
			continue
		}
		defs = append(defs, field{name: fd.name, typ: fd.typ, tag: fd.tag})
		if fl := b.Type.Fields[i]; fl.Type != nil && fl.Type.Kind == ir.Binary {
			readers = append(readers, fl.Name)
		} else {
			copies = append(copies, fl.Name+": in.Body."+fl.Name)
		}
	}
	w := newTextWriter(f)
	defer w.done()
	bf = &bodyField{fields: w.structFields(defs), ptr: ptr}
	var newReader string
	if len(readers) > 0 {
		newReader = f.typeText(qual("bytes", "NewReader"))
	}
	lit := b.Type.Name + "{" + strings.Join(copies, ", ") + "}"
	setReaders := func(w *textWriter, indent string) {
		for _, r := range readers {
			w.P(indent, "if in.Body.", r, " != nil {")
			w.P(indent, "\tbody.", r, " = ", newReader, "(in.Body.", r, ")")
			w.P(indent, "}")
		}
	}
	if ptr {
		// An optional body: nil stays nil.
		return bf, "body", func(w *textWriter, indent string) {
			w.P(indent, "var body *", b.Type.Name)
			w.P(indent, "if in.Body != nil {")
			w.P(indent, "\tbody = &", lit)
			setReaders(w, indent+"\t")
			w.P(indent, "}")
		}
	}
	return bf, "body", func(w *textWriter, indent string) {
		w.P(indent, "body := ", lit)
		setReaders(w, indent)
	}
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
// tool's annotations; and whether they use hintTrue or hintFalse.
func specInfo(f *generatedFile, op *ir.Operation) ([]keyValue, bool) {
	var out []keyValue
	hinted := false
	if op.Tool != nil && sanitize(op.Tool.Title) != "" {
		out = append(out, keyValue{"Title", litText(sanitize(op.Tool.Title))})
	}
	if op.Kind == ir.HTTPCall && op.Method != "" {
		out = append(out, keyValue{"Method", litText(strings.ToUpper(op.Method))})
	}
	if op.Doc.Deprecated {
		out = append(out, keyValue{"Deprecated", "true"})
	}
	if !op.Stream { // a stream is a subscription (RegisterSubscription)
		kind := "KindMutation"
		if opIsQuery(op) {
			kind = "KindQuery"
		}
		out = append(out, keyValue{"Kind", f.typeText(qual(pkgRuntime, kind))})
	}
	if t := op.Tool; t != nil {
		var hints []string
		for _, h := range []struct {
			name string
			v    *bool
		}{{"ReadOnly", t.ReadOnly}, {"Destructive", t.Destructive}, {"Idempotent", t.Idempotent}, {"OpenWorld", t.OpenWorld}} {
			if h.v != nil {
				hints = append(hints, h.name+": "+hintVar(*h.v))
			}
		}
		if len(hints) > 0 {
			hinted = true
			out = append(out, keyValue{"Hints", "&" + f.typeText(qual(pkgRuntime, "OperationHints")) + "{" + strings.Join(hints, ", ") + "}"})
		}
	}
	return out, hinted
}

// opIsQuery reports whether op only reads: an HTTP GET, HEAD or QUERY (the
// safe method with a body of OpenAPI 3.2), or an MCP
// tool annotated readOnlyHint. Everything else is a mutation (the safe
// assumption for policies and retries: it may change something).
func opIsQuery(op *ir.Operation) bool {
	if op.Tool != nil {
		return op.Tool.ReadOnly != nil && *op.Tool.ReadOnly
	}
	m := strings.ToUpper(op.Method)
	return op.Kind == ir.HTTPCall && (m == "GET" || m == "HEAD" || m == "QUERY")
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

// hintVar is the expression of a hint's value: a pointer to hintTrue or
// hintFalse.
func hintVar(b bool) string {
	if b {
		return "&hintTrue"
	}
	return "&hintFalse"
}
