package httpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"reflect"
	"strings"

	"github.com/opsgen/opsgen/runtime"
)

// Request is one operation call being built: its parameters, body,
// security requirement and accepted media types. Build it with
// Client.NewRequest, then pass it to Do or Stream once.
//
// The first bad input (a value a style cannot serialize, a nil required
// path parameter, a body that does not encode) is kept and returned by Do
// as a VALIDATION_ERROR naming the parameter; later calls are ignored.
type Request struct {
	opID     string
	method   string
	path     string
	pathVals []pair
	query    []byte
	header   http.Header
	cookies  []byte
	accept   string
	security [][]string

	contentType string
	body        []byte    // JSON, form and text bodies
	reader      io.Reader // raw bodies
	parts       []part    // multipart bodies
	err         error
}

// NewRequest starts a request for the operation operationID: method on
// pathTemplate, whose {name} expressions PathParam fills.
func (c *Client) NewRequest(operationID, method, pathTemplate string) *Request {
	return &Request{opID: operationID, method: method, path: pathTemplate}
}

func (r *Request) fail(format string, args ...any) {
	if r.err == nil {
		r.err = runtime.Errorf(runtime.CodeValidation, r.opID, format, args...)
	}
}

// PathParam sets the path parameter name (the {name} of the template) in
// style simple, label or matrix. Path parameters are required: a nil value
// fails the call.
func (r *Request) PathParam(name string, style Style, explode bool, v any) {
	if r.err != nil {
		return
	}
	switch style {
	case "":
		style = StyleSimple
	case StyleSimple, StyleLabel, StyleMatrix:
	default:
		r.fail("path parameter %q: style %q is not allowed in path (simple, label, matrix)", name, style)
		return
	}
	f, err := flatten(v)
	if err != nil {
		r.fail("path parameter %q: %v", name, err)
		return
	}
	if f.kind == kindAbsent {
		r.fail("path parameter %q is required but has no value", name)
		return
	}
	r.pathVals = append(r.pathVals, pair{name, string(appendStyled(nil, inPath, name, style, explode, escapeAll, &f))})
}

// QueryParam adds the query parameter name in style form,
// spaceDelimited, pipeDelimited or deepObject. A nil pointer, slice or map
// is omitted, and so are an empty array and an object without members
// (undefined values in RFC 6570; "" is sent). allowReserved keeps RFC 3986 reserved characters unencoded.
func (r *Request) QueryParam(name string, style Style, explode, allowReserved bool, v any) {
	if r.err != nil {
		return
	}
	esc := escapeAll
	if allowReserved {
		esc = escapeReserved
	}
	switch style {
	case "":
		style = StyleForm
	case StyleForm, StyleSpaceDelimited, StylePipeDelimited:
	case StyleDeepObject:
		r.deepObject(name, esc, v)
		return
	default:
		r.fail("query parameter %q: style %q is not allowed in query (form, spaceDelimited, pipeDelimited, deepObject)", name, style)
		return
	}
	f, err := flatten(v)
	if err != nil {
		r.fail("query parameter %q: %v", name, err)
		return
	}
	if f.undefined() {
		return
	}
	if len(r.query) > 0 {
		r.query = append(r.query, '&')
	}
	r.query = appendStyled(r.query, inQuery, name, style, explode, esc, &f)
}

// deepObject adds an object query parameter as name[key]=value pairs. The
// table defines deepObject only with explode; explode=false is serialized
// the same way.
func (r *Request) deepObject(name string, esc escapeMode, v any) {
	rv, ok := deref(reflect.ValueOf(v))
	if !ok || rv.Kind() == reflect.Map && rv.IsNil() {
		return
	}
	if rv.Kind() != reflect.Map && rv.Kind() != reflect.Struct {
		r.fail("query parameter %q: style deepObject needs an object, not %s", name, rv.Type())
		return
	}
	pairs, err := deepPairs(name, rv, nil)
	if err != nil {
		r.fail("query parameter %q: %v", name, err)
		return
	}
	for _, p := range pairs {
		if len(r.query) > 0 {
			r.query = append(r.query, '&')
		}
		r.query = appendEscaped(r.query, p.k, esc)
		r.query = append(r.query, '=')
		r.query = appendEscaped(r.query, p.v, esc)
	}
}

// HeaderParam sets the header parameter name in style simple. A nil
// pointer, slice or map is omitted, and so are an empty array and an object
// without members (undefined values in RFC 6570; "" is sent).
func (r *Request) HeaderParam(name string, explode bool, v any) {
	if r.err != nil {
		return
	}
	f, err := flatten(v)
	if err != nil {
		r.fail("header parameter %q: %v", name, err)
		return
	}
	if f.undefined() {
		return
	}
	r.setHeader(name, string(appendStyled(nil, inHeader, name, StyleSimple, explode, escapeNone, &f)))
}

func (r *Request) setHeader(name, value string) {
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < ' ' && c != '\t' || c == 0x7f {
			r.fail("header parameter %q: value contains control character %q", name, c)
			return
		}
	}
	if r.header == nil {
		r.header = make(http.Header)
	}
	r.header.Set(name, value)
}

// CookieParam adds the cookie parameter name in style form. A nil
// pointer, slice or map is omitted, and so are an empty array and an object
// without members (undefined values in RFC 6570; "" is sent). Values are percent-encoded; with explode,
// arrays and objects become one cookie per item or member.
func (r *Request) CookieParam(name string, explode bool, v any) {
	if r.err != nil {
		return
	}
	f, err := flatten(v)
	if err != nil {
		r.fail("cookie parameter %q: %v", name, err)
		return
	}
	if f.undefined() {
		return
	}
	if len(r.cookies) > 0 {
		r.cookies = append(r.cookies, "; "...)
	}
	r.cookies = appendStyled(r.cookies, inCookie, name, StyleForm, explode, escapeAll, &f)
}

// ContentParam sets a parameter defined by content instead of a schema:
// in is "path", "query", "header" or "cookie". The value is JSON-encoded
// for JSON media types; for others a primitive is sent as its text (and
// anything else as JSON). A nil value is omitted (path: fails).
func (r *Request) ContentParam(in, name, contentType string, v any) {
	if r.err != nil {
		return
	}
	var loc location
	switch in {
	case "path":
		loc = inPath
	case "query":
		loc = inQuery
	case "header":
		loc = inHeader
	case "cookie":
		loc = inCookie
	default:
		r.fail("parameter %q: location %q is not path, query, header or cookie", name, in)
		return
	}
	s, present, err := contentValue(contentType, v)
	switch {
	case err != nil:
		r.fail("%s parameter %q: %v", loc, name, err)
		return
	case !present && loc == inPath:
		r.fail("path parameter %q is required but has no value", name)
		return
	case !present:
		return
	}
	switch loc {
	case inPath:
		r.pathVals = append(r.pathVals, pair{name, string(appendEscaped(nil, s, escapeAll))})
	case inHeader:
		r.setHeader(name, s)
	case inQuery, inCookie:
		dst, sep := &r.query, "&"
		if loc == inCookie {
			dst, sep = &r.cookies, "; "
		}
		if len(*dst) > 0 {
			*dst = append(*dst, sep...)
		}
		*dst = appendEscaped(*dst, name, escapeAll)
		*dst = append(*dst, '=')
		*dst = appendEscaped(*dst, s, escapeAll)
	}
}

func contentValue(contentType string, v any) (string, bool, error) {
	rv, ok := deref(reflect.ValueOf(v))
	if !ok {
		return "", false, nil
	}
	if !isJSONMediaType(mediaType(contentType)) {
		if s, ok, err := scalarString(rv); ok || err != nil {
			return s, true, err
		}
	}
	b, err := json.Marshal(rv.Interface())
	return string(b), true, err
}

// JSONBody sets a JSON request body; contentType "" means
// application/json. A nil value sends no body.
func (r *Request) JSONBody(contentType string, v any) {
	if r.err != nil {
		return
	}
	rv, ok := deref(reflect.ValueOf(v))
	if !ok {
		return
	}
	b, err := json.Marshal(rv.Interface())
	if err != nil {
		r.fail("request body: %v", err)
		return
	}
	if contentType == "" {
		contentType = "application/json"
	}
	r.contentType, r.body = contentType, b
}

// FormBody sets an application/x-www-form-urlencoded body from a struct
// (fields named by json tags) or a map: primitives are key=value, arrays
// repeat the key, and nested objects are sent as JSON. A nil value sends no
// body.
func (r *Request) FormBody(v any) {
	if r.err != nil {
		return
	}
	rv, ok := deref(reflect.ValueOf(v))
	if !ok || rv.Kind() == reflect.Map && rv.IsNil() {
		return
	}
	if rv.Kind() != reflect.Map && rv.Kind() != reflect.Struct {
		r.fail("form body: need a struct or map, not %s", rv.Type())
		return
	}
	members, err := objectMembers(rv)
	if err != nil {
		r.fail("form body: %v", err)
		return
	}
	b := []byte{} // not nil: a form without fields is an empty body, still sent with its Content-Type
	add := func(k, v string) {
		if len(b) > 0 {
			b = append(b, '&')
		}
		b = append(b, url.QueryEscape(k)...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(v)...)
	}
	for _, m := range members {
		values, err := partValues(m.v)
		if err != nil {
			r.fail("form body: property %q: %v", m.k, err)
			return
		}
		for _, pv := range values {
			add(m.k, string(pv.data))
		}
	}
	r.contentType, r.body = "application/x-www-form-urlencoded", b
}

// Part is one part of a multipart/form-data body: a file (Reader, with
// FileName) or a value (Value). The request reads Reader while it is sent
// and does not close it.
type Part struct {
	// Name is the form field name.
	Name string
	// FileName, if set, marks the part as a file upload.
	FileName string
	// ContentType is the part's media type; "" means
	// application/octet-stream for readers, text/plain for primitive values
	// and application/json for objects.
	ContentType string
	// Reader is the part's content, for files and other binary parts.
	Reader io.Reader
	// Value is the part's content when Reader is nil: a primitive is sent as
	// its text, []byte as is, an array as one part per item, an object as
	// JSON. A nil Value omits the part.
	Value any
}

type part struct {
	name, fileName, contentType string
	reader                      io.Reader
	data                        []byte
}

// partValue is one encoded value of a form field or multipart part.
type partValue struct {
	data []byte
	json bool
}

// partValues encodes a form or multipart member: one value for a primitive
// or an object (JSON), one per item for an array.
func partValues(rv reflect.Value) ([]partValue, error) {
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 && rv.Type() != rawMessageType {
		return []partValue{{data: rv.Bytes()}}, nil
	}
	if s, ok, err := scalarString(rv); ok || err != nil {
		return []partValue{{data: []byte(s)}}, err
	}
	if rv.Kind() == reflect.Slice || rv.Kind() == reflect.Array {
		var out []partValue
		for i := range rv.Len() {
			e, ok := deref(rv.Index(i))
			if !ok {
				continue
			}
			vs, err := partValues(e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
			out = append(out, vs...)
		}
		return out, nil
	}
	b, err := json.Marshal(rv.Interface())
	return []partValue{{data: b, json: true}}, err
}

// MultipartBody sets a multipart/form-data body. Values are encoded now;
// readers are streamed while the request is sent.
func (r *Request) MultipartBody(parts []Part) {
	if r.err != nil {
		return
	}
	ps := make([]part, 0, len(parts))
	for _, p := range parts {
		if p.Reader != nil {
			ct := p.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			ps = append(ps, part{name: p.Name, fileName: p.FileName, contentType: ct, reader: p.Reader})
			continue
		}
		rv, ok := deref(reflect.ValueOf(p.Value))
		if !ok {
			continue
		}
		values, err := partValues(rv)
		if err != nil {
			r.fail("multipart body: part %q: %v", p.Name, err)
			return
		}
		for _, v := range values {
			ct := p.ContentType
			if ct == "" && v.json {
				ct = "application/json"
			}
			ps = append(ps, part{name: p.Name, fileName: p.FileName, contentType: ct, data: v.data})
		}
	}
	r.parts = ps
}

// RawBody sets a body of any media type, read while the request is sent;
// contentType "" means application/octet-stream. A nil body sends none. A
// body that is an io.Closer is closed after sending, as net/http does.
func (r *Request) RawBody(contentType string, body io.Reader) {
	if body == nil {
		return
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	r.contentType, r.reader = contentType, body
}

// TextBody sets a text body; contentType "" means text/plain; charset=utf-8.
func (r *Request) TextBody(contentType, s string) {
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
	}
	r.contentType, r.body = contentType, []byte(s)
}

// Accept sets the Accept header: the media types the operation's responses
// declare.
func (r *Request) Accept(mediaTypes string) { r.accept = mediaTypes }

// newBody returns the request body and its content type. A multipart
// body is written by a goroutine into a pipe; it ends when the body is
// read to its end or closed (the transport closes it, even on errors).
func (r *Request) newBody() (io.Reader, string) {
	switch {
	case r.parts != nil:
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() { pw.CloseWithError(writeParts(mw, r.parts)) }()
		return pr, mw.FormDataContentType()
	case r.reader != nil:
		return r.reader, r.contentType
	case r.body != nil:
		return bytes.NewReader(r.body), r.contentType
	}
	return nil, ""
}

var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

func writeParts(mw *multipart.Writer, parts []part) error {
	for _, p := range parts {
		h := make(textproto.MIMEHeader, 2)
		if p.fileName != "" {
			h.Set("Content-Disposition", multipart.FileContentDisposition(p.name, p.fileName))
		} else {
			h.Set("Content-Disposition", `form-data; name="`+quoteEscaper.Replace(p.name)+`"`)
		}
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		w, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		if p.reader != nil {
			_, err = io.Copy(w, p.reader)
		} else {
			_, err = w.Write(p.data)
		}
		if err != nil {
			return fmt.Errorf("multipart part %q: %w", p.name, err)
		}
	}
	return mw.Close()
}
