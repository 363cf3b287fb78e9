package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"path/filepath"
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
	// remoteCall is Client.doRemoteInto, set with remoteID (see Remote).
	remoteCall func(c *Client, ctx context.Context, rm Remote, r *Request, responses []Response, cc *callConfig, data any) (runtime.Meta, []runtime.Warning, error)
	opID       string
	method     string
	path       string
	pathVals   []pair
	query      []byte
	header     http.Header
	cookies    []byte
	accept     string
	security   [][]string

	contentType string
	body        []byte                                                                      // JSON, form and text bodies
	reader      io.Reader                                                                   // raw bodies
	parts       []part                                                                      // multipart bodies
	sendParts   func(bs *bodySource, parts []part, readers []io.Reader) (io.Reader, string) // pipeParts, set with parts
	err         error

	tags []string
	// src gives the body of each attempt; shared by the requests of one
	// call (retries, reconnections, pages).
	src    *bodySource
	srcVal bodySource // what src points to, unless r is another's clone
	// first is the context value of the first attempt (no allocation).
	first attemptInfo
	// rawURL, when set, is the whole URL (a Link header's next page).
	rawURL string
	// credQuery names the query parameters that carry credentials.
	credQuery []string
	// remoteID and remoteIn are the registry id and typed input (Remote).
	remoteID string
	remoteIn RemoteInput
}

// NewRequest starts a request for the operation operationID: method on
// pathTemplate, whose {name} expressions PathParam fills. tags are the
// operation's tags; with the rest, they reach middlewares through
// OperationFrom.
//
// It is not inlined: every generated method calls it, and inlined it
// grows each of them (GitHub's API has 845) in the compiler's memory.
//
//go:noinline
func (c *Client) NewRequest(operationID, method, pathTemplate string, tags ...string) *Request {
	return &Request{opID: operationID, method: method, path: pathTemplate, tags: tags}
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
	f, ok := r.pathValue(name, v)
	if !ok {
		return
	}
	r.pathVals = append(r.pathVals, pair{name, string(appendStyled(nil, inPath, name, style, explode, escapeAll, &f))})
}

// pathValue flattens the value v of the path parameter name; false (with
// the request failed) when it cannot be or has none.
func (r *Request) pathValue(name string, v any) (flat, bool) {
	f, err := flatten(v)
	if err != nil {
		r.fail("path parameter %q: %v", name, err)
		return f, false
	}
	if f.kind == kindAbsent {
		r.fail("path parameter %q is required but has no value", name)
		return f, false
	}
	return f, true
}

// ReservedPathParam sets the path parameter name of a {+name} template
// expression: RFC 6570's reserved expansion, style simple with reserved
// characters ("/" among them) and %XX triplets kept ('?' and '#' are
// encoded, as they would end the path). Google's "/v1/{+name}" takes
// "projects/p/topics/t".
func (r *Request) ReservedPathParam(name string, explode bool, v any) {
	if r.err != nil {
		return
	}
	f, ok := r.pathValue(name, v)
	if !ok {
		return
	}
	r.pathVals = append(r.pathVals, pair{name, string(appendStyled(nil, inPath, name, StyleSimple, explode, escapePathReserved, &f))})
}

// QueryParam adds the query parameter name in style form,
// spaceDelimited, pipeDelimited or deepObject (or one of the AWS query
// protocols', StyleAWSQuery and StyleAWSEC2). A nil pointer, slice or map
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
	case StyleDeepObject, StyleDeepObjectComma:
		r.deepObject(name, esc, style == StyleDeepObjectComma, v)
		return
	case StyleAWSQuery, StyleAWSEC2:
		r.awsQuery(name, style == StyleAWSEC2, esc, v)
		return
	default:
		r.fail("query parameter %q: style %q is not allowed in query (form, spaceDelimited, pipeDelimited, deepObject, deepObjectComma, awsQuery, awsEC2)", name, style)
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
// the same way. With comma, an array member is one pair whose value is the
// items, each escaped, joined by ',' (StyleDeepObjectComma).
func (r *Request) deepObject(name string, esc escapeMode, comma bool, v any) {
	rv, ok, err := resolve(reflect.ValueOf(v))
	if err != nil {
		r.fail("query parameter %q: %v", name, err)
		return
	}
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
	if !comma {
		r.queryPairs(pairs, esc)
		return
	}
	for i, p := range pairs {
		if i > 0 && pairs[i-1].k == p.k {
			r.query = append(r.query, ',')
			r.query = appendEscaped(r.query, p.v, esc)
			continue
		}
		r.queryPairs(pairs[i:i+1], esc)
	}
}

// queryPairs adds each pair to the query as key=value, escaped with esc.
func (r *Request) queryPairs(pairs []pair, esc escapeMode) {
	for _, p := range pairs {
		if len(r.query) > 0 {
			r.query = append(r.query, '&')
		}
		r.query = appendEscaped(r.query, p.k, esc)
		r.query = append(r.query, '=')
		r.query = appendEscaped(r.query, p.v, esc)
	}
}

// awsQuery adds a query parameter as the AWS query protocols serialize it
// (see StyleAWSQuery).
func (r *Request) awsQuery(name string, ec2 bool, esc escapeMode, v any) {
	pairs, err := awsPairs(name, reflect.ValueOf(v), ec2, nil)
	if err != nil {
		r.fail("query parameter %q: %v", name, err)
		return
	}
	r.queryPairs(pairs, esc)
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
	rv, ok, err := resolve(reflect.ValueOf(v))
	if err != nil || !ok {
		return "", false, err
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
	members, ok := r.formMembers(v)
	if !ok {
		return
	}
	var pairs []pair
	for _, m := range members {
		values, err := partValues(m.v)
		if err != nil {
			r.fail("form body: property %q: %v", m.k, err)
			return
		}
		for _, pv := range values {
			pairs = append(pairs, pair{m.k, string(pv.data)})
		}
	}
	r.setForm(pairs)
}

// AWSQueryBody sets an application/x-www-form-urlencoded body from a struct
// or a map as the AWS query protocols serialize their members (style
// StyleAWSQuery or StyleAWSEC2: Name.member.N for a list, Name.Member for a
// structure, Name.entry.N.key/value for a map), which STS, SNS, IAM and EC2
// read from a POST's form. A nil value sends no body.
func (r *Request) AWSQueryBody(v any, style Style) {
	members, ok := r.formMembers(v)
	if !ok {
		return
	}
	var pairs []pair
	for _, m := range members {
		var err error
		if pairs, err = awsPairs(m.k, m.v, style == StyleAWSEC2, pairs); err != nil {
			r.fail("form body: %v", err)
			return
		}
	}
	r.setForm(pairs)
}

// formMembers returns the members of a form body's value; false when
// there is no body (a nil value) or the request failed.
func (r *Request) formMembers(v any) ([]member, bool) {
	if r.err != nil {
		return nil, false
	}
	rv, ok, err := resolve(reflect.ValueOf(v))
	if err != nil {
		r.fail("form body: %v", err)
		return nil, false
	}
	if !ok || rv.Kind() == reflect.Map && rv.IsNil() {
		return nil, false
	}
	if rv.Kind() != reflect.Map && rv.Kind() != reflect.Struct {
		r.fail("form body: need an object (a struct, a map, or a union holding an object), not %s", rv.Type())
		return nil, false
	}
	members, err := objectMembers(rv)
	if err != nil {
		r.fail("form body: %v", err)
		return nil, false
	}
	return members, true
}

// setForm sets the form body of pairs, query-escaped.
func (r *Request) setForm(pairs []pair) {
	b := []byte{} // not nil: a form without fields is an empty body, still sent with its Content-Type
	for i, p := range pairs {
		if i > 0 {
			b = append(b, '&')
		}
		b = append(b, url.QueryEscape(p.k)...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(p.v)...)
	}
	r.contentType, r.body = "application/x-www-form-urlencoded", b
}

// Part is one part of a multipart/form-data body: a file (Reader, with
// FileName) or a value (Value). The request reads Reader while it is sent
// and does not close it.
type Part struct {
	// Name is the form field name.
	Name string
	// FileName, if set, marks the part as a file upload. It is the default
	// file name of a Reader part: a File reader's Name, or the base name of
	// a reader with a Name method (an *os.File), wins over it.
	FileName string
	// ContentType is the part's declared media type (the spec's encoding):
	// one type, a comma-separated list or a wildcard such as "image/*" (see
	// MultipartBody for how a file part's type is chosen; a value part takes
	// the first concrete type listed). "" means application/octet-stream for
	// readers, text/plain (no Content-Type) for primitive values and
	// application/json for objects.
	ContentType string
	// Reader is the part's content, for files and other binary parts; a
	// File carries its own file name and media type.
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
			e, ok, err := resolve(rv.Index(i))
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", i, err)
			}
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

// File is the content of a file: a multipart file part or a binary request
// body, with the file name and media type to send with it. File is an
// io.Reader, so it goes wherever a generated method takes one:
//
//	f, _ := os.Open("cat.png")
//	defer f.Close()
//	api.Upload(ctx, api.UploadBody{Image: httpclient.File{Name: "cat.png", ContentType: "image/png", Body: f}})
//
// A plain io.Reader still works: see MultipartBody and RawBody for the file
// name and media type it is sent with.
type File struct {
	// Name is the file name of a multipart file part (its
	// Content-Disposition filename); "" keeps the default.
	Name string
	// ContentType is the media type of the content; "" keeps the default.
	ContentType string
	// Body is the content, read while the request is sent. A multipart
	// part's Body is not closed; a binary body's is closed after sending
	// when it is an io.Closer, as net/http does.
	Body io.Reader
}

// Read reads from f.Body; a File without Body is empty.
func (f File) Read(p []byte) (int, error) {
	if f.Body == nil {
		return 0, io.EOF
	}
	return f.Body.Read(p)
}

// fileInfo unwraps a File (or *File) reader and returns its content, name
// and media type; for another reader with a Name method (an *os.File), name
// is the base name of what it returns.
func fileInfo(rd io.Reader) (body io.Reader, name, contentType string) {
	switch f := rd.(type) {
	case File:
		return f, f.Name, f.ContentType
	case *File:
		if f == nil {
			return nil, "", ""
		}
		return *f, f.Name, f.ContentType
	case interface{ Name() string }:
		if n := filepath.Base(f.Name()); n != "." && n != string(filepath.Separator) {
			return rd, n, ""
		}
	}
	return rd, "", ""
}

// fileType chooses the media type of binary content rd and returns it with
// the reader to send (rd, or one that gives back what sniffing read):
//
//   - the caller's own (File.ContentType);
//   - else, from the declared one (a multipart encoding's contentType or
//     the body's media type, which may be a comma-separated list or hold
//     wildcards such as "image/*"): the type of the file name's extension
//     when the declaration allows it, else the first concrete type listed;
//   - when only wildcards are declared, the type sniffed from the first 512
//     bytes (http.DetectContentType) when it matches one of them, else the
//     first wildcard as declared ("image/*": what the spec asks for, which
//     a validating server accepts, rather than a type it refuses);
//   - with nothing declared, the extension's type, else
//     application/octet-stream.
func fileType(own, declared, fileName string, rd io.Reader) (string, io.Reader) {
	if own != "" {
		return own, rd
	}
	var byExt string
	if ext := filepath.Ext(fileName); ext != "" {
		byExt = mime.TypeByExtension(ext)
	}
	var first string
	var wildcards []string
	for d := range strings.SplitSeq(declared, ",") {
		d = strings.TrimSpace(d)
		switch {
		case d == "":
			continue
		case byExt != "" && mediaMatches(d, mediaType(byExt)):
			return byExt, rd
		case strings.Contains(d, "*"):
			wildcards = append(wildcards, d)
		case first == "":
			first = d
		}
	}
	switch {
	case first != "":
		return first, rd
	case len(wildcards) == 0 && byExt != "":
		return byExt, rd
	case len(wildcards) == 0:
		return "application/octet-stream", rd
	}
	sniffed, rd := sniff(rd)
	for _, w := range wildcards {
		if mediaMatches(w, mediaType(sniffed)) {
			return sniffed, rd
		}
	}
	return wildcards[0], rd
}

// sniff returns the media type http.DetectContentType gives the first 512
// bytes of rd, and a reader of all of rd's content. An io.ReadSeeker (a
// bytes.Reader, strings.Reader or *os.File) is read and sought back, so that
// it is sent as itself (net/http knows the length of the first two); another
// reader is followed by the bytes read (and a read error, if any).
func sniff(rd io.Reader) (string, io.Reader) {
	buf := make([]byte, 512)
	if rs, ok := rd.(io.ReadSeeker); ok {
		if pos, err := rs.Seek(0, io.SeekCurrent); err == nil {
			n, _ := io.ReadFull(rs, buf)
			if _, err := rs.Seek(pos, io.SeekStart); err == nil {
				return http.DetectContentType(buf[:n]), rd
			}
			// It could not go back: send what was read, then the rest.
			return http.DetectContentType(buf[:n]), prefixed(buf[:n], rd, nil)
		}
	}
	n, err := io.ReadFull(rd, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return http.DetectContentType(buf[:n]), prefixed(buf[:n], rd, err)
}

// prefixed is a reader of head and then rd (or, when err is not nil, of
// head and then err); it keeps rd's Close, which net/http calls on a body.
func prefixed(head []byte, rd io.Reader, err error) io.Reader {
	rest := rd
	if err != nil {
		rest = &errReader{err}
	}
	mr := io.MultiReader(bytes.NewReader(head), rest)
	if c, ok := rd.(io.Closer); ok {
		return struct {
			io.Reader
			io.Closer
		}{mr, c}
	}
	return mr
}

type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// mediaMatches reports whether the media type mt matches pattern, which
// may be "*/*" or "type/*".
func mediaMatches(pattern, mt string) bool {
	pattern = mediaType(pattern)
	switch {
	case pattern == "*/*" || pattern == mt:
		return true
	case strings.HasSuffix(pattern, "/*"):
		return strings.HasPrefix(mt, pattern[:len(pattern)-1])
	}
	return false
}

// declaredType is a declared media type usable as a Content-Type: the first
// concrete type of a comma-separated list; "" when there is none.
func declaredType(declared string) string {
	for d := range strings.SplitSeq(declared, ",") {
		if d = strings.TrimSpace(d); d != "" && !strings.Contains(d, "*") {
			return d
		}
	}
	return ""
}

// MultipartBody sets a multipart/form-data body. Values are encoded now;
// readers are streamed while the request is sent.
//
// A reader part is a file part. Its file name is, in this order, the Name of
// a File reader, the base name of a reader with a Name method (an *os.File),
// or Part.FileName. Its media type is the ContentType of a File reader,
// else chosen from Part.ContentType (the spec's encoding, which may list
// several types or use wildcards): the file name extension's type when
// the encoding allows it, else the first concrete type listed; when only
// wildcards are listed, the type sniffed from the first 512 bytes when it
// matches one, else the first wildcard as declared ("image/*"); with no
// encoding, the extension's type or application/octet-stream.
func (r *Request) MultipartBody(parts []Part) {
	if r.err != nil {
		return
	}
	ps := make([]part, 0, len(parts))
	for _, p := range parts {
		if p.Reader != nil {
			body, name, own := fileInfo(p.Reader)
			if body == nil {
				continue // a nil *File
			}
			if name == "" {
				name = p.FileName
			}
			ct, body := fileType(own, p.ContentType, name, body)
			ps = append(ps, part{name: p.Name, fileName: name, contentType: ct, reader: body})
			continue
		}
		rv, ok, err := resolve(reflect.ValueOf(p.Value))
		if err != nil {
			r.fail("multipart body: part %q: %v", p.Name, err)
			return
		}
		if !ok {
			continue
		}
		values, err := partValues(rv)
		if err != nil {
			r.fail("multipart body: part %q: %v", p.Name, err)
			return
		}
		for _, v := range values {
			ct := declaredType(p.ContentType)
			switch {
			case ct == "" && v.json:
				ct = "application/json"
			case p.FileName != "" && !v.json:
				// A file given as bytes (an array of files, say).
				ct, _ = fileType("", p.ContentType, p.FileName, bytes.NewReader(v.data))
			}
			ps = append(ps, part{name: p.Name, fileName: p.FileName, contentType: ct, data: v.data})
		}
	}
	r.parts, r.sendParts = ps, pipeParts
}

// RawBody sets a body of any media type, read while the request is sent.
// A nil body sends none. A body that is an io.Closer is closed after
// sending, as net/http does.
//
// contentType is the declared media type. The ContentType of a File body
// wins over it; a declaration that is not one concrete type ("image/*", a
// list, "") is resolved as for multipart file parts (see MultipartBody):
// by the file name's extension, the first concrete type, the sniffed
// content, the declared wildcard, application/octet-stream.
func (r *Request) RawBody(contentType string, body io.Reader) {
	if body == nil {
		return
	}
	rd, name, own := fileInfo(body)
	if rd == nil {
		return
	}
	if f, ok := body.(*File); ok && f.Body != nil {
		rd = f.Body // keep the caller's reader (and its Close) as the body
	} else if f, ok := body.(File); ok && f.Body != nil {
		rd = f.Body
	}
	r.contentType, r.reader = fileType(own, contentType, name, rd)
}

// MultipartObject sets a multipart/form-data body from an object: a struct
// (fields named by json tags), a map, or a value that encodes itself as a
// JSON object, such as a union holding an object variant. Each member is
// one part, encoded as MultipartBody encodes Part.Reader (for io.Reader
// members) and Part.Value; encoding gives the media types of parts by
// member name. A nil value sends no body.
func (r *Request) MultipartObject(v any, encoding map[string]string) {
	if r.err != nil {
		return
	}
	rv, ok, err := resolve(reflect.ValueOf(v))
	if err != nil {
		r.fail("multipart body: %v", err)
		return
	}
	if !ok || rv.Kind() == reflect.Map && rv.IsNil() {
		return
	}
	if rv.Kind() != reflect.Map && rv.Kind() != reflect.Struct {
		r.fail("multipart body: need an object (a struct, a map, or a union holding an object), not %s", rv.Type())
		return
	}
	members, err := objectMembers(rv)
	if err != nil {
		r.fail("multipart body: %v", err)
		return
	}
	parts := make([]Part, 0, len(members))
	for _, m := range members {
		p := Part{Name: m.k, ContentType: encoding[m.k]}
		if rd := memberReader(rv, m.k); rd != nil {
			p.Reader, p.FileName = rd, m.k
		} else {
			p.Value = m.v.Interface()
		}
		parts = append(parts, p)
	}
	r.MultipartBody(parts)
}

// memberReader returns the member k of obj (a struct or map) as it is
// stored, before pointers are followed, when it is a non-nil io.Reader;
// else nil.
func memberReader(obj reflect.Value, k string) io.Reader {
	var v reflect.Value
	switch {
	case obj.Type() == jsonObjectType:
		return nil
	case obj.Kind() == reflect.Map:
		v = obj.MapIndex(reflect.ValueOf(k).Convert(obj.Type().Key()))
	default:
		for _, f := range structFields(obj.Type()) {
			if f.name == k {
				v, _ = fieldByIndex(obj, f.index)
				break
			}
		}
	}
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	rd, _ := v.Interface().(io.Reader)
	return rd
}

// TextBody sets a text body; contentType "" means text/plain; charset=utf-8.
func (r *Request) TextBody(contentType, s string) {
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
	}
	r.contentType, r.body = contentType, []byte(s)
}

// Accept sets the Accept header: the media types the operation's responses
// declare. Not inlined, as NewRequest.
//
//go:noinline
func (r *Request) Accept(mediaTypes string) { r.accept = mediaTypes }

var quoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`)

// writeParts writes the multipart body; readers holds the content of the
// reader parts, in order.
//
// pipeParts is what bodySource.next calls it through: set with the parts
// (see MultipartBody), so that clients without multipart bodies do not link
// mime/multipart.
func writeParts(mw *multipart.Writer, parts []part, readers []io.Reader) error {
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
			_, err = io.Copy(w, readers[0])
			readers = readers[1:]
		} else {
			_, err = w.Write(p.data)
		}
		if err != nil {
			return fmt.Errorf("multipart part %q: %w", p.name, err)
		}
	}
	return mw.Close()
}
