package emit

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// reexport is a runtime option re-exported by generated clients as a
// function of the same signature (not a package variable: a variable can be
// reassigned, and go doc would not show its parameters). params is the
// parameter list, code and goTypes as P takes them; args passes them on.
type reexport struct {
	name, doc string
	params    []any
	args      string
}

var (
	ctxType        = qual("context", "Context")
	durationType   = qual("time", "Duration")
	validationType = qual(pkgRuntime, "ValidationMode")
	warningType    = qual(pkgRuntime, "Warning")
	httpRequest    = qual("net/http", "Request").ptr()
)

var httpOptions = []reexport{
	{"WithBaseURL", "WithBaseURL sets the server URL calls go to, replacing the default one.", []any{"u string"}, "u"},
	{"WithHTTPClient", "WithHTTPClient sets the *http.Client that sends requests (default: http.DefaultClient).", []any{"h ", qual("net/http", "Client").ptr()}, "h"},
	{"WithValidation", "WithValidation sets what a response that does not match its schema does: a warning (runtime.ValidateWarn, the default), an error (runtime.ValidateStrict), or nothing (runtime.ValidateOff).", []any{"m ", validationType}, "m"},
	{"WithLogger", "WithLogger sets the logger of validation warnings.", []any{"l ", qual(pkgRuntime, "Logger")}, "l"},
	{"WithWarningHook", "WithWarningHook sets a function called with every validation warning.", []any{"f func(", ctxType, ", ", warningType, ")"}, "f"},
	{"WithHeader", "WithHeader adds a header to every request.", []any{"key, value string"}, "key, value"},
	{"WithUserAgent", "WithUserAgent sets the User-Agent of every request.", []any{"ua string"}, "ua"},
	{"WithMaxBodyBytes", "WithMaxBodyBytes caps the size of response bodies read into memory.", []any{"n int64"}, "n"},
	{"WithMiddleware", "WithMiddleware wraps the sending of every request (an http.RoundTripper chain); httpclient.OperationFrom(req.Context()) tells the operation.", []any{"m ...", qual(pkgHTTP, "Middleware")}, "m..."},
	{"WithBeforeRequest", "WithBeforeRequest adds a hook called with every request before it is sent.", []any{"f func(", httpRequest, ") error"}, "f"},
	{"WithAfterResponse", "WithAfterResponse adds a hook called with every response before it is decoded.", []any{"f func(", qual("net/http", "Response").ptr(), ") error"}, "f"},
	{"WithRetry", "WithRetry sets the retry policy (httpclient.RetryPolicy; default: no retries).", []any{"p ", qual(pkgHTTP, "RetryPolicy")}, "p"},
	{"WithTimeout", "WithTimeout sets the default timeout of every call.", []any{"d ", durationType}, "d"},
	{"WithOperationTimeout", "WithOperationTimeout sets the timeout of one operation's calls, by operation id.", []any{"operationID string, d ", durationType}, "operationID, d"},
	{"WithReconnect", "WithReconnect sets how event streams reconnect (httpclient.ReconnectPolicy; default: never).", []any{"p ", qual(pkgHTTP, "ReconnectPolicy")}, "p"},
	{"WithRemote", "WithRemote runs the operations registered by Register (registry: true) through rm instead of HTTP, e.g. a call protocol spoke (*callproto.PendingRequestMap) whose hub registered the same client: same methods, same types.", []any{"rm ", qual(pkgHTTP, "Remote")}, "rm"},
	{"WithIdempotencyKeys", "WithIdempotencyKeys gives every call of a method that is not idempotent (POST, PATCH...) an Idempotency-Key generated once per call, the same on every retry and through WithRemote (httpclient.WithIdempotencyKeys).", nil, ""},
}

var httpCallOptions = []reexport{
	{"WithRequestHeader", "WithRequestHeader adds a header to one request.", []any{"key, value string"}, "key, value"},
	{"WithRequestEditor", "WithRequestEditor lets a function edit one request before it is sent.", []any{"f func(", httpRequest, ") error"}, "f"},
	{"WithCallValidation", "WithCallValidation sets the validation mode of one call.", []any{"m ", validationType}, "m"},
	{"WithCallBaseURL", "WithCallBaseURL sends one request to another server URL.", []any{"u string"}, "u"},
	{"WithCallTimeout", "WithCallTimeout sets the timeout of one call.", []any{"d ", durationType}, "d"},
	{"WithCallRetry", "WithCallRetry sets the retry policy of one call.", []any{"p ", qual(pkgHTTP, "RetryPolicy")}, "p"},
	{"WithCallReconnect", "WithCallReconnect sets how one call's event stream reconnects.", []any{"p ", qual(pkgHTTP, "ReconnectPolicy")}, "p"},
	{"WithRawBody", "WithRawBody stores a copy of one call's response body, as received, in *dst: what the schema does not describe stays reachable.", []any{"dst *[]byte"}, "dst"},
}

// securityOptionNames are the options generated for a security scheme.
func securityOptionNames(s *ir.SecurityScheme) []string {
	switch s.Type {
	case "oauth2", "openIdConnect":
		return []string{"With" + s.GoName, "With" + s.GoName + "TokenSource"}
	case "apiKey", "http":
		return []string{"With" + s.GoName}
	}
	return nil
}

func (g *gen) versionGuard(f *generatedFile) {
	f.writeCommented("The generated code needs a runtime that supports its contract version.", func(w *textWriter) {
		enforce, v := qual(pkgImpl, "EnforceVersion"), strconv.Itoa(contractVersion)
		w.P("const _ = ", enforce, "(", v, " - ", qual(pkgImpl, "MinVersion"), ")")
		w.P("const _ = ", enforce, "(", qual(pkgImpl, "MaxVersion"), " - ", v, ")")
	})
}

// splitTypesDoc is typesDoc for a split API, whose schemas are in package
// dir (schemaset) and whose nullable objects are Nullable[*T].
func splitTypesDoc(dir string) string {
	s := strings.Replace(typesDoc, "(embedded in Schemas)", "(package "+dir+"'s All returns them)", 1)
	return strings.Replace(s, "is a runtime.Nullable[T],", "is a runtime.Nullable[T] (runtime.Nullable[*T] for an object),", 1)
}

// typesDoc is the package doc's paragraph on how the JSON Schemas
// (structFields, gotype.go) become Go types.
const typesDoc = "Types follow the JSON Schemas (embedded in Schemas). A required property is a value; an optional one, or a required one that may be null, is a pointer (slices, maps and json.RawMessage stay nil-able values); an optional property that may be null is a runtime.Nullable[T], which tells absent, null and a value apart (runtime.NewNullable(v), runtime.Null[T](), IsSet, IsNull, Get). Objects with additionalProperties keep unknown properties in AdditionalProperties; enum types accept unknown values (see Known); oneOf/anyOf types hold the raw JSON, with Variant, As<Variant>, Match (one function per variant, each returning an error; leaving one out does not compile) and Match<Type> (the same, returning a value of the caller's type as well). date-time is time.Time, date runtime.Date (YYYY-MM-DD), byte []byte; schemas opsgen cannot type are json.RawMessage."

// pointersDoc shows how to fill an optional property: Go 1.26's new(expr),
// without a helper.
const pointersDoc = `Set a pointer property with new, which takes an expression since Go 1.26: new("Rex"), new(int32(10)), or new(C) for a constant C of an enum type.`

// packageDoc writes the package doc comment, the manual of the package:
// "a client of <title> (version <version>)", the service's description,
// then usage.
func (g *gen) packageDoc(f *generatedFile, title, version string, usage ...string) {
	title = cmp.Or(sanitize(title), "the API of "+g.source())
	first := "Package " + g.opts.Package + " is a client of " + title
	if v := sanitize(version); v != "" {
		first += " (version " + v + ")"
	}
	d := newDoc(first + ", generated by opsgen from " + g.source() + ".")
	d.para(g.svc.Description)
	for _, u := range usage {
		d.para(u)
	}
	d.para("Every call returns a runtime.ResponseEnvelope: Data typed from the operation's output schema, Meta from the transport, and Warnings when the data did not match its schema.")
	if len(g.groups) > 0 {
		d.para(splitTypesDoc(g.schemasetDir()))
	} else {
		d.para(typesDoc)
	}
	d.para(pointersDoc)
	f.pkgDoc = commentLines(d.lines(), true)
}

func (g *gen) httpClientFile() *generatedFile {
	f := g.newFile()
	var auth []string
	for _, s := range g.sortedSchemes() {
		auth = append(auth, securityOptionNames(s)...)
	}
	usage := "Create a client with NewClient. Options set the server URL (WithBaseURL), the *http.Client (WithHTTPClient), the validation mode (WithValidation), the logger (WithLogger), headers and limits, middlewares and hooks (WithMiddleware), retries (WithRetry) and timeouts (WithTimeout)."
	if len(auth) > 0 {
		usage += " Credentials are set with " + strings.Join(auth, ", ") + "."
	}
	if len(g.webhookOps()) > 0 {
		usage += "\n\nThe webhooks and callbacks the API sends are received by NewWebhookMux, one method of a WebhookHandler per operation, verified and decoded by package github.com/opsgen/opsgen/runtime/webhook; RegisterWebhooks serves them as Registry subscriptions."
	}
	g.packageDoc(f, g.svc.Title, g.svc.Version, usage, g.splitDoc())
	g.versionGuard(f)

	title := cmp.Or(sanitize(g.svc.Title), "the API")
	clientTypes(f, pkgHTTP, "Client calls "+title+". Create one with NewClient; it is safe for concurrent use.",
		"CallOption configures one call: WithRequestHeader, WithRequestEditor, WithCallValidation, WithCallBaseURL, WithCallTimeout, WithCallRetry, WithCallReconnect, WithRawBody.")
	reexports(f, pkgHTTP, httpOptions, "Option")
	reexports(f, pkgHTTP, httpCallOptions, "CallOption")

	base := ""
	var srv *ir.Server
	if len(g.svc.Servers) > 0 {
		srv = &g.svc.Servers[0]
		var pairs []string
		for _, k := range slices.Sorted(maps.Keys(srv.Variables)) {
			pairs = append(pairs, "{"+k+"}", srv.Variables[k])
		}
		base = strings.NewReplacer(pairs...).Replace(srv.URL)
	}
	nd := newDoc("NewClient returns a client of the API configured by opts, this package's With* options (see the package doc).")
	if base != "" {
		nd.para("Calls go to " + quoted(base) + " unless WithBaseURL says otherwise.")
	} else {
		nd.para("The API names no server: set one with WithBaseURL.")
	}
	nd.para(g.validationDoc())
	nd.para(g.timeoutDoc())
	if g.opts.IdempotencyKeys {
		nd.para("Calls of methods that are not idempotent (POST, PATCH...) send an Idempotency-Key generated once per call, the same on every retry and through WithRemote (client.idempotencyKeys in opsgen's config).")
	}
	f.write(nd, func(w *textWriter) {
		w.P("func NewClient(opts ...Option) *Client {")
		g.defaultOptions(w, true)
		w.P("\treturn &Client{c: ", qual(pkgHTTP, "New"), "(", litText(base), ", securitySchemes, opts...)}")
		w.P("}")
	})
	if srv != nil && len(srv.Variables) > 0 {
		g.serverURL(f, srv)
	}
	g.securityOptions(f)
	g.runtimeMethod(f)
	return f
}

// validationModes maps Options.Validation to the runtime constant NewClient
// applies; "" for the runtime's default, which needs no option.
var validationModes = map[string]string{"": "", "warn": "", "strict": "ValidateStrict", "off": "ValidateOff"}

// defaultOptions writes NewClient's first statement: it puts the
// configured validation mode (and, for HTTP clients, timeouts) before the
// caller's options, which therefore override them. It writes nothing when
// the config sets none.
func (g *gen) defaultOptions(w *textWriter, http bool) {
	var defs []string
	if mode := validationModes[g.opts.Validation]; mode != "" {
		defs = append(defs, "WithValidation("+w.typeText(qual(pkgRuntime, mode))+")")
	}
	if http && g.opts.Timeout > 0 {
		defs = append(defs, "WithTimeout("+durationText(w, g.opts.Timeout, false)+")")
	}
	if http && g.opts.IdempotencyKeys {
		defs = append(defs, "WithIdempotencyKeys()")
	}
	for _, id := range slices.Sorted(maps.Keys(g.opts.Operations)) {
		if d := g.opts.Operations[id].Timeout; http && d > 0 {
			defs = append(defs, "WithOperationTimeout("+litText(id)+", "+durationText(w, d, true)+")")
		}
	}
	switch len(defs) {
	case 0:
	case 1:
		w.P("\topts = append([]Option{", defs[0], "}, opts...)")
	default:
		w.P("\topts = append([]Option{")
		for _, d := range defs {
			w.P("\t\t", d, ",")
		}
		w.P("\t}, opts...)")
	}
}

// durationText is a time.Duration literal: 30 * time.Second, 1500 *
// time.Millisecond...; tight when it is one of several arguments of a call
// (gofmt then writes 30*time.Second).
func durationText(w *textWriter, d time.Duration, tight bool) string {
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.unit == 0 {
			op := " * "
			if tight {
				op = "*"
			}
			return strconv.Itoa(int(d/u.unit)) + op + w.typeText(qual("time", u.name))
		}
	}
	return strconv.Itoa(int(d))
}

// timeoutDoc documents configured timeouts on NewClient.
func (g *gen) timeoutDoc() string {
	var parts []string
	if g.opts.Timeout > 0 {
		parts = append(parts, "calls time out after "+g.opts.Timeout.String()+" (client.timeout in opsgen's config; WithTimeout overrides it)")
	}
	for _, o := range g.opts.Operations {
		if o.Timeout > 0 {
			parts = append(parts, "some operations have timeouts of their own (operations.<id>.timeout; WithOperationTimeout overrides them)")
			break
		}
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// validationDoc documents a configured validation mode on NewClient.
func (g *gen) validationDoc() string {
	mode := validationModes[g.opts.Validation]
	if mode == "" {
		return ""
	}
	return "The validation mode defaults to runtime." + mode + " (client.validation in opsgen's config); WithValidation overrides it."
}

// clientTypes declares Client, holding the runtime's client of package
// pkg, and the aliases Option and CallOption of its options.
func clientTypes(f *generatedFile, pkg, clientDoc, callOptionDoc string) {
	f.write(newDoc(clientDoc), func(w *textWriter) {
		w.P("type Client struct {")
		w.P("\tc *", qual(pkg, "Client"))
		w.P("}")
	})
	f.write(newDoc("Option configures a Client: see NewClient."), func(w *textWriter) { w.P("type Option = ", qual(pkg, "Option")) })
	f.write(newDoc(callOptionDoc), func(w *textWriter) { w.P("type CallOption = ", qual(pkg, "CallOption")) })
}

func reexports(f *generatedFile, pkg string, opts []reexport, result string) {
	for _, o := range opts {
		f.write(newDoc(o.doc), func(w *textWriter) {
			line := append([]any{"func ", o.name, "("}, o.params...)
			w.P(append(line, ") ", result, " {")...)
			w.P("\treturn ", qual(pkg, o.name), "(", o.args, ")")
			w.P("}")
		})
	}
}

// serverURL declares ServerURL, which fills in the variables of the default server.
func (g *gen) serverURL(f *generatedFile, srv *ir.Server) {
	var pairs, defaults []string
	for _, k := range slices.Sorted(maps.Keys(srv.Variables)) {
		pairs = append(pairs, "{"+litText(k)+", "+litText(srv.Variables[k])+"}")
		defaults = append(defaults, quoted(k)+": "+quoted(srv.Variables[k]))
	}
	d := newDoc("ServerURL returns the server URL " + quoted(srv.URL) + " with its variables taken from vars; a variable missing from vars keeps its default (" + strings.Join(defaults, ", ") + "). Pass the result to WithBaseURL.")
	d.para(srv.Description)
	// One replacer, so that a value holding "{name}" is not substituted again.
	f.write(d, func(w *textWriter) {
		w.P("func ServerURL(vars map[string]string) string {")
		w.P("\tvar r []string")
		w.P("\tfor _, v := range [...][2]string{", strings.Join(pairs, ", "), "} {")
		w.P("\t\tif s, ok := vars[v[0]]; ok {")
		w.P("\t\t\tv[1] = s")
		w.P("\t\t}")
		w.P("\t\tr = append(r, \"{\"+v[0]+\"}\", v[1])")
		w.P("\t}")
		w.P("\treturn ", qual("strings", "NewReplacer"), "(r...).Replace(", litText(srv.URL), ")")
		w.P("}")
	})
}

func (g *gen) sortedSchemes() []*ir.SecurityScheme {
	return sortedBy(g.svc.SecuritySchemes, func(s *ir.SecurityScheme) string { return s.Name })
}

// securityOptions declares securitySchemes and one option per credential kind.
func (g *gen) securityOptions(f *generatedFile) {
	f.writeCommented("securitySchemes are the API's ways to authenticate.", func(w *textWriter) {
		schemes := g.sortedSchemes()
		if len(schemes) == 0 {
			w.P("var securitySchemes []", qual(pkgHTTP, "SecurityScheme"))
			return
		}
		w.P("var securitySchemes = []", qual(pkgHTTP, "SecurityScheme"), "{")
		for _, s := range schemes {
			d := []string{"Name: " + litText(s.Name), "Type: " + litText(s.Type)}
			optKV(&d, "Scheme", s.Scheme)
			optKV(&d, "In", s.In)
			optKV(&d, "ParamName", s.ParamName)
			w.P("\t{", strings.Join(d, ", "), "},")
		}
		w.P("}")
	})
	for _, s := range g.sortedSchemes() {
		name := "With" + s.GoName
		cred := func(first, arg string, params []any, call ...any) {
			d := newDoc(first)
			d.spec(s.Doc)
			d.para("Security scheme " + quoted(s.Name) + ".")
			f.write(d, func(w *textWriter) {
				w.P(append(append([]any{"func ", name + arg, "("}, params...), ") Option {")...)
				w.P(append([]any{"\treturn ", qual(pkgHTTP, "WithCredential"), "(", litText(s.Name), ", "}, append(call, ")")...)...)
				w.P("}")
			})
		}
		switch {
		case s.Type == "apiKey":
			cred(name+" sets the API key sent in the "+s.In+" "+quoted(s.ParamName)+".", "", []any{"key string"}, qual(pkgHTTP, "APIKey"), "(key)")
		case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
			cred(name+" sets the user and password of HTTP basic authentication.", "", []any{"user, password string"}, qual(pkgHTTP, "BasicAuth"), "(user, password)")
		case s.Type == "http":
			cred(name+" sets the token sent in the Authorization header ("+sanitize(s.Scheme)+" scheme).", "", []any{"token string"}, qual(pkgHTTP, "BearerToken"), "(token)")
		case s.Type == "oauth2" || s.Type == "openIdConnect":
			cred(name+" sets a fixed access token (sent as a bearer token).", "", []any{"token string"}, qual(pkgHTTP, "BearerToken"), "(token)")
			cred(name+"TokenSource sets a function called before each request for a current access token.", "TokenSource",
				[]any{"f func(", qual("context", "Context"), ") (string, error)"}, qual(pkgHTTP, "TokenSource"), "(f)")
		default:
			g.warn(diag.Other, diag.Pos{File: g.svc.Source, Pointer: "/components/securitySchemes/" + s.Name},
				"security scheme %s of type %s has no generated option; configure it with WithHTTPClient", quoted(s.Name), quoted(s.Type))
		}
	}
}

// optKV appends "key: v" to the elements of a composite literal unless v
// is empty.
func optKV(elems *[]string, key, v string) {
	if v != "" {
		*elems = append(*elems, key+": "+litText(v))
	}
}

// operationsFile declares the parameter structs, methods and response tables.
func (g *gen) operationsFile() *generatedFile {
	f := g.newFile()
	for _, op := range g.ops {
		if op.ParamsName != "" {
			g.paramsStruct(f, op)
		}
		g.httpMethod(f, op)
	}
	return f
}

func (g *gen) paramsStruct(f *generatedFile, op *ir.Operation) {
	var fields []field
	tags := map[string]bool{}
	for _, p := range op.Params {
		d := &doc{}
		d.spec(p.Doc)
		d.para(strings.ToUpper(string(p.In)[:min(1, len(p.In))]) + string(p.In)[min(1, len(p.In)):] + " parameter " + quoted(p.Name) + ".")
		key := p.InputKey()
		if key != p.Name {
			d.para("Registry input member " + quoted(key) + " (another parameter is named " + quoted(p.Name) + ").")
		}
		tag := "-"
		switch {
		case !validTagName(key):
			g.warn(diag.LeftOut, p.Pos, "parameter name %s cannot be written as a Go struct tag; the registry cannot set field %s", quoted(key), p.GoName)
		case tags[key]:
			g.warn(diag.LeftOut, p.Pos, "parameter name %s appears in two locations; the registry cannot set field %s", quoted(key), p.GoName)
		default:
			tags[key] = true
			tag = key
			if !p.Required {
				tag += ",omitempty"
			}
		}
		fields = append(fields, field{doc: d.lines(), name: p.GoName, typ: g.paramType(p, cmp.Or(p.Pos, op.Pos)), tag: tag})
	}
	d := newDoc(op.ParamsName + " holds the parameters of " + op.GoName + ".")
	d.origin(op.Doc)
	g.declareStructType(f, d, op.ParamsName, fields)
}

// paramType: required parameters are values, optional ones pointers (or nil-able).
func (g *gen) paramType(p *ir.Param, at diag.Pos) goType {
	t := g.goType(p.Type, false, at)
	if !p.Required && !nilable(p.Type) {
		return t.ptr()
	}
	return t
}

// resultType is the Data type of an operation's envelope.
func (g *gen) resultType(op *ir.Operation) goType {
	r := op.Result
	switch {
	case r == nil:
		return named("struct{}")
	case r.Kind == ir.BodyText && (r.Type == nil || !r.Type.Named()):
		return named("string")
	case r.Kind == ir.BodyBinary:
		return named("byte").under("[]")
	}
	return g.goType(r.Type, false, op.Pos)
}

// bodyKind returns how op's body is sent: as declared, except a multipart
// body that cannot hold an object (see multipartObject), sent as raw bytes
// (with a warning).
func (g *gen) bodyKind(op *ir.Operation) ir.BodyKind {
	b := op.Body
	if b.Kind == ir.BodyMultipart && (b.Type == nil || b.Type.Kind != ir.Struct && !multipartObject(b.Type)) {
		g.warn(diag.Other, op.Pos, "multipart body of %s is not an object; it is sent as raw bytes", op.ID)
		return ir.BodyBinary
	}
	return b.Kind
}

// multipartObject reports whether a multipart body of type t is sent by
// httpclient.Request.MultipartObject, one part per member of the value's
// JSON object: a named union (whose variants are objects, or the call
// fails naming the body) or a map.
func multipartObject(t *ir.Type) bool {
	return t != nil && (t.Kind == ir.Union && t.Named() || t.Kind == ir.Map)
}

// bodyType returns the type of op's body parameter; ptr says it is a
// pointer to the body's type (an optional body).
func (g *gen) bodyType(op *ir.Operation) (t goType, ptr bool) {
	b := op.Body
	switch g.bodyKind(op) {
	case ir.BodyText:
		t, ptr = named("string"), !b.Required
	case ir.BodyJSON, ir.BodyForm, ir.BodyMultipart, ir.BodyXML:
		t, ptr = g.goType(b.Type, false, op.Pos), !b.Required && !nilable(b.Type)
	default:
		t = qual("io", "Reader")
	}
	if ptr {
		t = t.ptr()
	}
	return t, ptr
}

// bodySet writes the statements that set the request body from the body
// parameter.
func (g *gen) bodySet(w *textWriter, op *ir.Operation, ptr bool) {
	b := op.Body
	arg, indent := "body", "\t"
	if ptr {
		arg = "*body"
	}
	if !b.Required {
		w.b.WriteString("\tif body != nil {\n")
		indent = "\t\t"
	}
	w.b.WriteString(indent)
	switch g.bodyKind(op) {
	case ir.BodyJSON:
		w.b.WriteString("r.JSONBody(" + strconv.Quote(b.MediaType) + ", " + arg + ")")
	case ir.BodyForm:
		if b.Style != "" {
			w.b.WriteString("r.AWSQueryBody(" + arg + ", " + w.typeText(qual(pkgHTTP, styles[b.Style])) + ")")
			break
		}
		w.b.WriteString("r.FormBody(" + arg + ")")
	case ir.BodyXML:
		schema := g.schemaVar(b.Schema, "bodySchema"+op.GoName)
		g.xmlBodies = true
		w.b.WriteString("r.XMLBody(" + strconv.Quote(b.MediaType) + ", " + arg + ", " + cmp.Or(schema, "nil") + ")")
	case ir.BodyText:
		w.b.WriteString("r.TextBody(" + strconv.Quote(b.MediaType) + ", " + arg + ")")
	case ir.BodyMultipart:
		if multipartObject(b.Type) {
			w.b.WriteString("r.MultipartObject(" + arg + ", " + encodingMap(b.Encoding) + ")")
			break
		}
		w.b.WriteString("r.MultipartBody(" + w.typeText(qual(pkgHTTP, "Part").under("[]")) + "{")
		for _, fl := range b.Type.Fields {
			name := strconv.Quote(fl.JSONName)
			part := "Name: " + name
			switch {
			case fl.Type != nil && fl.Type.Kind == ir.Binary:
				part += ", FileName: " + name + ", Reader: body." + fl.Name
			case fl.Type != nil && fl.Type.Kind == ir.Array && fl.Type.Elem != nil && fl.Type.Elem.Kind == ir.Binary:
				// An array of files: one file part per item.
				part += ", FileName: " + name + ", Value: body." + fl.Name
			default:
				part += ", Value: body." + fl.Name
			}
			if ct := b.Encoding[fl.JSONName]; ct != "" {
				part += ", ContentType: " + strconv.Quote(ct)
			}
			w.b.WriteString("\n" + indent + "\t{" + part + "},")
		}
		if len(b.Type.Fields) > 0 {
			w.b.WriteString("\n" + indent)
		}
		w.b.WriteString("})")
	default:
		w.b.WriteString("r.RawBody(" + strconv.Quote(cmp.Or(b.MediaType, "application/octet-stream")) + ", body)")
	}
	w.b.WriteString("\n")
	if !b.Required {
		w.b.WriteString("\t}\n")
	}
}

// encodingMap is a map[string]string literal of a multipart body's
// encoding content types, or nil.
func encodingMap(enc map[string]string) string {
	if len(enc) == 0 {
		return "nil"
	}
	var items []string
	for _, k := range slices.Sorted(maps.Keys(enc)) {
		items = append(items, strconv.Quote(k)+": "+strconv.Quote(enc[k]))
	}
	return "map[string]string{" + strings.Join(items, ", ") + "}"
}

var styles = map[string]string{
	"form": "StyleForm", "simple": "StyleSimple", "label": "StyleLabel", "matrix": "StyleMatrix",
	"spaceDelimited": "StyleSpaceDelimited", "pipeDelimited": "StylePipeDelimited", "deepObject": "StyleDeepObject", "deepObjectComma": "StyleDeepObjectComma",
	"awsQuery": "StyleAWSQuery", "awsEC2": "StyleAWSEC2",
}

func (g *gen) style(w *textWriter, p *ir.Param, def string) string {
	c, ok := styles[cmp.Or(p.Style, def)]
	if !ok {
		g.warn(diag.Other, p.Pos, "parameter %s has unknown style %s; using %s", quoted(p.Name), quoted(p.Style), def)
		c = styles[def]
	}
	return w.typeText(qual(pkgHTTP, c))
}

// paramCall is the statement that adds parameter p to request r ("" for
// none).
func (g *gen) paramCall(w *textWriter, p *ir.Param) string {
	name, v := strconv.Quote(p.Name), "params."+p.GoName
	if p.ContentType != "" {
		return "r.ContentParam(" + strconv.Quote(string(p.In)) + ", " + name + ", " + strconv.Quote(p.ContentType) + ", " + v + ")"
	}
	switch p.In {
	case ir.InPath:
		if p.AllowReserved { // {+x}
			return "r.ReservedPathParam(" + name + ", " + strconv.FormatBool(p.Explode) + ", " + v + ")"
		}
		return "r.PathParam(" + name + ", " + g.style(w, p, "simple") + ", " + strconv.FormatBool(p.Explode) + ", " + v + ")"
	case ir.InQuery:
		return "r.QueryParam(" + name + ", " + g.style(w, p, "form") + ", " + strconv.FormatBool(p.Explode) + ", " + strconv.FormatBool(p.AllowReserved) + ", " + v + ")"
	case ir.InHeader:
		return "r.HeaderParam(" + name + ", " + strconv.FormatBool(p.Explode) + ", " + v + ")"
	case ir.InCookie:
		return "r.CookieParam(" + name + ", " + strconv.FormatBool(p.Explode) + ", " + v + ")"
	}
	g.warn(diag.LeftOut, p.Pos, "parameter %s is in unknown location %s; it is not sent", quoted(p.Name), quoted(string(p.In)))
	return ""
}

// opDoc is the doc comment of an operation's method.
func opDoc(op *ir.Operation, first string) *doc {
	d := newDoc(first)
	d.spec(op.Doc)
	d.origin(op.Doc)
	return d
}

// httpMethod declares the method of op and its table of responses, as text.
//
// Nothing in it is compiled once per result type: the method calls the
// non-generic (*httpclient.Client).Call with a pointer to its envelope's
// Data (httpclient.Do[T] would instantiate Do, its remote path and the
// pipeline's ProcessAs for every T, hundreds of compiled functions in a
// large API), the pages method ranges with EachPage, and the response
// table names error types by typed nil pointers (static data) instead of
// a generic constructor per type.
func (g *gen) httpMethod(f *generatedFile, op *ir.Operation) {
	w := newTextWriter(f)
	defer w.done()
	params := []string{"ctx " + w.typeText(qual("context", "Context"))}
	if op.ParamsName != "" {
		params = append(params, "params "+op.ParamsName)
	}
	stmts := newTextWriter(f) // the statements
	defer stmts.done()
	stmts.b.WriteString("\tr := c.c.NewRequest(" + strconv.Quote(op.ID) + ", " + strconv.Quote(strings.ToUpper(op.Method)) + ", " + strconv.Quote(op.Path))
	for _, t := range op.Tags {
		stmts.b.WriteString(", " + strconv.Quote(t))
	}
	stmts.b.WriteString(")\n")
	for _, p := range op.Params {
		if call := g.paramCall(w, p); call != "" {
			stmts.b.WriteString("\t" + call + "\n")
		}
	}
	if op.Body != nil && op.Body.Kind != ir.BodyNone {
		typ, ptr := g.bodyType(op)
		params = append(params, "body "+w.typeText(typ))
		g.bodySet(stmts, op, ptr)
	}
	if id := g.remoteIDs()[op]; id != "" {
		args := []string{strconv.Quote(id), "nil", "nil"}
		if op.ParamsName != "" {
			args[1] = "params"
		}
		if op.Body != nil && op.Body.Kind != ir.BodyNone {
			args[2] = "body"
		}
		// Guarded: boxing params into an interface costs an allocation
		// that HTTP calls need not pay.
		stmts.b.WriteString("\tif c.c.HasRemote() {\n\t\tr.Remote(" + strings.Join(args, ", ") + ")\n\t}\n")
	}
	params = append(params, "opts ...CallOption")
	sec := op.Security
	if sec == nil {
		sec = g.svc.Security
	}
	if len(sec) > 0 {
		alts := make([]string, len(sec))
		for i, a := range sec {
			alts[i] = "{" + strings.Join(quotedAll(a), ", ") + "}"
		}
		stmts.b.WriteString("\tr.Security([][]string{" + strings.Join(alts, ", ") + "})\n")
	}
	if accept := acceptOf(op); accept != "" {
		stmts.b.WriteString("\tr.Accept(" + strconv.Quote(accept) + ")\n")
	}
	T := w.typeText(g.resultType(op))
	env := w.typeText(qual(pkgRuntime, "ResponseEnvelope")) + "[" + T + "]"
	respVar := "responses" + op.GoName
	results, first := "("+env+", error)", op.GoName+" calls the operation "+quoted(op.ID)+"."
	if op.Stream {
		results = w.typeText(qual("iter", "Seq2")) + "[" + env + ", error]"
		first = op.GoName + " calls the operation " + quoted(op.ID) + " and returns its stream of " + streamItems[op.Result.Kind] + "; a failed request is the first and only element."
	}
	w.doc(opDoc(op, first).lines())
	w.b.WriteString("func (c *Client) " + op.GoName + "(" + strings.Join(params, ", ") + ") " + results + " {\n")
	paging := g.paging(op)
	// call returns the envelope of the call of request r.
	call := func(r string) string {
		if op.Stream {
			return "\treturn " + w.typeText(qual(pkgHTTP, "Stream")) + "[" + T + "](ctx, c.c, " + r + ", " + respVar + ", opts...)\n}\n\n"
		}
		return "\tvar env " + env + "\n\tmeta, warnings, err := c.c.Call(ctx, " + r + ", " + respVar + ", &env.Data, opts...)\n" +
			"\tenv.Meta, env.Warnings = meta, warnings\n\treturn env, err\n}\n\n"
	}
	if paging == "" {
		w.b.WriteString(stmts.b.String())
		w.b.WriteString(call("r"))
	} else {
		// The request is built by a helper shared with the pages method.
		helper := lowerFirst(op.GoName) + "Request"
		hParams, args := params[1:len(params)-1], []string{}
		for _, p := range hParams {
			name, _, _ := strings.Cut(p, " ")
			args = append(args, name)
		}
		req := "c." + helper + "(" + strings.Join(args, ", ") + ")"
		w.b.WriteString(call(req))
		pd := newDoc(op.GoName + "Pages calls the operation " + quoted(op.ID) + " page after page (" + pagingDoc[paging != "{Link: true}"] + "), yielding each page's envelope; an error is the last element." + itemsDoc[strings.HasPrefix(T, "[]")])
		pd.origin(op.Doc)
		w.doc(pd.lines())
		w.b.WriteString("func (c *Client) " + op.GoName + "Pages(" + strings.Join(params, ", ") + ") " + w.typeText(qual("iter", "Seq2")) + "[" + env + ", error] {\n")
		w.b.WriteString("\tr := " + req + "\n\treturn func(yield func(" + env + ", error) bool) {\n\t\tvar env " + env + "\n" +
			"\t\tc.c.EachPage(ctx, r, " + respVar + ", " + w.typeText(qual(pkgHTTP, "Paging")) + paging + ", &env.Data, func(meta " + w.typeText(qual(pkgRuntime, "Meta")) + ", warnings []" + w.typeText(qual(pkgRuntime, "Warning")) + ", err error) bool {\n" +
			"\t\t\tenv.Meta, env.Warnings = meta, warnings\n\t\t\treturn yield(env, err)\n\t\t}, opts...)\n\t}\n}\n\n")
		w.doc([]string{helper + " builds the request of " + op.GoName + " and " + op.GoName + "Pages."})
		w.b.WriteString("func (c *Client) " + helper + "(" + strings.Join(hParams, ", ") + ") *" + w.typeText(qual(pkgHTTP, "Request")) + " {\n")
		w.b.WriteString(stmts.b.String())
		w.b.WriteString("\treturn r\n}\n\n")
	}

	w.b.WriteString("var " + respVar + " = " + w.typeText(qual(pkgHTTP, "Response").under("[]")) + "{")
	for _, r := range op.Responses {
		w.b.WriteString("\n\t{Status: " + strconv.Quote(r.Status) + ", Kind: " + w.typeText(qual(pkgHTTP, cmp.Or(bodyKindNames[r.Kind], "BodyBinary"))))
		if r.Schema != nil && (typedKind(r.Kind) || r.Kind == ir.BodyEventStream || r.Kind == ir.BodyJSONSeq) {
			if v := g.schemaVar(r.Schema, "respSchema"+op.GoName+statusName(r.Status)); v != "" {
				w.b.WriteString(", Schema: " + v)
			}
		}
		if r.ErrorName != "" {
			name := r.ErrorName
			if r.Shared != nil {
				name = w.typeText(g.typeRef(name)) // the root's, in an operation package
			}
			w.b.WriteString(", Error: (*" + name + ")(nil)")
		} else if typedKind(r.Kind) && r.Type != nil && !strings.HasPrefix(r.Status, "2") {
			w.b.WriteString(", Error: (*" + w.typeText(g.goType(r.Type, false, op.Pos)) + ")(nil)")
		}
		w.b.WriteString("},")
	}
	if len(op.Responses) > 0 {
		w.b.WriteString("\n")
	}
	w.b.WriteString("}\n")
	g.errorTypes(w, op)
	f.text(w.b.String())
}

// itemsDoc points pages methods whose pages are slices to httpclient.Items.
var itemsDoc = map[bool]string{true: " httpclient.Items ranges over the items of the pages."}

// pagingDoc says how pages follow each other, by whether the pagination is
// declared in the config (true) or the Link header's (false).
var pagingDoc = map[bool]string{
	false: `following the Link header's rel="next" URL`,
	true:  "as opsgen's config declares",
}

// paging returns the value of op's httpclient.Paging literal ("{Link:
// true}"), or ""
// when op has none: declared in the config, or detected (a GET whose
// result declares a Link header, as GitHub's list operations do).
func (g *gen) paging(op *ir.Operation) string {
	if op.Stream {
		return ""
	}
	o, declared := g.opts.Operations[op.ID]
	p := o.Paging
	switch {
	case declared && p != nil && p.Disabled:
		return ""
	case declared && p != nil:
	case strings.EqualFold(op.Method, "GET") && op.Result != nil && slices.ContainsFunc(op.Result.Headers, func(h string) bool { return strings.EqualFold(h, "Link") }):
		p = &Paging{Link: true}
	default:
		return ""
	}
	var fields []string
	add := func(k, v string) {
		if v != "" {
			fields = append(fields, k+": "+strconv.Quote(v))
		}
	}
	if p.Link {
		fields = append(fields, "Link: true")
	}
	add("Cursor", p.Cursor)
	add("Next", p.Next)
	add("Page", p.Page)
	add("Items", p.Items)
	return "{" + strings.Join(fields, ", ") + "}"
}

// lowerFirst lower-cases the first letter of an identifier.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[n:]
}

// statusName turns a response status ("200", "2XX", "default") into part of a Go name.
func statusName(s string) string {
	if s == "default" {
		return "Default"
	}
	return strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, s)
}

// streamItems name the items of a stream, by its kind.
var streamItems = map[ir.BodyKind]string{ir.BodyEventStream: "events", ir.BodyJSONSeq: "items (a JSON value each)"}

// bodyKindNames are the httpclient constants of body kinds; the others
// are BodyBinary.
var bodyKindNames = map[ir.BodyKind]string{ir.BodyNone: "BodyNone", ir.BodyJSON: "BodyJSON", ir.BodyText: "BodyText", ir.BodyEventStream: "BodyEventStream", ir.BodyJSONSeq: "BodyJSONSeq", ir.BodyXML: "BodyXML"}

// typedKind reports whether a body of kind k is decoded into its declared
// type: JSON, and XML read as the JSON value its schema describes.
func typedKind(k ir.BodyKind) bool { return k == ir.BodyJSON || k == ir.BodyXML }

// acceptOf returns the Accept header of op: the media types of its
// responses, the result's first, then those of the other responses (error
// bodies included, so that a server negotiating on Accept can send them)
// in the order declared.
func acceptOf(op *ir.Operation) string {
	var types []string
	add := func(r *ir.Response) {
		if r != nil && r.MediaType != "" && !slices.Contains(types, r.MediaType) {
			types = append(types, r.MediaType)
		}
	}
	add(op.Result)
	for _, r := range op.Responses {
		add(r)
	}
	return strings.Join(types, ", ")
}
