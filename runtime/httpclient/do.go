package httpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// BodyKind is how a declared response body is encoded.
type BodyKind int

// The response body kinds.
const (
	BodyNone BodyKind = iota
	BodyJSON
	BodyText
	BodyBinary
	BodyEventStream
	// BodyXML: an XML body read as the value its Schema describes (see
	// runtime/xmljson).
	BodyXML
	// BodyJSONSeq is a sequence of JSON items: JSON Lines
	// (application/jsonl, application/x-ndjson) or JSON text sequences
	// (application/json-seq); Schema is the schema of one item.
	BodyJSONSeq
)

// Response is one response the spec declares for an operation.
type Response struct {
	// Status is "200", a range such as "2XX", or "default".
	Status string
	// Kind is the declared body encoding; it decides how a body is decoded
	// when the response has no Content-Type.
	Kind BodyKind
	// Schema is the JSON Schema of a JSON body; nil means no validation.
	Schema *opsgenimpl.Schema
	// NewError, for declared error statuses, returns a pointer to a new
	// value of the operation's error type for the status (a struct embedding
	// runtime.StatusError, with a Body): the failure is returned as that type, its JSON
	// body decoded into its Body (see opsgenimpl.TypedStatusError). A pointer
	// to any other type is the older form: a JSON error body is decoded
	// into it and kept in CallError.HTTP.Typed (see runtime.ErrorBody).
	NewError func() any
	// Error is NewError as static data: a nil pointer of the type NewError
	// would return ((*GetPetNotFound)(nil)); a new value of its type is
	// made when the status is received. Generated code uses it: a table of
	// typed nil pointers costs nothing to compile or to initialize, where
	// a function per error type did. NewError wins when both are set.
	Error any
}

// Do sends r and decodes the response into a ResponseEnvelope[T].
//
// The response entry is chosen by status: exact, then range (2XX), then
// default. A 2xx (or 304) response is decoded by its Content-Type: JSON and
// +json media types into T through the runtime pipeline (normalized and
// validated against the entry's Schema as the validation mode says, with
// warnings on the envelope; the body is read whole, bounded by
// Config.MaxBodyBytes, then decoded once); XML media types (application/xml,
// text/xml, +xml) the same way, converted first to the JSON value the
// entry's Schema describes (runtime/xmljson), unless T is a string or
// []byte; text/* as a string, anything else as []byte. A T of io.ReadCloser receives the body unread; the caller
// must close it. A response without a body (204, 205, 304, HEAD, empty)
// leaves Data zero. Bodies larger than Config.MaxBodyBytes fail with
// DECODE_ERROR.
//
// Any other status is a *runtime.CallError: EXECUTION_ERROR, or
// ACCESS_DENIED for 401 and 403, with the status, headers and (a bounded
// copy of) the body in CallError.HTTP. Transport failures are
// TRANSPORT_ERROR, a passed deadline TIMEOUT and a cancellation CANCELED.
func Do[T any](ctx context.Context, c *Client, r *Request, responses []Response, opts ...CallOption) (runtime.ResponseEnvelope[T], error) {
	// A thin wrapper of Call, which does the work on a pointer to Data.
	// Generated methods call Call themselves: a package instantiating Do
	// for hundreds of result types would compile it (and its GC-shape
	// bodies) as many times.
	var env runtime.ResponseEnvelope[T]
	meta, warnings, err := c.Call(ctx, r, responses, &env.Data, opts...)
	if err != nil {
		return runtime.ResponseEnvelope[T]{}, err
	}
	env.Meta, env.Warnings = meta, warnings
	return env, nil
}

// Call is Do for the data of the envelope stored through data, a non-nil
// pointer to the result type (a *T for Do[T]): it returns the envelope's
// meta and warnings, and leaves *data zero on error. Generated methods
// call it with &env.Data of the envelope they return, so that nothing is
// compiled once per result type: one compiled copy serves every
// operation, through HTTP or WithRemote.
func (c *Client) Call(ctx context.Context, r *Request, responses []Response, data any, opts ...CallOption) (runtime.Meta, []runtime.Warning, error) {
	cc := callOptions(opts)
	ctx = c.idempotencyKey(ctx, r, cc)
	if rm := c.remote(r); rm != nil {
		return r.remoteCall(c, ctx, rm, r, responses, cc, data)
	}
	meta, warnings, err := c.do(ctx, r, responses, cc, data)
	if err != nil {
		zeroData(data)
		return nil, nil, err
	}
	return meta, warnings, nil
}

// zeroData sets *data, a pointer, to its zero value.
func zeroData(data any) {
	if rv := reflect.ValueOf(data); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
}

// do is Do for a result stored through out, a non-nil pointer.
func (c *Client) do(ctx context.Context, r *Request, responses []Response, cc *callConfig, out any) (*runtime.HTTPMeta, []runtime.Warning, error) {
	if d := c.timeout(r, cc); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		if rc, ok := out.(*io.ReadCloser); ok {
			// The body outlives the call: the timeout ends when it is closed.
			defer func() {
				if *rc != nil {
					*rc = &cancelOnClose{ReadCloser: *rc, cancel: cancel}
				} else {
					cancel()
				}
			}()
		} else {
			defer cancel()
		}
	}
	resp, err := c.send(ctx, r, cc, "", 0)
	var pg *pageState
	if cc != nil {
		pg = cc.page
	}
	if r.src != nil && pg == nil {
		r.src.close()
	}
	if err != nil {
		return nil, nil, err
	}
	if pg != nil {
		pg.url, pg.links = nil, resp.Header.Values("Link")
		if resp.Request != nil {
			pg.url = resp.Request.URL
		}
		pg.body.Reset()
	}
	entry := selectResponse(responses, resp.StatusCode)
	if !isSuccess(resp.StatusCode) {
		return nil, nil, statusError(r.opID, resp, entry)
	}
	meta := httpMeta(resp, "")
	if rc, ok := out.(*io.ReadCloser); ok {
		*rc = resp.Body
		return &meta, nil, nil
	}
	// Decoding reads the body to its end, which returns the connection to
	// the pool; after a failure the connection is dropped by Close.
	defer resp.Body.Close()
	if r.method == http.MethodHead || resp.ContentLength == 0 || resp.StatusCode == http.StatusNoContent ||
		resp.StatusCode == http.StatusResetContent || resp.StatusCode == http.StatusNotModified {
		return &meta, nil, nil
	}
	var src io.Reader = resp.Body
	if pg != nil && pg.keepBody {
		src = io.TeeReader(src, &pg.body)
	}
	body := &cappedReader{r: src, left: c.cfg.MaxBodyBytes}
	p := c.pipeline(cc)
	var schema *opsgenimpl.Schema
	kind := BodyNone
	if entry != nil {
		schema, kind = entry.Schema, entry.Kind
	}
	mt := mediaType(meta.ContentType)
	var warnings []runtime.Warning
	if decodesXML(mt, kind, out) {
		// XML is a wire form of the JSON value the schema describes:
		// converted, then through the same pipeline.
		var data []byte
		if data, err = readAll(body, resp.ContentLength, c.cfg.MaxBodyBytes); err == nil {
			keepRaw(cc, data)
			if data, err = xmlToJSON(r.opID, schema, data); err == nil {
				warnings, err = opsgenimpl.DecodeInto(ctx, p, r.opID, schema, data, out)
			}
		}
	} else if _, isBytes := out.(*[]byte); !isBytes && (isJSONMediaType(mt) || mt == "" && kind == BodyJSON) {
		// Read at the announced size in one allocation (io.ReadAll's
		// doubling would hold up to two copies of a large body at once).
		var data []byte
		if data, err = readAll(body, resp.ContentLength, c.cfg.MaxBodyBytes); err == nil {
			keepRaw(cc, data)
			warnings, err = opsgenimpl.DecodeInto(ctx, p, r.opID, schema, data, out)
		}
	} else {
		var data []byte
		if data, err = readAll(body, resp.ContentLength, c.cfg.MaxBodyBytes); err == nil {
			keepRaw(cc, data)
			warnings, err = assignBody(ctx, p, r.opID, schema, mt, data, out)
		}
	}
	if err != nil {
		return nil, nil, readError(ctx, r.opID, body, c.cfg.MaxBodyBytes, err)
	}
	return &meta, warnings, nil
}

// keepRaw stores a copy of data, the response body read, where the call's
// WithRawBody says; a call without it pays one comparison.
func keepRaw(cc *callConfig, data []byte) {
	if cc != nil && cc.raw != nil {
		*cc.raw = append([]byte(nil), data...) // the decoders may keep data
	}
}

func callOptions(opts []CallOption) *callConfig {
	if len(opts) == 0 {
		return nil
	}
	cc := new(callConfig)
	for _, o := range opts {
		o(cc)
	}
	return cc
}

// pipeline returns the pipeline settings of a call.
func (c *Client) pipeline(cc *callConfig) *runtime.Pipeline {
	if cc == nil || !cc.hasMode {
		return &c.cfg.Pipeline
	}
	p := c.cfg.Pipeline
	p.Mode = cc.mode
	return &p
}

// cancelOnClose ends a call's timeout when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

func closeRequest(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// buildURL joins the base URL, the path template with its parameters
// filled in, and the query.
func (r *Request) buildURL(base baseURL) (string, error) {
	n := len(base.prefix) + len(r.path) + len(base.query) + len(r.query) + 3
	for _, pv := range r.pathVals {
		n += len(pv.v)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(base.prefix)
	// A '#' ends what a template sends ("/v1/tags/{arn}#tagKeys" only
	// tells operations apart); a '?' starts a literal query ("/{Bucket}?uploads").
	p, literalQuery := r.path, ""
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p, literalQuery = p[:i], p[i+1:]
	}
	if p != "" && p[0] != '/' {
		b.WriteByte('/')
	}
	used := 0
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			writePathLiteral(&b, p)
			break
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("path template %q: unclosed {", r.path)
		}
		name := p[i+1 : i+j]
		k := slices.IndexFunc(r.pathVals, func(pv pair) bool { return pv.k == name })
		if k < 0 {
			return "", fmt.Errorf("path parameter %q is not set", name)
		}
		used++
		writePathLiteral(&b, p[:i])
		b.WriteString(r.pathVals[k].v)
		p = p[i+j+1:]
	}
	if used < len(r.pathVals) {
		for _, pv := range r.pathVals {
			if !strings.Contains(r.path, "{"+pv.k+"}") {
				return "", fmt.Errorf("path parameter %q is not in the path template %q", pv.k, r.path)
			}
		}
	}
	sep := byte('?')
	if base.query != "" {
		b.WriteByte(sep)
		b.WriteString(base.query)
		sep = '&'
	}
	if literalQuery != "" {
		b.WriteByte(sep)
		writeQueryLiteral(&b, literalQuery)
		sep = '&'
	}
	if len(r.query) > 0 {
		b.WriteByte(sep)
		b.Write(r.query)
	}
	return b.String(), nil
}

// writePathLiteral writes a literal part of a path template (the text
// between parameters) as path text: bytes that may not appear in a path
// segment are percent-encoded, '/' and existing %XX triplets are kept.
func writePathLiteral(b *strings.Builder, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		if isPathByte(s, i) {
			continue
		}
		b.WriteString(s[start:i])
		c := s[i]
		b.WriteByte('%')
		b.WriteByte(upperhex[c>>4])
		b.WriteByte(upperhex[c&15])
		start = i + 1
	}
	b.WriteString(s[start:])
}

// writeQueryLiteral writes a template's literal query ("?uploads") with the bytes a query may not hold
// percent-encoded; '?' and existing %XX triplets are kept.
func writeQueryLiteral(b *strings.Builder, s string) {
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '?' || isPathByte(s, i) {
			continue
		}
		b.WriteString(s[start:i])
		b.WriteByte('%')
		b.WriteByte(upperhex[s[i]>>4])
		b.WriteByte(upperhex[s[i]&15])
		start = i + 1
	}
	b.WriteString(s[start:])
}

// isPathByte reports whether s[i] may stay as it is in a path: an RFC
// 3986 pchar (unreserved, sub-delims, ':' and '@'), '/', or the '%' of a
// percent-encoded triplet.
func isPathByte(s string, i int) bool {
	c := s[i]
	if isUnreserved(c) {
		return true
	}
	switch c {
	case '/', ':', '@', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
		return true
	case '%':
		return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
	}
	return false
}

// selectResponse picks the declared response for a status: exact, then
// range, then default; nil when none matches.
func selectResponse(responses []Response, code int) *Response {
	var rng, def *Response
	for i := range responses {
		s := responses[i].Status
		switch {
		case s == "default":
			def = &responses[i]
		case len(s) == 3 && (s[1] == 'X' || s[1] == 'x') && (s[2] == 'X' || s[2] == 'x'):
			if int(s[0]-'0') == code/100 {
				rng = &responses[i]
			}
		case len(s) == 3 && '0' <= s[0] && s[0] <= '9' && '0' <= s[1] && s[1] <= '9' && '0' <= s[2] && s[2] <= '9':
			if int(s[0]-'0')*100+int(s[1]-'0')*10+int(s[2]-'0') == code {
				return &responses[i]
			}
		}
	}
	if rng != nil {
		return rng
	}
	return def
}

func isSuccess(code int) bool {
	return code >= 200 && code < 300 || code == http.StatusNotModified
}

// statusError reads (a bounded copy of) the body of a response outside
// 2xx and returns it as a CallError, decoding the body into the declared
// error type when there is one and the body is JSON.
func statusError(opID string, resp *http.Response, entry *Response) error {
	defer resp.Body.Close()
	// A read error leaves what was read; the status is the failure to report.
	b, _ := io.ReadAll(io.LimitReader(resp.Body, opsgenimpl.MaxErrorBody+1))
	truncated := len(b) > opsgenimpl.MaxErrorBody
	if truncated {
		b = b[:opsgenimpl.MaxErrorBody]
	}
	ct := resp.Header.Get("Content-Type")
	f := &runtime.HTTPFailure{StatusCode: resp.StatusCode, Headers: resp.Header, Body: b, Truncated: truncated, ContentType: ct}
	code := runtime.CodeExecution
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		code = runtime.CodeAccessDenied
	}
	status := resp.Status
	if status == "" {
		status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	ce := &runtime.CallError{Code: code, OperationID: opID, Message: "HTTP " + status, HTTP: f}
	return typedFailure(ce, entry, mediaType(ct))
}

// typedFailure is typedError for a failure whose body has media type mt:
// a JSON body is decoded; an XML one is converted first to the JSON value
// the entry's schema describes (HTTP.Body keeps the XML); a truncated or
// empty body, or one of another type, is not decoded.
func typedFailure(ce *runtime.CallError, entry *Response, mt string) error {
	f := ce.HTTP
	if entry == nil || f.Truncated || len(f.Body) == 0 {
		return typedError(ce, entry, false)
	}
	if decodesXML(mt, entry.Kind, entry.Error) {
		js, err := xmlToJSON(ce.OperationID, entry.Schema, f.Body)
		return typedErrorBody(ce, entry, js, err == nil)
	}
	return typedError(ce, entry, isJSONMediaType(mt) || mt == "" && entry.Kind == BodyJSON)
}

// typedError returns ce, an HTTP failure whose body is ce.HTTP.Body, as
// entry declares it: the operation's error type for the status, its body
// decoded when decode is set, or ce.
func typedError(ce *runtime.CallError, entry *Response, decode bool) error {
	return typedErrorBody(ce, entry, ce.HTTP.Body, decode)
}

// typedErrorBody is typedError with the JSON body b to decode.
func typedErrorBody(ce *runtime.CallError, entry *Response, b []byte, decode bool) error {
	if entry == nil || entry.NewError == nil && !isNilPointer(entry.Error) {
		return ce
	}
	f := ce.HTTP
	// A generated per-status error type (runtime.StatusError) wraps ce;
	// anything else NewError returns is a pointer to the body's type.
	var v any
	if entry.NewError != nil {
		v = entry.NewError()
	} else {
		v = reflect.New(reflect.TypeOf(entry.Error).Elem()).Interface()
	}
	if err := opsgenimpl.TypedStatusError(v, ce, b, decode); err != error(ce) {
		return err
	}
	if decode && json.Unmarshal(b, v) == nil {
		f.Typed = v
	}
	return ce
}

// isNilPointer reports whether v is a typed nil pointer (Response.Error).
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// httpMeta returns the meta of a response. A non-empty contentType
// replaces the response's own.
func httpMeta(resp *http.Response, contentType string) runtime.HTTPMeta {
	h := make(map[string]string, len(resp.Header))
	for k, vs := range resp.Header {
		if len(vs) == 1 {
			h[lowerHeader(k)] = vs[0]
		} else {
			h[lowerHeader(k)] = strings.Join(vs, ", ")
		}
	}
	if contentType == "" {
		if vs := resp.Header["Content-Type"]; len(vs) > 0 {
			contentType = vs[0]
		}
	}
	return runtime.HTTPMeta{StatusCode: resp.StatusCode, Headers: h, ContentType: contentType}
}

// lowerHeader lower-cases a canonical header name, without allocating for
// the common ones.
func lowerHeader(k string) string {
	switch k {
	case "Content-Type":
		return "content-type"
	case "Content-Length":
		return "content-length"
	case "Date":
		return "date"
	case "Server":
		return "server"
	case "Cache-Control":
		return "cache-control"
	case "Etag":
		return "etag"
	case "Vary":
		return "vary"
	case "Connection":
		return "connection"
	case "Content-Encoding":
		return "content-encoding"
	case "Transfer-Encoding":
		return "transfer-encoding"
	case "Last-Modified":
		return "last-modified"
	case "Location":
		return "location"
	case "Set-Cookie":
		return "set-cookie"
	case "Link":
		return "link"
	case "X-Request-Id":
		return "x-request-id"
	}
	return strings.ToLower(k)
}

// mediaType returns the lower-case media type of a Content-Type value,
// without parameters.
func mediaType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

func isJSONMediaType(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

var errTooLarge = errors.New("response body too large")

// cappedReader fails with errTooLarge once more than left bytes are read,
// and remembers the underlying reader's error.
type cappedReader struct {
	r    io.Reader
	left int64
	err  error
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if int64(len(p))-1 > c.left {
		p = p[:c.left+1] // one byte more than allowed tells "too large" from "exactly at the cap"
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.err = errTooLarge
		return 0, errTooLarge
	}
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// readAll reads r to its end, sized by the Content-Length when it is known
// and within limit (a larger one fails at the cap anyway) and 1 GiB (beyond
// which the buffer grows as the body arrives).
func readAll(r io.Reader, contentLength, limit int64) ([]byte, error) {
	size := int64(512)
	if contentLength > 0 && contentLength <= limit && contentLength < 1<<30 {
		size = contentLength + 1 // room for the read that returns EOF
	}
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// assignBody stores a non-JSON body in out: as is for string and []byte
// (and for any: a string for text/*, else []byte), else (a server that
// drifted from its spec) decoded as JSON when it parses.
func assignBody(ctx context.Context, p *runtime.Pipeline, opID string, schema *opsgenimpl.Schema, mt string, data []byte, out any) ([]runtime.Warning, error) {
	switch o := out.(type) {
	case *string:
		*o = string(data)
		return nil, nil
	case *[]byte:
		*o = data
		return nil, nil
	case *any:
		if strings.HasPrefix(mt, "text/") {
			*o = string(data)
		} else {
			*o = data
		}
		return nil, nil
	}
	if len(data) == 0 {
		return nil, nil
	}
	if !json.Valid(data) {
		return nil, runtime.Errorf(runtime.CodeDecode, opID, "response body of type %q cannot be decoded into %s", mt, reflect.TypeOf(out).Elem())
	}
	return opsgenimpl.DecodeInto(ctx, p, opID, schema, data, out)
}

// readError turns a failure to read or decode a 2xx body into a CallError:
// the pipeline's errors (DECODE_ERROR, VALIDATION_ERROR) pass through, read
// failures become the body cap's DECODE_ERROR, a context error or
// TRANSPORT_ERROR.
func readError(ctx context.Context, opID string, body *cappedReader, limit int64, err error) error {
	switch {
	case errors.Is(err, errTooLarge):
		return runtime.Errorf(runtime.CodeDecode, opID, "response body exceeds %d bytes", limit)
	case body.err != nil:
		if ce := opsgenimpl.ContextError(ctx, opID, body.err); ce != nil {
			return ce
		}
		return runtime.NewError(runtime.CodeTransport, opID, "reading response body", body.err)
	}
	return err
}
