package realcalls

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"maps"
	"math"
	"mime"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsgen/opsgen/runtime/xmljson"
	"gopkg.in/yaml.v3"
)

// Oracle answers, independently of opsgen, what the description says
// about a response: it loads the document with kin-openapi (Swagger 2.0
// converted with openapi2conv) and validates response bodies against the
// schema the description gives for the operation, status and media type.
// It is the second opinion that tells a client's invented warning from
// data that really contradicts the description.
type Oracle struct {
	doc *openapi3.T
	// raw is the document as read (YAML or JSON), for what kin-openapi
	// does not keep (members beside a $ref).
	raw map[string]any
	// Err is why the document did not load (nil when it did).
	Err error
	// tmpls are the document's path templates, sorted.
	tmpls []string
	// docJSON is doc as decoded JSON, for xmlToJSON (built on first use).
	docJSON any
}

// format float is asserted like int32 and int64 (kin-openapi checks only
// those): Prism generates -3.402823669209385e+38, past float32's range.
// Format duration is asserted too (durationFormat), and format email with
// kin-openapi's own pattern (which it defines but does not register):
// files.com's "example" is not an email, as the runtime says. Format
// uuid is asserted as the runtime does (RFC 9562's hex form): azure's
// "clientGUID" examples are no UUIDs, which no real service answers.
func init() {
	openapi3.DefineStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`))
	openapi3.DefineNumberFormatValidator("float", openapi3.NewRangeFormatValidator(-math.MaxFloat32, math.MaxFloat32))
	openapi3.DefineStringFormatValidator("duration", durationFormat{})
	openapi3.DefineStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail))
}

// isoDuration is the duration of RFC 3339 appendix A (ISO 8601), which
// JSON Schema's format "duration" names.
var isoDuration = regexp.MustCompile(`^P(?:\d+W|(?:\d+Y)?(?:\d+M)?(?:\d+D)?(?:T(?:\d+H)?(?:\d+M)?(?:\d+(?:[.,]\d+)?S)?)?)$`)

// durationFormat asserts format duration, which kin-openapi does not know:
// Prism's "string" for it (azure scheduler's retryInterval) is the mock's
// data, not a valid body that opsgen's Duration refuses.
type durationFormat struct{}

// Validate implements openapi3.StringFormatValidator.
func (durationFormat) Validate(s string) error {
	if !isoDuration.MatchString(s) || s == "P" || strings.HasSuffix(s, "T") {
		return fmt.Errorf("%q is not an ISO 8601 duration", s)
	}
	return nil
}

// The oracle checks the formats date and date-time as RFC 3339 does: the
// day must exist in its month ("2021-09-31" does not), which
// kin-openapi's patterns do not check (a leap second, ":60", stays
// valid, as the RFC says).
func init() {
	date, dateTime := regexp.MustCompile(openapi3.FormatOfStringDate), regexp.MustCompile(openapi3.FormatOfStringDateTime)
	openapi3.DefineStringFormatValidator("date", openapi3.NewCallbackValidator(func(s string) error {
		return calendarDate(s, date)
	}))
	openapi3.DefineStringFormatValidator("date-time", openapi3.NewCallbackValidator(func(s string) error {
		return calendarDate(s, dateTime)
	}))
}

// calendarDate checks s against the pattern, then that its date exists.
func calendarDate(s string, pattern *regexp.Regexp) error {
	if !pattern.MatchString(s) {
		return fmt.Errorf("string doesn't match pattern %q", pattern)
	}
	if _, err := time.Parse(time.DateOnly, s[:len(time.DateOnly)]); err != nil {
		return fmt.Errorf("no such day: %s", s[:len(time.DateOnly)])
	}
	return nil
}

// NewOracle loads the description at path.
func NewOracle(path string) *Oracle {
	doc, raw, err := loadDoc(path)
	if doc != nil && !doc.IsOpenAPI31OrLater() {
		untypedNullable(doc)
	}
	o := &Oracle{doc: doc, raw: raw, Err: err}
	if doc != nil && doc.Paths != nil {
		o.tmpls = slices.Sorted(maps.Keys(doc.Paths.Map()))
	}
	return o
}

// nullableOnly reports whether r is an inline schema that says only
// nullable: true (annotations aside).
func nullableOnly(r *openapi3.SchemaRef) bool {
	if r == nil || r.Ref != "" || r.Value == nil || !r.Value.Nullable {
		return false
	}
	c := *r.Value
	c.Nullable, c.Title, c.Description, c.Deprecated, c.Extensions, c.Origin = false, "", "", false, nil, nil
	return c.IsEmpty()
}

// untypedNullable makes every schema of an OpenAPI 3.0 document without a
// type nullable: OpenAPI 3.0.3 says nullable false "leaves the specified
// or default type unmodified", so a schema without type allows null, where
// kin-openapi says "Value is not nullable" (googleapis' additional
// properties of any value, answered null).
func untypedNullable(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var visit func(r *openapi3.SchemaRef)
	visit = func(r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil || seen[r.Value] {
			return
		}
		s := r.Value
		seen[s] = true
		// Only a schema that constrains no type, itself or through its
		// parts: an allOf of a string still refuses null.
		if (s.Type == nil || len(*s.Type) == 0) && len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) == 0 && s.Not == nil {
			s.Nullable = true
		}
		// An allOf part that is only {nullable: true} (PandaScore's
		// allOf: [{nullable: true}, {$ref: SerieDescription}]) says the
		// whole may be null, as the servers that write such documents
		// answer (and as opsgen reads it); kin-openapi applies the other
		// part's type to null.
		if slices.ContainsFunc(s.AllOf, nullableOnly) {
			s.Nullable = true
		}
		for _, p := range s.Properties {
			visit(p)
		}
		visit(s.Items)
		visit(s.Not)
		visit(s.AdditionalProperties.Schema)
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, x := range list {
				visit(x)
			}
		}
	}
	if doc.Components != nil {
		for _, r := range doc.Components.Schemas {
			visit(r)
		}
		for _, r := range doc.Components.Responses {
			if r != nil && r.Value != nil {
				for _, m := range r.Value.Content {
					visit(m.Schema)
				}
			}
		}
	}
	if doc.Paths == nil {
		return
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses == nil {
				continue
			}
			for _, r := range op.Responses.Map() {
				if r != nil && r.Value != nil {
					for _, m := range r.Value.Content {
						visit(m.Schema)
					}
				}
			}
		}
	}
}

func loadDoc(path string) (*openapi3.T, map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var probe map[string]any
	if err := yaml.Unmarshal(data, &probe); err != nil {
		return nil, nil, err
	}
	if v, _ := probe["swagger"].(string); v != "" {
		js, err := json.Marshal(probe)
		if err != nil {
			return nil, nil, err
		}
		var d2 openapi2.T
		if err := json.Unmarshal(js, &d2); err != nil {
			return nil, nil, err
		}
		doc, err := openapi2conv.ToV3(&d2)
		return doc, probe, err
	}
	l := openapi3.NewLoader()
	l.IsExternalRefsAllowed = true
	l.Context = context.Background()
	doc, err := l.LoadFromFile(path)
	return doc, probe, err
}

// RefSiblingRequired reports whether, in an OpenAPI 3.0 document, the
// request body schema of the request's operation for its media type is a
// $ref with a "required" member beside it that lists name. OpenAPI 3.0
// says the members of a Reference Object other than $ref "SHALL be
// ignored" (soundcloud's POST /tracks: {$ref: TrackDataRequest, required:
// [track[title], ...]}); Prism applies them.
func (o *Oracle) RefSiblingRequired(method, rawURL, mediaType, name string) bool {
	req, _ := o.refSibling(method, rawURL, mediaType, "required").([]any)
	return slices.Contains(req, any(name))
}

// RefSiblingType returns the "type" written beside the $ref of the request
// body schema of the request's operation for its media type, in an
// OpenAPI 3.0 document ("" when there is none): britbox's {$ref:
// ItvChangeEmailRequest, type: string}, which OpenAPI says to ignore.
func (o *Oracle) RefSiblingType(method, rawURL, mediaType string) string {
	t, _ := o.refSibling(method, rawURL, mediaType, "type").(string)
	return t
}

// refSibling returns the member key beside the $ref of the request body
// schema of the request's operation for its media type, in an OpenAPI 3.0
// document; nil when there is none.
func (o *Oracle) refSibling(method, rawURL, mediaType, key string) any {
	if v, _ := o.raw["openapi"].(string); !strings.HasPrefix(v, "3.0") {
		return nil
	}
	_, tmpl := o.Operation(method, rawURL)
	if tmpl == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(mediaType)
	if err != nil {
		return nil
	}
	at := func(v any, keys ...string) any {
		for _, k := range keys {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	paths, _ := o.raw["paths"].(map[string]any)
	schema, _ := at(paths[tmpl], strings.ToLower(method), "requestBody", "content", mt, "schema").(map[string]any)
	if _, ok := schema["$ref"]; !ok {
		return nil
	}
	return schema[key]
}

// Operation finds the operation a request went to: the path template
// whose literal segments match the request path (templated segments match
// any non-empty segment; the longest literal match wins). It returns the
// template too.
func (o *Oracle) Operation(method, rawURL string) (*openapi3.Operation, string) {
	ops, tmpls := o.operations(method, rawURL)
	if len(ops) == 0 {
		return nil, ""
	}
	return ops[0], tmpls[0]
}

// operations returns the operations whose templates match the request
// best, sorted by template: several when the description has templates
// that differ only in their variables' names (pubsub's
// /v1beta2/{project}/subscriptions and /v1beta2/{topic}/subscriptions,
// which OpenAPI says "MUST NOT exist").
func (o *Oracle) operations(method, rawURL string) ([]*openapi3.Operation, []string) {
	if o.doc == nil || o.doc.Paths == nil {
		return nil, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, nil
	}
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	var ops []*openapi3.Operation
	var tmpls []string
	bestScore := -1
	for _, tmpl := range o.tmpls {
		op := o.doc.Paths.Value(tmpl).GetOperation(strings.ToUpper(method))
		if op == nil {
			continue
		}
		score, ok := matchTemplate(tmpl, segs)
		if ok {
			var qs int
			qs, ok = matchQuery(tmpl, u.Query())
			score += qs
		}
		switch {
		case !ok || score < bestScore:
		case score > bestScore:
			ops, tmpls, bestScore = []*openapi3.Operation{op}, []string{tmpl}, score
		default:
			ops, tmpls = append(ops, op), append(tmpls, tmpl)
		}
	}
	return ops, tmpls
}

// Matches reports whether the request URL rawURL matches the path
// template tmpl, whether or not another template matches it better.
func (o *Oracle) Matches(tmpl, rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	_, ok := matchTemplate(tmpl, strings.Split(strings.Trim(u.EscapedPath(), "/"), "/"))
	return ok
}

// matchTemplate matches a path template against request path segments
// (escaped), scoring the literal characters matched: a template segment
// matches a request segment when its literal parts do, each variable
// standing for at least one character.
func matchTemplate(tmpl string, segs []string) (int, bool) {
	// A template's query part ("/x?y") is not part of the path.
	if i := strings.IndexByte(tmpl, '?'); i >= 0 {
		tmpl = tmpl[:i]
	}
	// A fragment ("/x/{id}#tags") is sent as %23 by opsgen, or left out.
	if i := strings.IndexByte(tmpl, '#'); i >= 0 {
		if n, ok := matchSegments(tmpl, segs); ok {
			return n, ok
		}
		tmpl = tmpl[:i]
	}
	return matchSegments(tmpl, segs)
}

// matchQuery matches the literal query of a path template ("?uploads",
// "?list-type=2") against a request's query: each literal pair must be
// there. The name=value pairs of its fragment ("#Action=AssumeRole", what
// AWS's query carries; "#X-Amz-Target=...", a header) are not required
// but break ties: it scores the characters of the pairs matched.
func matchQuery(tmpl string, q url.Values) (int, bool) {
	has := func(p string) bool {
		k, v, hasV := strings.Cut(p, "=")
		got, ok := q[k]
		return ok && (!hasV || slices.Contains(got, v))
	}
	score := 0
	if i := strings.IndexByte(tmpl, '#'); i >= 0 {
		for _, p := range strings.Split(tmpl[i+1:], "&") {
			if strings.Contains(p, "=") && has(p) {
				score += len(p)
			}
		}
		tmpl = tmpl[:i]
	}
	if i := strings.IndexByte(tmpl, '?'); i >= 0 {
		for _, p := range strings.Split(tmpl[i+1:], "&") {
			if p == "" || strings.Contains(p, "{") {
				continue
			}
			if !has(p) {
				return 0, false
			}
			score += len(p)
		}
	}
	return score, true
}

// TemplateOf returns the path template of the operation whose
// operationId is id for the method ("" when there is none).
func (o *Oracle) TemplateOf(method, id string) string {
	if o.doc == nil || o.doc.Paths == nil || id == "" {
		return ""
	}
	for t, item := range o.doc.Paths.Map() {
		if op := item.GetOperation(strings.ToUpper(method)); op != nil && (op.OperationID == id || registryName(op.OperationID) == id) {
			return t
		}
	}
	return ""
}

// registryName is an operationId as a registry id names it: each character
// other than an ASCII letter, digit, '_', '-' or '.' replaced by '_'
// (box's "get_shared_items#folders" is "get_shared_items_folders").
func registryName(id string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
			return r
		}
		return '_'
	}, id)
}

// SharedRoutes returns the other path templates with an operation for the
// method whose path, without its "#..." suffix and "?..." part, is the
// path of tmpl, sorted.
func (o *Oracle) SharedRoutes(method, tmpl string) []string {
	bare := func(t string) string {
		if i := strings.IndexAny(t, "#?"); i >= 0 {
			return t[:i]
		}
		return t
	}
	if o.doc == nil || o.doc.Paths == nil {
		return nil
	}
	var others []string
	for t, item := range o.doc.Paths.Map() {
		if t != tmpl && bare(t) == bare(tmpl) && item.GetOperation(strings.ToUpper(method)) != nil {
			others = append(others, t)
		}
	}
	slices.Sort(others)
	return others
}

// ResponseMediaTypes returns the media types the request's operation
// declares for the status (its exact response, else its range, else its
// default); known is false when the operation or the response is not found.
func (o *Oracle) ResponseMediaTypes(method, rawURL string, status int) (types []string, known bool) {
	op, _ := o.Operation(method, rawURL)
	if op == nil || op.Responses == nil {
		return nil, false
	}
	ref := op.Responses.Status(status)
	if ref == nil {
		ref = op.Responses.Value(fmt.Sprintf("%dXX", status/100))
	}
	if ref == nil {
		ref = op.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return nil, false
	}
	for mt := range ref.Value.Content {
		types = append(types, mt)
	}
	slices.Sort(types)
	return types, true
}

// AWSQueryXMLBody reports whether the request went to an operation of an
// AWS query-protocol service whose description declares an XML request
// body: an APIs.guru amazonaws.com document (info x-providerName) whose
// operation has the Action and Version query parameters of the query
// protocols. The service reads a POST's parameters from a form
// (docs.aws.amazon.com, "Query requests"), which opsgen sends; Prism
// wants the XML the description declares.
func (o *Oracle) AWSQueryXMLBody(method, rawURL string) bool {
	if !o.aws() {
		return false
	}
	op, tmpl := o.Operation(method, rawURL)
	if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil {
		return false
	}
	xmlBody := false
	for mt := range op.RequestBody.Value.Content {
		base, _, _ := mime.ParseMediaType(mt)
		xmlBody = xmlBody || isXMLMedia(base)
	}
	var action, version bool
	params := slices.Concat(o.doc.Paths.Value(tmpl).Parameters, op.Parameters)
	for _, p := range params {
		if p != nil && p.Value != nil && p.Value.In == "query" {
			action = action || p.Value.Name == "Action"
			version = version || p.Value.Name == "Version"
		}
	}
	return xmlBody && action && version
}

// InvalidMediaTypes returns the content keys of the request's operation
// (request body and responses) that are not media types (biapi.pro's
// responses declare "access" and "code" beside application/json), sorted.
func (o *Oracle) InvalidMediaTypes(method, rawURL string) []string {
	op, _ := o.Operation(method, rawURL)
	if op == nil {
		return nil
	}
	var bad []string
	check := func(content openapi3.Content) {
		for mt := range content {
			if _, _, err := mime.ParseMediaType(mt); err != nil || !strings.Contains(mt, "/") {
				bad = append(bad, mt)
			}
		}
	}
	if op.RequestBody != nil && op.RequestBody.Value != nil {
		check(op.RequestBody.Value.Content)
	}
	if op.Responses != nil {
		for _, r := range op.Responses.Map() {
			if r != nil && r.Value != nil {
				check(r.Value.Content)
			}
		}
	}
	slices.Sort(bad)
	return slices.Compact(bad)
}

// matchSegments matches a path template's segments to a URL's.
func matchSegments(tmpl string, segs []string) (int, bool) {
	ts := strings.Split(strings.Trim(tmpl, "/"), "/")
	if len(ts) != len(segs) {
		return 0, false
	}
	score := 0
	for i, t := range ts {
		seg, err := url.PathUnescape(segs[i])
		if err != nil {
			return 0, false
		}
		if !strings.Contains(t, "{") {
			if seg != t {
				return 0, false
			}
			score += len(t)
			continue
		}
		var re strings.Builder
		re.WriteString("^")
		lit := 0
		for j, part := range templateVar.Split(t, -1) {
			if j > 0 {
				re.WriteString(".+")
			}
			re.WriteString(regexp.QuoteMeta(part))
			lit += len(part)
		}
		re.WriteString("$")
		if !regexp.MustCompile(re.String()).MatchString(seg) {
			return 0, false
		}
		score += lit
	}
	return score, true
}

// ResponseCheck is the oracle's view of one response body.
type ResponseCheck struct {
	// Known says whether the description gives a schema for it.
	Known bool
	// Valid says whether the body matches that schema; Reason says why not.
	Valid  bool
	Reason string
	// Pointers are the JSON pointers of the body's errors.
	Pointers []string
	// HasExample says whether the description gives an example for the
	// media type (which a static mock serves instead of inventing data).
	HasExample bool
	// Template is the path template of the operation whose response was
	// checked (the one that accepts the body, when several match).
	Template string
}

// CheckResponse validates a JSON response body against the description.
func (o *Oracle) CheckResponse(method, rawURL string, status int, contentType string, body []byte) ResponseCheck {
	// Where templates differ only in their variables' names, the request
	// could have reached any of their operations: the body is valid when
	// one of them accepts it.
	ops, tmpls := o.operations(method, rawURL)
	var first ResponseCheck
	for i, op := range ops {
		rc := o.checkResponse(op, status, contentType, body)
		rc.Template = tmpls[i]
		if rc.Valid {
			return rc
		}
		if i == 0 {
			first = rc
		}
	}
	return first
}

// checkResponse validates a JSON response body against op's response.
func (o *Oracle) checkResponse(op *openapi3.Operation, status int, contentType string, body []byte) ResponseCheck {
	if op == nil || op.Responses == nil {
		return ResponseCheck{}
	}
	ref := op.Responses.Status(status)
	if ref == nil {
		ref = op.Responses.Default()
	}
	if ref == nil || ref.Value == nil {
		return ResponseCheck{}
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	media := ref.Value.Content.Get(mt)
	if media == nil {
		for _, m := range ref.Value.Content {
			media = m
			break
		}
	}
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return ResponseCheck{}
	}
	rc := ResponseCheck{Known: true, HasExample: media.Example != nil || len(media.Examples) > 0 || media.Schema.Value.Example != nil}
	if isXMLMedia(mt) && !json.Valid(body) {
		// XML is a wire form of the JSON value the schema describes, read
		// as its xml objects say (runtime/xmljson: the conversion is
		// opsgen's, the validation below kin-openapi's).
		if conv, err := o.xmlToJSON(media.Schema, body, false); err == nil {
			body = conv
		}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		rc.Reason = "not JSON: " + err.Error()
		return rc
	}
	// A writeOnly member in a response is no violation: OpenAPI says it
	// "SHOULD NOT be sent as part of the response", and a client reads it
	// (stream-io's AppPK, which Prism's mock data carries).
	opts := append(o.doc.GetSchemaValidationOptions(), openapi3.MultiErrors(), openapi3.VisitAsResponse(), openapi3.EnableFormatValidation(), openapi3.DisableWriteOnlyValidation())
	if o.doc.IsOpenAPI31OrLater() {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	if err := media.Schema.Value.VisitJSON(v, opts...); err != nil {
		rc.Reason = firstLines(err.Error(), 3)
		collectPointers(err, &rc.Pointers)
		return rc
	}
	rc.Valid = true
	return rc
}

// bodySchema returns the request body schema op declares for the media
// type mt (nil when it declares none).
func bodySchema(op *openapi3.Operation, mt string) *openapi3.SchemaRef {
	if op == nil || op.RequestBody == nil || op.RequestBody.Value == nil {
		return nil
	}
	media := op.RequestBody.Value.Content.Get(mt)
	if media == nil || media.Schema == nil || media.Schema.Value == nil {
		return nil
	}
	return media.Schema
}

// RequestBodyValidOf reports whether body (JSON) is valid for the request
// body of the operation at tmpl and method; known is false when the
// operation declares no JSON-readable schema for it.
func (o *Oracle) RequestBodyValidOf(tmpl, method string, body []byte) (valid, known bool) {
	if o.doc == nil || o.doc.Paths == nil || o.doc.Paths.Value(tmpl) == nil {
		return false, false
	}
	schema := bodySchema(o.doc.Paths.Value(tmpl).GetOperation(strings.ToUpper(method)), "application/json")
	var v any
	if schema == nil || json.Unmarshal(body, &v) != nil {
		return false, false
	}
	return schema.Value.VisitJSON(v, o.requestValidation()...) == nil, true
}

// XMLRequestBodyValid reports whether body, an XML document sent as
// mediaType, reads (as opsgen reads XML, runtime/xmljson) as a value that
// the operation's request body schema for that media type accepts; known
// is false when the operation declares no schema for it.
func (o *Oracle) XMLRequestBodyValid(method, rawURL, mediaType string, body []byte) (valid, known bool) {
	op, _ := o.Operation(method, rawURL)
	schema := bodySchema(op, mediaType)
	if schema == nil {
		return false, false
	}
	payload, ok := o.awsXMLFraming(op, schema, body)
	if !ok {
		return false, true
	}
	js, err := o.xmlToJSON(schema, body, payload)
	var v any
	if err != nil || json.Unmarshal(js, &v) != nil {
		return false, true
	}
	return schema.Value.VisitJSON(v, o.requestValidation()...) == nil, true
}

// BodyPropertyDefault returns the default the JSON request body schema of
// the request's operation gives its property name (in its properties or
// an allOf part's); known is false when it gives none.
func (o *Oracle) BodyPropertyDefault(method, rawURL, name string) (def any, known bool) {
	op, _ := o.Operation(method, rawURL)
	var find func(s *openapi3.SchemaRef, depth int) (any, bool)
	find = func(s *openapi3.SchemaRef, depth int) (any, bool) {
		if s == nil || s.Value == nil || depth > 8 {
			return nil, false
		}
		if p := s.Value.Properties[name]; p != nil && p.Value != nil && p.Value.Default != nil {
			return p.Value.Default, true
		}
		for _, part := range s.Value.AllOf {
			if d, ok := find(part, depth+1); ok {
				return d, true
			}
		}
		return nil, false
	}
	return find(bodySchema(op, "application/json"), 0)
}

// MultipartPartValid reports whether value, the JSON content of the part
// name of a multipart/form-data request, is valid for that property of
// the operation's request body schema; false when the operation declares
// no such property.
func (o *Oracle) MultipartPartValid(method, rawURL, name string, value []byte) bool {
	op, _ := o.Operation(method, rawURL)
	schema := bodySchema(op, "multipart/form-data")
	if schema == nil {
		return false
	}
	prop := schema.Value.Properties[name]
	var v any
	if prop == nil || prop.Value == nil || json.Unmarshal(value, &v) != nil {
		return false
	}
	return prop.Value.VisitJSON(v, o.requestValidation()...) == nil
}

// awsVersionSuffix is the API version APIs.guru appends to some AWS
// operation IDs (CloudFront's CreateDistribution2020_05_31).
var awsVersionSuffix = regexp.MustCompile(`\d{4}_\d{2}_\d{2}$`)

// awsXMLFraming checks the root element of body, an XML request body of
// op in an APIs.guru AWS description, as the service reads it (its SDK
// model, which the description's inline schema does not carry): the
// element of the payload member when the description gives the input's
// component (<Operation>Request) the payload's namespace, else
// <Operation>Request around the members. payload says the body's one
// member is the root; ok is false for another root element. Other
// descriptions name no root for an inline schema, and any is accepted.
func (o *Oracle) awsXMLFraming(op *openapi3.Operation, schema *openapi3.SchemaRef, body []byte) (payload, ok bool) {
	v := schema.Value
	if !o.aws() || schema.Ref != "" || v.XML != nil && v.XML.Name != "" {
		return false, true
	}
	var root string
	dec := xml.NewDecoder(bytes.NewReader(body))
	for root == "" {
		tok, err := dec.Token()
		if err != nil {
			return false, false
		}
		if se, isStart := tok.(xml.StartElement); isStart {
			root = se.Name.Local
		}
	}
	input := awsVersionSuffix.ReplaceAllString(op.OperationID, "") + "Request"
	if c := o.doc.Components.Schemas[input]; c != nil && c.Value != nil && c.Value.XML != nil && c.Value.XML.Namespace != "" {
		return true, len(v.Properties) == 1 && v.Properties[root] != nil
	}
	return false, root == input
}

// requestValidation are the options that validate a request body.
func (o *Oracle) requestValidation() []openapi3.SchemaValidationOption {
	opts := append(o.doc.GetSchemaValidationOptions(), openapi3.VisitAsRequest(), openapi3.EnableFormatValidation())
	if o.doc.IsOpenAPI31OrLater() {
		opts = append(opts, openapi3.EnableJSONSchema2020())
	}
	return opts
}

// isXMLMedia reports an XML media type (without parameters).
func isXMLMedia(mt string) bool {
	mt = strings.ToLower(mt)
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// xmlToJSON converts an XML body to the JSON value schema describes, its
// $refs resolved against the document as kin-openapi holds it; with
// payload, the root element is the schema's one member (OpenAPI 3.2's
// nodeType none).
func (o *Oracle) xmlToJSON(schema *openapi3.SchemaRef, body []byte, payload bool) ([]byte, error) {
	if o.docJSON == nil {
		b, err := json.Marshal(o.doc)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &o.docJSON); err != nil {
			return nil, err
		}
		if o.aws() {
			awsWrapLists(o.docJSON)
		}
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	if o.aws() {
		awsWrapLists(v)
	}
	if m, ok := v.(map[string]any); ok && payload {
		m["xml"] = map[string]any{"nodeType": "none"}
	}
	return xmljson.Decode(body, xmljson.Schema{Value: v, Doc: o.docJSON})
}

// aws reports an APIs.guru amazonaws.com description (info x-providerName).
func (o *Oracle) aws() bool {
	return o.doc != nil && o.doc.Info != nil && o.doc.Info.Extensions["x-providerName"] == "amazonaws.com"
}

// awsWrapLists marks the arrays of the JSON schema tree v that have no xml
// object wrapped, as the AWS services read and write lists unless their
// model says flattened (aws2openapi's xml {wrapped: false}).
func awsWrapLists(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, hasXML := v["xml"]; !hasXML && v["type"] == "array" {
			v["xml"] = map[string]any{"wrapped": true}
		}
		for _, c := range v {
			awsWrapLists(c)
		}
	case []any:
		for _, c := range v {
			awsWrapLists(c)
		}
	}
}

// Security returns the names of the security schemes the operation's
// requirements list (the document's when the operation has none).
func (o *Oracle) Security(method, rawURL string) []string {
	op, _ := o.Operation(method, rawURL)
	if op == nil {
		return nil
	}
	reqs := op.Security
	if reqs == nil {
		reqs = &o.doc.Security
	}
	var names []string
	for _, r := range *reqs {
		for name := range r {
			names = append(names, name)
		}
	}
	return names
}

// params returns the parameters of the request's operation and of its
// path item (nil when no operation is found).
func (o *Oracle) params(method, rawURL string) openapi3.Parameters {
	op, tmpl := o.Operation(method, rawURL)
	if op == nil {
		return nil
	}
	ps := op.Parameters
	if item := o.doc.Paths.Value(tmpl); item != nil {
		ps = append(slices.Clip(ps), item.Parameters...)
	}
	return ps
}

// DeclaresHeader reports whether the request's operation (or its path
// item) declares a header parameter of that name, ignoring case.
func (o *Oracle) DeclaresHeader(method, rawURL, name string) bool {
	ps := o.params(method, rawURL)
	for _, p := range ps {
		if p != nil && p.Value != nil && p.Value.In == "header" && strings.EqualFold(p.Value.Name, name) {
			return true
		}
	}
	return false
}

// HasSuccess reports whether the operation declares a 2xx (or 2XX)
// response; a mock answers an operation without one with what it has.
func (o *Oracle) HasSuccess(method, rawURL string) (has, known bool) {
	op, _ := o.Operation(method, rawURL)
	if op == nil || op.Responses == nil {
		return false, false
	}
	for code := range op.Responses.Map() {
		if strings.HasPrefix(code, "2") {
			return true, true
		}
	}
	return false, true
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, " | ")
}

var templateVar = regexp.MustCompile(`\{([^{}]+)\}`)

// UndeclaredPathVars returns the variables of the path template of the
// request's operation that no path parameter declares (RFC 6570 forms like
// "{.format}" included): the description's fault, which no client can
// route around.
func (o *Oracle) UndeclaredPathVars(method, rawURL string) []string {
	op, tmpl := o.Operation(method, rawURL)
	if op == nil {
		return nil
	}
	declared := map[string]bool{}
	add := func(ps openapi3.Parameters) {
		for _, p := range ps {
			if p != nil && p.Value != nil && p.Value.In == "path" {
				declared[p.Value.Name] = true
			}
		}
	}
	add(op.Parameters)
	if item := o.doc.Paths.Value(tmpl); item != nil {
		add(item.Parameters)
	}
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(tmpl, -1) {
		if !declared[m[1]] {
			out = append(out, m[1])
		}
	}
	return out
}

// OperatorPathVars returns the variables of the request's path template
// written with an RFC 6570 operator ("{.format}", "{+path}", "{;x}"),
// which Prism's router does not match (checked with "/projects{.format}":
// no request path routes to it).
func (o *Oracle) OperatorPathVars(method, rawURL string) []string {
	_, tmpl := o.Operation(method, rawURL)
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(tmpl, -1) {
		if strings.ContainsAny(m[1][:1], "+#./;?&=,!@|") {
			out = append(out, m[1])
		}
	}
	return out
}

// collectPointers appends the JSON pointers of kin-openapi's schema errors.
func collectPointers(err error, out *[]string) {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			collectPointers(e, out)
		}
		return
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		var b strings.Builder
		for _, tok := range se.JSONPointer() {
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
		}
		*out = append(*out, b.String())
	}
}

// DeepArrayMember returns, for a query parameter of style deepObject of the
// request's operation and one of its members whose schema is an array,
// the member's minItems and whether the object requires it; ok is false
// when param is no such parameter or member no such member.
func (o *Oracle) DeepArrayMember(method, rawURL, param, member string) (minItems uint64, required, ok bool) {
	ps := o.params(method, rawURL)
	for _, p := range ps {
		if p == nil || p.Value == nil || p.Value.In != "query" || p.Value.Name != param || p.Value.Style != "deepObject" || p.Value.Schema == nil || p.Value.Schema.Value == nil {
			continue
		}
		s := p.Value.Schema.Value
		m := s.Properties[member]
		if m == nil || m.Value == nil || m.Value.Type == nil || !m.Value.Type.Is("array") {
			return 0, false, false
		}
		return m.Value.MinItems, slices.Contains(s.Required, member), true
	}
	return 0, false, false
}

// InventedLocation reports whether the request's operation declares a
// redirect (a 3xx response) whose Location header gives no value (no
// example, enum or default, no format or pattern): a mock has to invent
// one (Prism's static mock answers "string", swaggerhub's GET /apis). It
// reads the document as written, which kin-openapi refuses to load when a
// $ref elsewhere is broken (swaggerhub's response $ref to a schema).
func (o *Oracle) InventedLocation(method, rawURL string) bool {
	u, err := url.Parse(rawURL)
	paths, _ := o.raw["paths"].(map[string]any)
	if err != nil || paths == nil {
		return false
	}
	segs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	var op map[string]any
	best, bestTmpl := -1, ""
	for tmpl, item := range paths {
		m, _ := o.rawDeref(item)[strings.ToLower(method)].(map[string]any)
		score, ok := matchTemplate(tmpl, segs)
		if ok {
			var qs int
			qs, ok = matchQuery(tmpl, u.Query())
			score += qs
		}
		if m != nil && ok && (score > best || score == best && tmpl < bestTmpl) {
			op, best, bestTmpl = m, score, tmpl
		}
	}
	responses, _ := op["responses"].(map[string]any)
	for status, r := range responses {
		if !strings.HasPrefix(status, "3") {
			continue
		}
		headers, _ := o.rawDeref(r)["headers"].(map[string]any)
		for name, h := range headers {
			if !strings.EqualFold(name, "Location") {
				continue
			}
			hv := o.rawDeref(h)
			if hv["example"] != nil || hv["examples"] != nil {
				return false
			}
			sv := o.rawDeref(hv["schema"])
			for _, k := range []string{"example", "examples", "enum", "default", "const", "format", "pattern"} {
				if sv[k] != nil {
					return false
				}
			}
			return true
		}
	}
	return false
}

// rawDeref returns v as an object of the document as written, following
// local $refs ("#/components/...").
func (o *Oracle) rawDeref(v any) map[string]any {
	m, _ := v.(map[string]any)
	for i := 0; i < 16 && m != nil; i++ {
		ref, _ := m["$ref"].(string)
		ptr, ok := strings.CutPrefix(ref, "#/")
		if !ok {
			return m
		}
		var cur any = o.raw
		for _, tok := range strings.Split(ptr, "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			c, _ := cur.(map[string]any)
			cur = c[tok]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

// ParamSchema returns the schema of the request's operation's parameter
// (or its path item's) of that location and name; nil when there is none.
func (o *Oracle) ParamSchema(method, rawURL, in, name string) *openapi3.Schema {
	ps := o.params(method, rawURL)
	for _, p := range ps {
		if p != nil && p.Value != nil && p.Value.In == in && p.Value.Name == name && p.Value.Schema != nil {
			return p.Value.Schema.Value
		}
	}
	return nil
}

// QueryParam returns the query parameter of the request's operation (or
// its path item) whose name is name ignoring case, as Prism reads it; nil
// when there is none.
func (o *Oracle) QueryParam(method, rawURL, name string) *openapi3.Parameter {
	ps := o.params(method, rawURL)
	for _, p := range ps {
		if p != nil && p.Value != nil && p.Value.In == "query" && strings.EqualFold(p.Value.Name, name) {
			return p.Value
		}
	}
	return nil
}

// FormUndeclared reports whether the request's operation has an
// application/x-www-form-urlencoded body whose schema lists name in its
// properties' place nowhere: not in properties, and with no allOf, anyOf
// or oneOf that could declare it (box's PostOAuth2Revoke requires
// grant_type and declares no such property).
func (o *Oracle) FormUndeclared(method, rawURL, name string) bool {
	op, _ := o.Operation(method, rawURL)
	schema := bodySchema(op, "application/x-www-form-urlencoded")
	if schema == nil {
		return false
	}
	s := schema.Value
	if len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 {
		return false
	}
	_, declared := s.Properties[name]
	return !declared && slices.Contains(s.Required, name)
}

// DeclaredMediaTypes returns the media types the request's operation
// declares for its responses (in, "response") or its request body ("request").
func (o *Oracle) DeclaredMediaTypes(method, rawURL, in string) []string {
	op, _ := o.Operation(method, rawURL)
	if op == nil {
		return nil
	}
	var types []string
	switch in {
	case "response":
		if op.Responses != nil {
			for _, r := range op.Responses.Map() {
				if r != nil && r.Value != nil {
					for mt := range r.Value.Content {
						types = append(types, mt)
					}
				}
			}
		}
	case "request":
		if op.RequestBody != nil && op.RequestBody.Value != nil {
			for mt := range op.RequestBody.Value.Content {
				types = append(types, mt)
			}
		}
	}
	slices.Sort(types)
	return slices.Compact(types)
}

// RequestBodyRequiredOf reports whether the operation of path template
// tmpl for the method requires its request body; known is false when there
// is no such operation.
func (o *Oracle) RequestBodyRequiredOf(tmpl, method string) (required, known bool) {
	if o.doc == nil || o.doc.Paths == nil || o.doc.Paths.Value(tmpl) == nil {
		return false, false
	}
	op := o.doc.Paths.Value(tmpl).GetOperation(strings.ToUpper(method))
	if op == nil {
		return false, false
	}
	return op.RequestBody != nil && op.RequestBody.Value != nil && op.RequestBody.Value.Required, true
}

// ResponseHeaderExamples returns the example values (examples written
// as text) that the request's operation gives a response header of that
// name, ignoring case, in any of its responses: the header's example and
// examples and its schema's example.
func (o *Oracle) ResponseHeaderExamples(method, rawURL, name string) []string {
	op, _ := o.Operation(method, rawURL)
	if op == nil || op.Responses == nil {
		return nil
	}
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	for _, r := range op.Responses.Map() {
		if r == nil || r.Value == nil {
			continue
		}
		for h, ref := range r.Value.Headers {
			if !strings.EqualFold(h, name) || ref == nil || ref.Value == nil {
				continue
			}
			add(ref.Value.Example)
			for _, e := range ref.Value.Examples {
				if e != nil && e.Value != nil {
					add(e.Value.Value)
				}
			}
			if ref.Value.Schema != nil && ref.Value.Schema.Value != nil {
				add(ref.Value.Schema.Value.Example)
			}
		}
	}
	return out
}

// Swagger2 reports whether the description is a Swagger 2.0 document.
func (o *Oracle) Swagger2() bool {
	v, _ := o.raw["swagger"].(string)
	return v != ""
}

// ParamSchemaFold is ParamSchema with the name compared ignoring case, as
// Prism's violations give it.
func (o *Oracle) ParamSchemaFold(method, rawURL, in, name string) *openapi3.Schema {
	ps := o.params(method, rawURL)
	for _, p := range ps {
		if p != nil && p.Value != nil && p.Value.In == in && strings.EqualFold(p.Value.Name, name) && p.Value.Schema != nil {
			return p.Value.Schema.Value
		}
	}
	return nil
}

// CheckResponseOf validates a JSON response body against the response of
// the operation of path template tmpl for the method.
func (o *Oracle) CheckResponseOf(tmpl, method string, status int, contentType string, body []byte) ResponseCheck {
	if o.doc == nil || o.doc.Paths == nil || o.doc.Paths.Value(tmpl) == nil {
		return ResponseCheck{}
	}
	rc := o.checkResponse(o.doc.Paths.Value(tmpl).GetOperation(strings.ToUpper(method)), status, contentType, body)
	rc.Template = tmpl
	return rc
}
