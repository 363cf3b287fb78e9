package openapi

import (
	"cmp"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/naming"
)

// opSite is an operation found in the document, before conversion.
type opSite struct {
	path, method string
	// sent is the template the client fills (see planPath); fixes change
	// path parameters as the template's expressions say.
	sent  string
	fixes map[string]paramFix
	item  *openapi3.PathItem
	op    *openapi3.Operation
	w     where
}

// operations converts every operation the filter keeps.
func (l *loader) operations() []*ir.Operation {
	var sites []opSite
	paths := l.doc.Paths.Map()
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		item := paths[p]
		if item == nil {
			continue
		}
		ops := item.Operations()
		for _, m := range slices.Sorted(maps.Keys(ops)) { // Operations has no nil ones
			op := ops[m]
			method, ptr := strings.ToUpper(m), "/paths/"+jsonptr.Escape(p)+"/"+strings.ToLower(m)
			if item.AdditionalOperations[m] == op && !slices.Contains(openapi3.PathItemMethods(), m) {
				// OpenAPI 3.2: sent as written, case included.
				method, ptr = m, "/paths/"+jsonptr.Escape(p)+"/additionalOperations/"+jsonptr.Escape(m)
			}
			if l.keep(p, method, op) {
				w := where{file: l.name, ptr: ptr}
				pathParams, queryParams := declaredParams(item, op)
				plan, err := planPath(p, pathParams, queryParams)
				if err != nil {
					l.diags.Warn(diag.LeftOut, l.pos(w, op.Origin), "operation %s %s is left out: %v", method, p, err)
					continue
				}
				sites = append(sites, opSite{path: p, sent: plan.path, fixes: plan.fixes, method: method, item: item, op: op, w: w})
			}
		}
	}

	// Ids and Go names are decided before anything else, so the names of
	// inline types can derive from them. Sites are sorted by path and method.
	ids := map[string]int{}
	goNames := naming.NewNamespace(ir.ReservedMethods...)
	out := make([]*ir.Operation, len(sites))
	for i, s := range sites {
		oid, id := s.op.OperationID, s.op.OperationID
		if id == "" {
			id = naming.Ident(s.method+" "+s.path, "Op")
		}
		// The Go name: Options.Names, x-go-name, the operationId, the
		// method and path.
		want := goNameExt(s.op.Extensions)
		if oid != "" {
			want = cmp.Or(l.opts.Names[oid], want)
			if want == "" {
				want = naming.Ident(oid, "")
			}
		}
		want = cmp.Or(want, id)
		if ids[id]++; ids[id] > 1 {
			renamed := fmt.Sprintf("%s_%d", id, ids[id])
			l.diags.Warn(diag.Renamed, l.pos(s.w, s.op.Origin), "operationId %q is used more than once; using %q", id, renamed)
			id = renamed
		}
		out[i] = &ir.Operation{
			Kind:   ir.HTTPCall,
			ID:     id,
			GoName: goNames.Alloc(naming.Sanitize(want, "Op")),
			Method: s.method,
			Path:   s.sent,
			Tags:   s.op.Tags,
			Pos:    l.pos(s.w, s.op.Origin),
			Doc: ir.Doc{
				Summary:     s.op.Summary,
				Description: s.op.Description,
				Deprecated:  s.op.Deprecated,
				Origin:      s.method + " " + s.path,
			},
		}
	}
	for i, s := range sites {
		if l.ctx.Err() != nil {
			break // fromDocument returns the context's error
		}
		l.operation(out[i], s)
	}
	// Operations with a required parameter no style can serialize (see
	// notSerializable) are left out, with their diagnostic.
	out = slices.DeleteFunc(out, func(op *ir.Operation) bool { return l.leftOut[op] })
	slices.SortFunc(out, func(a, b *ir.Operation) int { return strings.Compare(a.GoName, b.GoName) })
	return out
}

// keep applies the filter.
func (l *loader) keep(path, method string, op *openapi3.Operation) bool {
	f := l.opts.Filter
	id := op.OperationID
	if len(f.IncludeOperations) > 0 && !slices.Contains(f.IncludeOperations, id) {
		return false
	}
	if slices.Contains(f.ExcludeOperations, id) && id != "" {
		return false
	}
	anyIn := func(tags []string) bool {
		return slices.ContainsFunc(op.Tags, func(t string) bool { return slices.Contains(tags, t) })
	}
	if len(f.IncludeTags) > 0 && !anyIn(f.IncludeTags) || anyIn(f.ExcludeTags) {
		return false
	}
	if len(f.IncludePaths) > 0 && !ir.MatchPattern(f.IncludePaths, path) {
		return false
	}
	return !ir.MatchPattern(f.ExcludePaths, path)
}

// operation fills op: params, body, responses, security, schemas.
func (l *loader) operation(op *ir.Operation, s opSite) {
	l.params(op, s)
	if s.op.RequestBody != nil && s.op.RequestBody.Value != nil {
		op.Body = l.body(op, s.op.RequestBody.Value, s.w.at("requestBody", op.GoName+"Body"))
		l.awsQueryBody(op)
	}
	l.responses(op, s)
	if s.op.Security != nil {
		op.Security = requirements(*s.op.Security)
	}
	l.finish = append(l.finish, func() { l.operationSchemas(op, s) })
}

var pathParamRE = regexp.MustCompile(`\{([^}]+)\}`)

// params merges path-level and operation-level parameters and sorts them:
// path parameters in template order, then query, header and cookie by name.
func (l *loader) params(op *ir.Operation, s opSite) {
	type key struct{ in, name string }
	merged := map[key]*ir.Param{}
	var order []key
	add := func(refs openapi3.Parameters, base where) {
		for i, pr := range refs {
			if pr == nil || pr.Value == nil {
				continue
			}
			p := pr.Value
			pw := base.at("parameters", "").at(strconv.Itoa(i), op.GoName+cmp.Or(naming.Suffix(p.Name), "Param"))
			// OpenAPI 3: "If in is header and the name field is Accept,
			// Content-Type or Authorization, the parameter definition SHALL
			// be ignored" (the media types and the security schemes say those).
			if p.In == openapi3.ParameterInHeader && slices.ContainsFunc([]string{"Accept", "Content-Type", "Authorization"},
				func(h string) bool { return strings.EqualFold(p.Name, h) }) {
				l.diags.Warn(diag.LeftOut, l.pos(pw, p.Origin), "header parameter %q is ignored (OpenAPI: the media types and security schemes set this header)", p.Name)
				continue
			}
			k := key{p.In, p.Name}
			if _, ok := merged[k]; !ok {
				order = append(order, k)
			}
			merged[k] = l.param(p, pw)
		}
	}
	add(s.item.Parameters, where{file: s.w.file, ptr: s.w.ptr[:strings.LastIndex(s.w.ptr, "/")]})
	add(s.op.Parameters, s.w)
	// The path template's expressions decide how some path parameters are
	// sent (see planPath).
	for _, k := range order {
		p := merged[k]
		fix, ok := s.fixes[p.Name]
		if !ok || p.In != ir.InPath {
			continue
		}
		p.Name, p.Style, p.Explode = fix.name, fix.style, fix.explode
		p.AllowReserved = p.AllowReserved || fix.reserved
		if fix.query {
			p.In = ir.InQuery
			if _, dup := merged[key{string(ir.InQuery), fix.name}]; dup {
				delete(merged, k) // the declared query parameter sends it
			}
		}
	}

	// APIs.guru's AWS query-protocol services (an Action and a Version
	// query parameter) take lists and structures as the protocol does.
	_, action := merged[key{"query", "Action"}]
	_, version := merged[key{"query", "Version"}]
	awsStyle := l.awsQueryStyle(action && version)
	for _, k := range order {
		p, ok := merged[k]
		if !ok || p.ContentType != "" {
			continue
		}
		if awsStyle != "" && p.In == ir.InQuery && !primitive(p.Type) {
			p.Style = awsStyle
			continue
		}
		if why := notSerializable(p); why != "" {
			if p.Required {
				l.diags.Warn(diag.LeftOut, op.Pos, "operation %s is left out: its required %s parameter %q is %s, which style %s cannot serialize", op.ID, p.In, p.Name, why, p.Style)
				if l.leftOut == nil {
					l.leftOut = map[*ir.Operation]bool{}
				}
				l.leftOut[op] = true
			} else {
				l.diags.Warn(diag.LeftOut, p.Pos, "%s parameter %q is left out: it is %s, which style %s cannot serialize", p.In, p.Name, why, p.Style)
			}
			delete(merged, k)
		}
	}

	if commaDeepArrays(l.doc) {
		for _, k := range order {
			if p, ok := merged[k]; ok && p.In == ir.InQuery && p.Style == "deepObject" {
				p.Style = "deepObjectComma"
			}
		}
	}

	tmpl := map[string]int{}
	for i, m := range pathParamRE.FindAllStringSubmatch(s.sent, -1) {
		tmpl[m[1]] = i
	}
	rank := map[ir.ParamIn]int{ir.InPath: 0, ir.InQuery: 1, ir.InHeader: 2, ir.InCookie: 3}
	var params []*ir.Param
	for _, k := range order {
		p, ok := merged[k]
		if !ok {
			continue
		}
		if p.In == "querystring" {
			l.diags.Warn(diag.LeftOut, p.Pos, "%s", querystringParam(p.Name))
			continue
		}
		if _, ok := rank[p.In]; !ok {
			l.diags.Warn(diag.LeftOut, p.Pos, "parameter %q has unknown location %q; it is left out", p.Name, p.In)
			continue
		}
		params = append(params, p)
	}
	slices.SortStableFunc(params, func(a, b *ir.Param) int {
		if a.In == ir.InPath && b.In == ir.InPath {
			return cmp.Compare(tmpl[a.Name], tmpl[b.Name])
		}
		return cmp.Or(cmp.Compare(rank[a.In], rank[b.In]), strings.Compare(a.Name, b.Name))
	})
	ns := naming.NewNamespace()
	for _, p := range params {
		if p.GoName != "" { // x-go-name
			p.GoName = naming.Sanitize(p.GoName, "Param")
			ns.Reserve(p.GoName)
		}
	}
	for _, p := range params {
		if p.GoName == "" {
			p.GoName = ns.Alloc(naming.Ident(p.Name, "Param"))
		}
	}
	inputKeys(params)
	op.Params = params
	if len(params) > 0 {
		l.requestName(s.w.at("parameters", ""), op.GoName+"Params", func(n string) { op.ParamsName = n })
	}
}

// commaDeepArrays reports whether the document is PandaScore's (APIs.guru's
// x-providerName, or a server under pandascore.co), whose deepObject
// parameters take an array member as one comma-separated value, as its
// description documents ("filter[name]=Brand,Twitch", "range[hp]=500,1000";
// OpenAPI leaves arrays in deepObject undefined).
func commaDeepArrays(doc *openapi3.T) bool {
	if doc.Info != nil && doc.Info.Extensions["x-providerName"] == "pandascore.co" {
		return true
	}
	for _, s := range doc.Servers {
		if u, err := url.Parse(s.URL); err == nil && (u.Hostname() == "pandascore.co" || strings.HasSuffix(u.Hostname(), ".pandascore.co")) {
			return true
		}
	}
	return false
}

// inputKeys sets each parameter's registry input key. Parameters are
// identified by name and location, so two may share a name (Trello's
// /tokens/{token} with a "token" query parameter): the first of params
// (sorted path, query, header, cookie) keeps the name, the others are
// "in.name", numbered when a declared name is already that.
func inputKeys(params []*ir.Param) {
	taken := map[string]bool{}
	for _, p := range params {
		taken[p.Name] = true
	}
	kept := map[string]bool{}
	for _, p := range params {
		if !kept[p.Name] {
			kept[p.Name] = true
			p.Key = p.Name
			continue
		}
		k := string(p.In) + "." + p.Name
		for i := 2; taken[k]; i++ {
			k = string(p.In) + "." + p.Name + strconv.Itoa(i)
		}
		taken[k] = true
		p.Key = k
	}
}

// param converts one parameter.
func (l *loader) param(p *openapi3.Parameter, w where) *ir.Param {
	out := &ir.Param{
		Name:          p.Name,
		In:            ir.ParamIn(p.In),
		Style:         p.Style,
		AllowReserved: p.AllowReserved,
		Required:      p.Required || p.In == openapi3.ParameterInPath,
		Doc:           ir.Doc{Description: p.Description, Deprecated: p.Deprecated},
		Pos:           l.pos(w, p.Origin),
		GoName:        goNameExt(p.Extensions),
	}
	if out.Style == "" {
		out.Style = openapi3.SerializationForm
		if p.In == openapi3.ParameterInPath || p.In == openapi3.ParameterInHeader {
			out.Style = openapi3.SerializationSimple
		}
	}
	out.Explode = out.Style == openapi3.SerializationForm
	if p.Explode != nil {
		out.Explode = *p.Explode
	}
	switch {
	case p.Schema != nil:
		out.Type = l.schema(p.Schema, w.at("schema", w.name))
	case len(p.Content) > 0:
		mt := pickMedia(p.Content)
		out.ContentType = mt
		out.Type = l.schema(p.Content[mt].Schema, w.at("content", "").at(mt, w.name).at("schema", w.name))
	default:
		l.diags.Warn(diag.Other, out.Pos, "parameter %q has neither schema nor content; using string", p.Name)
		out.Type = &ir.Type{Kind: ir.String}
	}
	return out
}

// mediaRank orders media types by preference: JSON, event streams, JSON
// sequences, forms, multipart, text, XML, then anything else.
func mediaRank(mt string) int {
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		base = strings.ToLower(strings.TrimSpace(mt))
	}
	switch {
	case base == "application/json":
		return 0
	case strings.HasSuffix(base, "+json") || strings.HasSuffix(base, "/json"):
		return 1
	case base == "text/event-stream":
		return 2
	case jsonSequences[base]:
		return 3
	case base == "application/x-www-form-urlencoded":
		return 4
	case base == "multipart/form-data":
		return 5
	case strings.HasPrefix(base, "multipart/"):
		return 6
	case isXML(base): // before text/: text/xml is XML
		return 8
	case strings.HasPrefix(base, "text/"):
		return 7
	}
	return 9
}

// wildcardMedia reports a media range that names no one media type:
// "*/*" or "application/*".
func wildcardMedia(mt string) bool {
	base, _, err := mime.ParseMediaType(mt)
	return err == nil && (base == "*/*" || base == "application/*")
}

// isXML reports an XML media type (lower case, without parameters).
func isXML(base string) bool {
	return base == "application/xml" || base == "text/xml" || strings.HasSuffix(base, "+xml")
}

// jsonSequences are the media types of streams of JSON values that
// httpclient.Stream reads item by item (OpenAPI 3.2's sequential media
// types but multipart/mixed).
var jsonSequences = map[string]bool{"application/jsonl": true, "application/x-ndjson": true,
	"application/x-jsonlines": true, "application/json-seq": true}

// mediaKinds are the body kinds of the media types, by mediaRank.
var mediaKinds = [...]ir.BodyKind{ir.BodyJSON, ir.BodyJSON, ir.BodyEventStream, ir.BodyJSONSeq, ir.BodyForm,
	ir.BodyMultipart, ir.BodyMultipart, ir.BodyText, ir.BodyXML, ir.BodyBinary}

// structured reports whether an XML body of type t is typed (BodyXML):
// an object, map, array or union, which XML elements describe.
func structured(t *ir.Type) bool {
	switch t.Kind {
	case ir.Struct, ir.Map, ir.Array, ir.Union, ir.Tuple:
		return true
	}
	return false
}

// pickMedia chooses the preferred media type of content (ties by name).
func pickMedia(content openapi3.Content) string {
	best, bestRank := "", 1<<30
	for _, mt := range slices.Sorted(maps.Keys(content)) {
		if r := mediaRank(mt); r < bestRank {
			best, bestRank = mt, r
		}
	}
	return best
}

// mediaType converts the chosen media type's schema. For a stream (an
// event stream, a JSON sequence) the schema and type are those of one
// item: see streamItem.
func (l *loader) mediaType(content openapi3.Content, w where) (string, ir.BodyKind, *openapi3.SchemaRef, *ir.Type) {
	return l.mediaTypeOf(content, pickMedia(content), w)
}

// mediaTypeOf is mediaType for the media type mt of content.
func (l *loader) mediaTypeOf(content openapi3.Content, mt string, w where) (string, ir.BodyKind, *openapi3.SchemaRef, *ir.Type) {
	kind := mediaKinds[mediaRank(mt)]
	m := content[mt]
	mw := w.at("content", "").at(mt, w.name)
	l.unread32(mt, kind, m, mw)
	var ref *openapi3.SchemaRef
	text := false
	if m != nil {
		ref, mw = m.Schema, mw.at("schema", w.name)
		if kind == ir.BodyEventStream || kind == ir.BodyJSONSeq {
			ref, mw, text = l.streamItem(kind, m, mw)
		}
	}
	var t *ir.Type
	if ref != nil {
		t = l.schema(ref, mw)
	}
	if kind == ir.BodyBinary && wildcardMedia(mt) && t != nil && structured(t) {
		// Any media type, and a schema of an object, array or union
		// (telnyx's "*/*" report request): JSON, the one encoding such a
		// schema describes without more (see body for the Content-Type).
		kind = ir.BodyJSON
	}
	if kind == ir.BodyXML && (t == nil || !structured(t)) {
		// A scalar (or no) schema: the document as text or bytes.
		kind = ir.BodyBinary
		if strings.HasPrefix(strings.ToLower(mt), "text/") {
			kind = ir.BodyText
		}
	}
	switch {
	case text:
		return mt, kind, nil, &ir.Type{Kind: ir.String}
	case t != nil:
		return mt, kind, ref, t
	case kind == ir.BodyText:
		return mt, kind, ref, &ir.Type{Kind: ir.String}
	case kind == ir.BodyBinary:
		return mt, kind, ref, &ir.Type{Kind: ir.Binary}
	}
	return mt, kind, ref, &ir.Type{Kind: ir.Any}
}

// body converts a request body.
func (l *loader) body(op *ir.Operation, rb *openapi3.RequestBody, w where) *ir.Body {
	if len(rb.Content) == 0 {
		l.diags.Warn(diag.LeftOut, l.pos(w, rb.Origin), "request body of %s has no content; it is left out", op.ID)
		return nil
	}
	var mt string
	var kind ir.BodyKind
	var ref *openapi3.SchemaRef
	var t *ir.Type
	if seq := pickMedia(rb.Content); mediaKinds[mediaRank(seq)] == ir.BodyJSONSeq {
		// A JSON sequence sent is its bytes (an io.Reader): a media type
		// the body also offers that is not bytes is preferred.
		others := openapi3.Content{}
		for k, m := range rb.Content {
			if r := mediaRank(k); mediaKinds[r] != ir.BodyJSONSeq && mediaKinds[r] != ir.BodyBinary {
				others[k] = m
			}
		}
		if len(others) == 0 {
			mt, kind, t = seq, ir.BodyBinary, &ir.Type{Kind: ir.Binary}
		} else {
			mt, kind, ref, t = l.mediaTypeOf(rb.Content, pickMedia(others), w)
		}
	} else {
		mt, kind, ref, t = l.mediaTypeOf(rb.Content, seq, w)
	}
	if kind == ir.BodyJSON && wildcardMedia(mt) {
		mt = "application/json" // a request's Content-Type is one media type
	}
	b := &ir.Body{MediaType: mt, Kind: kind, Type: t, Required: rb.Required, Doc: ir.Doc{Description: rb.Description}}
	if ref != nil && ref.Ref == "" && l.conv.Declared(t) {
		l.finish = append(l.finish, func() { b.Name = t.Name })
	}
	if m := rb.Content[mt]; kind == ir.BodyMultipart && m != nil { // a null media type has no encoding
		for name, enc := range m.Encoding {
			if enc != nil && enc.ContentType != "" {
				if b.Encoding == nil {
					b.Encoding = map[string]string{}
				}
				b.Encoding[name] = enc.ContentType
			}
		}
	}
	l.bodyRefs[b] = ref
	return b
}

// awsQueryStyle returns the AWS query protocol's style ("awsQuery", or
// "awsEC2" for EC2) when the document is one of APIs.guru's amazonaws.com
// descriptions and actionVersion says the operation has the Action and
// Version query parameters of the query protocols; "" otherwise.
func (l *loader) awsQueryStyle(actionVersion bool) string {
	if !actionVersion || !awsDocument(l.doc) {
		return ""
	}
	if l.doc.Info.Extensions["x-serviceName"] == "ec2" {
		return "awsEC2"
	}
	return "awsQuery"
}

// awsQueryBody makes the XML request body of an AWS query-protocol
// operation (APIs.guru's aws2openapi declares the POST body of STS, SNS,
// IAM... as text/xml) a form body flattened as the protocol does: the
// services read a POST's parameters from an
// application/x-www-form-urlencoded body (Name.member.N=...), and refuse
// XML. Action and Version stay in the query, where the description
// declares them and where the services read them too.
func (l *loader) awsQueryBody(op *ir.Operation) {
	b := op.Body
	if b == nil || b.Kind != ir.BodyXML {
		return
	}
	var action, version bool
	for _, p := range op.Params {
		action = action || p.In == ir.InQuery && p.Name == "Action"
		version = version || p.In == ir.InQuery && p.Name == "Version"
	}
	style := l.awsQueryStyle(action && version)
	if style == "" || b.Type == nil || b.Type.Kind != ir.Struct && b.Type.Kind != ir.Map {
		return
	}
	b.Kind, b.MediaType, b.Style = ir.BodyForm, "application/x-www-form-urlencoded", style
}

// statusRank orders statuses: exact codes ascending, then ranges, then default.
func statusRank(s string) (int, int) {
	if n, err := strconv.Atoi(s); err == nil {
		return 0, n
	}
	if len(s) == 3 && strings.EqualFold(s[1:], "XX") && s[0] >= '1' && s[0] <= '5' {
		return 1, int(s[0] - '0')
	}
	return 2, 0
}

// responses converts the declared responses and picks the result.
func (l *loader) responses(op *ir.Operation, s opSite) {
	if s.op.Responses == nil {
		return
	}
	rs := s.op.Responses.Map()
	statuses := slices.Sorted(maps.Keys(rs))
	slices.SortStableFunc(statuses, func(a, b string) int {
		ga, na := statusRank(a)
		gb, nb := statusRank(b)
		return cmp.Or(cmp.Compare(ga, gb), cmp.Compare(na, nb))
	})
	// The result is the lowest 2xx (then 2XX) response with a body; it is
	// named OpResponse, the others OpResponse<Status>.
	resultStatus := ""
	for _, st := range statuses {
		if isSuccess(st) && rs[st] != nil && rs[st].Value != nil && len(rs[st].Value.Content) > 0 {
			resultStatus = st
			break
		}
	}
	rw := s.w.at("responses", "")
	var successes []*ir.Response
	for _, st := range statuses {
		rr := rs[st]
		if rr == nil || rr.Value == nil {
			continue
		}
		status, suffix := strings.ToUpper(st), strings.ToUpper(st) // 404, 2XX
		if g, _ := statusRank(st); g == 2 {
			if st != "default" {
				l.diags.Warn(diag.LeftOut, l.pos(rw.at(st, ""), rr.Value.Origin), "unknown response status %q; it is left out", st)
				continue
			}
			status, suffix = "default", "Default"
		}
		name := op.GoName + "Response"
		if st != resultStatus {
			name += suffix
		}
		w := rw.at(st, name)
		isError := !isSuccess(st) && st != "304"
		if se := l.sharedError(rr); isError && se != nil {
			// A component response's error type is shared (errortypes.go).
			op.Responses = append(op.Responses, se.use(status))
			continue
		}
		r := l.response(rr.Value, status, w)
		if isError {
			l.requestName(w, op.GoName+errorSuffix(r.Status), func(n string) { r.ErrorName = n })
		}
		op.Responses = append(op.Responses, r)
		if st == resultStatus {
			op.Result = r
		}
		if isSuccess(st) && r.Type != nil {
			successes = append(successes, r)
		}
	}
	if op.Result == nil {
		return
	}
	if slices.ContainsFunc(successes, func(r *ir.Response) bool {
		return r.Type != op.Result.Type && !sameShape(r.Type, op.Result.Type)
	}) {
		l.diags.Warn(diag.RawJSON, op.Pos, "success responses of %s have different body types; the result is raw JSON", op.ID)
		res := *op.Result
		// No schema: the pipeline skips normalization and validation.
		res.Type, res.Kind, res.Schema = &ir.Type{Kind: ir.Any}, ir.BodyJSON, nil
		op.Result = &res
	}
	op.Stream = op.Result.Kind == ir.BodyEventStream || op.Result.Kind == ir.BodyJSONSeq
}

// response converts the response v declared for status at w.
func (l *loader) response(v *openapi3.Response, status string, w where) *ir.Response {
	r := &ir.Response{Status: status}
	if v.Description != nil {
		r.Doc.Description = *v.Description
	}
	r.Headers = slices.Sorted(maps.Keys(v.Headers))
	if len(v.Content) > 0 {
		mt, kind, ref, t := l.mediaType(v.Content, w)
		r.MediaType, r.Kind, r.Type = mt, kind, t
		if ref != nil {
			l.finish = append(l.finish, func() { r.Schema = l.jsonSchema(ref) })
		}
	}
	return r
}

func isSuccess(status string) bool {
	return len(status) == 3 && status[0] == '2'
}

// sameShape reports whether two anonymous types are the same simple type.
func sameShape(a, b *ir.Type) bool {
	if a.Named() || b.Named() {
		return false
	}
	if a.Kind != b.Kind || a.Format != b.Format {
		return false
	}
	switch a.Kind {
	case ir.Array, ir.Map:
		return a.Elem == b.Elem || sameShape(a.Elem, b.Elem)
	case ir.Any, ir.Bool, ir.Int, ir.Float, ir.String, ir.DateTime, ir.Date, ir.Bytes, ir.Binary, ir.Null:
		return true
	}
	return false
}

func requirements(reqs openapi3.SecurityRequirements) [][]string {
	out := [][]string{}
	for _, r := range reqs {
		out = append(out, slices.Sorted(maps.Keys(r)))
	}
	return out
}

// operationSchemas sets InputSchema and OutputSchema once all names are known.
func (l *loader) operationSchemas(op *ir.Operation, s opSite) {
	if op.Result != nil {
		op.OutputSchema = op.Result.Schema
	}
	// object is an object schema with props, of which required are required.
	object := func(props ir.Properties, required []string) *ir.Schema {
		o := []ir.Member{{Key: "properties", Value: props}, {Key: "type", Value: "object"}}
		if len(required) > 0 {
			o = append(o, ir.Member{Key: "required", Value: required})
		}
		return ir.NewSchema(o...)
	}
	var props ir.Properties // "body" before "params"
	var required []string
	if op.Body != nil {
		props = append(props, ir.Property{Key: "body", Schema: l.inputJSONSchema(l.bodyRefs[op.Body])})
		if op.Body.Kind == ir.BodyXML {
			op.Body.Schema = l.xmlRoot(props[len(props)-1].Schema, l.bodyRefs[op.Body], s.op.OperationID)
		}
		if op.Body.Required {
			required = append(required, "body")
		}
	}
	if len(op.Params) > 0 {
		pp := make(map[string]*ir.Schema, len(op.Params))
		var preq []string
		for _, p := range op.Params {
			pp[p.InputKey()] = l.paramSchema(p, s)
			if p.Required {
				preq = append(preq, p.InputKey())
			}
		}
		slices.Sort(preq)
		params := make(ir.Properties, 0, len(pp))
		for _, name := range slices.Sorted(maps.Keys(pp)) {
			params = append(params, ir.Property{Key: name, Schema: pp[name]})
		}
		props = append(props, ir.Property{Key: "params", Schema: object(params, preq)})
		if len(preq) > 0 {
			required = append([]string{"params"}, required...)
		}
	}
	if len(props) > 0 {
		op.InputSchema = object(props, required)
	}
}

// xmlRoot returns the schema of an XML body, m, naming its root element
// after the component ref refers to when the component's xml object does not
// name it, as OpenAPI says (the $defs name the schema refers to is the Go
// name, which may differ: "note" is Note).
//
// An inline schema without an xml name is the root element, named after
// its Go type, except in AWS descriptions, which follow the service
// model's framing (see awsXMLRoot): a payload member's element is the
// document (OpenAPI 3.2's nodeType none on the body), or the members are
// in <Operation>Request.
func (l *loader) xmlRoot(m *ir.Schema, ref *openapi3.SchemaRef, operationID string) *ir.Schema {
	if m == nil || ref == nil || ref.Value != nil && ref.Value.XML != nil && ref.Value.XML.Name != "" {
		return m
	}
	if ref.Ref == "" {
		if v := ref.Value; v != nil && v.XML == nil && awsDocument(l.doc) {
			root, payload, ns := awsXMLRoot(l.doc, operationID)
			x := map[string]any{"name": root}
			if payload {
				x = map[string]any{"nodeType": "none"}
				if len(v.Properties) != 1 {
					return m
				}
			}
			if ns != "" {
				x["namespace"] = ns
			}
			return m.With("xml", x)
		}
		return m
	}
	name := ref.Ref[strings.LastIndexByte(ref.Ref, '/')+1:]
	name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
	if !xmlName(name) || m.Ref != nil && m.Ref.Name == name {
		return m // not a name, or the one the $defs entry gives already
	}
	// Beside the $ref: the runtime reads it before the target's xml object.
	return m.With("xml", map[string]any{"name": name})
}

// xmlName reports whether s is an XML element name without a prefix.
func xmlName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 0x7f ||
			i > 0 && (c == '-' || c == '.' || c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// paramSchema finds the schema of a merged parameter again by name and
// location, in the operation's parameters, then in the path's.
func (l *loader) paramSchema(p *ir.Param, s opSite) *ir.Schema {
	for _, refs := range [...]openapi3.Parameters{s.op.Parameters, s.item.Parameters} {
		for _, r := range refs {
			if r == nil || r.Value == nil || r.Value.Name != p.Name || r.Value.In != string(p.In) {
				continue
			}
			if v := r.Value; v.Schema != nil {
				return l.inputJSONSchema(v.Schema)
			} else if m := v.Content[p.ContentType]; m != nil {
				return l.inputJSONSchema(m.Schema)
			}
			return ir.NewSchema(ir.Member{Key: "type", Value: "string"})
		}
	}
	return &ir.Schema{}
}

// errorSuffix names an error status after the operation's name: NotFound
// for 404 (the status text), Status4XX for a range or a code without a
// text, Default for default.
func errorSuffix(status string) string {
	if status == "default" {
		return "Default"
	}
	if code, err := strconv.Atoi(status); err == nil {
		if t := http.StatusText(code); t != "" {
			return naming.Ident(t, "Status"+status)
		}
	}
	return "Status" + status
}

// primitive reports whether t is a scalar (or unknown: any value, a union).
func primitive(t *ir.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind {
	case ir.Array, ir.Map, ir.Struct, ir.Tuple:
		return false
	}
	return true
}

// notSerializable says why no value of p's type has a serialization in
// its style ("" when it may): the styles but deepObject serialize arrays
// of primitives and objects of primitive members, deepObject objects.
func notSerializable(p *ir.Param) string {
	t := p.Type
	if t == nil {
		return ""
	}
	switch t.Kind {
	case ir.Array, ir.Tuple:
		if p.Style == "deepObject" {
			return "an array"
		}
		if !primitive(t.Elem) {
			return "an array of arrays or objects"
		}
		for _, it := range t.Items {
			if !primitive(it) {
				return "an array of arrays or objects"
			}
		}
	case ir.Map:
		if p.Style != "deepObject" && !primitive(t.Elem) {
			return "an object of arrays or objects"
		}
	case ir.Struct:
		if p.Style == "deepObject" {
			return ""
		}
		if t.AdditionalProperties != nil && !primitive(t.AdditionalProperties) {
			return "an object of arrays or objects"
		}
		for _, f := range t.Fields {
			if !primitive(f.Type) {
				return fmt.Sprintf("an object whose member %q is an array or an object", f.JSONName)
			}
		}
	}
	return ""
}
