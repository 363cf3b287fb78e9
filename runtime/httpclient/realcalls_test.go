package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// The tests of this file come from calling real API descriptions (opsgen
// issue 11); each names the class of failure it guards against.

// rawUnion is shaped like a generated union: the chosen variant is raw JSON
// in an unexported field, visible only through MarshalJSON.
type rawUnion struct{ raw json.RawMessage }

func (u rawUnion) MarshalJSON() ([]byte, error) { return opsgenimpl.MarshalRaw(u.raw) }

func unionOf(s string) rawUnion { return rawUnion{json.RawMessage(s)} }

// badUnion cannot be marshaled.
type badUnion struct{}

func (badUnion) MarshalJSON() ([]byte, error) { return nil, errors.New("no variant") }

// extraObject is shaped like a generated object with additionalProperties:
// the extra members are in a field JSON skips, written by MarshalJSON.
type extraObject struct {
	Known string            `json:"known"`
	Extra map[string]string `json:"-"`
}

func (o extraObject) MarshalJSON() ([]byte, error) {
	m := map[string]string{"known": o.Known}
	for k, v := range o.Extra {
		m[k] = v
	}
	return json.Marshal(m)
}

// sendBody sends the body build sets and returns what the server got.
func sendBody(t *testing.T, build func(r *Request)) seen {
	t.Helper()
	rec := newRecorder(t, reply(204, "", ""))
	c := New(rec.URL, nil)
	r := c.NewRequest("op", http.MethodPost, "/things")
	build(r)
	if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
		t.Fatal(err)
	}
	return rec.last(t)
}

// TestFormUnionBodySent is class 2: a form body whose schema is a oneOf of
// objects (soundcloud's POST /oauth2/token) was sent empty, because the
// form encoder saw the union's struct, which has no exported fields.
func TestFormUnionBodySent(t *testing.T) {
	cases := []struct {
		name string
		v    any
		want string
	}{
		{"object variant, members in order", unionOf(`{"grant_type":"client_credentials","client_id":"a b","scope":["x","y"],"n":1.50}`),
			"grant_type=client_credentials&client_id=a+b&scope=x&scope=y&n=1.50"},
		{"pointer to union", &rawUnion{json.RawMessage(`{"code":"c&d"}`)}, "code=c%26d"},
		{"nested object sent as JSON, in order", unionOf(`{"b":{"z":1,"a":true}}`), "b=%7B%22z%22%3A1%2C%22a%22%3Atrue%7D"},
		{"null members left out", unionOf(`{"a":null,"b":"x"}`), "b=x"},
		{"union field of a struct", struct {
			Grant rawUnion `json:"grant"`
			Other string   `json:"other"`
		}{unionOf(`"password"`), "o"}, "grant=password&other=o"},
		{"additional properties", extraObject{"k", map[string]string{"extra": "e"}}, "extra=e&known=k"},
	}
	for _, tc := range cases {
		got := sendBody(t, func(r *Request) { r.FormBody(tc.v) })
		if ct := got.header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
			t.Errorf("%s: Content-Type %q", tc.name, ct)
		}
		if string(got.body) != tc.want {
			t.Errorf("%s: body\n got %q\nwant %q", tc.name, got.body, tc.want)
		}
	}

	// A zero union is no body, as a nil pointer is; a union holding a
	// non-object cannot be a form; a union that cannot marshal fails.
	got := sendBody(t, func(r *Request) { r.FormBody(rawUnion{}) })
	if ct := got.header.Get("Content-Type"); ct != "" || len(got.body) != 0 {
		t.Errorf("zero union: Content-Type %q, body %q; want no body", ct, got.body)
	}
	c := New("http://h", nil)
	for _, v := range []any{unionOf(`"text"`), badUnion{}} {
		r := c.NewRequest("op", http.MethodPost, "/")
		r.FormBody(v)
		var ce *runtime.CallError
		if !errors.As(r.err, &ce) || ce.Code != runtime.CodeValidation || !strings.Contains(ce.Message, "form body") {
			t.Errorf("FormBody(%T %v): err = %v, want a VALIDATION_ERROR about the form body", v, v, r.err)
		}
	}
}

// TestUntypedMemberSent: box's PostOAuth2Revoke requires grant_type, which
// no property declares, so its Go type is json.RawMessage; the form body
// went out as grant_type=%22e2e%22, the JSON text of the string, which a
// server reads with its quotes. An untyped string is its text, as a typed
// one is, in a form, a multipart part and a parameter; objects stay JSON.
func TestUntypedMemberSent(t *testing.T) {
	token := "t&1"
	type revoke struct {
		GrantType json.RawMessage `json:"grant_type"`
		Token     *string         `json:"token,omitempty"`
		Extra     json.RawMessage `json:"extra,omitempty"`
	}
	form := sendBody(t, func(r *Request) {
		r.FormBody(revoke{GrantType: json.RawMessage(`"refresh token"`), Token: &token, Extra: json.RawMessage(`{"a":1}`)})
	})
	if want := "grant_type=refresh+token&token=t%261&extra=%7B%22a%22%3A1%7D"; string(form.body) != want {
		t.Errorf("form body\n got %q\nwant %q", form.body, want)
	}
	mp := sendBody(t, func(r *Request) {
		r.MultipartObject(revoke{GrantType: json.RawMessage(` "a\u00fc" `)}, nil)
	})
	_, params, err := mime.ParseMediaType(mp.header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	part, err := multipart.NewReader(bytes.NewReader(mp.body), params["boundary"]).NextPart()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(part); part.FormName() != "grant_type" || string(b) != "aü" {
		t.Errorf("multipart part %q = %q, want grant_type = \"aü\"", part.FormName(), b)
	}
	rec := newRecorder(t, reply(204, "", ""))
	c := New(rec.URL, nil)
	r := c.NewRequest("op", http.MethodGet, "/leads/{id}")
	r.PathParam("id", StyleSimple, false, json.RawMessage(`"7 a"`))
	r.QueryParam("q", StyleForm, true, false, json.RawMessage(`"x y"`))
	r.QueryParam("n", StyleForm, true, false, json.RawMessage(`1.50`))
	r.HeaderParam("X-Mode", false, json.RawMessage(`"fast"`))
	// An array or object is serialized by its style, null is absent.
	r.QueryParam("ids", StyleForm, true, false, json.RawMessage(`[1, "a b", null, 2.50]`))
	r.QueryParam("f", StyleForm, true, false, json.RawMessage(`{"k": "v w"}`))
	r.QueryParam("none", StyleForm, true, false, json.RawMessage(`null`))
	if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
		t.Fatal(err)
	}
	got := rec.last(t)
	const want = "/leads/7%20a?q=x%20y&n=1.50&ids=1&ids=a%20b&ids=2.50&k=v%20w"
	if got.requestURI != want || got.header.Get("X-Mode") != "fast" {
		t.Errorf("parameters: got %s, X-Mode %q; want %s, fast", got.requestURI, got.header.Get("X-Mode"), want)
	}
}

// TestUnionParamsSerialized: the same blindness dropped union-typed query,
// path, header and cookie parameters (an object without members is
// "undefined" and omitted).
func TestUnionParamsSerialized(t *testing.T) {
	c := New("http://h", nil)
	r := c.NewRequest("op", http.MethodGet, "/items/{id}/{sel}")
	r.PathParam("id", StyleSimple, false, unionOf(`42`))
	r.PathParam("sel", StyleMatrix, true, unionOf(`{"a":"1","b":"x y"}`))
	r.QueryParam("q", StyleForm, false, false, unionOf(`"a b"`))
	r.QueryParam("arr", StyleForm, true, false, []rawUnion{unionOf(`1`), unionOf(`"two"`), {}})
	r.QueryParam("obj", StyleDeepObject, true, false, unionOf(`{"lo":1,"hi":{"x":true}}`))
	r.QueryParam("absent", StyleForm, true, false, rawUnion{})
	r.ContentParam("query", "text", "text/plain", unionOf(`"plain"`))
	r.ContentParam("query", "js", "application/json", unionOf(`{"k":[1,2]}`))
	if got, want := testURL(t, r), "/items/42/;a=1;b=x%20y?q=a%20b&arr=1&arr=two&obj%5Blo%5D=1&obj%5Bhi%5D%5Bx%5D=true&text=plain&js=%7B%22k%22%3A%5B1%2C2%5D%7D"; got != want {
		t.Errorf("URL\n got %s\nwant %s", got, want)
	}

	r = c.NewRequest("op", http.MethodGet, "/")
	r.HeaderParam("X-Sel", false, unionOf(`["a","b"]`))
	r.CookieParam("c", false, unionOf(`true`))
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.header.Get("X-Sel"); got != "a,b" {
		t.Errorf("header = %q, want a,b", got)
	}
	if string(r.cookies) != "c=true" {
		t.Errorf("cookies = %q, want c=true", r.cookies)
	}

	// A zero union is no value: a required path parameter fails; one that
	// cannot marshal fails naming the parameter.
	r = c.NewRequest("op", http.MethodGet, "/{id}")
	r.PathParam("id", StyleSimple, false, rawUnion{})
	if r.err == nil || !strings.Contains(r.err.Error(), `path parameter "id" is required`) {
		t.Errorf("zero union path parameter: err = %v", r.err)
	}
	r = c.NewRequest("op", http.MethodGet, "/")
	r.QueryParam("q", StyleForm, true, false, badUnion{})
	if r.err == nil || !strings.Contains(r.err.Error(), `query parameter "q"`) || !strings.Contains(r.err.Error(), "no variant") {
		t.Errorf("bad union query parameter: err = %v", r.err)
	}
}

// TestPathTemplateLiteralHash is class 4: AWS and Box descriptions have
// path templates such as "/alerts#resourceArn" and "/{Bucket}?uploads".
// Their literal parts were first copied into the URL unescaped, so '#'
// started a fragment that swallowed every query parameter, then sent
// percent-encoded in the path ("/files/123%23get_shared_link"), which a
// real server reads as another resource. The "#..." suffix only tells
// operations apart and is never sent; a "?..." part is a literal query.
func TestPathTemplateLiteralHash(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	c := New(rec.URL+"/base", nil)
	cases := []struct {
		template string
		path     map[string]string
		want     string
	}{
		{"/alerts#resourceArn", nil, "/base/alerts?resourceArn=arn%3Aaws&maxResults=5"},
		{"/files/{id}#get_shared_link", map[string]string{"id": "123"}, "/base/files/123?resourceArn=arn%3Aaws&maxResults=5"},
		{"/{Bucket}?uploads", map[string]string{"Bucket": "my b#1?"}, "/base/my%20b%231%3F?uploads&resourceArn=arn%3Aaws&maxResults=5"},
		{"/?Action=AssumeRole&Version=2011-06-15#x?y", nil, "/base/?Action=AssumeRole&Version=2011-06-15&resourceArn=arn%3Aaws&maxResults=5"},
		{"/q?list-type=2&a b=[c]", nil, "/base/q?list-type=2&a%20b=%5Bc%5D&resourceArn=arn%3Aaws&maxResults=5"},
		{"/a b/{id}/c%2Fd/100%/[x]", map[string]string{"id": "7"}, "/base/a%20b/7/c%2Fd/100%25/%5Bx%5D?resourceArn=arn%3Aaws&maxResults=5"},
		{"/keep/:sub-delims!$&'()*+,;=@~", nil, "/base/keep/:sub-delims!$&'()*+,;=@~?resourceArn=arn%3Aaws&maxResults=5"},
	}
	for _, tc := range cases {
		r := c.NewRequest("op", http.MethodGet, tc.template)
		for k, v := range tc.path {
			r.PathParam(k, StyleSimple, false, v)
		}
		r.QueryParam("resourceArn", StyleForm, true, false, "arn:aws")
		r.QueryParam("maxResults", StyleForm, true, false, 5)
		if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
			t.Fatalf("%s: %v", tc.template, err)
		}
		if got := rec.last(t).requestURI; got != tc.want {
			t.Errorf("%s: request URI\n got %s\nwant %s", tc.template, got, tc.want)
		}
	}
}

// TestCredentialSentOnce: a credential declared both as a parameter of the
// operation and as an apiKey (or Authorization) security scheme was sent
// twice. A non-empty parameter wins; an empty one gives way to the scheme.
func TestCredentialSentOnce(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	calls := 0
	c := New(rec.URL, testSchemes,
		WithCredential("key_header", APIKey("scheme-h")),
		WithCredential("key_query", APIKey("scheme-q")),
		WithCredential("key_cookie", APIKey("scheme-c")),
		WithCredential("oauth", TokenSource(func(context.Context) (string, error) { calls++; return "scheme-tok", nil })),
	)
	send := func(security string, build func(r *Request)) seen {
		t.Helper()
		r := c.NewRequest("op", http.MethodGet, "/x")
		build(r)
		r.Security([][]string{{security}})
		if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
			t.Fatal(err)
		}
		return rec.last(t)
	}
	// The scheme's name is "api key" (percent-encoded on the wire).
	got := send("key_query", func(r *Request) {
		r.QueryParam("other", StyleForm, true, false, "1")
		r.QueryParam("api key", StyleForm, true, false, "param-q")
	})
	if got.requestURI != "/x?other=1&api%20key=param-q" {
		t.Errorf("query parameter set: %s", got.requestURI)
	}
	got = send("key_query", func(r *Request) {
		r.QueryParam("api key", StyleForm, true, false, "")
		r.QueryParam("other", StyleForm, true, false, "1")
	})
	if got.requestURI != "/x?other=1&api%20key=scheme-q" {
		t.Errorf("query parameter empty: %s", got.requestURI)
	}
	got = send("key_query", func(r *Request) { r.QueryParam("api key", StyleForm, true, false, (*string)(nil)) })
	if got.requestURI != "/x?api%20key=scheme-q" {
		t.Errorf("query parameter unset: %s", got.requestURI)
	}

	got = send("key_header", func(r *Request) { r.HeaderParam("X-API-Key", false, "param-h") })
	if v := got.header.Values("X-Api-Key"); len(v) != 1 || v[0] != "param-h" {
		t.Errorf("header parameter set: %q", v)
	}
	got = send("key_header", func(r *Request) { r.HeaderParam("X-API-Key", false, "") })
	if v := got.header.Values("X-Api-Key"); len(v) != 1 || v[0] != "scheme-h" {
		t.Errorf("header parameter empty: %q", v)
	}

	got = send("key_cookie", func(r *Request) {
		r.CookieParam("a", false, "1")
		r.CookieParam("sid", false, "param-c")
	})
	if v := got.header.Values("Cookie"); len(v) != 1 || v[0] != "a=1; sid=param-c" {
		t.Errorf("cookie parameter set: %q", v)
	}
	got = send("key_cookie", func(r *Request) {
		r.CookieParam("sid", false, "")
		r.CookieParam("a", false, "1")
	})
	if v := got.header.Values("Cookie"); len(v) != 1 || v[0] != "a=1; sid=scheme-c" {
		t.Errorf("cookie parameter empty: %q", v)
	}

	got = send("oauth", func(r *Request) { r.HeaderParam("Authorization", false, "Bearer param") })
	if v := got.header.Values("Authorization"); len(v) != 1 || v[0] != "Bearer param" || calls != 0 {
		t.Errorf("Authorization parameter set: %q, token source called %d times", v, calls)
	}
	got = send("oauth", func(r *Request) { r.HeaderParam("Authorization", false, "") })
	if v := got.header.Values("Authorization"); len(v) != 1 || v[0] != "Bearer scheme-tok" || calls != 1 {
		t.Errorf("Authorization parameter empty: %q, token source called %d times", v, calls)
	}
}

// multipartPart is one part as the server read it.
type multipartPart struct{ name, file, ctype, content string }

// readParts parses a multipart/form-data request as the server got it.
func readParts(t *testing.T, s seen) []multipartPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(s.header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("Content-Type %q: %v", s.header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(bytes.NewReader(s.body), params["boundary"])
	var parts []multipartPart
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		parts = append(parts, multipartPart{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(b)})
	}
}

// TestMultipartFileNameAndType: file parts always carried the field name
// as file name, and the caller could not set the file name or media type.
func TestMultipartFileNameAndType(t *testing.T) {
	osFile := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(osFile, []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(osFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := readParts(t, sendBody(t, func(r *Request) {
		r.MultipartBody([]Part{
			{Name: "a", FileName: "a", Reader: File{Name: "cat.png", ContentType: "image/x-cat", Body: strings.NewReader("A")}},
			{Name: "b", FileName: "b", ContentType: "image/png, image/jpeg", Reader: &File{Name: "dog.jpg", Body: strings.NewReader("B")}},
			{Name: "c", FileName: "c", ContentType: "image/*", Reader: File{Name: "x.gif", Body: strings.NewReader("C")}},
			{Name: "d", FileName: "d", ContentType: "image/*", Reader: strings.NewReader("D")},
			{Name: "d2", FileName: "d2", ContentType: "image/*", Reader: io.MultiReader(strings.NewReader(png))},
			{Name: "e", FileName: "e", ContentType: "image/png, image/jpeg", Reader: strings.NewReader("E")},
			{Name: "f", FileName: "f", Reader: f},
			{Name: "g", FileName: "g", ContentType: "application/json", Reader: File{Body: strings.NewReader("{}")}},
			{Name: "h", FileName: "h", Reader: (*File)(nil)},
			{Name: "v", ContentType: "text/plain, text/csv", Value: "x"},
		})
	}))
	want := []multipartPart{
		{"a", "cat.png", "image/x-cat", "A"},           // the File's own name and type
		{"b", "dog.jpg", "image/jpeg", "B"},            // the listed type its extension gives
		{"c", "x.gif", "image/gif", "C"},               // the wildcard type its extension gives
		{"d", "d", "image/*", "D"},                     // a wildcard, nothing matches it: as declared
		{"d2", "d2", "image/png", png},                 // a wildcard: the sniffed type (no seeking back)
		{"e", "e", "image/png", "E"},                   // the first listed type
		{"f", "report.pdf", "application/pdf", "%PDF"}, // an *os.File: its base name
		{"g", "g", "application/json", "{}"},           // a File without name keeps the default
		{"v", "", "text/plain", "x"},                   // a value part: the first listed type
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parts\n got %q\nwant %q", got, want)
	}

	// A binary body: a File's type wins; a wildcard declaration is not sent
	// as a Content-Type.
	s := sendBody(t, func(r *Request) {
		r.RawBody("application/octet-stream", File{Name: "a.png", ContentType: "image/png", Body: strings.NewReader("P")})
	})
	if ct := s.header.Get("Content-Type"); ct != "image/png" || string(s.body) != "P" {
		t.Errorf("File body: %q %q", ct, s.body)
	}
	s = sendBody(t, func(r *Request) { r.RawBody("image/*", strings.NewReader("P")) })
	if ct := s.header.Get("Content-Type"); ct != "image/*" || string(s.body) != "P" {
		t.Errorf("wildcard body of unknown content: Content-Type %q, body %q", ct, s.body)
	}
	// Sniffing reads a seeker and seeks back: the body keeps its length.
	s = sendBody(t, func(r *Request) { r.RawBody("image/*", strings.NewReader(png)) })
	if ct, cl := s.header.Get("Content-Type"), s.header.Get("Content-Length"); ct != "image/png" || cl != strconv.Itoa(len(png)) || string(s.body) != png {
		t.Errorf("wildcard body of a PNG: Content-Type %q, Content-Length %q, body %q", ct, cl, s.body)
	}
	// Another reader gets back what was read, and keeps its Close.
	closed := false
	long := png + strings.Repeat("x", 600)
	s = sendBody(t, func(r *Request) {
		r.RawBody("image/*, application/pdf", &closeRecorder{Reader: io.MultiReader(strings.NewReader(long)), closed: &closed})
	})
	if ct := s.header.Get("Content-Type"); ct != "application/pdf" || string(s.body) != long {
		t.Errorf("listed types: Content-Type %q, body %q", ct, s.body)
	}
	s = sendBody(t, func(r *Request) {
		r.RawBody("image/*", &closeRecorder{Reader: io.MultiReader(strings.NewReader(long)), closed: &closed})
	})
	if ct := s.header.Get("Content-Type"); ct != "image/png" || string(s.body) != long || !closed {
		t.Errorf("sniffed non-seeker: Content-Type %q, body %q, closed %v", ct, s.body, closed)
	}
	s = sendBody(t, func(r *Request) { r.RawBody("*/*", &File{Name: "notes.txt", Body: strings.NewReader("T")}) })
	if ct := s.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("*/* body of notes.txt: Content-Type %q", ct)
	}
}

// png is the start of a PNG file, as http.DetectContentType knows it.
const png = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

// closeRecorder is a reader that records its Close.
type closeRecorder struct {
	io.Reader
	closed *bool
}

func (c *closeRecorder) Close() error { *c.closed = true; return nil }

// TestMultipartObject sends a multipart body from an object: a union
// holding an object variant (the multipart form of class 2) and a struct
// with a reader field.
func TestMultipartObject(t *testing.T) {
	got := readParts(t, sendBody(t, func(r *Request) {
		r.MultipartObject(unionOf(`{"kind":"photo","meta":{"w":1},"tags":["a","b"],"skip":null}`), map[string]string{"meta": "application/json"})
	}))
	want := []multipartPart{
		{"kind", "", "", "photo"},
		{"meta", "", "application/json", `{"w":1}`},
		{"tags", "", "", "a"},
		{"tags", "", "", "b"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("union parts\n got %q\nwant %q", got, want)
	}
	type upload struct {
		File  io.Reader `json:"file,omitempty"`
		Title string    `json:"title"`
	}
	got = readParts(t, sendBody(t, func(r *Request) {
		r.MultipartObject(&upload{File: strings.NewReader("bin"), Title: "t"}, map[string]string{"file": "image/png"})
	}))
	want = []multipartPart{{"file", "file", "image/png", "bin"}, {"title", "", "", "t"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("struct parts\n got %q\nwant %q", got, want)
	}
}

// FuzzPathTemplateLiteral: whatever the literal text of a path template,
// the URL built from it parses, has no fragment, and ends with the query
// parameters it was given.
func FuzzPathTemplateLiteral(f *testing.F) {
	for _, s := range []string{"/alerts#resourceArn", "/{Bucket}?uploads", "/a b/%zz/%41/[x]", "/ü/\x00\x7f", "#?#?", "/x%"} {
		f.Add(s)
	}
	base, err := parseBaseURL("http://h/base")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, literal string) {
		if strings.ContainsAny(literal, "{}") {
			t.Skip("template expressions are not literal text")
		}
		r := New("http://h/base", nil).NewRequest("op", http.MethodGet, literal)
		r.QueryParam("q", StyleForm, true, false, "1")
		u, err := r.buildURL(base)
		if err != nil {
			t.Fatal(err)
		}
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatalf("%q: built %q, which does not parse: %v", literal, u, err)
		}
		// The template's own query ("?uploads"), when it has one, comes first.
		if pu.Fragment != "" || pu.RawQuery != "q=1" && !strings.HasSuffix(pu.RawQuery, "&q=1") || !strings.HasPrefix(pu.EscapedPath(), "/base") {
			t.Errorf("%q: built %q: fragment %q, query %q, path %q", literal, u, pu.Fragment, pu.RawQuery, pu.EscapedPath())
		}
	})
}

// FuzzDecodeJSON: the order-keeping decoder of self-encoding values agrees
// with encoding/json on every valid JSON value, and writes it back
// equivalently.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":[true,null,"x"],"c":{"z":1.50,"y":{}}}`, `"\u00e9"`, `[]`, `-0.0e5`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want any
		if json.Unmarshal(b, &want) != nil {
			return
		}
		v, err := decodeJSON(b)
		if err != nil {
			t.Fatalf("decodeJSON(%q): %v", b, err)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal of decoded %q: %v", b, err)
		}
		var got any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q written back as %q: %v", b, out, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q written back as %q", b, out)
		}
	})
}

// ptrMarshaler encodes itself with a pointer receiver, as some hand-written
// types do; a value of it is still serialized from its JSON.
type ptrMarshaler struct{ v string }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"v": p.v})
}

func TestPointerReceiverMarshaler(t *testing.T) {
	got := sendBody(t, func(r *Request) { r.FormBody(ptrMarshaler{"x y"}) })
	if string(got.body) != "v=x+y" {
		t.Errorf("body = %q, want v=x+y", got.body)
	}
}
