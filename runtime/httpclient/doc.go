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
// stream operations, Pages for the pages of a list):
//
//	r := c.hc.NewRequest("getPet", http.MethodGet, "/pets/{petId}", "pets")
//	r.PathParam("petId", httpclient.StyleSimple, false, in.PetID)
//	r.QueryParam("fields", httpclient.StyleForm, false, false, in.Fields)
//	r.Security([][]string{{"api_key"}})
//	return httpclient.Do[Pet](ctx, c.hc, r, responses, opts...)
//
// Parameters are serialized as the OpenAPI 3 "Style Examples" table says,
// in the RFC 6570-consistent form of OpenAPI 3.0.4 and 3.1.1 (label style
// without explode joins with ",", "|" and "[ ]" are percent-encoded). The
// literal text of a path template is path text: bytes a path cannot hold
// (space, '[', ...) are percent-encoded. A '#' ends the template (AWS's and
// Box's "/files/{id}#add_shared_link": the suffix only tells operations
// apart and is never sent) and a '?' starts a literal query
// ("/{Bucket}?uploads"), sent before the query parameters.
//
// A value whose type has its own JSON encoding (a MarshalJSON method: a
// generated union holding its variant as raw JSON, a tuple, an object with
// additional properties) is serialized from that JSON wherever it goes:
// parameters, form and multipart bodies (FormBody, MultipartBody,
// MultipartObject) as well as JSON bodies. File parts and binary bodies
// take any io.Reader; a File also carries the file name and media type.
// Response bodies are decoded by their actual Content-Type: JSON (and any
// +json type) through the runtime pipeline; XML (application/xml, text/xml,
// +xml) the same way when the data type is not a string or []byte, first
// converted to the JSON value its schema describes (runtime/xmljson, which
// XMLBody uses the other way for request bodies); text/* as a string,
// anything else as []byte, or handed over unread when the data type is
// io.ReadCloser.
//
// # Middlewares and hooks
//
// Every request carries its operation in its context: OperationFrom(ctx)
// returns the operation id, method, path template and tags, in a
// middleware, a hook or the *http.Client's own transport. WithMiddleware
// installs a client-wide chain of Middleware (func(http.RoundTripper)
// http.RoundTripper; the first is the outermost; the innermost sends with
// the *http.Client). WithBeforeRequest and WithAfterResponse add hooks
// called for every attempt before the chain and with the response it
// returns; an error from a hook fails the call without retries.
// RedactedURL gives a request's URL with credentials masked, for logs and
// traces. Package runtime/telemetry is a middleware that records
// OpenTelemetry spans and the http.client.request.duration metric (a
// package of its own: clients that do not use it do not link
// OpenTelemetry).
//
//	c := petstore.NewClient(
//		petstore.WithMiddleware(telemetry.Middleware(), func(next http.RoundTripper) http.RoundTripper {
//			return httpclient.RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
//				op, _ := httpclient.OperationFrom(req.Context())
//				log.Printf("%s %s", op.ID, op.PathTemplate)
//				return next.RoundTrip(req)
//			})
//		}),
//		petstore.WithRetry(httpclient.RetryPolicy{MaxAttempts: 4}),
//		petstore.WithTimeout(30*time.Second),
//	)
//
// # Retries and timeouts
//
// Retries are opt-in (WithRetry, WithCallRetry): see RetryPolicy for what
// is retried (429, 502, 503, 504 and transport failures of idempotent
// methods, or of any request with an Idempotency-Key header), the
// exponential backoff with jitter, Retry-After (seconds or HTTP date) and
// the context's deadline, which no wait passes. Bodies are replayable:
// bytes bodies as they are, files and other io.ReadSeekers by seeking
// back (multipart parts included: each attempt rebuilds the multipart body
// from the request's parts), other readers by buffering them up to
// RetryPolicy.MaxBufferedBody (a larger one is sent once, without
// retries).
//
// WithIdempotencyKeys (client.idempotencyKeys in opsgen.yaml) gives each
// call of a non-idempotent method (POST, PATCH...) an Idempotency-Key,
// generated once per call and sent on every retry, so that those calls are
// retried too and a server that honours the header runs them once. A
// key of the caller's (the header, or runtime.WithIdempotencyKey on the
// context) wins. Through WithRemote the key travels in the call protocol:
// the hubs dedupe on it, and the hub's own client sends it to the API.
//
// A call's timeout is WithCallTimeout's, else the operation's
// (WithOperationTimeout; generated clients apply those of opsgen.yaml),
// else the client's (WithTimeout); it covers all attempts and the reading
// of the body (for an io.ReadCloser result, until it is closed). A
// RetryPolicy.AttemptTimeout bounds each attempt until its response
// headers, and a timed-out attempt is retried.
//
// # Pages and streams
//
// Pages sends a list operation page after page, as a Paging says: the
// Link header's rel="next" URL (RFC 8288, as GitHub pages), a cursor read
// from the response by JSON pointer into a query parameter, or a page
// number. Generated clients have a <Op>Pages method for each GET operation
// whose result declares a Link header and each operation whose pagination
// opsgen.yaml declares; Items ranges over the items of slice pages:
//
//	for issue, err := range httpclient.Items(gh.IssuesListForRepoPages(ctx, params)) { ... }
//
// Stream reads a text/event-stream response, or a JSON sequence (JSON
// Lines, NDJSON, RFC 7464 JSON text sequences), as an iter.Seq2 of
// envelopes, one item at a time. With a ReconnectPolicy (WithReconnect) a dropped stream is reconnected
// after the delay the server's "retry" field set, with a Last-Event-ID
// header, a bounded number of times in a row.
//
// WithRawBody hands one call's response body, as received, to a caller
// who asks (members the schema does not declare included); calls without
// it pay nothing for it.
//
// A Client is safe for concurrent use. A Request is built for one call and
// must not be reused.
package httpclient
