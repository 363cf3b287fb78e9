// Package httpclient is what opsgen-generated OpenAPI clients call at run
// time: it serializes parameters and bodies, applies credentials, sends the
// request with net/http, and turns the response into a
// runtime.ResponseEnvelope (or a *runtime.CallError).
//
// Users rarely call it directly. A generated client embeds a *Client, built
// with New from the spec's default server URL and security schemes, and
// passes the user's options through:
//
//	c := petstore.NewClient(
//		httpclient.WithBaseURL("https://staging.example.com/v1"),
//		httpclient.WithHTTPClient(&http.Client{Timeout: 10 * time.Second}),
//		httpclient.WithCredential("api_key", httpclient.APIKey(os.Getenv("PETSTORE_KEY"))),
//		httpclient.WithValidation(runtime.ValidateStrict),
//	)
//
// Credentials are keyed by the name of the security scheme in the spec
// (components.securitySchemes): APIKey for apiKey schemes, BearerToken or
// TokenSource for http bearer, oauth2 and openIdConnect schemes, BasicAuth
// for http basic. Each operation lists its security alternatives; the first
// alternative whose credentials are all configured is applied (see
// Request.Security).
//
// A generated method then builds a Request and calls Do (or Stream for
// text/event-stream operations):
//
//	r := c.hc.NewRequest("getPet", http.MethodGet, "/pets/{petId}")
//	r.PathParam("petId", httpclient.StyleSimple, false, in.PetID)
//	r.QueryParam("fields", httpclient.StyleForm, false, false, in.Fields)
//	r.Security([][]string{{"api_key"}})
//	return httpclient.Do[Pet](ctx, c.hc, r, responses, opts...)
//
// Parameters are serialized as the OpenAPI 3 "Style Examples" table says,
// in the RFC 6570-consistent form of OpenAPI 3.0.4 and 3.1.1 (label style
// without explode joins with ",", "|" and "[ ]" are percent-encoded). The
// literal text of a path template is path text: bytes a path cannot hold
// ('#', '?', space...) are percent-encoded, so "/alerts#resourceArn" stays
// a path and the query parameters after it are sent.
//
// A value whose type has its own JSON encoding (a MarshalJSON method: a
// generated union holding its variant as raw JSON, a tuple, an object with
// additional properties) is serialized from that JSON wherever it goes:
// parameters, form and multipart bodies (FormBody, MultipartBody,
// MultipartObject) as well as JSON bodies. File parts and binary bodies
// take any io.Reader; a File also carries the file name and media type.
// Response bodies are decoded by their actual Content-Type: JSON (and any
// +json type) through the runtime pipeline, text/* as a string, anything
// else as []byte, or handed over unread when the data type is io.ReadCloser.
//
// A Client is safe for concurrent use. A Request is built for one call and
// must not be reused.
package httpclient
