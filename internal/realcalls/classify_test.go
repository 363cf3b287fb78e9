package realcalls

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime/httpclient"
)

// exchange is a recorded exchange with its body kept for the oracle.
func exchange(method, url string, status int, body string, violations string) *Exchange {
	return &Exchange{Method: method, URL: url, Status: status, RespType: "application/json", RespBody: body, body: []byte(body), Violations: violations}
}

// jsonRequest is a POST of the JSON body to url that Prism rejected with
// violations.
func jsonRequest(url, body, violations string) *Exchange {
	x := exchange("POST", url, 422, `{}`, violations)
	x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
	x.ReqBody = body
	return x
}

// multipartExchange is a rejected multipart request with the parts "tags",
// "meta" (plain), "object" (JSON), "file {}" and "media" (JSON, as
// media).
func multipartExchange(violations string, media ...string) *Exchange {
	x := exchange("POST", "http://127.0.0.1:1/parts", 422, `{}`, violations)
	x.ReqHeaders = map[string]string{"Content-Type": "multipart/form-data; boundary=b"}
	m := `{"type":"photo"}`
	if len(media) > 0 {
		m = media[0]
	}
	x.ReqBody = "--b\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nx\r\n--b\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n{}\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"object\"\r\nContent-Type: application/json\r\n\r\n{}\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"file {}\"\r\n\r\ne2e\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"media\"\r\nContent-Type: application/json\r\n\r\n" + m + "\r\n--b--\r\n"
	return x
}

// TestClassify runs every rule of Classify on calls made up against the
// fixture description.
func TestClassify(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	const base = "http://127.0.0.1:1"
	schemes := []httpclient.SecurityScheme{{Name: "key", Type: "apiKey", In: "header", ParamName: "X-Key"}, {Name: "tls", Type: "mutualTLS"}}
	cases := []struct {
		name  string
		call  Call
		class Class
		fault Fault
		rule  string
	}{
		{"ok", Call{Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box"}`, "")}, ClassOK, "", ""},
		{"warning on a valid body", Call{Warnings: []string{"/name: got string, want integer"},
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box"}`, "")}, ClassWarned, FaultOpsgen, "warn-valid-body"},
		{"a date-time the description accepts", Call{Warnings: []string{"/made: not a date-time"},
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box","made":"2024-01-02T03:04:05Z"}`, "")}, ClassWarned, FaultOpsgen, "warn-valid-body"},
		{"warning on the description's bad example", Call{Warnings: []string{"/size: \"XXL\" is not one of S, M, L"},
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box","size":"XXL"}`, "")}, ClassWarned, FaultDescription, "warn-bad-example"},
		{"a warning beside the example's real error", Call{Warnings: []string{"/size: \"XXL\" is not one of S, M, L", "/name: length must be >= 5"},
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box","size":"XXL"}`, "")}, ClassWarned, FaultOpsgen, "warn-unexplained"},
		{"warning on data the mock made up", Call{Warnings: []string{"/0/made: \"string\" is not a date-time"},
			Exchange: exchange("GET", base+"/things", 200, `[{"id":1,"name":"x","made":"string"}]`, "")}, ClassWarned, FaultMock, "warn-bad-mock-data"},
		{"warning about a value the body does not have", Call{Warnings: []string{"/size: \"\" is not one of S, M, L", "missing required property \"name\""},
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1}`, "")}, ClassWarned, FaultOpsgen, "warn-invented-value"},
		{"a null the body does not have", Call{Warnings: []string{"expected array, got null", "expected array, got object"},
			Exchange: exchange("GET", base+"/things", 200, `{"id":1}`, "")}, ClassWarned, FaultOpsgen, "warn-invented-value"},
		{"decode error on a valid body", Call{ErrCode: "DECODE_ERROR", ErrMsg: "cannot unmarshal",
			Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box"}`, "")}, ClassError, FaultOpsgen, "decode-wellformed"},
		{"decode error on an invalid body", Call{ErrCode: "DECODE_ERROR", ErrMsg: "cannot unmarshal",
			Exchange: exchange("GET", base+"/things", 200, `[{"id":"one","name":"x"}]`, "")}, ClassError, FaultOpsgen, "decode-wellformed"},
		{"decode error on what is not JSON", Call{ErrCode: "DECODE_ERROR",
			Exchange: exchange("GET", base+"/things", 200, `<html>`, "")}, ClassError, FaultMock, "decode-not-json"},
		{"input refused before sending", Call{ErrCode: "VALIDATION_ERROR", ErrMsg: "invalid input"}, ClassError, FaultHarness, "input-refused"},
		{"an input its published schema accepts refused", Call{ErrCode: "VALIDATION_ERROR", ErrMsg: "query parameter \"f\": item 0 is not a primitive", RefusedValid: true}, ClassError, FaultOpsgen, "refused-valid-input"},
		{"the called operation's body, where another template matches the URL better", Call{Op: "s.countAreas",
			Exchange: exchange("GET", base+"/areas/rssizones/count", 200, `{"total":3}`, "")}, ClassOK, "", ""},
		{"a body neither operation accepts, accepted without a word", Call{Op: "s.countAreas",
			Exchange: exchange("GET", base+"/areas/rssizones/count", 200, `{"total":"3"}`, "")}, ClassMissed, FaultOpsgen, "ok-invalid-body"},
		{"a day its month does not have, warned about", Call{Warnings: []string{`/at: value "2021-09-31T15:52:25.573Z" does not fit Go type time.Time (not an RFC 3339 date-time): dropped`},
			Exchange: exchange("GET", base+"/findings", 200, `{"at":"2021-09-31T15:52:25.573Z"}`, "")}, ClassWarned, FaultDescription, "warn-bad-example"},
		{"days that exist, a leap second", Call{Exchange: exchange("GET", base+"/findings", 200, `{"at":"2016-12-31T23:59:60Z","on":"2024-02-29"}`, "")}, ClassOK, "", ""},
		{"February 29 of a common year, accepted without a word", Call{Exchange: exchange("GET", base+"/findings", 200, `{"on":"2023-02-29"}`, "")}, ClassMissed, FaultOpsgen, "ok-invalid-body"},
		{"a body the oracle rejects accepted without a word", Call{Exchange: exchange("GET", base+"/items/1", 200, `{"id":"one","name":"box"}`, "")}, ClassMissed, FaultOpsgen, "ok-invalid-body"},
		{"a pattern the oracle cannot compile", Call{Exchange: exchange("GET", base+"/items/1", 200, `{"id":1,"name":"box","code":"string"}`, "")}, ClassOK, "", ""},
		{"null where the schema has no type", Call{Exchange: exchange("GET", base+"/anything", 200, `{"a":null,"b":1}`, "")}, ClassOK, "", ""},
		{"null where the schema's allOf has a type", Call{Exchange: exchange("GET", base+"/anything", 200, `{"tier":null}`, "")}, ClassMissed, FaultOpsgen, "ok-invalid-body"},
		{"null where the schema has a type", Call{Exchange: exchange("GET", base+"/items/1", 200, `{"id":null,"name":"box"}`, "")}, ClassMissed, FaultOpsgen, "ok-invalid-body"},
		{"XML the description declares", Call{ErrCode: "DECODE_ERROR", Exchange: func() *Exchange {
			x := exchange("GET", base+"/xml", 200, `<r><id>1</id></r>`, "")
			x.RespType = "text/xml; charset=utf-8"
			return x
		}()}, ClassError, FaultOpsgen, "xml-untyped"},
		{"XML the description declares, not well-formed", Call{ErrCode: "DECODE_ERROR", Exchange: func() *Exchange {
			// Prism's XML for an array: items named by their index (opensuse obs, seed 3141).
			x := exchange("GET", base+"/xml", 200, `<xml><pkgdep><0>gzip</0></pkgdep></xml>`, "")
			x.RespType = "text/xml; charset=utf-8"
			return x
		}()}, ClassError, FaultMock, "decode-malformed-xml"},
		{"XML the description does not declare", Call{ErrCode: "DECODE_ERROR", Exchange: func() *Exchange {
			x := exchange("GET", base+"/things", 200, `<r/>`, "")
			x.RespType = "text/xml"
			return x
		}()}, ClassError, FaultMock, "decode-not-json"},
		{"XML the request did not accept", Call{ErrCode: "DECODE_ERROR", Exchange: func() *Exchange {
			x := exchange("GET", base+"/xml", 200, `<r/>`, "")
			x.RespType, x.ReqHeaders = "text/xml", map[string]string{"Accept": "application/json"}
			return x
		}()}, ClassError, FaultMock, "decode-not-json"},
		{"a body where the description declares none", Call{ErrCode: "DECODE_ERROR", Exchange: func() *Exchange {
			x := exchange("GET", base+"/files/a.json", 200, `oops`, "")
			x.RespType = "text/plain"
			return x
		}()}, ClassError, FaultOpsgen, "decode-no-content"},
		{"an empty path parameter named in another case", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Input: json.RawMessage(`{"params":{"id":"7","dataSet":""}}`),
			Exchange: exchange("GET", base+"/company/7/", 422, `{}`, `[{"location":["request","path"],"severity":"Error","code":"required","message":"Request path must have required property 'dataset'"}]`)}, ClassRejected, FaultDescription, "reject-empty-path-param"},
		{"a path parameter named in another case that was not empty", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Input: json.RawMessage(`{"params":{"id":"7","dataSet":"full"}}`),
			Exchange: exchange("GET", base+"/company/7/", 422, `{}`, `[{"location":["request","path"],"severity":"Error","code":"required","message":"Request path must have required property 'dataset'"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"failure before sending", Call{ErrCode: "EXECUTION_ERROR", ErrMsg: "cannot encode", Requests: 0}, ClassError, FaultOpsgen, "not-sent"},
		{"connection failed", Call{ErrCode: "TRANSPORT_ERROR", Requests: 1, Exchange: &Exchange{Method: "GET", URL: base + "/things", Err: "EOF"}}, ClassError, FaultMock, "transport"},
		{"no route", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/items%2F1", 404, `{}`, "https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR")}, ClassRejected, FaultOpsgen, "reject-route"},
		{"no route to an undeclared variable", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/docsjson", 404, `{}`, "https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR")}, ClassRejected, FaultDescription, "reject-route-undeclared"},
		{"no route to an operator variable", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/files/a.json", 404, `{}`, "https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR")}, ClassRejected, FaultMock, "reject-route-operator"},
		{"bytes sent where the schema says base64", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("PUT", base+"/things", 400, `{}`, `[{"location":["request","body"],"severity":"Error","code":"pattern","message":"Request body must match pattern \"^[\\w\\d+\\/=]*$\""},{"location":["request","body"],"severity":"Error","code":"format","message":"Request body must match format \"byte\""}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "application/octet-stream"}
				return x
			}()}, ClassRejected, FaultDescription, "reject-binary-base64"},
		{"bytes sent where the schema says object", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("POST", base+"/things", 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body"],"severity":"Error","code":"type","message":"Request body must be object"}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "application/octet-stream"}
				return x
			}()}, ClassRejected, FaultDescription, "reject-binary-object"},
		{"bytes sent where the schema says array", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("POST", base+"/things", 422, `{}`, `[{"location":["body"],"severity":"Error","code":"type","message":"Request body must be array"}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "application/octet-stream"}
				return x
			}()}, ClassRejected, FaultDescription, "reject-binary-object"},
		{"a JSON body that is not an object is not that", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("POST", base+"/things", 422, `{}`, `https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY [{"location":["body"],"severity":"Error","code":"type","message":"Request body must be object"}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
				return x
			}()}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"a JSON body failing format byte is not that", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("PUT", base+"/things", 400, `{}`, `[{"location":["request","body"],"severity":"Error","code":"format","message":"Request body must match format \"byte\""}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "application/json"}
				return x
			}()}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"an empty path parameter the description allows", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Input: json.RawMessage(`{"params":{"id":"7","dataset":""}}`),
			Exchange: exchange("GET", base+"/company/7/", 422, `{}`, `[{"location":["request","path"],"severity":"Error","code":"required","message":"Request path must have required property 'dataset'"}]`)}, ClassRejected, FaultDescription, "reject-empty-path-param"},
		{"a missing path parameter that was not empty is not that", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Input: json.RawMessage(`{"params":{"id":"7","dataset":"full"}}`),
			Exchange: exchange("GET", base+"/company/7/", 422, `{}`, `[{"location":["request","path"],"severity":"Error","code":"required","message":"Request path must have required property 'dataset'"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"invalid request", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/items/x", 422, `{}`, `[{"location":["request","path","id"],"message":"must be integer"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"multipart quirks", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["body","tags"],"severity":"Error","code":"type","message":"Request body property tags must be array"},{"location":["body","meta"],"severity":"Error","message":"Reserved characters used in request body"}]`)}, ClassRejected, FaultMock, "reject-multipart-quirk"},
		{"multipart quirks in the sl-violations header's form", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["request","body","tags"],"severity":"Error","code":"type","message":"Request body property tags must be array"}]`)}, ClassRejected, FaultMock, "reject-multipart-quirk"},
		{"a part the request does not carry is not a quirk", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["request","body","absent"],"severity":"Error","code":"type","message":"Request body property absent must be array"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"an email the runtime refuses is no invented warning", Call{Warnings: []string{"/email: \"example\" is not a valid email"},
			Exchange: exchange("GET", base+"/people/1", 200, `{"email":"example"}`, "")}, ClassWarned, FaultMock, "warn-bad-mock-data"},
		{"an object sent as a JSON part, read as a string", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["body","object"],"severity":"Error","code":"type","message":"Request body property object must be object"}]`)}, ClassRejected, FaultMock, "reject-multipart-quirk"},
		{"an object sent as a plain part is not the quirk", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["body","meta"],"severity":"Error","code":"type","message":"Request body property meta must be object"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"a required part sent, with a name Prism does not read (mist's \"file {}\", seed 3141)", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["request","body"],"severity":"Error","code":"required","message":"Request body must have required property 'file {}'"}]`)}, ClassRejected, FaultMock, "reject-multipart-quirk"},
		{"an anyOf object sent as a JSON part its schema accepts (telegram's media, seed 3141)", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["request","body","media"],"severity":"Error","code":"type","message":"Request body property media must be object"},{"location":["request","body","media"],"severity":"Error","code":"anyOf","message":"Request body property media must match a schema in anyOf"}]`)}, ClassRejected, FaultMock, "reject-multipart-quirk"},
		{"a JSON part its schema refuses is not the quirk", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["request","body","media"],"severity":"Error","code":"type","message":"Request body property media must be object"},{"location":["request","body","media"],"severity":"Error","code":"anyOf","message":"Request body property media must match a schema in anyOf"}]`, `{"type":"audio"}`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"the description's own default, refused by its format", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: jsonRequest(base+"/call_control_applications", `{"failover":"","name":"abc"}`,
			`[{"location":["request","body","failover"],"severity":"Error","code":"format","message":"Request body property failover must match format \"url\""}]`)}, ClassRejected, FaultDescription, "reject-own-default"},
		{"a value that is not the default, refused by its format", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: jsonRequest(base+"/call_control_applications", `{"failover":"x","name":"abc"}`,
			`[{"location":["request","body","failover"],"severity":"Error","code":"format","message":"Request body property failover must match format \"url\""}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"beside a member without a default", Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: jsonRequest(base+"/call_control_applications", `{"failover":"","name":"ab"}`,
			`[{"location":["request","body","failover"],"severity":"Error","code":"format","message":"Request body property failover must match format \"url\""},{"location":["request","body","name"],"severity":"Error","code":"minLength","message":"Request body property name must NOT have fewer than 3 characters"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"a multipart violation that is not a quirk", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: multipartExchange(`[{"location":["body","name"],"severity":"Error","code":"required","message":"Request body must have required property 'name'"}]`)}, ClassRejected, FaultOpsgen, "reject-violation"},
		{"a Content-Type that is no media type", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: func() *Exchange {
				x := exchange("DELETE", base+"/things", 422, `{}`, `[{"location":["header","Content-Type"]}]`)
				x.ReqHeaders = map[string]string{"Content-Type": "e2e"}
				return x
			}()}, ClassRejected, FaultOpsgen, "bad-media-header"},
		{"unauthorized", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/items/1", 401, `{}`, "https://stoplight.io/prism/errors#UNAUTHORIZED")}, ClassRejected, FaultOpsgen, "reject-security"},
		{"not acceptable", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/items/1", 406, `{}`, "https://stoplight.io/prism/errors#NOT_ACCEPTABLE")}, ClassRejected, FaultOpsgen, "reject-accept"},
		{"an operation without a success response", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/broken", 500, `{}`, "")}, ClassError, FaultDescription, "status-no-success"},
		{"the mock's own failure", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/things", 500, `{"type":"https://stoplight.io/prism/errors#UNKNOWN","title":"boom"}`, "")}, ClassError, FaultMock, "status-mock"},
		{"a failure that is not the mock's own", Call{ErrCode: "EXECUTION_ERROR", Requests: 1,
			Exchange: exchange("GET", base+"/things", 500, `{}`, "")}, ClassError, FaultUnknown, "status-unexplained"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.call
			if c.Exchange != nil && c.Requests == 0 && c.ErrCode != "EXECUTION_ERROR" {
				c.Requests = 1
			}
			Classify(&c, o, schemes)
			if c.Class != tc.class || c.Fault != tc.fault || c.Rule != tc.rule {
				t.Errorf("got %s/%s/%s, want %s/%s/%s (evidence: %s)", c.Class, c.Fault, c.Rule, tc.class, tc.fault, tc.rule, c.Evidence)
			}
			if c.Class != ClassOK && c.Evidence == "" {
				t.Error("no evidence")
			}
		})
	}
}

func TestOracleOperation(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	for url, want := range map[string]string{
		"http://h/items/7":      "/items/{id}",
		"http://h/items/a%20b":  "/items/{id}",
		"http://h/things?x=1":   "/things",
		"http://h/items":        "",
		"http://h/items/7/more": "",
	} {
		_, got := o.Operation("GET", url)
		if got != want {
			t.Errorf("Operation(GET %s) = %q, want %q", url, got, want)
		}
	}
	if op, _ := o.Operation("POST", "http://h/things"); op != nil {
		t.Errorf("POST /things found %v", op.OperationID)
	}
	if bad := NewOracle("../../testdata/realcalls/missing.yaml"); bad.Err == nil || !strings.Contains(bad.Err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", bad.Err)
	}
}

func TestLookupPointer(t *testing.T) {
	var doc any
	if err := json.Unmarshal([]byte(`{"a":{"b/c":[1,{"d~e":null}]}}`), &doc); err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]bool{"": true, "/a": true, "/a/b~1c/1/d~0e": true, "/a/b~1c/2": false, "/x": false, "/a/b~1c/0/y": false} {
		if _, ok := lookupPointer(doc, ptr); ok != want {
			t.Errorf("lookupPointer(%s) = %v, want %v", ptr, ok, want)
		}
	}
}

// TestClassifyAWSQueryForm: Prism refusing the form body of an AWS
// query-protocol operation whose description declares XML is the
// description's (the service reads forms); the same refusal of a form
// for any other document, or of another media type, stays opsgen's.
func TestClassifyAWSQueryForm(t *testing.T) {
	const violation = `https://stoplight.io/prism/errors#INVALID_CONTENT_TYPE "Supported content types: text/xml"`
	call := func(url, contentType string) *Call {
		x := exchange("POST", url, 415, `{}`, violation)
		x.ReqHeaders = map[string]string{"Content-Type": contentType}
		x.ReqBody = "RoleArn=a&RoleSessionName=b"
		return &Call{Op: "op", Exchange: x, Requests: 1, ErrCode: "EXECUTION_ERROR"}
	}
	aws := NewOracle("../../testdata/specs/openapi/awsquery.yaml")
	other := NewOracle("../../testdata/specs/openapi/xml.yaml")
	if aws.Err != nil || other.Err != nil {
		t.Fatal(aws.Err, other.Err)
	}
	for _, tc := range []struct {
		name  string
		o     *Oracle
		call  *Call
		fault Fault
		rule  string
	}{
		{"aws form", aws, call("http://127.0.0.1:1/?Action=AssumeRole&Version=2011-06-15", "application/x-www-form-urlencoded"), FaultDescription, "reject-aws-query-form"},
		{"aws json", aws, call("http://127.0.0.1:1/?Action=AssumeRole&Version=2011-06-15", "application/json"), FaultOpsgen, "reject-content-type"},
		{"not aws", other, call("http://127.0.0.1:1/identity", "application/x-www-form-urlencoded"), FaultOpsgen, "reject-content-type"},
	} {
		Classify(tc.call, tc.o, nil)
		if tc.call.Fault != tc.fault || tc.call.Rule != tc.rule {
			t.Errorf("%s: %s / %s (%s), want %s / %s", tc.name, tc.call.Fault, tc.call.Rule, tc.call.Evidence, tc.fault, tc.rule)
		}
	}
}

// TestTransportFault: a call without a response is the harness's when a
// redirect led off the loopback (no network here), opsgen's when the
// first request did, the description's when net/http refused a header
// name that is not a token, and the mock's otherwise.
func TestTransportFault(t *testing.T) {
	for _, tc := range []struct {
		url, err string
		requests int
		fault    Fault
		rule     string
	}{
		{"https://codeload.github.com/me/x/legacy.zip/master", "dial tcp: lookup codeload.github.com: no such host", 2, FaultHarness, "transport-offline"},
		{"https://api.example.com/things", "dial tcp: lookup api.example.com: no such host", 1, FaultOpsgen, "transport-wrong-host"},
		{"http://127.0.0.1:40683/templates/x/compile", `net/http: invalid header field name "ADVICEment API Key"`, 1, FaultDescription, "transport-invalid-header-name"},
		{"http://127.0.0.1:40683/things", `net/http: invalid header field name "X-Key"`, 1, FaultMock, "transport"},
		{"http://127.0.0.1:40683/things", "read tcp 127.0.0.1:5->127.0.0.1:40683: connection reset by peer", 1, FaultMock, "transport"},
		{"http://localhost:40683/things", "EOF", 1, FaultMock, "transport"},
	} {
		x := &Exchange{Method: "GET", URL: tc.url, Err: tc.err}
		c := &Call{Op: "op", Exchange: x, Requests: tc.requests, ErrCode: "TRANSPORT_ERROR", ErrMsg: "sending request"}
		Classify(c, NewOracle("../../testdata/realcalls/classify.yaml"), nil)
		if c.Fault != tc.fault || c.Rule != tc.rule {
			t.Errorf("%s (%s, %d requests): %s / %s, want %s / %s", tc.url, tc.err, tc.requests, c.Fault, c.Rule, tc.fault, tc.rule)
		}
	}
}

// TestRecorderHeaders: the recorded request headers are the ones net/http
// sends: a header parameter named Content-Length (peertube's, seed 6161)
// is not, the length of the body is.
func TestRecorderHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	rec := &recorder{next: http.DefaultTransport}
	for _, tc := range []struct {
		body, want string
	}{{"", ""}, {"hello", "5"}} {
		req, err := http.NewRequest("DELETE", srv.URL, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		if tc.body == "" {
			req.Body, req.ContentLength = nil, 0
		}
		req.Header.Set("Content-Length", "42")
		req.Header.Set("X-Mode", "fast")
		resp, err := rec.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		x, _ := rec.take()
		if got := x.ReqHeaders["Content-Length"]; got != tc.want || x.ReqHeaders["X-Mode"] != "fast" {
			t.Errorf("body %q: recorded Content-Length %q, X-Mode %q; want %q, fast", tc.body, got, x.ReqHeaders["X-Mode"], tc.want)
		}
	}
}

// TestMultipartQuirkWholeBody: the multipart rules read the whole request
// body, not the report's clipped copy (a part after a large file part).
func TestMultipartQuirkWholeBody(t *testing.T) {
	o := NewOracle("../../testdata/realcalls/classify.yaml")
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	body := "--b\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n" + strings.Repeat("x", maxKeep) + "\r\n" +
		"--b\r\nContent-Disposition: form-data; name=\"tags\"\r\n\r\nx\r\n--b--\r\n"
	x := exchange("POST", "http://127.0.0.1:1/parts", 422, `{}`, `[{"location":["request","body","tags"],"severity":"Error","code":"type","message":"Request body property tags must be array"}]`)
	x.ReqHeaders = map[string]string{"Content-Type": "multipart/form-data; boundary=b"}
	x.ReqBody, x.reqBody = clip([]byte(body)), []byte(body)
	c := &Call{ErrCode: "EXECUTION_ERROR", Requests: 1, Exchange: x}
	Classify(c, o, nil)
	if c.Rule != "reject-multipart-quirk" {
		t.Errorf("%s/%s: %s", c.Fault, c.Rule, c.Evidence)
	}
}
