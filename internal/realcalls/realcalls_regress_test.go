package realcalls

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestFromPatternBigRepeat: AWS ARN patterns repeat up to 1023 times, more
// than Go's syntax accepts; the generator still produces a matching value.
func TestFromPatternBigRepeat(t *testing.T) {
	p := `^arn:aws(-(cn|us-gov|iso-b|iso-c|iso-d))?:[A-Za-z0-9][A-Za-z0-9_/.-]{0,62}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9_/.-]{0,63}:[A-Za-z0-9][A-Za-z0-9:_/+=,@.-]{0,1023}$`
	v, ok := fromPattern(p)
	if !ok {
		t.Fatalf("fromPattern(%q) failed", p)
	}
	if !regexp.MustCompile(clampRepeats(p)).MatchString(v) {
		t.Errorf("%q does not match %s", v, p)
	}
	if got := clampRepeats(`a{2,1023}b{5000}c{1000}d{7,}`); got != `a{2,1000}b{1000}c{1000}d{7,}` {
		t.Errorf("clampRepeats = %q", got)
	}
}

// TestClassifyUncheckablePattern: a rejection for a value that misses a
// pattern Go cannot compile is the harness's; one for a pattern Go checks
// stays opsgen's (the registry should have refused the input).
func TestClassifyUncheckablePattern(t *testing.T) {
	mk := func(pattern string) *Call {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body","Arn"],"severity":"Error","code":"pattern","message":"Request body property Arn must match pattern \"` + pattern + `\""}]`
		return &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Input: []byte(`{"body":{"Arn":"x"}}`),
			Exchange: exchange("POST", "http://127.0.0.1/", 422, `{}`, v)}
	}
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	c := mk(`^arn:[a-z]{0,1023}$`)
	Classify(c, o, nil)
	if c.Fault != FaultHarness || c.Rule != "reject-pattern-unchecked" {
		t.Errorf("uncompilable pattern: %s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
	c = mk(`^arn:[a-z]{0,10}$`)
	Classify(c, o, nil)
	if c.Fault != FaultOpsgen || c.Rule != "reject-violation" {
		t.Errorf("compilable pattern: %s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
}

// TestClassifyParamOneOf: a path parameter's oneOf of integer and string
// matches both for an integer (GitHub's workflow_id): the description's;
// a oneOf in the body stays opsgen's.
func TestClassifyParamOneOf(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	mk := func(loc string) *Call {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":[` + loc + `],"severity":"Error","code":"oneOf","message":"must match exactly one schema in oneOf"}]`
		return &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("GET", "http://127.0.0.1/w/88", 422, `{}`, v)}
	}
	c := mk(`"path","workflow_id"`)
	Classify(c, o, nil)
	if c.Fault != FaultDescription || c.Rule != "reject-param-oneof" {
		t.Errorf("path oneOf: %s/%s", c.Fault, c.Rule)
	}
	c = mk(`"body","x"`)
	Classify(c, o, nil)
	if c.Fault != FaultOpsgen || c.Rule != "reject-violation" {
		t.Errorf("body oneOf: %s/%s", c.Fault, c.Rule)
	}
	// As Prism writes locations: ["request", "body", ...].
	c = mk(`"request","body","x"`)
	Classify(c, o, nil)
	if c.Fault != FaultOpsgen || c.Rule != "reject-violation" {
		t.Errorf("request body oneOf: %s/%s", c.Fault, c.Rule)
	}
	c = mk(`"request","path","workflow_id"`)
	Classify(c, o, nil)
	if c.Fault != FaultDescription || c.Rule != "reject-param-oneof" {
		t.Errorf("request path oneOf: %s/%s", c.Fault, c.Rule)
	}
}

// TestOracleFloatFormat: the oracle asserts format float's range, so
// Prism's -3.402823669209385e+38 is the mock's data, not a valid body.
func TestOracleFloatFormat(t *testing.T) {
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(`{"type":"number","format":"float"}`), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.VisitJSON(-3.402823669209385e+38, openapi3.EnableFormatValidation()); err == nil {
		t.Error("a number past float32's range is valid for format float")
	}
	if err := s.VisitJSON(1.5, openapi3.EnableFormatValidation()); err != nil {
		t.Error(err)
	}
}

// TestClassifyFragmentPath: AWS's "/v1/tags/{resourceArn}#tagKeys" is
// reached by "/v1/tags/arn1" (the suffix is never sent); Prism, which
// cannot extract the path parameters from the template's text, refuses it:
// the mock's (reject-route-suffix). A request that carries the suffix in
// its path ("%23tagKeys") is not what the template means: not the mock's.
func TestClassifyFragmentPath(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "aws.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  "/v1/tags/{resourceArn}#tagKeys":
    delete:
      parameters:
        - {name: resourceArn, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
  "/v1/tags/{resourceArn}/refs#type":
    delete:
      parameters:
        - {name: resourceArn, in: path, required: true, schema: {type: string}}
      responses: {"204": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["path"],"severity":"Error","code":"required","message":"Request path must have required property 'resourcearn'"}]`
	for u, want := range map[string]string{
		"/v1/tags/arn1?tagKeys=a":           "reject-route-suffix",
		"/v1/tags/arn1/refs":                "reject-route-suffix",
		"/v1/tags/arn1%23tagKeys?tagKeys=a": "reject-violation",
		"/v1/tags/arn1/refs%23type":         "reject-violation",
	} {
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("DELETE", "http://127.0.0.1:1"+u, 422, `{}`, v)}
		Classify(c, o, nil)
		if c.Rule != want || (want == "reject-route-suffix") != (c.Fault == FaultMock) {
			t.Errorf("%s: %s/%s, want %s: %s", u, c.Fault, c.Rule, want, c.Evidence)
		}
	}
}

// TestClassifySuffixPairs: AWS's JSON protocol templates
// ("/#X-Amz-Target=Svc.Get", "/#X-Amz-Target=Svc.List") share a method
// and a path; a request that carries its suffix's pair (the header, as a
// real server routes it) and is validated by Prism against the other is
// the mock's; one that does not carry it is not.
func TestClassifySuffixPairs(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "aws.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  "/#X-Amz-Target=Svc.Get":
    post:
      responses: {"200": {description: ok}}
  "/#X-Amz-Target=Svc.List":
    post:
      responses: {"200": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body","n"],"severity":"Error","code":"type","message":"must be integer"}]`
	for target, want := range map[string]string{"Svc.List": "reject-route-suffix", "Svc.Other": "reject-violation", "": "reject-violation"} {
		x := exchange("POST", "http://127.0.0.1:1/", 422, `{}`, v)
		x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
		if target != "" {
			x.ReqHeaders["X-Amz-Target"] = target
		}
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Rule != want {
			t.Errorf("X-Amz-Target %q: %s/%s, want %s: %s", target, c.Fault, c.Rule, want, c.Evidence)
		}
	}
}

// TestClassifySuffixOverload: Azure's "/recognizeText#overload=stream"
// takes bytes at the path of "/recognizeText", which takes JSON; Prism
// validates the bytes against the JSON one (415). The call of the stream
// operation is the mock's; the same 415 for the JSON operation is not.
func TestClassifySuffixOverload(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "ocr.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /recognizeText:
    post:
      operationId: RecognizeText
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {"202": {description: ok}}
  "/recognizeText#overload=stream":
    post:
      operationId: RecognizeTextInStream
      requestBody: {content: {application/octet-stream: {schema: {type: string, format: binary}}}}
      responses: {"202": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	v := `[{"location":["request"],"severity":"Error","code":415,"message":"Supported content types: application/json"}]`
	for op, want := range map[string]string{"s0.RecognizeTextInStream": "reject-route-suffix", "s0.RecognizeText": "reject-content-type"} {
		x := exchange("POST", "http://127.0.0.1:1/recognizeText", 415, `{}`, v)
		x.ReqHeaders = map[string]string{"Content-Type": "application/octet-stream"}
		c := &Call{Op: op, ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Rule != want {
			t.Errorf("%s: %s/%s, want %s: %s", op, c.Fault, c.Rule, want, c.Evidence)
		}
	}
}

// TestClassifyFragmentPathBody: a body violation of an operation with a
// fragment in its path is not about the fragment.
func TestClassifyFragmentPathBody(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "aws.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  "/#X-Amz-Target=Svc.Op":
    post:
      requestBody: {content: {application/json: {schema: {type: object}}}}
      responses: {"200": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body","n"],"severity":"Error","code":"type","message":"must be integer"}]`
	c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("POST", "http://127.0.0.1:1/%23X-Amz-Target=Svc.Op", 422, `{}`, v)}
	Classify(c, o, nil)
	if c.Rule != "reject-violation" {
		t.Errorf("%s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
}

// TestClassifyParamNameQuirk: rapidapi idealspot-geodata's "location[]"
// query parameter and "insight_id:" path parameter, sent as declared, are
// refused by Prism (see Classify): the mock's. A required parameter the
// request lacks, or a name Prism reads, stays opsgen's.
func TestClassifyParamNameQuirk(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	const (
		query = `{"location":["query"],"severity":"Error","code":"required","message":"Request query must have required property 'location%5b%5d'"}`
		path  = `{"location":["path"],"severity":"Error","code":"required","message":"Request path must have required property 'insight_id:'"}`
		other = `{"location":["query"],"severity":"Error","code":"required","message":"Request query must have required property 'version'"}`
	)
	cases := []struct {
		name, url, violations string
		fault                 Fault
		rule                  string
	}{
		{"bracket name, escaped", "/geometries?location%5B%5D=x&version=1", query, FaultMock, "reject-param-name-quirk"},
		{"bracket name, as is", "/geometries?location[]=x&version=1", query, FaultMock, "reject-param-name-quirk"},
		{"bracket name not sent", "/geometries?version=1", query, FaultOpsgen, "reject-violation"},
		{"colon path variable", "/insights/e2e", path, FaultMock, "reject-param-name-quirk"},
		{"both, and a real one", "/geometries?location%5B%5D=x", query + "," + other, FaultOpsgen, "reject-violation"},
		{"and a header", "/geometries?location%5B%5D=x&version=1", query + `,{"location":["header"],"severity":"Error","code":"required","message":"Request header must have required property 'x-key'"}`, FaultOpsgen, "reject-violation"},
	}
	for _, tc := range cases {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [` + tc.violations + `]`
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("GET", "http://127.0.0.1:1"+tc.url, 422, `{}`, v)}
		Classify(c, o, nil)
		if c.Class != ClassRejected || c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s: %s %s/%s: %s", tc.name, c.Class, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifyIgnoredHeader: vtex declares required Content-Type and
// Accept header parameters, which OpenAPI ignores (so does opsgen); Prism
// requires them: the mock's. Any other missing header, or one of those
// the description does not declare, stays opsgen's.
func TestClassifyIgnoredHeader(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	req := func(name string) string {
		return `{"location":["header"],"severity":"Error","code":"required","message":"Request header must have required property '` + name + `'"}`
	}
	cases := []struct {
		name, url, violations string
		headers               map[string]string
		fault                 Fault
		rule                  string
	}{
		{"content-type and accept", "/documents/1", req("content-type") + "," + req("accept"), nil, FaultMock, "reject-ignored-header"},
		{"accept", "/documents/1", req("accept"), map[string]string{"Content-Type": "application/json"}, FaultMock, "reject-ignored-header"},
		{"and a header opsgen must send", "/documents/1", req("content-type") + "," + req("x-tenant"), nil, FaultOpsgen, "reject-violation"},
		{"not declared", "/items/1", req("content-type"), nil, FaultOpsgen, "reject-violation"},
	}
	for _, tc := range cases {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [` + tc.violations + `]`
		x := exchange("DELETE", "http://127.0.0.1:1"+tc.url, 422, `{}`, v)
		if tc.url == "/items/1" {
			x.Method = "GET"
		}
		x.ReqHeaders = tc.headers
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Class != ClassRejected || c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s: %s %s/%s: %s", tc.name, c.Class, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifyEmptyQuery: vtex's ListSellerLeads sends its required query
// parameter isConnected with the description's default "" and Prism finds
// it missing, beside required Accept and Content-Type headers, which
// OpenAPI ignores. The headers are set aside and the query parameter
// decides: the mock's when the schema accepts "" and allowEmptyValue is
// not true; opsgen's when the parameter is not sent, is not empty, its
// schema refuses "" (minLength, integer), allowEmptyValue makes "" mean
// unused, or the document is Swagger 2.0. Other violations beside the
// headers keep deciding as they would alone.
func TestClassifyEmptyQuery(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	dir := t.TempDir()
	v2 := filepath.Join(dir, "swagger.json")
	if err := os.WriteFile(v2, []byte(`{"swagger":"2.0","info":{"title":"t","version":"1"},"paths":{"/leads":{"get":{"operationId":"listLeads",
		"parameters":[{"name":"isConnected","in":"query","required":true,"type":"string"}],"responses":{"200":{"description":"ok"}}}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o2 := NewOracle(v2)
	if o2.Err != nil {
		t.Fatal(o2.Err)
	}
	req := func(in, name string) string {
		return `{"location":["` + in + `"],"severity":"Error","code":"required","message":"Request ` + in + ` must have required property '` + name + `'"}`
	}
	headers := req("header", "accept") + "," + req("header", "content-type") + ","
	const rest = "named=n&unused=u&count=1"
	cases := []struct {
		name, query, violations string
		o                       *Oracle
		fault                   Fault
		rule                    string
	}{
		{"vtex: headers and an empty value", "isConnected=&" + rest, headers + req("query", "isconnected"), o, FaultMock, "reject-empty-query-quirk"},
		{"an empty value alone", "isConnected=&" + rest, req("query", "isconnected"), o, FaultMock, "reject-empty-query-quirk"},
		{"headers alone", "isConnected=x&" + rest, headers[:len(headers)-1], o, FaultMock, "reject-ignored-header"},
		{"not sent", rest, headers + req("query", "isconnected"), o, FaultOpsgen, "reject-violation"},
		{"not empty", "isConnected=x&" + rest, req("query", "isconnected"), o, FaultOpsgen, "reject-violation"},
		{"a schema that refuses empty", "isConnected=x&named=&unused=u&count=1", headers + req("query", "named"), o, FaultOpsgen, "reject-violation"},
		{"an integer", "isConnected=x&named=n&unused=u&count=", req("query", "count"), o, FaultOpsgen, "reject-violation"},
		{"allowEmptyValue: empty means unused", "isConnected=x&named=n&unused=&count=1", req("query", "unused"), o, FaultOpsgen, "reject-violation"},
		{"and a body violation", "isConnected=&" + rest, headers + req("query", "isconnected") + `,{"location":["body"],"severity":"Error","code":"type","message":"Request body must be object"}`, o, FaultOpsgen, "reject-violation"},
		{"headers and a path Prism took elsewhere", "isConnected=x&" + rest, headers + req("path", "leadId"), o, FaultMock, "reject-misrouted"},
		{"Swagger 2.0, no allowEmptyValue", "isConnected=", req("query", "isconnected"), o2, FaultOpsgen, "reject-violation"},
	}
	for _, tc := range cases {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [` + tc.violations + `]`
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("GET", "http://127.0.0.1:1/leads?"+tc.query, 422, `{}`, v)}
		Classify(c, tc.o, nil)
		if c.Class != ClassRejected || c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s: %s %s/%s: %s", tc.name, c.Class, c.Fault, c.Rule, c.Evidence)
		}
		if tc.rule != "reject-ignored-header" && strings.HasPrefix(tc.violations, headers) && !strings.Contains(c.Evidence, `set aside as the mock's (reject-ignored-header): "accept", "content-type"`) {
			t.Errorf("%s: the evidence does not name the headers set aside: %s", tc.name, c.Evidence)
		}
	}
}

// classifyCase is a made-up call and the fault and rule Classify must give it.
type classifyCase struct {
	name  string
	call  Call
	fault Fault
	rule  string
}

// classifyCases classifies each case's call against o.
func classifyCases(t *testing.T, o *Oracle, cases []classifyCase) {
	t.Helper()
	for _, tc := range cases {
		c := tc.call
		Classify(&c, o, nil)
		if c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s: %s %s/%s: %s", tc.name, c.Class, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifySeed8080 covers what seed 8080 found, each rule both ways:
//   - box's "/shared_items#folders": Prism routes the request to
//     "/shared_items" and serves its response, which the client warns
//     about (warn-route-suffix, the mock's) unless the body does not
//     look like the bare operation's response;
//   - box's form with grant_type required and undeclared: Prism reads
//     only declared properties (reject-form-undeclared-quirk, the mock's)
//     unless the form does not carry the value the input gave;
//   - va.gov's Accept header parameter with an enum: the client's own
//     Accept, a media type the responses declare, is the mock's to refuse
//     (reject-ignored-header), one they do not declare is not;
//   - vtex's same-shape PUT templates: a request without a body, which
//     the operation called does not require, refused for it
//     (reject-ambiguous-path, the description's) unless the operation
//     called requires it.
func TestClassifySeed8080(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	const base = "http://127.0.0.1:1"
	const prism = `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY `
	warned := func(op, body string, warnings ...string) Call {
		return Call{Op: "s." + op, Warnings: warnings, Exchange: exchange("GET", base+"/shelves", 200, body, "")}
	}
	form := func(body, input, violations string) Call {
		x := exchange("POST", base+"/tokens", 422, `{}`, prism+violations)
		x.ReqHeaders = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		x.ReqBody = body
		return Call{Op: "s.revokeToken", ErrCode: "HTTP_ERROR", Requests: 1, Input: json.RawMessage(input), Exchange: x}
	}
	accept := func(value string) Call {
		x := exchange("GET", base+"/facilities", 422, `{}`, prism+`[{"location":["header","accept"],"severity":"Error","code":"enum","message":"Request header parameter accept must be equal to one of the allowed values: application/geo+json, text/csv"}]`)
		x.ReqHeaders = map[string]string{"Accept": value}
		return Call{Op: "s.listFacilities", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
	}
	noBody := func(op string) Call {
		x := exchange("PUT", base+"/accounts/7", 422, `{}`, prism+`[{"severity":"Error","code":"required","message":"Body parameter is required"},{"location":["header"],"severity":"Error","code":"required","message":"Request header must have required property 'content-type'"}]`)
		return Call{Op: "s." + op, ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
	}
	const missing = `[{"location":["request","body"],"severity":"Error","code":"required","message":"Request body must have required property 'grant_type'"}]`
	cases := []classifyCase{
		{"the bare operation's response", warned("listShelves_boxes", `{"kind":"shelf"}`, `/kind: value "shelf" is not one of ["box"]`, `missing required property "size"`), FaultMock, "warn-route-suffix"},
		{"the bare operation's response, wrong there too", warned("listShelves_boxes", `{"kind":"crate"}`, `/kind: value "crate" is not one of ["box"]`, `missing required property "size"`), FaultMock, "warn-route-suffix"},
		{"the called operation's response, not the bare one's", warned("listShelves_boxes", `{"kind":"box","size":"big"}`, `/size: expected integer, got string`), FaultMock, "warn-bad-mock-data"},
		{"the bare operation called", warned("listShelves", `{"kind":"box"}`, `/kind: value "box" is not one of ["shelf"]`), FaultMock, "warn-bad-mock-data"},
		{"undeclared member sent as given", form("grant_type=e2e&token=t", `{"body":{"grant_type":"e2e","token":"t"}}`, missing), FaultMock, "reject-form-undeclared-quirk"},
		{"undeclared member sent as JSON text", form("grant_type=%22e2e%22&token=t", `{"body":{"grant_type":"e2e","token":"t"}}`, missing), FaultOpsgen, "reject-violation"},
		{"undeclared member not sent", form("token=t", `{"body":{"grant_type":"e2e","token":"t"}}`, missing), FaultOpsgen, "reject-violation"},
		{"a declared member missing", form("grant_type=e2e", `{"body":{"grant_type":"e2e"}}`, `[{"location":["request","body"],"severity":"Error","code":"required","message":"Request body must have required property 'token'"}]`), FaultOpsgen, "reject-violation"},
		{"an Accept the responses declare", accept("application/json"), FaultMock, "reject-ignored-header"},
		{"an Accept they do not declare", accept("application/xml"), FaultOpsgen, "reject-violation"},
		{"no body, not required here, required by the twin", noBody("openAccount"), FaultDescription, "reject-ambiguous-path"},
		{"no body, required by the operation called", noBody("updateAccount"), FaultOpsgen, "reject-violation"},
	}
	classifyCases(t, o, cases)
}

// TestClassifySeed6161 covers what seed 6161 found (peertube), each rule
// both ways:
//   - a path id whose oneOf is integer, uuid string and plain string: "80"
//     matches two variants, and Prism lists the uuid's errors beside the
//     oneOf (reject-param-oneof, the description's); a value that matches
//     one variant only stays opsgen's;
//   - categoryOneOf=41,67, oneOf integer and array, explode false: Prism
//     reads the list as one string (reject-oneof-list-quirk, the mock's);
//     a one-item array is ambiguous with the integer (the description's);
//   - such parameters beside other violations are set aside, and the
//     others decide;
//   - a required Content-Length header parameter on a DELETE without
//     content (reject-framing-header, the description's), not when the
//     request has content or the header is not declared.
func TestClassifySeed6161(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	const prism = `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [`
	v := func(in, name, code, msg string) string {
		return `{"location":["` + in + `","` + name + `"],"severity":"Error","code":"` + code + `","message":"` + msg + `"}`
	}
	uuidErrs := v("path", "id", "minLength", "Request path parameter id must NOT have fewer than 36 characters") + "," +
		v("path", "id", "pattern", "Request path parameter id must match pattern") + "," +
		v("path", "id", "format", `Request path parameter id must match format \"uuid\"`) + "," +
		v("path", "id", "oneOf", "Request path parameter id must match exactly one schema in oneOf")
	list := v("query", "categoryoneof", "type", "Request query parameter categoryoneof must be integer") + "," +
		v("query", "categoryoneof", "type", "Request query parameter categoryoneof must be array") + "," +
		v("query", "categoryoneof", "oneOf", "Request query parameter categoryoneof must match exactly one schema in oneOf")
	strict := v("query", "strictoneof", "pattern", "Request query parameter strictoneof must match pattern") + "," +
		v("query", "strictoneof", "oneOf", "Request query parameter strictoneof must match exactly one schema in oneOf")
	get := func(query, input, violations string) Call {
		x := exchange("GET", "http://127.0.0.1:1/videos/80"+query, 422, `{}`, prism+violations+"]")
		return Call{Op: "s.getVideo", ErrCode: "HTTP_ERROR", Requests: 1, Input: json.RawMessage(input), Exchange: x}
	}
	del := func(path, body string) Call {
		x := exchange("DELETE", "http://127.0.0.1:1"+path, 422, `{}`, prism+`{"location":["header"],"severity":"Error","code":"required","message":"Request header must have required property 'content-length'"}]`)
		x.ReqHeaders = map[string]string{"Content-Length": "59.5"} // recorded; net/http does not write it
		x.ReqBody = body
		return Call{Op: "s.cancelUpload", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
	}
	cases := []classifyCase{
		{"an integer id, also a plain string", get("", `{"params":{"id":80}}`, uuidErrs), FaultDescription, "reject-param-oneof"},
		{"a list only the array variant matches", get("?categoryOneOf=41,67", `{"params":{"id":80,"categoryOneOf":[41,67]}}`, list), FaultMock, "reject-oneof-list-quirk"},
		{"a one-item list, also an integer", get("?categoryOneOf=41", `{"params":{"id":80,"categoryOneOf":[41]}}`, list), FaultDescription, "reject-param-oneof"},
		{"a value one variant matches", get("?strictOneOf=Ab", `{"params":{"id":80,"strictOneOf":"Ab"}}`, strict), FaultOpsgen, "reject-violation"},
		{"the id, and an empty value Prism drops", get("?isConnected=", `{"params":{"id":80,"isConnected":""}}`, uuidErrs+`,{"location":["query"],"severity":"Error","code":"required","message":"Request query must have required property 'isconnected'"}`), FaultMock, "reject-empty-query-quirk"},
		{"the id, and a value one variant matches", get("?strictOneOf=Ab", `{"params":{"id":80,"strictOneOf":"Ab"}}`, uuidErrs+","+strict), FaultOpsgen, "reject-violation"},
		{"Content-Length without content", del("/uploads", ""), FaultDescription, "reject-framing-header"},
		{"Content-Length with content", del("/uploads", "x"), FaultOpsgen, "reject-violation"},
		{"Content-Length not declared", del("/items/1", ""), FaultOpsgen, "reject-violation"},
	}
	classifyCases(t, o, cases)
}

// TestClassifyBadHeaderExample: velopayments' Location example is HTML
// with line breaks, which Prism fails to send (500, node's "Invalid
// character in header content"): the description's. The same failure on
// a header whose example is clean is not explained.
func TestClassifyBadHeaderExample(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for header, want := range map[string]string{"Location": "status-bad-header-example", "X-Trace": "status-unexplained"} {
		body := `{"type":"TypeError","title":"Invalid character in header content [\"` + header + `\"]","status":500,"detail":""}`
		c := &Call{Op: "s.createPayor", ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: exchange("POST", "http://127.0.0.1:1/payors", 500, body, "")}
		Classify(c, o, nil)
		if c.Rule != want {
			t.Errorf("%s: %s %s/%s, want %s: %s", header, c.Class, c.Fault, c.Rule, want, c.Evidence)
		}
	}
}

// TestClassifyFormArrayQuirk: twilio's form bodies with array properties,
// sent one pair per item as OpenAPI's default form encoding says, are
// refused by Prism ("must be array"): the mock's. A property the body does
// not carry stays opsgen's.
func TestClassifyFormArrayQuirk(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	mk := func(body string) *Call {
		x := exchange("POST", "http://127.0.0.1:1/compositions", 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body","Excluded"],"severity":"Error","code":"type","message":"Request body property Excluded must be array"}]`)
		x.ReqHeaders = map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		x.ReqBody = body
		return &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
	}
	for body, want := range map[string]string{
		"Excluded=e2e+value&Excluded=e2e+value&Format=webm": "reject-form-array-quirk",
		"Excluded=a":  "reject-form-array-quirk",
		"Format=webm": "reject-violation",
	} {
		c := mk(body)
		Classify(c, o, nil)
		if c.Rule != want {
			t.Errorf("%s: %s/%s, want %s", body, c.Fault, c.Rule, want)
		}
	}
}

// TestClassifyRefSibling: soundcloud's POST /tracks requires track[title]
// in a "required" beside the body schema's $ref, which OpenAPI 3.0 says to
// ignore and Prism applies: the description's. A property required by the
// referenced schema itself stays opsgen's when the request does not carry
// it.
func TestClassifyRefSibling(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	mk := func(name string) *Call {
		x := exchange("POST", "http://127.0.0.1:1/tracks", 400, `{}`, `[{"location":["request","body"],"severity":"Error","code":"required","message":"Request body must have required property '`+name+`'"}]`)
		x.ReqHeaders = map[string]string{"Content-Type": "multipart/form-data; boundary=b"}
		x.ReqBody = "--b\r\nContent-Disposition: form-data; name=\"track[kind]\"\r\n\r\nrock\r\n--b--\r\n"
		return &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
	}
	c := mk("track[title]")
	Classify(c, o, nil)
	if c.Fault != FaultDescription || c.Rule != "reject-ref-sibling" {
		t.Errorf("required beside $ref: %s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
	c = mk("track[genre]")
	Classify(c, o, nil)
	if c.Fault != FaultOpsgen || c.Rule != "reject-violation" {
		t.Errorf("not required beside $ref: %s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
	// britbox's {$ref: X, type: string}: the type beside $ref is ignored
	// too; another type is not the description's.
	for typ, want := range map[string]Fault{"string": FaultDescription, "array": FaultOpsgen} {
		x := exchange("POST", "http://127.0.0.1:1/tracks", 400, `{}`, `[{"location":["request","body"],"severity":"Error","code":"type","message":"Request body must be `+typ+`"}]`)
		x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
		x.ReqBody = `{"track[title]":"t"}`
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Fault != want {
			t.Errorf("type %s beside $ref: %s/%s: %s", typ, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestOracleDurationFormat: the oracle asserts format duration, so Prism's
// "string" for azure scheduler's retryInterval is the mock's data, not a
// valid body (opsgen's runtime.Duration cannot hold it and warns).
func TestOracleDurationFormat(t *testing.T) {
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(`{"type":"string","format":"duration"}`), &s); err != nil {
		t.Fatal(err)
	}
	for v, valid := range map[string]bool{"string": false, "P": false, "PT": false, "P1DT": false, "PT1H30M": true, "P1Y2M3D": true, "P2W": true, "PT0.5S": true} {
		err := s.VisitJSON(v, openapi3.EnableFormatValidation())
		if (err == nil) != valid {
			t.Errorf("%q: %v, want valid %v", v, err, valid)
		}
	}
}

// TestClassifyMisrouted: healthcare's POST /v1beta1/x:evaluateUserConsents
// ({consentStore}:evaluateUserConsents) was validated by Prism as
// {name}:evaluate, which needs "name": the mock's. A missing path
// parameter the matched template has stays opsgen's.
func TestClassifyMisrouted(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	req := func(name string) string {
		return `{"location":["path"],"severity":"Error","code":"required","message":"Request path must have required property '` + name + `'"}`
	}
	cases := []struct {
		name, url, violations string
		fault                 Fault
		rule                  string
	}{
		{"another template's variable", "/v1/%C3%BC-e2e:evaluateUserConsents", req("name"), FaultMock, "reject-misrouted"},
		{"the template's own variable", "/v1/%C3%BC-e2e:evaluateUserConsents", req("consentStore"), FaultOpsgen, "reject-violation"},
		{"and a query parameter", "/v1/x:evaluateUserConsents", req("name") + `,{"location":["query"],"severity":"Error","code":"required","message":"Request query must have required property 'q'"}`, FaultOpsgen, "reject-violation"},
	}
	for _, tc := range cases {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [` + tc.violations + `]`
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("POST", "http://127.0.0.1:1"+tc.url, 422, `{}`, v)}
		Classify(c, o, nil)
		if c.Class != ClassRejected || c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s: %s %s/%s: %s", tc.name, c.Class, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifyDeepArrayQuirk: Prism reads pandascore's deepObject array
// members only from indexed keys, so range[id]=8,42 and an absent optional
// filter[begin_at] are [] to it: the mock's. Too few items sent, an absent
// required member, or a parameter that is not deepObject stay opsgen's.
func TestClassifyDeepArrayQuirk(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "panda.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /leagues:
    get:
      parameters:
        - name: range
          in: query
          style: deepObject
          explode: true
          schema:
            type: object
            required: [must]
            properties:
              id: {type: array, minItems: 2, maxItems: 2, items: {type: integer}}
              begin_at: {type: array, minItems: 1, items: {type: string}}
              must: {type: array, minItems: 1, items: {type: string}}
        - {name: sort, in: query, schema: {type: array, minItems: 2, items: {type: string}}}
      responses: {"200": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	short := func(loc ...string) string {
		l, _ := json.Marshal(append([]string{"request", "query"}, loc...))
		return `{"location":` + string(l) + `,"severity":"Error","code":"minItems","message":"too few"}`
	}
	for _, tc := range []struct {
		name, query, violations string
		want                    Fault
	}{
		{"comma and absent", "range%5Bid%5D=8,42&range%5Bmust%5D=a", short("range", "id") + "," + short("range", "begin_at"), FaultMock},
		{"repeated keys", "range%5Bid%5D=8&range%5Bid%5D=42&range%5Bmust%5D=a", short("range", "id"), FaultMock},
		{"too few", "range%5Bid%5D=8%2C42&range%5Bmust%5D=a", short("range", "id"), FaultOpsgen},
		{"required absent", "range%5Bid%5D=8,42", short("range", "must"), FaultOpsgen},
		{"not deepObject", "sort=a,b", short("sort", "x"), FaultOpsgen},
		{"and a path oneOf", "range%5Bmust%5D=a", short("range", "id") + `,{"location":["request","path","id"],"code":"oneOf","message":"m"}`, FaultDescription},
		{"and a body violation", "range%5Bmust%5D=a", short("range", "id") + `,{"location":["request","body","id"],"code":"oneOf","message":"m"}`, FaultOpsgen},
	} {
		x := exchange("GET", "http://127.0.0.1:1/leagues?"+tc.query, 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [`+tc.violations+`]`)
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Fault != tc.want || tc.want == FaultMock && c.Rule != "reject-deep-array-quirk" {
			t.Errorf("%s: %s/%s: %s", tc.name, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestOracleNullablePart: the oracle reads PandaScore's allOf: [{nullable:
// true}, {$ref: S}] as nullable, as opsgen does; an allOf whose other part
// only describes still refuses null.
func TestOracleNullablePart(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "panda.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /series:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  description: {allOf: [{nullable: true}, {$ref: "#/components/schemas/S"}]}
                  name: {allOf: [{description: The name.}, {$ref: "#/components/schemas/S"}]}
components:
  schemas:
    S: {type: string}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	check := func(body string) ResponseCheck {
		return o.CheckResponse("GET", "http://127.0.0.1:1/series", 200, "application/json", []byte(body))
	}
	if rc := check(`{"description":null,"name":"n"}`); !rc.Valid {
		t.Errorf("null description: %s", rc.Reason)
	}
	if rc := check(`{"description":"d","name":null}`); rc.Valid {
		t.Error("null name is valid")
	}
}

// TestOracleUUIDFormat: the oracle asserts format uuid as the runtime does,
// so azure's example "clientGUID" is the description's, not a valid body.
func TestOracleUUIDFormat(t *testing.T) {
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(`{"type":"string","format":"uuid"}`), &s); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"clientGUID", "11111111-1111-1111-1111-11111111111", "0.2"} {
		if err := s.VisitJSON(bad, openapi3.EnableFormatValidation()); err == nil {
			t.Errorf("%q is a valid uuid", bad)
		}
	}
	if err := s.VisitJSON("6F9619FF-8B86-D011-B42D-00C04FC964FF", openapi3.EnableFormatValidation()); err != nil {
		t.Error(err)
	}
}

// TestClassifyInventedRedirect: swaggerhub's GET /apis declares "303" with
// a Location of no value; Prism answers Location "string", which the client
// follows: the mock's. A Location the description gives, or a request that
// did not follow a redirect, stays opsgen's.
func TestClassifyInventedRedirect(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for _, tc := range []struct {
		name, referer string
		want          Fault
	}{
		{"invented", "http://127.0.0.1:1/apis?order=ASC", FaultMock},
		{"declared", "http://127.0.0.1:1/moved", FaultOpsgen},
		{"no redirect", "", FaultOpsgen},
	} {
		x := exchange("GET", "http://127.0.0.1:1/string", 404, `{}`, "https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR")
		x.ReqHeaders = map[string]string{}
		if tc.referer != "" {
			x.ReqHeaders["Referer"] = tc.referer
		}
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 2, Exchange: x}
		Classify(c, o, nil)
		if c.Fault != tc.want || tc.want == FaultMock && c.Rule != "reject-redirect-invented" {
			t.Errorf("%s: %s/%s: %s", tc.name, c.Fault, c.Rule, c.Evidence)
		}
	}
	// swaggerhub's document, which kin-openapi does not load (a response
	// $ref to a schema): the rule reads it as written.
	doc := filepath.Join(t.TempDir(), "swaggerhub.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /apis:
    get:
      responses:
        "303": {$ref: "#/components/responses/Redirect"}
        "400": {$ref: "#/components/schemas/BadRequest"}
components:
  responses:
    Redirect: {description: Redirect., headers: {Location: {schema: {type: string}}}}
  schemas:
    BadRequest: {type: object}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if o := NewOracle(doc); o.Err == nil || !o.InventedLocation("GET", "http://127.0.0.1:1/apis") {
		t.Errorf("a document kin-openapi does not load (%v): no invented Location found", o.Err)
	}
}

// TestOracleSameShapeTemplates: pubsub's /v1beta2/{project}/subscriptions
// and /v1beta2/{topic}/subscriptions cannot be told apart by a request, so
// a body either operation declares is valid; one neither declares is not.
// A writeOnly member in a response (which OpenAPI says SHOULD NOT be
// sent) is valid, and a required writeOnly member is not required there.
func TestOracleSameShapeTemplates(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "pubsub.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /v1/{project}/subscriptions:
    get:
      operationId: listProjectSubs
      parameters: [{name: project, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: object, additionalProperties: false, properties: {subscriptions: {type: array, items: {type: object}}}}}}
  /v1/{topic}/subscriptions:
    get:
      operationId: listTopicSubs
      parameters: [{name: topic, in: path, required: true, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: object, required: [pk], properties: {subscriptions: {type: array, items: {type: string}}, pk: {type: integer, writeOnly: true}}}}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for body, want := range map[string]bool{`{"subscriptions":["s"]}`: true, `{"subscriptions":[{}]}`: true, `{"subscriptions":[1]}`: false, `{"pk":1}`: true, `{"pk":"x"}`: false, `{"subscriptions":["s"],"pk":1}`: true} {
		if rc := o.CheckResponse("GET", "http://127.0.0.1:1/v1/t/subscriptions", 200, "application/json", []byte(body)); rc.Valid != want {
			t.Errorf("%s: valid %v (%s)", body, rc.Valid, rc.Reason)
		}
	}
	// A warning about the other operation's body is the description's
	// (warn-ambiguous-path); about a body the operation's own response
	// accepts, opsgen's.
	for op, want := range map[string]Fault{"s0.listProjectSubs": FaultDescription, "s0.listTopicSubs": FaultOpsgen} {
		c := &Call{Op: op, Requests: 1, Warnings: []string{"/subscriptions/0: expected object, got string"},
			Exchange: exchange("GET", "http://127.0.0.1:1/v1/t/subscriptions", 200, `{"subscriptions":["s"]}`, "")}
		Classify(c, o, nil)
		if c.Fault != want {
			t.Errorf("%s: %s/%s: %s", op, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifyUntypedEnum: nexmo's delivered (enum [true, false, 0, 1], no
// type) sent as delivered=0 is refused by Prism, which compares the text
// with the numbers: the mock's. A value outside the enum, or a typed enum,
// stays opsgen's.
func TestClassifyUntypedEnum(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "nexmo.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /sms:
    post:
      parameters:
        - {name: delivered, in: query, required: true, schema: {enum: [true, false, 0, 1]}}
        - {name: kind, in: query, schema: {type: integer, enum: [0, 1]}}
      responses: {"200": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for _, tc := range []struct {
		query, param string
		want         Fault
	}{
		{"delivered=0", "delivered", FaultMock},
		{"delivered=true", "delivered", FaultMock},
		{"delivered=2", "delivered", FaultOpsgen},
		{"delivered=yes", "delivered", FaultOpsgen},
		{"kind=0", "kind", FaultOpsgen},
	} {
		v := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["query","` + tc.param + `"],"severity":"Error","code":"enum","message":"m"}]`
		c := &Call{Op: "op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: exchange("POST", "http://127.0.0.1:1/sms?"+tc.query, 422, `{}`, v)}
		Classify(c, o, nil)
		if c.Fault != tc.want || tc.want == FaultMock && c.Rule != "reject-untyped-enum" {
			t.Errorf("%s: %s/%s: %s", tc.query, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestOracleXMLResponse: the oracle reads an XML response as the JSON value
// its schema describes (apisetu's certificates, whose attributes Prism
// writes as elements), so an XML body missing a required member is invalid
// with that member's pointer, and a complete one is valid; before, every
// XML body was "not JSON" and each warning about it was blamed on opsgen.
func TestOracleXMLResponse(t *testing.T) {
	dir := t.TempDir()
	doc := `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {"/cert": {"get": {
		"responses": {"200": {"description": "ok", "content": {"application/xml": {"schema": {"$ref": "#/components/schemas/Cert"}}}}}}}},
		"components": {"schemas": {"Cert": {"type": "object", "properties": {"License": {"type": "object", "required": ["code"],
			"properties": {"code": {"type": "string", "minLength": 1, "xml": {"attribute": true}}}}}}}}}`
	path := dir + "/doc.json"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(path)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if rc := o.CheckResponse("GET", "http://127.0.0.1:1/cert", 200, "application/xml", []byte(`<xml><License code="NT"/></xml>`)); !rc.Known || !rc.Valid {
		t.Errorf("complete body: %+v, want valid", rc)
	}
	if rc := o.CheckResponse("GET", "http://127.0.0.1:1/cert", 200, "application/xml", []byte(`<xml><License><code>NT</code></License></xml>`)); !rc.Valid {
		t.Errorf("attribute written as an element: %+v, want valid", rc)
	}
	rc := o.CheckResponse("GET", "http://127.0.0.1:1/cert", 200, "application/xml", []byte(`<xml><License></License></xml>`))
	if !rc.Known || rc.Valid || !slices.Contains(rc.Pointers, "/License") && !slices.Contains(rc.Pointers, "/License/code") {
		t.Errorf("body without code: %+v, want invalid at /License", rc)
	}
}

// TestClassifyAmbiguousPathBody: vtex's two PUTs on
// /api/creditcontrol/accounts/{accountId} and {creditAccountId}, which
// OpenAPI says must not exist: Prism checks the body against the other
// operation's schema. A body valid for the call's own operation and invalid
// for the other's is the description's; a body invalid for its own
// operation, or a description without the twin, stays opsgen's.
func TestClassifyAmbiguousPathBody(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "vtex.yaml")
	if err := os.WriteFile(doc, []byte(`openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /accounts/{accountId}:
    put:
      operationId: Open
      parameters: [{name: accountId, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {application/json: {schema: {type: object, required: [email, id], properties: {email: {type: string}, id: {type: string}}}}}}
      responses: {"200": {description: ok}}
  /accounts/{creditAccountId}:
    put:
      operationId: Update
      parameters: [{name: creditAccountId, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {application/json: {schema: {type: object, required: [description, email], properties: {description: {type: string}, email: {type: string}}}}}}
      responses: {"200": {description: ok}}
  /single/{id}:
    put:
      operationId: Single
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      requestBody: {content: {application/json: {schema: {type: object, required: [email, id], properties: {email: {type: string}, id: {type: string}}}}}}
      responses: {"200": {description: ok}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := NewOracle(doc)
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	violation := `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body"],"severity":"Error","code":"required","message":"Request body must have required property 'description'"}]`
	for _, tc := range []struct {
		name, op, url, body string
		want                Fault
	}{
		{"twin's schema", "s.Open", "http://127.0.0.1:1/accounts/a", `{"email":"e","id":"i"}`, FaultDescription},
		{"invalid for its own", "s.Open", "http://127.0.0.1:1/accounts/a", `{"email":"e"}`, FaultOpsgen},
		{"no twin", "s.Single", "http://127.0.0.1:1/single/a", `{"email":"e","id":"i"}`, FaultOpsgen},
	} {
		x := exchange("PUT", tc.url, 422, `{}`, violation)
		x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
		x.ReqBody = tc.body
		c := &Call{Op: tc.op, ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if c.Fault != tc.want || tc.want == FaultDescription && c.Rule != "reject-ambiguous-path" {
			t.Errorf("%s: %s/%s: %s", tc.name, c.Fault, c.Rule, c.Evidence)
		}
	}
}

// TestClassifyXMLBodyQuirk: Route53's REST-XML bodies (seed 9001), sent as
// the text/xml their description declares, refused by Prism as a whole
// ("Request body must be object"), are the mock's when the XML reads as a
// value the schema accepts; a document missing a required element, one
// that is not XML, or a body sent as a media type the description does not
// declare stays opsgen's.
func TestClassifyXMLBodyQuirk(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for _, tc := range []struct {
		contentType, body string
		quirk             bool
	}{
		{"text/xml", `<?xml version="1.0" encoding="UTF-8"?><AssociateVpcBody><Comment>c</Comment><VPC><VPCId>v-1</VPCId></VPC></AssociateVpcBody>`, true},
		{"text/xml", `<AssociateVpcBody><VPC></VPC></AssociateVpcBody>`, true},
		{"text/xml", `<AssociateVpcBody><Comment>c</Comment></AssociateVpcBody>`, false}, // VPC is required
		{"text/xml", `<AssociateVpcBody><VPC>`, false},                                   // not a document
		{"application/xml", `<AssociateVpcBody><VPC></VPC></AssociateVpcBody>`, false},   // not declared
	} {
		x := exchange("POST", "http://127.0.0.1:1/hostedzone/z1/associatevpc", 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body"],"severity":"Error","code":"type","message":"Request body must be object"}]`)
		x.ReqHeaders = map[string]string{"Content-Type": tc.contentType}
		x.ReqBody = tc.body
		c := &Call{Op: "s.associateVPC", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if got := c.Rule == "reject-xml-body-quirk"; got != tc.quirk || tc.contentType == "text/xml" && !tc.quirk && c.Fault != FaultOpsgen {
			t.Errorf("%s %s: %s/%s (the quirk: %v): %s", tc.contentType, tc.body, c.Fault, c.Rule, tc.quirk, c.Evidence)
		}
	}
}

// TestClassifyAWSXMLFraming: in an AWS description the XML body's root
// element is the service model's (see awsXMLFraming): Route53's members
// in <ChangeResourceRecordSetsRequest>, S3's payload <Tagging> as the
// document; lists are wrapped. The right framing with content the schema
// accepts is Prism's quirk; the other framing (what opsgen sent before,
// seed 9001) or a list not in its element is opsgen's.
func TestClassifyAWSXMLFraming(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/aws-restxml.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	const rrset, tagging = "POST http://127.0.0.1:1/2013-04-01/hostedzone/z1/rrset/", "PUT http://127.0.0.1:1/b1/tagging"
	for _, tc := range []struct {
		req, body string
		quirk     bool
	}{
		{rrset, `<ChangeResourceRecordSetsRequest><ChangeBatch><Changes><Change><Action>CREATE</Action></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`, true},
		{rrset, `<ChangeBatch><Changes><Change><Action>CREATE</Action></Change></Changes></ChangeBatch>`, false},
		{rrset, `<ChangeResourceRecordSetsBody><ChangeBatch><Changes><Change><Action>CREATE</Action></Change></Changes></ChangeBatch></ChangeResourceRecordSetsBody>`, false},
		{rrset, `<ChangeResourceRecordSetsRequest><ChangeBatch><Changes><Change><Action>MOVE</Action></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`, false},
		// The list not in its element (OpenAPI's default, which the
		// service does not read).
		{rrset, `<ChangeResourceRecordSetsRequest><ChangeBatch><Change><Action>CREATE</Action></Change></ChangeBatch></ChangeResourceRecordSetsRequest>`, false},
		{tagging, `<Tagging><TagSet><Tag><Key>k</Key></Tag></TagSet></Tagging>`, true},
		{tagging, `<PutBucketTaggingRequest><Tagging><TagSet><Tag><Key>k</Key></Tag></TagSet></Tagging></PutBucketTaggingRequest>`, false},
		{tagging, `<TagSet><Tag><Key>k</Key></Tag></TagSet>`, false},
	} {
		method, url, _ := strings.Cut(tc.req, " ")
		x := exchange(method, url, 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body"],"severity":"Error","code":"type","message":"Request body must be object"}]`)
		x.ReqHeaders = map[string]string{"Content-Type": "text/xml"}
		x.ReqBody = tc.body
		c := &Call{Op: "s.op", ErrCode: "HTTP_ERROR", Requests: 1, Exchange: x}
		Classify(c, o, nil)
		if got := c.Rule == "reject-xml-body-quirk"; got != tc.quirk || !tc.quirk && c.Fault != FaultOpsgen {
			t.Errorf("%s %s: %s/%s (the quirk: %v): %s", tc.req, tc.body, c.Fault, c.Rule, tc.quirk, c.Evidence)
		}
	}
}
