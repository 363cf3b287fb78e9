package realcalls

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/runtime/httpclient"
)

// Class is what happened to a call.
type Class string

// The classes, in the order of the reports.
const (
	// ClassOK: a 2xx answer, decoded, without warnings.
	ClassOK Class = "ok"
	// ClassWarned: a 2xx answer whose envelope carries warnings.
	ClassWarned Class = "warned"
	// ClassRejected: Prism answered 4xx because it judged the request
	// invalid (its sl-violations header or problem body says why).
	ClassRejected Class = "rejected"
	// ClassError: any other CallError (decode, transport, a non-2xx that
	// is not a rejection, input the registry refused).
	ClassError Class = "error"
	// ClassMissed: a 2xx answer decoded without warnings whose body the
	// oracle finds invalid for the description: the client missed it.
	ClassMissed Class = "missed"
)

// Classes lists the classes in report order.
var Classes = []Class{ClassOK, ClassWarned, ClassMissed, ClassRejected, ClassError}

// Fault is whom a non-ok call is blamed on.
type Fault string

// The faults.
const (
	// FaultOpsgen: the generated client or the runtime did something the
	// description does not allow, or complained about what it allows.
	FaultOpsgen Fault = "opsgen"
	// FaultDescription: the description contradicts itself (an example its
	// schema rejects, an operation without a success response...).
	FaultDescription Fault = "description"
	// FaultMock: Prism answered something the description does not allow,
	// refused a request an independent reading allows, or failed.
	FaultMock Fault = "mock"
	// FaultHarness: this suite's input generator or credentials fell short.
	FaultHarness Fault = "harness"
	// FaultUnknown: no rule decided; the evidence is in the report.
	FaultUnknown Fault = "unknown"
)

// Faults lists the faults in report order.
var Faults = []Fault{FaultOpsgen, FaultDescription, FaultMock, FaultHarness, FaultUnknown}

// Classify sets the class, fault, rule and evidence of a call from its
// outcome, Prism's answer and the oracle's reading of the description.
//
// The rules, in order (the Rule field names the one that decided). A rule
// that blames the mock or the description checks what a real server would
// do: the media types and parameters the description declares.
//
// Successful calls (2xx without warnings):
//   - ok-invalid-body -> opsgen (class missed): the oracle finds the body
//     invalid for the description: the client accepted it without a word
//     (not when the oracle's error is a pattern it cannot compile). The
//     body is checked against the operation called when the URL matches
//     its template, though another operation's matches it better.
//
// Warned calls (2xx with warnings):
//   - warn-invented-value -> opsgen: a warning about a value (not a missing
//     member) at a JSON pointer where the body has no value, or a "got
//     null" where the body's value is not null: the client validated
//     something other than what the server sent.
//   - warn-route-suffix -> mock: the operation called has a path template
//     with a "#..." suffix (box's "/shared_items#folders"), which Prism
//     cannot route, and the body is the response of the operation of the
//     bare template ("/shared_items"), where Prism routed the request: it
//     contradicts the called operation's response in more places than,
//     and in every place where, it contradicts the bare one's (or it is
//     valid there). A real server tells them apart by what the request
//     carries, as for reject-route-suffix.
//   - warn-valid-body -> opsgen: the oracle (kin-openapi, formats checked)
//     finds the body valid for the operation's response schema, so the
//     warnings are invented (decode drift, double validation...).
//   - warn-unexplained -> opsgen: the body is invalid, but a warning is at
//     a pointer where the oracle finds nothing wrong (no oracle error at,
//     under or above it): that warning is the client's invention.
//   - warn-bad-example -> description: the body is invalid and the
//     description gives an example for it (Prism's static mode serves
//     examples), so the description's example contradicts its schema.
//   - warn-bad-mock-data -> mock: the body is invalid and no example was
//     given: Prism generated data its schema rejects.
//   - warn-no-schema -> unknown: the oracle finds no schema for it.
//
// Errors and rejections (CallError):
//   - bad-media-header -> opsgen: the request's Content-Type or Accept is
//     not a media type: the client sent a header parameter the
//     description names Content-Type or Accept, which OpenAPI says to
//     ignore, in place of its own (Prism 5 may even crash on it).
//   - refused-valid-input -> opsgen: the registry refused, before sending,
//     an input that the operation's published input schema accepts (an
//     independent validator says so): its validation or its encoding of
//     parameters and bodies refuses what it publishes as valid.
//   - input-refused -> harness: the registry refused every generated input
//     (VALIDATION_ERROR before anything was sent), and the published
//     schema refuses them too. Refusals of inputs before one passed are
//     counted on the call (Refusals, FirstRefusal), not thrown away.
//   - xml-untyped -> opsgen: DECODE_ERROR on a well-formed 2xx XML body
//     whose media type the description declares for the response (AWS's
//     text/xml): a real server answers it, and the client could not read
//     it.
//   - decode-malformed-xml -> mock: DECODE_ERROR on a 2xx body under an
//     XML media type that is not well-formed XML (Prism writes the items
//     of an array as elements named by their index, <0>): no client reads
//     it, and a server that speaks XML does not send it.
//   - decode-declared -> opsgen: the same for another declared media type
//     that is not JSON.
//   - decode-no-content -> opsgen: DECODE_ERROR on a body the description
//     does not declare (the response has no content): nothing to decode.
//   - decode-not-json -> mock: DECODE_ERROR on a 2xx body that is not JSON,
//     of a media type the description does not declare for the response
//     or the request's Accept did not ask for.
//   - decode-wellformed -> opsgen: DECODE_ERROR on a 2xx body that is
//     well-formed JSON. DECODE_ERROR means the answer could not be read;
//     data that contradicts its schema is a warning (warn mode), so the
//     client is at fault even when the body is also the description's or
//     the mock's (the evidence gives the oracle's verdict).
//   - not-sent -> opsgen: an error with no request sent that is not input
//     validation: the client could not build the request (encoding,
//     URL) for an input its own schema accepts.
//   - transport -> mock: the request was sent and the connection failed.
//   - timeout -> mock.
//   - reject-route -> opsgen: Prism found no path or method for the
//     request: the client built a request line that does not route to the
//     operation it called.
//   - reject-route-suffix -> mock: a rejection of a request for an
//     operation whose path template has a "#..." suffix or a "?..." part
//     (AWS's "/v1/tags/{resourceArn}#tagKeys" and "/#Action=AssumeRole",
//     S3's "/{Bucket}?uploads", Box's "/files/{file_id}#get_shared_link"),
//     when the request is what the template means (the path without the
//     suffix, the template's literal query pairs in the query: see
//     Oracle.Operation) and Prism found no route, or another operation
//     shares its method and path: a real server routes it by its query;
//     Prism routes by the template's text.
//   - reject-route-undeclared -> description: the same, for an operation
//     whose path template has a variable no path parameter declares (as
//     "/projects{.format}"): no client can fill it as the server expects.
//   - reject-route-operator -> mock: the same, for a path template with an
//     RFC 6570 operator variable ("{.format}", declared as a path
//     parameter named ".format"): Prism's router matches no path to it.
//   - reject-multipart-quirk -> mock: Prism's multipart/form-data
//     validation applies allowReserved ("Reserved characters used in
//     request body"), which OpenAPI reserves for form-urlencoded bodies,
//     or does not read an array sent as one part per item (as RFC 7578
//     sends repeated values, and as opsgen sends arrays) as an array, or
//     an object sent as an application/json part (OpenAPI's default
//     encoding of an object property) as an object, when the oracle finds
//     the part's JSON valid for the property; or says a required part the
//     request carries is missing, when its name has a space, a bracket or
//     a brace, which Prism's reading loses (mist's "file {}").
//   - reject-misrouted -> mock: every violation is a required path
//     parameter that the path template the request was built for does not
//     have: Prism validated the request against another path item (its
//     router takes "/v1/{name}:evaluate" for "/v1/x:evaluateUserConsents",
//     whose template is "/v1/{consentStore}:evaluateUserConsents").
//   - reject-security -> opsgen: Prism says unauthorized though every
//     scheme of the API was given a credential: the client sent none
//     where the description puts it (harness when a required scheme is
//     of a type the suite cannot give, like mutualTLS).
//   - reject-accept / reject-content-type -> opsgen: 406 or 415: the
//     client's Accept or Content-Type is not one the operation declares.
//   - reject-param-oneof -> description: every violation is a oneOf of a
//     path, query, header or cookie parameter: a parameter value is text,
//     and variants such as integer and string both match "7" (as Prism
//     reads it), so a oneOf of them is ambiguous for any integer. Beside
//     the oneOf, Prism lists each failing variant's errors (peertube's id,
//     oneOf integer, uuid string and plain string: minLength, pattern and
//     format of the uuid): those count when the value, as the input gives
//     it, matches two variants read as text, a number's text or a
//     one-item array. When other violations are left, such parameters are
//     set aside (named in the evidence) and the others decide.
//   - reject-oneof-list-quirk -> mock: every violation is of parameters
//     whose schema is a oneOf without a type, each sent as an array of
//     two or more items that only an array variant matches (peertube's
//     categoryOneOf=41,67, oneOf integer and array of integers, explode
//     false), with only type errors beside the oneOf: Prism's form
//     deserializer splits a list only when the schema's type is array.
//   - reject-empty-path-param -> description: every violation is a
//     required path parameter Prism finds missing, and the input gave it
//     the empty string, which the description allows (brex's dataset,
//     enum ["", "mini", ...]): the client sends the empty segment it was
//     given ("/company/7/"), and no router tells an empty segment from a
//     missing one. Names are compared ignoring case, as Prism lower-cases them.
//   - reject-framing-header -> description: every violation is a
//     required header parameter Content-Length, Transfer-Encoding, Host or
//     Connection of a request without content: HTTP sets those from the
//     message, and net/http writes none from a header map (peertube's DELETE
//     upload-resumable requires Content-Length; RFC 9110 8.6 says a user
//     agent SHOULD NOT send one without content, and Go's transport does
//     not).
//   - reject-pattern-unchecked -> harness: every violation is a value not
//     matching a pattern Go's regexp cannot compile (lookaround,
//     backreferences, repeat counts over 1000): the runtime does not check
//     such patterns (nor does jsonschema/v6), so the registry accepted the
//     harness's value, which the description forbids.
//   - reject-param-name-quirk -> mock: every violation is a required
//     query or path parameter that the request carries but Prism cannot
//     read by its name. A query parameter whose name has characters
//     encodeURI escapes ("location[]", rapidapi idealspot-geodata): when
//     prism-cli prints its routes at startup (createQueryUriTemplate in
//     @stoplight/prism-cli's util/paths.js) it rewrites the operation's
//     parameter name in place with encodeURI, and the validator then looks
//     for "location%5b%5d" among the request's decoded names, which no
//     client sends (location[]=x and location%5B%5D=x are both refused;
//     only location%255B%255D=x, whose name decodes to that text, passes).
//     A path parameter whose name is not an RFC 6570 varname ("insight_id:",
//     the same description): Prism extracts path parameters with
//     uri-template-lite, which matches nothing to "{insight_id:}".
//   - reject-ignored-header -> mock: every violation is a header named
//     Accept, Content-Type or Authorization that the description declares
//     as a header parameter, a definition OpenAPI says "SHALL be ignored"
//     (opsgen does; Prism validates it): required and not carried by the
//     request (vtex's Content-Type on GET requests, which carry no body,
//     and Accept on operations that answer no content), or carried with
//     media types the operation declares (for Accept, by its responses;
//     for Content-Type, by its request body) that the parameter's schema
//     refuses (va.gov's Accept enum without application/json, which its
//     200 response declares). When Prism
//     lists other violations beside them, those are set aside (named in
//     the evidence) and the other violations decide, by the rules here.
//   - reject-empty-query-quirk -> mock: every violation is a required
//     query parameter of an OpenAPI 3 document that the request carries
//     with the empty value ("isConnected="), whose schema accepts "" and
//     which does not set allowEmptyValue true: the empty string is then
//     a value (OpenAPI 3.0.4 and 3.1.1 let an empty value stand for an
//     unused parameter only under allowEmptyValue true), but Prism's
//     validateParams keeps parameter values with lodash's pickBy, which
//     drops "", and finds the parameter missing (vtex's ListSellerLeads,
//     whose isConnected has the default ""). Swagger 2.0 says an empty
//     value may be sent only under allowEmptyValue, so there it stays a
//     violation.
//   - reject-form-array-quirk -> mock: every violation is an
//     application/x-www-form-urlencoded body property that "must be array",
//     and the body carries it as OpenAPI's default encoding (style form,
//     explode) sends arrays, one name=value pair per item: Prism's
//     splitUriParams keeps the last pair of a name and applies no style
//     unless an encoding object states one, so no array passes.
//   - reject-form-undeclared-quirk -> mock: every violation is a
//     required member of an application/x-www-form-urlencoded body that
//     the body's schema requires without declaring it as a property (box's
//     PostOAuth2Revoke requires grant_type, which no property declares),
//     and the body carries it as the input gives it (a string as its
//     text, not its JSON): Prism's deserializeFormBody builds the
//     object only from the schema's properties and drops the member; a
//     server reads the form it was sent.
//   - reject-deep-array-quirk -> mock: every violation is minItems on an
//     array member of a deepObject query parameter, and the request sends
//     the member with at least that many items (as repeated keys or one
//     comma-separated value, PandaScore's documented "filter[id]=1,2") or,
//     when the object does not require it, not at all. Prism's deepObject
//     deserializer builds every member of the schema and reads an array only
//     from indexed keys (filter[id][0]=1), so for it every such member is []
//     (pandascore's range[id] and its absent filter[begin_at]); a server
//     reads what the description documents, and no member it was not sent.
//     When the other violations are all a parameter's oneOf (see
//     reject-param-oneof), the call is reject-param-oneof, the
//     description's.
//   - warn-ambiguous-path -> description: the client warned about a body
//     that contradicts its operation's response, and that is the response
//     of another operation whose path template differs only in its
//     variables' names (pubsub's /v1beta2/{project}/subscriptions and
//     /v1beta2/{topic}/subscriptions), which OpenAPI says "MUST NOT exist":
//     no server, mock or real, can tell which of them a request means.
//   - reject-ambiguous-path -> description: every violation is of the
//     request body, the body is valid for the operation's own request body
//     and invalid for that of another operation of the same method whose
//     path template differs only in its variables' names (vtex's PUT
//     /api/creditcontrol/accounts/{accountId} and {creditAccountId}), which
//     OpenAPI says "MUST NOT exist": no server can route a request to both.
//     The same for a request without a body refused only for it, when the
//     operation's own body is not required and the other's is.
//   - reject-untyped-enum -> mock: every violation is an enum of a query
//     parameter whose schema gives no type, and the value sent is the text
//     of one of the enum's numbers or booleans (nexmo's delivered, enum
//     [true, false, 0, 1], "for curl, use 0 and 1"): Prism compares the
//     query's string with them without coercing it, so no value passes;
//     a server reads the text.
//   - reject-redirect-invented -> mock: the client followed a redirect
//     (the request carries its Referer) to "/string", and the operation at
//     the Referer declares a 3xx response whose Location header gives no
//     value (no example, enum, default, format or pattern): Prism's static
//     mock puts its placeholder "string" there (swaggerhub's GET /apis,
//     "303 Redirect to GET /specs"), where a server redirects to a real
//     resource.
//   - reject-own-default -> description: every violation is of a member
//     of the JSON request body whose value is the default the description
//     gives it, refused by the keywords of its own schema (telnyx's
//     webhook_event_failover_url: {format: url, default: ""}): the
//     description contradicts itself, and the server, whose default it
//     is, takes it.
//   - reject-ref-sibling -> description: every violation is a required
//     body property that an OpenAPI 3.0 document lists in a "required"
//     beside the body schema's $ref, or the body not being of the "type"
//     written there (britbox's {$ref: ItvChangeEmailRequest, type:
//     string}), where the Reference Object's other members "SHALL be
//     ignored" (opsgen ignores them, as a server built from the referenced
//     schema does; Prism applies them).
//   - reject-binary-object -> description: every violation is the whole
//     request body not being an object (or an array), and the body's media
//     type is not JSON, text or a form: the description gives a body of
//     bytes (application/octet-stream: docker's NetworkConnect, qakka's
//     sendMessageBinary) an object (or array) schema.
//   - reject-binary-base64 -> description: every violation is the whole
//     request body failing format "byte" (or a base64 pattern), and the
//     body's media type is not JSON or text: the description gives a body
//     of bytes (application/octet-stream) the schema of a base64 string.
//     The client sends the caller's bytes, as the media type says (and as
//     the real API, xero's attachments, takes them).
//   - reject-violation -> opsgen: Prism lists violations of the request
//     (path, query, header, cookie or body): the registry accepted the
//     input, so the client encoded a valid input into an invalid request,
//     or its input schema is looser than the description (a lost
//     required member, enum or format). The violation is the evidence.
//   - status-no-success -> description: a non-2xx answer Prism did not
//     mark as a rejection, for an operation that declares no 2xx response
//     (Prism answers with what the operation declares).
//   - status-bad-header-example -> description: a 5xx answer in which
//     Prism reports that a response header has an invalid character
//     (node's "Invalid character in header content"), and the
//     description's example for that header has a control character
//     (velopayments' Location example, HTML with line breaks).
//   - status-mock -> mock: a non-2xx answer that is Prism's own failure
//     (a problem document of a prism error type).
//   - status-unexplained -> unknown: any other non-2xx answer.
func Classify(c *Call, o *Oracle, schemes []httpclient.SecurityScheme) {
	x := c.Exchange
	if c.ErrCode == "" {
		if len(c.Warnings) == 0 {
			c.Class = ClassOK
			if x != nil && json.Valid(x.body) {
				// The oracle checks what the client accepted without a word.
				// A pattern kin-openapi cannot compile (\p{XDigit}) is the
				// oracle's failure, not a violation.
				rc := o.CheckResponse(x.Method, x.URL, x.Status, x.RespType, x.body)
				if own := o.TemplateOf(x.Method, opName(c.Op)); rc.Known && !rc.Valid && own != "" && own != rc.Template && o.Matches(own, x.URL) {
					// The URL matches another operation's template better
					// (mist's /sites/{id}/rssizones/{zone} for the called
					// /sites/{id}/{zone_type}/count): the client checks
					// the body against the operation it called, and so
					// does the oracle.
					rc = o.CheckResponseOf(own, x.Method, x.Status, x.RespType, x.body)
				}
				if rc.Known && !rc.Valid && !strings.Contains(rc.Reason, "error parsing regexp") {
					c.Class, c.Fault, c.Rule = ClassMissed, FaultOpsgen, "ok-invalid-body"
					c.Evidence = fmt.Sprintf("%s -> %d; the client gave no warning, the oracle finds the body invalid: %s; body: %s", requestLine(x), x.Status, rc.Reason, clipS(x.RespBody, 600))
				}
			}
			return
		}
		c.Class = ClassWarned
		rc := o.CheckResponse(x.Method, x.URL, x.Status, x.RespType, x.body)
		ev := fmt.Sprintf("%s; warnings: %s; body: %s", requestLine(x), strings.Join(limit(c.Warnings, 4), " | "), clipS(x.RespBody, 600))
		invented := inventedWarning(c.Warnings, x.body)
		if own := o.TemplateOf(x.Method, opName(c.Op)); invented == "" && strings.Contains(own, "#") && own != rc.Template && suffixServed(o, c) == "" {
			// The oracle found the path's bare template; the client
			// validated against the operation called, and so does it.
			rc = o.CheckResponseOf(own, x.Method, x.Status, x.RespType, x.body)
		}
		switch {
		case invented != "":
			c.Fault, c.Rule = FaultOpsgen, "warn-invented-value"
			ev += "; the body has no value at " + invented
		case !rc.Known:
			c.Fault, c.Rule = FaultUnknown, "warn-no-schema"
		case suffixServed(o, c) != "":
			c.Fault, c.Rule = FaultMock, "warn-route-suffix"
			ev += "; " + suffixServed(o, c)
		case rc.Valid && otherOperationsBody(o, c, rc) != "":
			c.Fault, c.Rule = FaultDescription, "warn-ambiguous-path"
			ev += "; " + otherOperationsBody(o, c, rc)
		case rc.Valid:
			c.Fault, c.Rule = FaultOpsgen, "warn-valid-body"
		case unexplainedWarning(c.Warnings, rc.Pointers) != "":
			c.Fault, c.Rule = FaultOpsgen, "warn-unexplained"
			ev += "; no error of the oracle is at or under or above " + unexplainedWarning(c.Warnings, rc.Pointers) + "; oracle: " + rc.Reason
		case rc.HasExample:
			c.Fault, c.Rule = FaultDescription, "warn-bad-example"
			ev += "; oracle: " + rc.Reason
		default:
			c.Fault, c.Rule = FaultMock, "warn-bad-mock-data"
			ev += "; oracle: " + rc.Reason
		}
		c.Evidence = ev
		return
	}
	c.Class = ClassError
	if h := badMediaHeader(x); h != "" {
		c.Fault, c.Rule = FaultOpsgen, "bad-media-header"
		c.Evidence = fmt.Sprintf("%s -> %s; %s: %q is not a media type (OpenAPI ignores header parameters named Accept, Content-Type and Authorization); %s %s", requestLine(x), statusText(x), h, x.ReqHeaders[h], c.ErrCode, clipS(c.ErrMsg, 300))
		if x != nil && x.Status/100 == 4 && x.Violations != "" {
			c.Class = ClassRejected
		}
		return
	}
	switch {
	case c.RefusedValid:
		c.Fault, c.Rule = FaultOpsgen, "refused-valid-input"
		c.Evidence = "the registry refused, before sending, an input the published input schema accepts: " + c.ErrMsg + "; input: " + clipS(string(c.Input), 400)
		return
	case c.ErrCode == "HARNESS" || c.ErrCode == "VALIDATION_ERROR" && c.Requests == 0:
		c.Fault, c.Rule, c.Evidence = FaultHarness, "input-refused", c.ErrMsg
		return
	case x == nil:
		c.Fault, c.Rule, c.Evidence = FaultOpsgen, "not-sent", c.ErrCode+": "+c.ErrMsg
		return
	case c.ErrCode == "TIMEOUT":
		c.Fault, c.Rule, c.Evidence = FaultMock, "timeout", requestLine(x)+": "+c.ErrMsg
		return
	case x.Status == 0:
		c.Fault, c.Rule, c.Evidence = transportFault(x, c.Requests)
		c.Evidence += " " + c.ErrMsg
		return
	case c.ErrCode == "DECODE_ERROR" && x.Status/100 == 2:
		ev := fmt.Sprintf("%s -> %d %s; %s; body: %s", requestLine(x), x.Status, x.RespType, c.ErrMsg, clipS(x.RespBody, 600))
		if !json.Valid(x.body) {
			c.Fault, c.Rule = notJSONFault(o, x)
			types, _ := o.ResponseMediaTypes(x.Method, x.URL, x.Status)
			c.Evidence = ev + "; the description declares " + strconv.Quote(strings.Join(types, ", ")) + " for this response"
			return
		}
		// DECODE_ERROR means "the answer could not be read" (runtime's
		// CodeDecode): on well-formed JSON the client had to warn instead,
		// whatever the body's worth. The oracle says which it is worth.
		c.Fault, c.Rule = FaultOpsgen, "decode-wellformed"
		rc := o.CheckResponse(x.Method, x.URL, x.Status, x.RespType, x.body)
		switch {
		case !rc.Known:
			ev += "; oracle: no schema"
		case rc.Valid:
			ev += "; oracle: the description accepts the body"
		case rc.HasExample:
			ev += "; oracle: the body is the description's example and contradicts its schema (a warning was due): " + rc.Reason
		default:
			ev += "; oracle: the mock's data contradicts the schema (a warning was due): " + rc.Reason
		}
		c.Evidence = ev
		return
	}
	ev := fmt.Sprintf("%s -> %d", requestLine(x), x.Status)
	if x.Violations != "" {
		ev += "; prism: " + clipS(x.Violations, 800)
	} else {
		ev += "; body: " + clipS(x.RespBody, 300)
	}
	prismSays := x.Violations != ""
	if x.Status/100 == 4 && prismSays {
		c.Class = ClassRejected
		// Required Accept, Content-Type or Authorization header parameters,
		// which OpenAPI ignores, are the mock's; beside other violations,
		// those decide (rc and x carry only them).
		rc := c
		if names, rest := splitIgnoredHeaders(o, x); names != "" && rest != "" {
			rc, x = setAside(rc, rest)
			ev += "; set aside as the mock's (reject-ignored-header): " + names
		}
		// Parameters whose oneOf the value matches twice (the description's,
		// see reject-param-oneof) are set aside too when other violations
		// are left: those decide.
		if names, rest := splitOneOfParams(o, x, c.Input); names != "" {
			rc, x = setAside(rc, rest)
			ev += "; set aside as the description's (reject-param-oneof): " + names
		}
		switch {
		case inventedRedirect(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-redirect-invented"
			ev += "; " + inventedRedirect(o, x)
		case suffixRoute(o, rc) != "":
			c.Fault, c.Rule = FaultMock, "reject-route-suffix"
			ev += "; " + suffixRoute(o, rc)
		case strings.Contains(x.Violations, "NO_PATH_MATCHED") || strings.Contains(x.Violations, "NO_METHOD_MATCHED"):
			c.Fault, c.Rule = FaultOpsgen, "reject-route"
			if vars := o.UndeclaredPathVars(x.Method, x.URL); len(vars) > 0 {
				c.Fault, c.Rule = FaultDescription, "reject-route-undeclared"
				ev += "; the path template's variables " + strings.Join(vars, ", ") + " are declared by no path parameter"
			} else if vars := o.OperatorPathVars(x.Method, x.URL); len(vars) > 0 {
				c.Fault, c.Rule = FaultMock, "reject-route-operator"
				ev += "; Prism routes no path to a template with the RFC 6570 operator variables " + strings.Join(vars, ", ")
			}
		case multipartQuirk(o, x):
			c.Fault, c.Rule = FaultMock, "reject-multipart-quirk"
		case x.Status == 401 || x.Status == 403 || strings.Contains(x.Violations, "UNAUTHORIZED"):
			c.Fault, c.Rule = FaultOpsgen, "reject-security"
			for _, name := range o.Security(x.Method, x.URL) {
				if !canCredential(name, schemes) {
					c.Fault = FaultHarness
					ev += "; scheme " + name + " cannot be given a credential"
				}
			}
		case x.Status == 406 || strings.Contains(x.Violations, "NOT_ACCEPTABLE"):
			c.Fault, c.Rule = FaultOpsgen, "reject-accept"
		case (x.Status == 415 || strings.Contains(x.Violations, "UNSUPPORTED_MEDIA")) &&
			strings.HasPrefix(x.ReqHeaders["Content-Type"], "application/x-www-form-urlencoded") && o.AWSQueryXMLBody(x.Method, x.URL):
			c.Fault, c.Rule = FaultDescription, "reject-aws-query-form"
			ev += "; an AWS query-protocol operation (amazonaws.com, Action and Version in the query) whose description declares an XML body: the service reads a POST's parameters from an application/x-www-form-urlencoded form (Name.member.N), which the client sends; Prism wants the declared XML"
		case x.Status == 415 || strings.Contains(x.Violations, "UNSUPPORTED_MEDIA"):
			c.Fault, c.Rule = FaultOpsgen, "reject-content-type"
		case binaryObjectBody(x):
			c.Fault, c.Rule = FaultDescription, "reject-binary-object"
			ev += "; the body's media type " + strconv.Quote(x.ReqHeaders["Content-Type"]) + " is bytes, and its schema is an object: the client sends the caller's bytes, as the media type says, which Prism checks against the object schema (docker's NetworkConnect)"
		case base64Body(x):
			c.Fault, c.Rule = FaultDescription, "reject-binary-base64"
			ev += "; the body's media type " + strconv.Quote(x.ReqHeaders["Content-Type"]) + " is binary, and its schema says format byte (base64 text), which Prism checks against the bytes sent; OpenAPI describes a body of bytes with format binary"
		case untypedEnumParams(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-untyped-enum"
			ev += "; " + untypedEnumParams(o, x)
		case deepArrayQuirk(o, x) != "":
			note, rest := deepArrayQuirkRest(o, x)
			if len(rest) == 0 {
				c.Fault, c.Rule = FaultMock, "reject-deep-array-quirk"
				ev += "; " + note
				break
			}
			// Prism's deepObject reading and a parameter's oneOf whose
			// variants coincide (see reject-param-oneof), nothing else.
			c.Fault, c.Rule = FaultDescription, "reject-param-oneof"
			ev += "; a parameter's oneOf has variants whose serializations coincide, so its value matches more than one; the other violations: " + note + "; input: " + clipS(string(c.Input), 400)
		case paramOneOfGroups(o, x, c.Input) == FaultDescription:
			c.Fault, c.Rule = FaultDescription, "reject-param-oneof"
			ev += "; a parameter's oneOf has variants that the value sent matches more than one of, read as its text (an integer and a plain string, an integer and a one-item array), and Prism lists each variant's errors beside it; input: " + clipS(string(c.Input), 400)
		case paramOneOfGroups(o, x, c.Input) == FaultMock:
			c.Fault, c.Rule = FaultMock, "reject-oneof-list-quirk"
			ev += "; a parameter whose schema is a oneOf without a type, one variant an array, is sent as the array its style serializes (a comma-separated list), which only that variant matches: Prism's deserializer splits a list only when the schema's type is array, so it reads one string; input: " + clipS(string(c.Input), 400)
		case paramOneOfOnly(x.Violations):
			c.Fault, c.Rule = FaultDescription, "reject-param-oneof"
			ev += "; a parameter's oneOf has variants whose serializations coincide (integer 7 and string \"7\" are both 7 in a URL), so its value matches more than one; input: " + clipS(string(c.Input), 400)
		case paramNameQuirk(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-param-name-quirk"
			ev += "; " + paramNameQuirk(o, x)
		case ambiguousBody(o, rc) != "":
			c.Fault, c.Rule = FaultDescription, "reject-ambiguous-path"
			ev += "; " + ambiguousBody(o, rc)
		case misrouted(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-misrouted"
			ev += "; " + misrouted(o, x)
		case ignoredHeaders(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-ignored-header"
			ev += "; the description declares " + ignoredHeaders(o, x) + " as header parameters, which OpenAPI says to ignore (the request does not carry them, or carries media types the operation declares)"
		case emptyQueryQuirk(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-empty-query-quirk"
			ev += "; " + emptyQueryQuirk(o, x)
		case xmlBodyQuirk(o, x) != "":
			c.Fault, c.Rule = FaultMock, "reject-xml-body-quirk"
			ev += "; " + xmlBodyQuirk(o, x)
		case formArrayQuirk(x):
			c.Fault, c.Rule = FaultMock, "reject-form-array-quirk"
		case formUndeclaredQuirk(o, x, c.Input) != "":
			c.Fault, c.Rule = FaultMock, "reject-form-undeclared-quirk"
			ev += "; " + formUndeclaredQuirk(o, x, c.Input)
		case ownDefaults(o, x) != "":
			c.Fault, c.Rule = FaultDescription, "reject-own-default"
			ev += "; the body sends the description's own default for " + ownDefaults(o, x) + ", which the member's schema refuses"
		case refSiblingRequired(o, x) != "":
			c.Fault, c.Rule = FaultDescription, "reject-ref-sibling"
			ev += "; the body schema writes " + refSiblingRequired(o, x) + " beside its $ref (in required, or as its type), which OpenAPI 3.0 says to ignore"
		case emptyPathParams(x.Violations, c.Input) != "":
			c.Fault, c.Rule = FaultDescription, "reject-empty-path-param"
			ev += "; the description allows the empty string for the required path parameters " + emptyPathParams(x.Violations, c.Input) + ", which the client sent as an empty segment; input: " + clipS(string(c.Input), 400)
		case framingHeaders(o, x) != "":
			c.Fault, c.Rule = FaultDescription, "reject-framing-header"
			ev += "; the description requires the header parameters " + framingHeaders(o, x) + ", which HTTP sets from the message itself (RFC 9110 8.6: a user agent SHOULD NOT send Content-Length without content), so no client sends them as parameters"
		case uncheckablePatterns(x.Violations) != "":
			c.Fault, c.Rule = FaultHarness, "reject-pattern-unchecked"
			ev += "; Go's regexp cannot compile " + uncheckablePatterns(x.Violations) + ", so the registry (as jsonschema/v6) does not check it and the harness's value is not refused; input: " + clipS(string(c.Input), 400)
		default:
			c.Fault, c.Rule = FaultOpsgen, "reject-violation"
			ev += "; input: " + clipS(string(c.Input), 400)
		}
		c.Evidence = ev
		return
	}
	switch has, known := o.HasSuccess(x.Method, x.URL); {
	case known && !has:
		c.Fault, c.Rule = FaultDescription, "status-no-success"
	case badHeaderExample(o, x) != "":
		c.Fault, c.Rule = FaultDescription, "status-bad-header-example"
		ev += "; " + badHeaderExample(o, x)
	case prismSays || strings.Contains(x.RespBody, "stoplight.io/prism/errors"):
		c.Fault, c.Rule = FaultMock, "status-mock"
	default:
		c.Fault, c.Rule = FaultUnknown, "status-unexplained"
	}
	c.Evidence = ev
}

// setAside returns a copy of the call whose exchange lists only the
// violations rest, for the rules to decide by them.
func setAside(c *Call, rest string) (*Call, *Exchange) {
	x := *c.Exchange
	x.Violations = rest
	cp := *c
	cp.Exchange = &x
	return &cp, &x
}

// notJSONFault blames a 2xx body that is not JSON and that the client
// could not decode: the client's when the description declares the body's
// media type for the response (a real server answers it: AWS's text/xml is
// "xml-untyped" until opsgen types XML) or declares no body at all; the
// mock's when it answered a media type the description does not declare
// for the response or the request did not accept.
func notJSONFault(o *Oracle, x *Exchange) (Fault, string) {
	got, _, _ := mime.ParseMediaType(x.RespType)
	types, known := o.ResponseMediaTypes(x.Method, x.URL, x.Status)
	accepted := x.ReqHeaders["Accept"] == "" || mediaListed(strings.Split(x.ReqHeaders["Accept"], ","), got)
	switch {
	case known && len(types) == 0:
		return FaultOpsgen, "decode-no-content"
	case got == "application/json" || strings.HasSuffix(got, "+json"):
		// Not JSON under a JSON media type: the mock's body is broken.
	case got != "" && mediaListed(types, got) && accepted:
		if isXMLMedia(got) {
			if !wellFormedXML(x.body) {
				return FaultMock, "decode-malformed-xml"
			}
			return FaultOpsgen, "xml-untyped"
		}
		return FaultOpsgen, "decode-declared"
	}
	return FaultMock, "decode-not-json"
}

// wellFormedXML reports whether body is one well-formed XML document.
func wellFormedXML(body []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(body))
	root := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return root
		}
		if err != nil {
			return false
		}
		if _, ok := tok.(xml.StartElement); ok {
			root = true
		}
	}
}

// mediaListed reports whether the media type mt matches one of the list's
// (parameters ignored; "*/*" and "type/*" match).
func mediaListed(list []string, mt string) bool {
	mt = strings.ToLower(mt)
	for _, l := range list {
		l, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(l)), ";")
		l = strings.TrimSpace(l)
		if l == mt || l == "*/*" || strings.HasSuffix(l, "/*") && strings.HasPrefix(mt, strings.TrimSuffix(l, "*")) {
			return true
		}
	}
	return false
}

// canCredential says whether the suite gave the scheme a credential.
func canCredential(name string, schemes []httpclient.SecurityScheme) bool {
	for _, s := range schemes {
		if s.Name == name {
			return s.Type == "apiKey" || s.Type == "http" || s.Type == "oauth2" || s.Type == "openIdConnect"
		}
	}
	return false
}

func requestLine(x *Exchange) string {
	if x == nil {
		return "(no request)"
	}
	s := x.Method + " " + x.URL
	if ct := x.ReqHeaders["Content-Type"]; ct != "" {
		s += " [" + ct + "] " + clipS(x.ReqBody, 300)
	}
	return s
}

func clipS(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func limit(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], fmt.Sprintf("(%d more)", len(s)-n))
	}
	return s
}

// inventedWarning returns the pointer ("/" for the root) of the first
// warning about a value the body does not have: one at a pointer where the
// body has no value, or one that says "got null" where the body's value is
// not null. Warnings are "POINTER: message" or, at the root, "message";
// those about missing members point at the object that lacks them, which
// exists. It returns "" when there is none.
func inventedWarning(warnings []string, body []byte) string {
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return ""
	}
	for _, w := range warnings {
		ptr, msg := "", w
		if strings.HasPrefix(w, "/") {
			i := strings.Index(w, ": ")
			if i < 0 {
				continue
			}
			ptr, msg = w[:i], w[i+2:]
		}
		v, ok := lookupPointer(doc, ptr)
		if !ok || v != nil && strings.HasSuffix(msg, "got null") {
			if ptr == "" {
				return "/"
			}
			return ptr
		}
	}
	return ""
}

// lookupPointer resolves a JSON pointer in a decoded document.
func lookupPointer(doc any, ptr string) (any, bool) {
	cur := doc
	if ptr == "" {
		return cur, true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// violationAt matches a Prism violation's body location (["body", NAME]
// in its problem body, ["request", "body", NAME] in its sl-violations
// header) and message.
var violationAt = regexp.MustCompile(`"location":\[(?:"request",)?"body","([^"]+)"\][^}]*"message":"([^"]*)"`)

// xmlBodyQuirk explains Prism's refusal of an XML request body as a whole
// ("Request body must be object"): Prism checks the body's text, not the
// document, against the schema. It is the mock's when the description
// declares the XML media type sent and the document reads (as opsgen reads
// XML) as a value the schema accepts; "" otherwise. The element names are
// the schema's properties; the root's name the descriptions do not give
// (APIs.guru's Route53 has no xml.name), so it is not checked.
func xmlBodyQuirk(o *Oracle, x *Exchange) string {
	mt, _, err := mime.ParseMediaType(x.ReqHeaders["Content-Type"])
	if err != nil || !isXMLMedia(mt) || !slices.Contains(o.DeclaredMediaTypes(x.Method, x.URL, "request"), mt) {
		return ""
	}
	if strings.Count(x.Violations, `"location"`) != 1 || !xmlWholeBody.MatchString(x.Violations) {
		return ""
	}
	if valid, known := o.XMLRequestBodyValid(x.Method, x.URL, mt, x.requestBody()); !known || !valid {
		return ""
	}
	return "the description declares the body as " + mt + ", and the XML sent reads as a value its schema accepts; Prism checks the body's text against the schema as a whole (\"Request body must be ...\")"
}

// xmlWholeBody matches Prism's violation of a request body as a whole.
var xmlWholeBody = regexp.MustCompile(`"location":\[(?:"request",)?"body"\][^}]*"message":"Request body must be (?:object|array)"`)

// multipartQuirk reports whether Prism rejected a multipart/form-data
// request only for its known multipart quirks (see Classify).
func multipartQuirk(o *Oracle, x *Exchange) bool {
	ct := x.ReqHeaders["Content-Type"]
	if !strings.HasPrefix(ct, "multipart/form-data") {
		return false
	}
	parts := multipartParts(ct, x.requestBody())
	ms := violationAt.FindAllStringSubmatch(x.Violations, -1)
	req := requiredPart.FindAllStringSubmatch(x.Violations, -1)
	if len(ms)+len(req) == 0 || strings.Count(x.Violations, `"location"`) != len(ms)+len(req) {
		return false
	}
	for _, m := range req {
		// A part the request carries, named with characters Prism's
		// multipart reading loses (mist's required "file {}"; Prism
		// 5.14.2 reads "plain" and loses "a b", "x{y}", "track[genre]").
		if _, sent := parts[m[1]]; !sent || !strings.ContainsAny(m[1], " []{}") {
			return false
		}
	}
	for _, m := range ms {
		name, msg := m[1], m[2]
		switch p, sent := parts[name]; {
		case strings.Contains(msg, "Reserved characters"):
		case strings.HasSuffix(msg, "must be array") && sent:
		case (strings.HasSuffix(msg, "must be object") || strings.HasSuffix(msg, "must match a schema in anyOf") || strings.HasSuffix(msg, "must match exactly one schema in oneOf")) &&
			sent && p.json && o.MultipartPartValid(x.Method, x.URL, name, p.body):
			// An object property sent as a JSON part, as OpenAPI's
			// encoding default says, whose JSON the property's schema
			// accepts: Prism reads the part as a string.
		default:
			return false
		}
	}
	return true
}

// requiredPart matches Prism's violation of a required multipart part.
var requiredPart = regexp.MustCompile(`"location":\[(?:"request",)?"body"\][^}]*"message":"Request body must have required property '([^']+)'"`)

// part is one part of a multipart/form-data body: its content, and
// whether its Content-Type is JSON.
type part struct {
	body []byte
	json bool
}

// multipartParts reads the parts of a multipart/form-data body by name
// (the first of a name), up to the first it cannot read.
func multipartParts(contentType string, body []byte) map[string]part {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	parts := map[string]part{}
	for {
		p, err := r.NextPart()
		if err != nil {
			return parts
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return parts
		}
		mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if _, seen := parts[p.FormName()]; !seen {
			parts[p.FormName()] = part{body: b, json: mt == "application/json" || strings.HasSuffix(mt, "+json")}
		}
	}
}

// unexplainedWarning returns the pointer of the first warning that no
// oracle error explains: none is at it, under it or above it ("" when all
// are explained). Root warnings ("" pointer) are explained by any error.
func unexplainedWarning(warnings, oracle []string) string {
	for _, w := range warnings {
		ptr := ""
		if strings.HasPrefix(w, "/") {
			i := strings.Index(w, ": ")
			if i < 0 {
				continue
			}
			ptr = w[:i]
		}
		explained := false
		for _, q := range oracle {
			if q == ptr || strings.HasPrefix(q, ptr+"/") || strings.HasPrefix(ptr, q+"/") || q == "" {
				explained = true
				break
			}
		}
		if !explained {
			if ptr == "" {
				return "/"
			}
			return ptr
		}
	}
	return ""
}

// badMediaHeader returns "Content-Type" or "Accept" when the request
// carried one that is not a media type ("" otherwise).
func badMediaHeader(x *Exchange) string {
	if x == nil {
		return ""
	}
	for _, h := range []string{"Content-Type", "Accept"} {
		if v, ok := x.ReqHeaders[h]; ok && !strings.Contains(v, "/") {
			return h
		}
	}
	return ""
}

func statusText(x *Exchange) string {
	if x == nil || x.Status == 0 {
		return "no answer"
	}
	return fmt.Sprint(x.Status)
}

// uncheckablePatterns returns the first pattern of Prism's violations (a
// JSON list after the problem type, or the sl-violations header) when every
// violation is a pattern one and none of their patterns compiles with Go's
// regexp; "" otherwise.
func uncheckablePatterns(violations string) string {
	vs := prismViolations(violations)
	if len(vs) == 0 {
		return ""
	}
	first := ""
	for _, v := range vs {
		j := strings.Index(v.Message, "must match pattern \"")
		if v.Code != "pattern" || j < 0 {
			return ""
		}
		p := strings.TrimSuffix(v.Message[j+len("must match pattern \""):], "\"")
		if _, err := regexp.Compile(p); err == nil {
			return ""
		}
		if first == "" {
			first = strconv.Quote(p)
		}
	}
	return first
}

// base64Body reports whether every violation of x is its whole body
// failing format "byte" or a pattern, with at least one format "byte", and
// the body's media type is neither JSON nor text.
func base64Body(x *Exchange) bool {
	ct := strings.ToLower(x.ReqHeaders["Content-Type"])
	if ct == "" || strings.Contains(ct, "json") || strings.HasPrefix(ct, "text/") || strings.Contains(ct, "form") {
		return false
	}
	vs := prismViolations(x.Violations)
	if len(vs) == 0 {
		return false
	}
	byteFormat := false
	for _, v := range vs {
		if len(v.Location) != 2 || v.Location[0] != "request" || v.Location[1] != "body" {
			return false
		}
		switch {
		case v.Code == "format" && strings.HasSuffix(v.Message, `format "byte"`):
			byteFormat = true
		case v.Code == "pattern":
		default:
			return false
		}
	}
	return byteFormat
}

// binaryObjectBody reports whether every violation of x is its whole body
// not being an object (or an array), and the body's media type is neither JSON, text
// nor a form.
func binaryObjectBody(x *Exchange) bool {
	ct := strings.ToLower(x.ReqHeaders["Content-Type"])
	if ct == "" || strings.Contains(ct, "json") || strings.HasPrefix(ct, "text/") || strings.Contains(ct, "form") {
		return false
	}
	vs := prismViolations(x.Violations)
	if len(vs) == 0 {
		return false
	}
	for _, v := range vs {
		loc := strings.Join(v.Location, "/")
		if loc != "body" && loc != "request/body" || v.Code != "type" || !strings.HasSuffix(v.Message, "must be object") && !strings.HasSuffix(v.Message, "must be array") {
			return false
		}
	}
	return true
}

// paramOneOfGroups reads violations that are all about parameters whose
// schema is a oneOf, each parameter's list including the oneOf's own
// ("must match exactly one schema in oneOf") beside its variants' errors:
// FaultDescription when each value, as the input gives it, matches more
// than one variant read as text (see valueVariants), or some does and the
// others are FaultMock's; FaultMock when each value is an array of two or
// more items that only an array variant matches and the parameter's
// errors are only of type (see Classify's reject-oneof-list-quirk); ""
// otherwise.
func paramOneOfGroups(o *Oracle, x *Exchange, input json.RawMessage) Fault {
	vs := prismViolations(x.Violations)
	var in struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if len(vs) == 0 || json.Unmarshal(input, &in) != nil {
		return ""
	}
	type group struct {
		in, name     string
		oneOf, typed bool
		other        bool
	}
	groups := map[string]*group{}
	var order []string
	for _, v := range vs {
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if len(loc) != 2 || !slices.Contains([]string{"path", "query", "header", "cookie"}, loc[0]) {
			return ""
		}
		key := loc[0] + "\x00" + strings.ToLower(loc[1])
		g := groups[key]
		if g == nil {
			g = &group{in: loc[0], name: loc[1]}
			groups[key] = g
			order = append(order, key)
		}
		switch v.Code {
		case "oneOf":
			g.oneOf = true
		case "type":
			g.typed = true
		default:
			g.other = true
		}
	}
	verdict := FaultMock
	for _, key := range order {
		g := groups[key]
		s := o.ParamSchemaFold(x.Method, x.URL, g.in, g.name)
		if !g.oneOf || s == nil || len(s.OneOf) < 2 {
			return ""
		}
		var raw json.RawMessage
		for k, r := range in.Params {
			if strings.EqualFold(k, g.name) {
				raw = r
			}
		}
		var val any
		if json.Unmarshal(raw, &val) != nil {
			return ""
		}
		matched, arrayOnly := valueVariants(s, val)
		switch {
		case matched >= 2:
			verdict = FaultDescription
		case arrayOnly && !g.other:
		default:
			return ""
		}
	}
	return verdict
}

// splitOneOfParams sets apart, when other violations are left, those of
// the parameters whose oneOf the value matches more than once (see
// paramOneOfGroups), and returns their names and the other violations in
// Prism's form; "" and the violations unchanged otherwise.
func splitOneOfParams(o *Oracle, x *Exchange, input json.RawMessage) (names, rest string) {
	i := strings.Index(x.Violations, "[")
	var raws []json.RawMessage
	if i < 0 || json.Unmarshal([]byte(x.Violations[i:]), &raws) != nil {
		return "", x.Violations
	}
	byParam := map[string][]json.RawMessage{}
	var kept []json.RawMessage
	var order []string
	for _, raw := range raws {
		var v prismViolation
		_ = json.Unmarshal(raw, &v)
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if len(loc) != 2 || !slices.Contains([]string{"path", "query", "header", "cookie"}, loc[0]) {
			kept = append(kept, raw)
			continue
		}
		key := loc[0] + " " + strings.ToLower(loc[1])
		if byParam[key] == nil {
			order = append(order, key)
		}
		byParam[key] = append(byParam[key], raw)
	}
	var set []string
	for _, key := range order {
		list, _ := json.Marshal(byParam[key])
		one := &Exchange{Method: x.Method, URL: x.URL, Violations: x.Violations[:i] + string(list)}
		if paramOneOfGroups(o, one, input) == FaultDescription {
			set = append(set, strconv.Quote(key))
			continue
		}
		kept = append(kept, byParam[key]...)
	}
	if len(set) == 0 || len(kept) == 0 {
		return "", x.Violations
	}
	list, _ := json.Marshal(kept)
	return strings.Join(set, ", "), x.Violations[:i] + string(list)
}

// valueVariants counts the variants of s's oneOf that val matches when a
// parameter's text is read back: as itself, as a number's or a string's
// text in the other type, as a one-item array of it or, for a one-item
// array, as its item (form and simple styles write [36] as "36"). arrayOnly reports that val is an array of
// two or more items and that only array variants match it.
func valueVariants(s *openapi3.Schema, val any) (matched int, arrayOnly bool) {
	forms := []any{val}
	scalar := val
	if items, ok := val.([]any); ok && len(items) == 1 {
		scalar = items[0] // [41] is written as 41 is
		forms = append(forms, scalar)
	}
	switch v := scalar.(type) {
	case float64:
		forms = append(forms, strconv.FormatFloat(v, 'f', -1, 64))
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			forms = append(forms, f)
		}
	case bool:
		forms = append(forms, strconv.FormatBool(v))
	}
	items, isArray := val.([]any)
	arrays := 0
	for _, variant := range s.OneOf {
		if variant == nil || variant.Value == nil {
			continue
		}
		vv := variant.Value
		ok := false
		for _, f := range forms {
			ok = ok || vv.VisitJSON(f) == nil
		}
		if !isArray && vv.Type != nil && vv.Type.Is("array") {
			ok = ok || vv.VisitJSON([]any{val}) == nil
		}
		if ok {
			matched++
			if vv.Type != nil && vv.Type.Is("array") {
				arrays++
			}
		}
	}
	return matched, isArray && len(items) >= 2 && matched == arrays && arrays > 0 && (s.Type == nil || len(*s.Type) == 0)
}

// paramOneOfOnly reports whether every violation of Prism's list is a
// oneOf one located in a parameter (not the body).
func paramOneOfOnly(violations string) bool {
	return paramOneOfList(prismViolations(violations))
}

// paramOneOfList reports whether vs is not empty and every violation is a
// oneOf of a parameter (path, query, header or cookie; Prism's locations
// start with "request").
func paramOneOfList(vs []prismViolation) bool {
	for _, v := range vs {
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if v.Code != "oneOf" || len(loc) == 0 || !slices.Contains([]string{"path", "query", "header", "cookie"}, loc[0]) {
			return false
		}
	}
	return len(vs) > 0
}

// emptyPathParams returns the names (comma-separated) of the path
// parameters when every violation is Prism's "Request path must have
// required property 'NAME'" and the input's params.NAME is "" (else "").
func emptyPathParams(violations string, input json.RawMessage) string {
	i := strings.Index(violations, "[")
	if i < 0 {
		return ""
	}
	var vs []struct {
		Location []string `json:"location"`
		Message  string   `json:"message"`
	}
	var in struct {
		Params map[string]any `json:"params"`
	}
	if json.Unmarshal([]byte(violations[i:]), &vs) != nil || len(vs) == 0 || json.Unmarshal(input, &in) != nil {
		return ""
	}
	var names []string
	for _, v := range vs {
		name, ok := strings.CutPrefix(v.Message, "Request path must have required property '")
		name, ok2 := strings.CutSuffix(name, "'")
		if !ok || !ok2 || !slices.Equal(v.Location, []string{"request", "path"}) {
			return ""
		}
		// Prism lower-cases parameter names: the input's may differ in case.
		given := false
		for k, v := range in.Params {
			if strings.EqualFold(k, name) {
				if v != "" {
					return ""
				}
				given = true
			}
		}
		if !given {
			return ""
		}
		names = append(names, name)
	}
	return strings.Join(names, ", ")
}

// suffixRoute says why a rejection of a request for an operation whose
// path template has a "#..." suffix or a "?..." part is Prism's ("" when
// it is not): the request is what the template means (the path without the
// suffix, the literal query pairs present, as Oracle.Operation matches
// them), which a real server (AWS, Box) routes by method, path and query;
// Prism routes by the template's text, so it finds no route, or validates
// the request against the operation that shares its method and path.
func suffixRoute(o *Oracle, c *Call) string {
	x := c.Exchange
	_, tmpl := o.Operation(x.Method, x.URL)
	// The operation called, by its operationId (the registry id's name),
	// when it is one of the templates sharing the path the oracle found.
	if _, id, ok := strings.Cut(c.Op, "."); ok {
		if t := o.TemplateOf(x.Method, id); t != "" && t != tmpl && slices.Contains(o.SharedRoutes(x.Method, tmpl), t) {
			tmpl = t
		}
	}
	u, err := url.Parse(x.URL)
	if !strings.ContainsAny(tmpl, "#?") || err != nil || strings.Contains(u.Path, "#") {
		return "" // a '#' in the path is not what the template means
	}
	// The suffix's name=value pairs ("#Action=AssumeRole",
	// "#X-Amz-Target=Lightsail_20161128.GetBundles") are what a real
	// server routes by: the request carries each, in its query or headers,
	// of the template it was built for (the oracle, which reads no
	// headers, may have taken one that shares its path).
	others := o.SharedRoutes(x.Method, tmpl)
	if !carriesSuffix(tmpl, u, x.ReqHeaders) {
		i := slices.IndexFunc(others, func(t string) bool { return carriesSuffix(t, u, x.ReqHeaders) })
		if i < 0 {
			return ""
		}
		tmpl, others[i] = others[i], tmpl
	}
	if v := pathParamsOnly(x.Violations, tmpl); v != "" {
		return "the request is " + strconv.Quote(tmpl) + " as the template means it (the #... suffix is never sent, the ?... part is the query) and carries its path parameters " + v + ", which Prism cannot extract from the template's literal text"
	}
	if strings.Contains(x.Violations, "NO_PATH_MATCHED") || strings.Contains(x.Violations, "NO_METHOD_MATCHED") {
		return "the request is " + strconv.Quote(tmpl) + " as the template means it (the #... suffix is never sent, the ?... part is the query): Prism routes by the template's literal text and finds no route"
	}
	if len(others) > 0 {
		return "the request is " + strconv.Quote(tmpl) + " as the template means it, which shares its method and path with " + strconv.Quote(others[0]) + ": Prism validated it against that operation (a real server tells them apart by the query or the headers the suffix names)"
	}
	return ""
}

// carriesSuffix reports whether the request carries each name=value pair
// of the template's "#..." suffix in its query or its headers.
func carriesSuffix(tmpl string, u *url.URL, headers map[string]string) bool {
	i := strings.IndexByte(tmpl, '#')
	if i < 0 {
		return true
	}
	for _, p := range strings.Split(tmpl[i+1:], "&") {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		carried := slices.Contains(u.Query()[k], v)
		for h, hv := range headers {
			carried = carried || strings.EqualFold(h, k) && hv == v
		}
		if !carried {
			return false
		}
	}
	return true
}

// pathParamsOnly returns the names (quoted, comma-separated) when every
// violation is a required path parameter that is a variable of tmpl,
// ignoring case as Prism lower-cases them ("" otherwise).
func pathParamsOnly(violations, tmpl string) string {
	vs := prismViolations(violations)
	if len(vs) == 0 {
		return ""
	}
	var names []string
	for _, v := range vs {
		m := requiredProperty.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil || m[1] != "path" || !strings.Contains(strings.ToLower(tmpl), "{"+strings.ToLower(m[2])+"}") {
			return ""
		}
		names = append(names, strconv.Quote(m[2]))
	}
	return strings.Join(names, ", ")
}

// rfc6570Varname matches an RFC 6570 variable name (section 2.3).
var rfc6570Varname = regexp.MustCompile(`^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$`)

// requiredProperty reads the parameter name of Prism's "Request query
// must have required property 'location%5b%5d'".
var requiredProperty = regexp.MustCompile(`^Request (query|path|header) must have required property '(.*)'$`)

// paramNameQuirk explains, when every violation Prism lists is a required
// query or path parameter the request carries under a name Prism cannot
// read (see Classify, reject-param-name-quirk), why for each; "" when one
// is not.
func paramNameQuirk(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	if len(vs) == 0 {
		return ""
	}
	u, err := url.Parse(x.URL)
	if err != nil {
		return ""
	}
	_, tmpl := o.Operation(x.Method, x.URL)
	var why []string
	for _, v := range vs {
		m := requiredProperty.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil {
			return ""
		}
		name := m[2]
		switch m[1] {
		case "query":
			// Prism looks for the encodeURI form of the declared name (lower
			// case) among the decoded names of the request.
			declared, err := url.PathUnescape(name)
			if err != nil || declared == name || !hasQueryName(u.Query(), declared) {
				return ""
			}
			why = append(why, fmt.Sprintf("the query carries %q, which Prism looks for as %q (prism-cli rewrites the declared name with encodeURI)", declared, name))
		case "path":
			if rfc6570Varname.MatchString(name) || !strings.Contains(tmpl, "{"+name+"}") {
				return ""
			}
			why = append(why, fmt.Sprintf("the path fills {%s} of %q, a variable name RFC 6570 does not allow, so Prism's uri-template-lite extracts no parameters from it", name, tmpl))
		default:
			return ""
		}
	}
	return strings.Join(why, "; ")
}

// hasQueryName reports whether q has a parameter named name, ignoring case
// as Prism does.
func hasQueryName(q url.Values, name string) bool {
	for k := range q {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

// misrouted says why Prism validated the request against another path
// item ("" when it did not): every violation is a required path parameter
// that is not a variable of the path template the request matches (as
// Oracle.Operation finds it, the longest literal match).
func misrouted(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	if len(vs) == 0 {
		return ""
	}
	_, tmpl := o.Operation(x.Method, x.URL)
	if tmpl == "" {
		return ""
	}
	var names []string
	for _, v := range vs {
		m := requiredProperty.FindStringSubmatch(v.Message)
		// Prism lower-cases the names: a variable of the template in
		// another case is the template's own.
		if v.Code != "required" || m == nil || m[1] != "path" || strings.Contains(strings.ToLower(tmpl), "{"+strings.ToLower(m[2])+"}") {
			return ""
		}
		names = append(names, strconv.Quote(m[2]))
	}
	return "Prism requires the path parameters " + strings.Join(names, ", ") + ", which the path template " + strconv.Quote(tmpl) + " the request matches does not have: it routed the request to another path item"
}

// ignoredHeaders returns the names (comma-separated) when every violation
// Prism lists is a required header parameter OpenAPI ignores (see
// splitIgnoredHeaders); "" otherwise.
func ignoredHeaders(o *Oracle, x *Exchange) string {
	names, rest := splitIgnoredHeaders(o, x)
	if rest != "" {
		return ""
	}
	return names
}

// splitIgnoredHeaders sets apart the violations Prism lists that are a
// required header parameter OpenAPI ignores (Accept, Content-Type,
// Authorization) which the description declares for the operation and
// the request lacks. It returns their names (comma-separated, "" when
// there is none) and the violations text without them ("" when none is
// left), in the form Prism gives: its error type, then the JSON list.
func splitIgnoredHeaders(o *Oracle, x *Exchange) (names, rest string) {
	i := strings.Index(x.Violations, "[")
	var raws []json.RawMessage
	if i < 0 || json.Unmarshal([]byte(x.Violations[i:]), &raws) != nil || len(raws) == 0 {
		return "", x.Violations
	}
	var ignored []string
	var kept []json.RawMessage
	for _, raw := range raws {
		var v prismViolation
		if json.Unmarshal(raw, &v) == nil && ignoredHeader(o, x, v) {
			name, ok := ignoredHeaderValue(o, x, v)
			if !ok {
				name = requiredProperty.FindStringSubmatch(v.Message)[2]
			}
			ignored = append(ignored, strconv.Quote(name))
			continue
		}
		kept = append(kept, raw)
	}
	if len(ignored) == 0 {
		return "", x.Violations
	}
	if len(kept) == 0 {
		return strings.Join(ignored, ", "), ""
	}
	list, _ := json.Marshal(kept) // RawMessages are kept as they are
	return strings.Join(ignored, ", "), x.Violations[:i] + string(list)
}

// ignoredHeader reports whether v is about a header Accept, Content-Type
// or Authorization that the description declares as a header parameter of
// the operation: required and not carried by the request, or carried with
// a value the client chose from what the operation declares (an Accept of
// media types its responses declare, a Content-Type its request body
// declares) and refused by the parameter's schema (va.gov's Accept enum).
func ignoredHeader(o *Oracle, x *Exchange, v prismViolation) bool {
	if name, ok := ignoredHeaderValue(o, x, v); ok {
		return o.DeclaresHeader(x.Method, x.URL, name)
	}
	m := requiredProperty.FindStringSubmatch(v.Message)
	if v.Code != "required" || m == nil || m[1] != "header" {
		return false
	}
	name := m[2]
	switch strings.ToLower(name) {
	case "accept", "content-type", "authorization":
	default:
		return false
	}
	for h := range x.ReqHeaders {
		if strings.EqualFold(h, name) {
			return false
		}
	}
	return o.DeclaresHeader(x.Method, x.URL, name)
}

// ignoredHeaderValue returns the header's name when v is at an Accept or
// Content-Type header ["header", name] that the request carries with media
// types the operation declares (see ignoredHeader).
func ignoredHeaderValue(o *Oracle, x *Exchange, v prismViolation) (string, bool) {
	loc := v.Location
	if len(loc) > 0 && loc[0] == "request" {
		loc = loc[1:]
	}
	if len(loc) != 2 || loc[0] != "header" {
		return "", false
	}
	in := map[string]string{"accept": "response", "content-type": "request"}[strings.ToLower(loc[1])]
	if in == "" {
		return "", false
	}
	var sent string
	for h, val := range x.ReqHeaders {
		if strings.EqualFold(h, loc[1]) {
			sent = val
		}
	}
	declared := o.DeclaredMediaTypes(x.Method, x.URL, in)
	if sent == "" || len(declared) == 0 {
		return "", false
	}
	for r := range strings.SplitSeq(sent, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(r))
		if err != nil || !slices.ContainsFunc(declared, func(d string) bool { return mediaListed([]string{d}, mt) }) {
			return "", false
		}
	}
	return loc[1], true
}

// framingHeaders returns the names (comma-separated) when every violation
// Prism lists is a required header Content-Length, Transfer-Encoding,
// Host or Connection that the description declares as a header parameter
// of the operation, and the request has no body; "" otherwise (see
// Classify's reject-framing-header).
func framingHeaders(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	if len(vs) == 0 || x.ReqBody != "" {
		return ""
	}
	var names []string
	for _, v := range vs {
		m := requiredProperty.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil || m[1] != "header" {
			return ""
		}
		switch strings.ToLower(m[2]) {
		case "content-length", "transfer-encoding", "host", "connection":
		default:
			return ""
		}
		if !o.DeclaresHeader(x.Method, x.URL, m[2]) {
			return ""
		}
		names = append(names, strconv.Quote(m[2]))
	}
	return strings.Join(names, ", ")
}

// invalidHeaderContent is node's error when a header value has a
// character HTTP does not allow there, as Prism's problem title gives it.
var invalidHeaderContent = regexp.MustCompile(`"title":"Invalid character in header content \[\\"([^"\\]+)\\"\]"`)

// badHeaderExample explains a 5xx answer of Prism failing to set a
// response header (see Classify's status-bad-header-example) when the
// description's example for that header has a control character (a line
// break), which no header value can carry; "" otherwise.
func badHeaderExample(o *Oracle, x *Exchange) string {
	m := invalidHeaderContent.FindStringSubmatch(x.RespBody)
	if x.Status/100 != 5 || m == nil {
		return ""
	}
	for _, e := range o.ResponseHeaderExamples(x.Method, x.URL, m[1]) {
		if strings.ContainsFunc(e, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			return fmt.Sprintf("the description's example for the response header %s is %q, which has a control character no header value can carry (RFC 9110 5.5); Prism answers 500 when it sends it", m[1], clipS(e, 200))
		}
	}
	return ""
}

// emptyQueryQuirk explains, when every violation Prism lists is a required
// query parameter the request carries with an empty value (see Classify's
// reject-empty-query-quirk), why for each; "" when one is not.
func emptyQueryQuirk(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	u, err := url.Parse(x.URL)
	if len(vs) == 0 || err != nil || o.Swagger2() {
		return ""
	}
	q := u.Query()
	var names []string
	for _, v := range vs {
		m := requiredProperty.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil || m[1] != "query" {
			return ""
		}
		var sent []string
		for k, vals := range q {
			if strings.EqualFold(k, m[2]) {
				sent = append(sent, vals...)
			}
		}
		if len(sent) != 1 || sent[0] != "" {
			return ""
		}
		p := o.QueryParam(x.Method, x.URL, m[2])
		if p == nil || p.AllowEmptyValue || p.Schema == nil || p.Schema.Value == nil || p.Schema.Value.VisitJSON("") != nil {
			return ""
		}
		names = append(names, strconv.Quote(p.Name))
	}
	return "the request carries the required query parameters " + strings.Join(names, ", ") + " with the empty value, which their schemas accept and which is a value, not an absence, as allowEmptyValue is not true (OpenAPI 3.0.4 and 3.1.1: only allowEmptyValue true lets an empty value stand for an unused parameter); Prism's validateParams drops empty values (lodash pickBy) and finds them missing"
}

// formUndeclaredQuirk explains, when every violation Prism lists is a
// required member of a form-urlencoded body that the body's schema
// requires without declaring it as a property, and that the body carries
// as the input gives it (a string as its text), why (see Classify's
// reject-form-undeclared-quirk); "" otherwise.
func formUndeclaredQuirk(o *Oracle, x *Exchange, input json.RawMessage) string {
	if !strings.HasPrefix(x.ReqHeaders["Content-Type"], "application/x-www-form-urlencoded") {
		return ""
	}
	vs := prismViolations(x.Violations)
	form, err := url.ParseQuery(string(x.requestBody()))
	var in struct {
		Body map[string]json.RawMessage `json:"body"`
	}
	if len(vs) == 0 || err != nil || json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, v := range vs {
		m := requiredBodyProperty.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil || len(form[m[1]]) != 1 || !o.FormUndeclared(x.Method, x.URL, m[1]) {
			return ""
		}
		var want string
		if json.Unmarshal(in.Body[m[1]], &want) != nil {
			want = string(in.Body[m[1]])
		}
		if form.Get(m[1]) != want {
			return "" // not the value the caller gave: the client's encoding
		}
	}
	var names []string
	for _, v := range vs {
		m := requiredBodyProperty.FindStringSubmatch(v.Message)
		names = append(names, strconv.Quote(m[1]))
	}
	return "the form carries " + strings.Join(names, ", ") + ", which the body's schema requires without declaring it as a property; Prism's deserializeFormBody reads only the schema's declared properties from a form, so it finds them missing"
}

// requiredBodyProperty is Prism's message for a missing member of the body.
var requiredBodyProperty = regexp.MustCompile(`^Request body must have required property '(.*)'$`)

// formArrayQuirk reports whether Prism rejected a form-urlencoded body only
// for array properties the body carries as name=value pairs (see Classify).
func formArrayQuirk(x *Exchange) bool {
	if !strings.HasPrefix(x.ReqHeaders["Content-Type"], "application/x-www-form-urlencoded") {
		return false
	}
	ms := violationAt.FindAllStringSubmatch(x.Violations, -1)
	if len(ms) == 0 || strings.Count(x.Violations, `"location"`) != len(ms) {
		return false
	}
	form, err := url.ParseQuery(string(x.requestBody()))
	if err != nil {
		return false
	}
	for _, m := range ms {
		if !strings.HasSuffix(m[2], "must be array") || len(form[m[1]]) == 0 {
			return false
		}
	}
	return true
}

// deepArrayQuirk returns what the request sent for each deepObject array
// member Prism finds too short, when every violation is one and the
// request satisfies it (see Classify's reject-deep-array-quirk); ""
// otherwise.
func deepArrayQuirk(o *Oracle, x *Exchange) string {
	note, rest := deepArrayQuirkRest(o, x)
	if note == "" || len(rest) > 0 && !paramOneOfList(rest) {
		return ""
	}
	return note
}

// deepArrayQuirkRest returns the note of deepArrayQuirk for the violations
// that are minItems on a deepObject array member, and the other
// violations; note is "" when there is none or one is a real shortfall.
func deepArrayQuirkRest(o *Oracle, x *Exchange) (note string, rest []prismViolation) {
	vs := prismViolations(x.Violations)
	u, err := url.Parse(x.URL)
	if len(vs) == 0 || err != nil {
		return "", nil
	}
	// The items of each key as sent: repeated keys, or one value's
	// comma-separated parts (split before unescaping, so that an escaped
	// comma stays inside its item).
	items := map[string]int{}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k, err = url.QueryUnescape(k); err == nil {
			items[k] += strings.Count(v, ",") + 1
		}
	}
	var sent, absent []string
	for _, v := range vs {
		if v.Code != "minItems" || len(v.Location) != 4 || v.Location[0] != "request" || v.Location[1] != "query" {
			rest = append(rest, v)
			continue
		}
		param, member := v.Location[2], v.Location[3]
		min, required, ok := o.DeepArrayMember(x.Method, x.URL, param, member)
		key := param + "[" + member + "]"
		switch n := items[key]; {
		case !ok:
			rest = append(rest, v)
		case n == 0 && !required:
			absent = append(absent, key)
		case n == 0 || uint64(n) < min:
			return "", nil
		default:
			sent = append(sent, fmt.Sprintf("%s with %d items", key, n))
		}
	}
	var parts []string
	if len(sent) > 0 {
		parts = append(parts, "the request sends "+strings.Join(sent, ", ")+" (enough for minItems)")
	}
	if len(absent) > 0 {
		parts = append(parts, "the optional members "+strings.Join(absent, ", ")+" are not sent")
	}
	if len(parts) == 0 {
		return "", rest
	}
	return strings.Join(parts, "; ") + "; Prism reads a deepObject array only from indexed keys (name[k][0]) and builds every member of the schema", rest
}

// otherOperationsBody explains a warned body that the oracle accepts only
// as the response of another operation the request reaches too (see
// Classify's warn-ambiguous-path); "" otherwise.
func otherOperationsBody(o *Oracle, c *Call, rc ResponseCheck) string {
	x := c.Exchange
	_, id, ok := strings.Cut(c.Op, ".")
	if !ok {
		return ""
	}
	own := o.TemplateOf(x.Method, id)
	if own == "" || own == rc.Template {
		return ""
	}
	if _, tmpls := o.operations(x.Method, x.URL); !slices.Contains(tmpls, own) {
		return ""
	}
	if mine := o.CheckResponseOf(own, x.Method, x.Status, x.RespType, x.body); !mine.Known || mine.Valid {
		return ""
	}
	return fmt.Sprintf("the body is the response of %s %s, whose template differs from the operation's %s only in its variables' names (OpenAPI: such paths \"MUST NOT exist\"), and contradicts the operation's own", x.Method, rc.Template, own)
}

// suffixServed explains a warned body that is the response of another
// operation sharing the called operation's path (see Classify's
// warn-route-suffix): the called operation's
// template has a "#..." suffix, which Prism cannot route, another
// operation of the method has the bare template, which Prism routes the
// request to, and the body's errors against the called operation's
// response are more than, and include, those against the other's (none
// when it is valid there); "" otherwise.
func suffixServed(o *Oracle, c *Call) string {
	x := c.Exchange
	own := o.TemplateOf(x.Method, opName(c.Op))
	if !strings.Contains(own, "#") {
		return ""
	}
	bare, _, _ := strings.Cut(own, "#")
	if !slices.Contains(o.SharedRoutes(x.Method, own), bare) {
		return ""
	}
	mine := o.CheckResponseOf(own, x.Method, x.Status, x.RespType, x.body)
	other := o.CheckResponseOf(bare, x.Method, x.Status, x.RespType, x.body)
	if !mine.Known || mine.Valid || !other.Known || len(other.Pointers) >= len(mine.Pointers) {
		return ""
	}
	for _, p := range other.Pointers {
		if !slices.Contains(mine.Pointers, p) {
			return ""
		}
	}
	note := "the body is the response of " + x.Method + " " + bare + ", which Prism routes the request to"
	if !other.Valid {
		note += " (and contradicts it too: " + other.Reason + ")"
	}
	return note + " by the template's text; the operation called is " + own + ", which a real server tells apart by what the request carries (its query, headers or body), as for reject-route-suffix"
}

// opName is the operation's name in a registry id "namespace.name".
func opName(id string) string {
	_, name, _ := strings.Cut(id, ".")
	return name
}

// ambiguousBody explains a rejected body (see Classify's
// reject-ambiguous-path); "" otherwise.
func ambiguousBody(o *Oracle, c *Call) string {
	x := c.Exchange
	vs := prismViolations(x.Violations)
	_, id, ok := strings.Cut(c.Op, ".")
	if len(vs) == 0 || !ok {
		return ""
	}
	if x.ReqBody == "" {
		return ambiguousNoBody(o, x, vs, id)
	}
	for _, v := range vs {
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if len(loc) == 0 || loc[0] != "body" {
			return ""
		}
	}
	own := o.TemplateOf(x.Method, id)
	if valid, known := o.RequestBodyValidOf(own, x.Method, x.requestBody()); own == "" || !known || !valid {
		return ""
	}
	_, tmpls := o.operations(x.Method, x.URL)
	if !slices.Contains(tmpls, own) {
		return ""
	}
	for _, t := range tmpls {
		if t == own {
			continue
		}
		if valid, known := o.RequestBodyValidOf(t, x.Method, x.requestBody()); known && !valid {
			return fmt.Sprintf("the body is valid for the operation's own template %s and invalid for %s %s, which differs from it only in its variables' names (OpenAPI: such paths \"MUST NOT exist\")", own, x.Method, t)
		}
	}
	return ""
}

// ambiguousNoBody explains a request sent without a body that Prism
// refused only for the missing body: the operation called does not require
// one, and an operation of the same method whose path template differs
// only in its variables' names does (vtex's PUT
// /api/creditcontrol/accounts/{accountId} and {creditAccountId}); "" otherwise.
func ambiguousNoBody(o *Oracle, x *Exchange, vs []prismViolation, id string) string {
	for _, v := range vs {
		if v.Code != "required" || v.Message != "Body parameter is required" {
			return ""
		}
	}
	own := o.TemplateOf(x.Method, id)
	if req, known := o.RequestBodyRequiredOf(own, x.Method); own == "" || !known || req {
		return ""
	}
	_, tmpls := o.operations(x.Method, x.URL)
	if !slices.Contains(tmpls, own) {
		return ""
	}
	for _, t := range tmpls {
		if req, _ := o.RequestBodyRequiredOf(t, x.Method); t != own && req {
			return fmt.Sprintf("the request has no body, which the operation's own template %s does not require and %s %s, which differs from it only in its variables' names, does (OpenAPI: such paths \"MUST NOT exist\")", own, x.Method, t)
		}
	}
	return ""
}

// untypedEnumParams explains violations that are all an enum of a query
// parameter whose schema gives no type and whose enum has values that are
// not strings, for a value sent that is one of them written as text (see
// Classify's reject-untyped-enum); "" otherwise.
func untypedEnumParams(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	u, err := url.Parse(x.URL)
	if len(vs) == 0 || err != nil {
		return ""
	}
	q := u.Query()
	var names []string
	for _, v := range vs {
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if v.Code != "enum" || len(loc) != 2 || loc[0] != "query" || len(q[loc[1]]) != 1 {
			return ""
		}
		s := o.ParamSchema(x.Method, x.URL, "query", loc[1])
		if s == nil || s.Type != nil && len(*s.Type) > 0 {
			return ""
		}
		sent := q.Get(loc[1])
		var read any
		if json.Unmarshal([]byte(sent), &read) != nil {
			return ""
		}
		if _, ok := read.(string); ok || !slices.ContainsFunc(s.Enum, func(e any) bool { return reflect.DeepEqual(e, read) }) {
			return ""
		}
		names = append(names, loc[1]+"="+sent)
	}
	return "the request sends " + strings.Join(names, ", ") + ", the text of a value of the parameter's enum, which gives no type: Prism compares the query's string with the enum's numbers and booleans, a server reads the text"
}

// inventedRedirect explains a request to Prism's placeholder "/string"
// that the client reached by following a redirect (the request's Referer
// is where it came from) which the operation at the Referer declares
// without a Location value (see Classify's reject-redirect-invented); ""
// otherwise.
func inventedRedirect(o *Oracle, x *Exchange) string {
	from := x.ReqHeaders["Referer"]
	u, err := url.Parse(x.URL)
	if from == "" || err != nil || u.Path != "/string" || !o.InventedLocation(x.Method, from) {
		return ""
	}
	return "the client followed the redirect of " + from + ", whose Location the description gives no value, to Prism's placeholder \"string\""
}

// bodyRequired reads the property of Prism's "Request body must have
// required property 'track[title]'".
var bodyRequired = regexp.MustCompile(`^Request body must have required property '(.*)'$`)

// refSiblingRequired returns the properties (quoted, comma-separated) when
// every violation is a required body property the description requires
// only beside a $ref (see Classify); "" otherwise.
func refSiblingRequired(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	if len(vs) == 0 {
		return ""
	}
	var names []string
	for _, v := range vs {
		if v.Code == "type" && slices.Equal(v.Location, []string{"request", "body"}) {
			if t := o.RefSiblingType(x.Method, x.URL, x.ReqHeaders["Content-Type"]); t != "" && v.Message == "Request body must be "+t {
				names = append(names, "type "+strconv.Quote(t))
				continue
			}
			return ""
		}
		m := bodyRequired.FindStringSubmatch(v.Message)
		if v.Code != "required" || m == nil || !o.RefSiblingRequired(x.Method, x.URL, x.ReqHeaders["Content-Type"], m[1]) {
			return ""
		}
		names = append(names, strconv.Quote(m[1]))
	}
	return strings.Join(names, ", ")
}

// prismViolation is one entry of the list of violations Prism reports (its
// sl-violations header, or the problem document's validation list).
type prismViolation struct {
	Location []string `json:"location"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
}

// ownDefaults returns the members (quoted, comma-separated) when every
// violation is of a member of a JSON request body, other than a missing
// one, whose value is the default the description gives it (see
// Classify's reject-own-default); "" otherwise.
func ownDefaults(o *Oracle, x *Exchange) string {
	vs := prismViolations(x.Violations)
	var body map[string]any
	if len(vs) == 0 || json.Unmarshal(x.requestBody(), &body) != nil {
		return ""
	}
	var names []string
	for _, v := range vs {
		loc := v.Location
		if len(loc) > 0 && loc[0] == "request" {
			loc = loc[1:]
		}
		if len(loc) != 2 || loc[0] != "body" || v.Code == "required" {
			return ""
		}
		sent, ok := body[loc[1]]
		def, known := o.BodyPropertyDefault(x.Method, x.URL, loc[1])
		if !ok || !known || !reflect.DeepEqual(sent, def) {
			return ""
		}
		if q := strconv.Quote(loc[1]); !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	return strings.Join(names, ", ")
}

// prismViolations decodes the JSON list in Prism's violations text (from
// its first "["); nil when there is none or it does not decode.
func prismViolations(violations string) []prismViolation {
	i := strings.Index(violations, "[")
	if i < 0 {
		return nil
	}
	var vs []prismViolation
	if json.Unmarshal([]byte(violations[i:]), &vs) != nil {
		return nil
	}
	return vs
}

// transportFault blames a request that got no response:
//   - one to a host other than the loopback mock's, which the client
//     reached by following a redirect the mock answered with the
//     description's example Location (GitHub's artifact downloads): a real
//     server redirects there too, and the harness runs without a network
//     ("transport-offline", the harness's);
//   - one net/http refused to send because a header's name is not an HTTP
//     token (RFC 9110, 5.1): the description names a header parameter or
//     apiKey scheme so ("ADVICEment API Key"), which no server can receive
//     ("transport-invalid-header-name", the description's);
//   - one to another host without a redirect: the client ignored its base
//     URL ("transport-wrong-host", opsgen's);
//   - otherwise the mock's connection failed ("transport", the mock's).
//
// requests counts the requests of the call (redirects followed included).
func transportFault(x *Exchange, requests int) (Fault, string, string) {
	ev := requestLine(x) + ": " + x.Err
	if u, err := url.Parse(x.URL); err == nil && u.Hostname() != "" && !loopbackHost(u.Hostname()) {
		if requests < 2 {
			return FaultOpsgen, "transport-wrong-host", ev + "; the client's first request went to " + u.Host + ", not to its base URL"
		}
		return FaultHarness, "transport-offline", ev + "; a redirect led to " + u.Host + ", which the harness, without a network, cannot reach"
	}
	if m := invalidHeaderName.FindStringSubmatch(x.Err); m != nil {
		if name, err := strconv.Unquote(m[1]); err == nil && !validHeaderName(name) {
			return FaultDescription, "transport-invalid-header-name", ev + "; the description names a header " + m[1] + ", which is not an HTTP token (RFC 9110, 5.1): no server can receive it"
		}
	}
	return FaultMock, "transport", ev
}

// invalidHeaderName is net/http's refusal of a header name.
var invalidHeaderName = regexp.MustCompile(`invalid header field name ("(?:[^"\\]|\\.)*")`)

// loopbackHost reports whether host is the loopback, where Prism listens.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validHeaderName reports whether name is an HTTP token (RFC 9110, 5.6.2).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}
