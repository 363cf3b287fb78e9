package httpclient

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// seen is a request as the server received it.
type seen struct {
	method     string
	requestURI string
	header     http.Header
	body       []byte
}

// recorder is a test server that records each request and answers with
// its handler.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newRecorder(t *testing.T, h http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen{r.Method, r.RequestURI, r.Header.Clone(), body})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) last(t *testing.T) seen {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.reqs) == 0 {
		t.Fatal("the server got no request")
	}
	return rec.reqs[len(rec.reqs)-1]
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

func reply(status int, contentType, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Add(headers[i], headers[i+1])
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

type pet struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func TestDoRequestOnTheWire(t *testing.T) {
	rec := newRecorder(t, reply(200, "application/json", `{"id":7,"name":"rex"}`))
	c := New(rec.URL+"/v1/", nil,
		WithUserAgent("petstore-client/1"),
		WithHeader("X-Tenant", "acme"),
		WithHeader("Cookie", "session=s1"),
	)
	r := c.NewRequest("getPet", http.MethodGet, "/pets/{petId}/{tags}")
	r.PathParam("petId", StyleSimple, false, 7)
	r.PathParam("tags", StyleMatrix, true, []string{"a b", "c"})
	r.QueryParam("fields", StyleForm, false, false, []string{"id", "name"})
	r.QueryParam("filter", StyleDeepObject, true, false, map[string]string{"kind": "dog"})
	r.QueryParam("empty", StyleForm, true, false, (*string)(nil))
	r.HeaderParam("X-Trace", false, []int{1, 2})
	r.CookieParam("theme", false, "dark mode")
	r.CookieParam("pref", true, map[string]int{"a": 1, "b": 2})
	r.Accept("application/json, application/problem+json")
	env, err := Do[pet](t.Context(), c, r, []Response{{Status: "200", Kind: BodyJSON}}, WithRequestHeader("X-Call", "yes"))
	if err != nil {
		t.Fatal(err)
	}
	if env.Data != (pet{7, "rex"}) {
		t.Errorf("data: %+v", env.Data)
	}
	got := rec.last(t)
	if got.method != "GET" {
		t.Errorf("method %q", got.method)
	}
	if want := "/v1/pets/7/;tags=a%20b;tags=c?fields=id,name&filter%5Bkind%5D=dog"; got.requestURI != want {
		t.Errorf("request URI\n got %q\nwant %q", got.requestURI, want)
	}
	wantHeader := map[string]string{
		"User-Agent": "petstore-client/1",
		"X-Tenant":   "acme",
		"X-Trace":    "1,2",
		"X-Call":     "yes",
		"Accept":     "application/json, application/problem+json",
		"Cookie":     "session=s1; theme=dark%20mode; a=1; b=2",
	}
	for k, v := range wantHeader {
		if g := strings.Join(got.header.Values(k), " | "); g != v {
			t.Errorf("header %s: got %q, want %q", k, g, v)
		}
	}
}

func TestDoBodies(t *testing.T) {
	rec := newRecorder(t, reply(204, "", ""))
	c := New(rec.URL, nil)
	cases := []struct {
		name     string
		build    func(r *Request)
		wantType string
		wantBody string
	}{
		{"json", func(r *Request) { r.JSONBody("", pet{1, "a<b"}) }, "application/json", `{"id":1,"name":"a\u003cb"}`},
		{"json merge patch", func(r *Request) { r.JSONBody("application/merge-patch+json", map[string]any{"name": nil}) }, "application/merge-patch+json", `{"name":null}`},
		{"json nil", func(r *Request) { r.JSONBody("", (*pet)(nil)) }, "", ""},
		{"form", func(r *Request) {
			r.FormBody(struct {
				Name  string   `json:"name"`
				Tags  []string `json:"tags"`
				Owner *pet     `json:"owner"`
				Skip  *string  `json:"skip"`
			}{"a b&c", []string{"x", "y"}, &pet{2, "o"}, nil})
		}, "application/x-www-form-urlencoded", "name=a+b%26c&tags=x&tags=y&owner=%7B%22id%22%3A2%2C%22name%22%3A%22o%22%7D"},
		{"form without fields", func(r *Request) { r.FormBody(struct{}{}) }, "application/x-www-form-urlencoded", ""},
		{"form map", func(r *Request) { r.FormBody(map[string][]string{"b": {"2"}, "a": {"1"}}) }, "application/x-www-form-urlencoded", "a=1&b=2"},
		{"octet", func(r *Request) { r.RawBody("", strings.NewReader("\x00\x01bin")) }, "application/octet-stream", "\x00\x01bin"},
		{"raw image", func(r *Request) { r.RawBody("image/png", bytes.NewReader([]byte("png"))) }, "image/png", "png"},
		{"text", func(r *Request) { r.TextBody("", "héllo") }, "text/plain; charset=utf-8", "héllo"},
		{"csv", func(r *Request) { r.TextBody("text/csv", "a,b\n") }, "text/csv", "a,b\n"},
	}
	for _, tc := range cases {
		r := c.NewRequest("op", http.MethodPost, "/things")
		tc.build(r)
		if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		got := rec.last(t)
		if ct := got.header.Get("Content-Type"); ct != tc.wantType {
			t.Errorf("%s: Content-Type %q, want %q", tc.name, ct, tc.wantType)
		}
		if string(got.body) != tc.wantBody {
			t.Errorf("%s: body %q, want %q", tc.name, got.body, tc.wantBody)
		}
	}
}

func TestDoMultipart(t *testing.T) {
	type part struct{ name, file, ctype, content string }
	var parts []part
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/form-data" {
			http.Error(w, "bad content type", 400)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, part{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(b)})
		}
		w.WriteHeader(204)
	}))
	defer srv.Close()
	c := New(srv.URL, nil)
	r := c.NewRequest("upload", http.MethodPost, "/upload")
	r.MultipartBody([]Part{
		{Name: "file", FileName: `photo "1".png`, ContentType: "image/png", Reader: strings.NewReader("PNGDATA")},
		{Name: "raw", Reader: strings.NewReader("bytes")},
		{Name: "title", Value: "Rex"},
		{Name: "count", Value: 3},
		{Name: "tags", Value: []string{"a", "b"}},
		{Name: "meta", Value: pet{1, "m"}},
		{Name: "blob", Value: []byte{0xff, 0x00}},
		{Name: "skipped", Value: (*string)(nil)},
	})
	if _, err := Do[struct{}](t.Context(), c, r, nil); err != nil {
		t.Fatal(err)
	}
	want := []part{
		{"file", `photo "1".png`, "image/png", "PNGDATA"},
		{"raw", "", "application/octet-stream", "bytes"},
		{"title", "", "", "Rex"},
		{"count", "", "", "3"},
		{"tags", "", "", "a"},
		{"tags", "", "", "b"},
		{"meta", "", "application/json", `{"id":1,"name":"m"}`},
		{"blob", "", "", "\xff\x00"},
	}
	if !reflect.DeepEqual(parts, want) {
		t.Errorf("parts\n got %q\nwant %q", parts, want)
	}
}

func TestDoDecode(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/json", reply(200, "application/json; charset=utf-8", `{"id":7,"name":"rex","extra":true}`,
		"X-Ratelimit-Remaining", "59", "Vary", "Accept", "Vary", "Accept-Encoding"))
	mux.HandleFunc("/problem", reply(201, "application/vnd.api+json", `{"id":1,"name":"vnd"}`))
	mux.HandleFunc("/text", reply(200, "text/plain; charset=utf-8", "pong"))
	mux.HandleFunc("/bin", reply(200, "application/octet-stream", "\x00\x01"))
	mux.HandleFunc("/nocontent", reply(204, "application/json", ""))
	mux.HandleFunc("/empty", reply(200, "application/json", ""))
	mux.HandleFunc("/untyped", reply(200, "", `{"id":3,"name":"u"}`))
	mux.HandleFunc("/drift", reply(200, "text/plain", `{"id":4,"name":"d"}`))
	mux.HandleFunc("/jsonstring", reply(200, "application/json", `"hi"`))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := New(srv.URL, nil)
	ctx := t.Context()
	get := func(path string) *Request { return c.NewRequest("op", http.MethodGet, path) }

	env, err := Do[pet](ctx, c, get("/json"), []Response{{Status: "2XX", Kind: BodyJSON}})
	if err != nil {
		t.Fatal(err)
	}
	m := runtime.HTTPMetaOf(env.Meta)
	if env.Data != (pet{7, "rex"}) || m == nil || m.StatusCode != 200 || m.ContentType != "application/json; charset=utf-8" {
		t.Errorf("json: %+v %+v", env.Data, m)
	}
	for k, v := range map[string]string{"x-ratelimit-remaining": "59", "vary": "Accept, Accept-Encoding", "content-type": "application/json; charset=utf-8", "content-length": "34"} {
		if m.Headers[k] != v {
			t.Errorf("json: header %s = %q, want %q (all: %v)", k, m.Headers[k], v, m.Headers)
		}
	}
	// The envelope's wire form is the seeds' (vectors/envelopes/http-json.json).
	if b, err := env.MarshalJSON(); err != nil || !bytes.Contains(b, []byte(`"meta":{"source":"http","statusCode":200,`)) {
		t.Errorf("wire form %s (%v)", b, err)
	}

	if env, err := Do[pet](ctx, c, get("/problem"), nil); err != nil || env.Data != (pet{1, "vnd"}) || runtime.HTTPMetaOf(env.Meta).StatusCode != 201 {
		t.Errorf("+json: %+v %v", env, err)
	}
	if env, err := Do[string](ctx, c, get("/text"), nil); err != nil || env.Data != "pong" {
		t.Errorf("text: %+v %v", env, err)
	}
	if env, err := Do[[]byte](ctx, c, get("/bin"), nil); err != nil || string(env.Data) != "\x00\x01" {
		t.Errorf("binary: %+v %v", env, err)
	}
	if env, err := Do[[]byte](ctx, c, get("/json"), nil); err != nil || !strings.HasPrefix(string(env.Data), `{"id":7`) {
		t.Errorf("json as bytes: %q %v", env.Data, err)
	}
	for _, path := range []string{"/nocontent", "/empty"} {
		env, err := Do[pet](ctx, c, get(path), nil)
		if err != nil || env.Data != (pet{}) || runtime.HTTPMetaOf(env.Meta) == nil {
			t.Errorf("%s: %+v %v", path, env, err)
		}
	}
	if env, err := Do[pet](ctx, c, c.NewRequest("op", http.MethodHead, "/json"), nil); err != nil || env.Data != (pet{}) || runtime.HTTPMetaOf(env.Meta).Headers["x-ratelimit-remaining"] != "59" {
		t.Errorf("HEAD: %+v %v", env, err)
	}
	if env, err := Do[pet](ctx, c, get("/untyped"), []Response{{Status: "200", Kind: BodyJSON}}); err != nil || env.Data != (pet{3, "u"}) {
		t.Errorf("no content type: %+v %v", env, err)
	}
	if env, err := Do[pet](ctx, c, get("/drift"), nil); err != nil || env.Data != (pet{4, "d"}) {
		t.Errorf("JSON sent as text/plain: %+v %v", env, err)
	}
	if env, err := Do[string](ctx, c, get("/jsonstring"), nil); err != nil || env.Data != "hi" {
		t.Errorf("JSON string: %+v %v", env, err)
	}
	if env, err := Do[any](ctx, c, get("/text"), nil); err != nil || env.Data != "pong" {
		t.Errorf("text as any: %#v %v", env.Data, err)
	}
	if env, err := Do[any](ctx, c, get("/bin"), nil); err != nil || !reflect.DeepEqual(env.Data, []byte("\x00\x01")) {
		t.Errorf("binary as any: %#v %v", env.Data, err)
	}
	if env, err := Do[any](ctx, c, get("/json"), nil); err != nil || env.Data.(map[string]any)["name"] != "rex" {
		t.Errorf("JSON as any: %#v %v", env.Data, err)
	}
	if _, err := Do[pet](ctx, c, get("/text"), nil); !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), `"text/plain" cannot be decoded into httpclient.pet`) {
		t.Errorf("text into struct: %v", err)
	}

	// io.ReadCloser gets the body unread.
	env2, err := Do[io.ReadCloser](ctx, c, get("/bin"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(env2.Data)
	env2.Data.Close()
	if err != nil || string(b) != "\x00\x01" || runtime.HTTPMetaOf(env2.Meta).ContentType != "application/octet-stream" {
		t.Errorf("reader: %q %v", b, err)
	}
}

func TestDoValidationModes(t *testing.T) {
	srv := httptest.NewServer(reply(200, "application/json", `{"id":"seven","name":"rex"}`))
	defer srv.Close()
	schema := opsgenimpl.NewSchema(`{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}`)
	responses := []Response{{Status: "200", Kind: BodyJSON, Schema: schema}}
	var hooked []runtime.Warning
	var logged bytes.Buffer
	c := New(srv.URL, nil,
		WithWarningHook(func(_ context.Context, w runtime.Warning) { hooked = append(hooked, w) }),
		WithLogger(slog.New(slog.NewTextHandler(&logged, nil))))
	type loose struct {
		ID   any    `json:"id"`
		Name string `json:"name"`
	}
	env, err := Do[loose](t.Context(), c, c.NewRequest("getPet", "GET", "/"), responses)
	if err != nil {
		t.Fatal(err)
	}
	if len(env.Warnings) == 0 || env.Warnings[0].Pointer != "/id" || len(hooked) != len(env.Warnings) || env.Data.Name != "rex" {
		t.Errorf("warn mode: data %+v, warnings %+v, hooked %+v", env.Data, env.Warnings, hooked)
	}
	if !strings.Contains(logged.String(), "operation=getPet pointer=/id") {
		t.Errorf("warn mode: logged %q", logged.String())
	}
	_, err = Do[loose](t.Context(), c, c.NewRequest("getPet", "GET", "/"), responses, WithCallValidation(runtime.ValidateStrict))
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("strict mode: %v", err)
	}
	env, err = Do[loose](t.Context(), c, c.NewRequest("getPet", "GET", "/"), responses, WithCallValidation(runtime.ValidateOff))
	if err != nil || len(env.Warnings) != 0 || env.Data.ID != "seven" {
		t.Errorf("off mode: %+v %v", env, err)
	}
	// Off mode does not validate, but a value T cannot hold is dropped
	// with a warning, not a DECODE_ERROR.
	penv, err := Do[pet](t.Context(), c, c.NewRequest("getPet", "GET", "/"), responses, WithCallValidation(runtime.ValidateOff))
	if err != nil || penv.Data.Name != "rex" || len(penv.Warnings) != 1 || penv.Warnings[0].Pointer != "/id" {
		t.Errorf("off mode mismatch: %+v %v", penv, err)
	}
}

func TestDoStatusErrors(t *testing.T) {
	big := strings.Repeat("x", opsgenimpl.MaxErrorBody+10)
	mux := http.NewServeMux()
	mux.HandleFunc("/404", reply(404, "application/problem+json", `{"code":"nope","message":"no such pet"}`, "X-Request-Id", "r1"))
	mux.HandleFunc("/500", reply(500, "application/json", `{"code":"boom","message":"down"}`))
	mux.HandleFunc("/401", reply(401, "text/plain", "who are you", "WWW-Authenticate", "Bearer"))
	mux.HandleFunc("/403", reply(403, "", ""))
	mux.HandleFunc("/big", reply(502, "application/json", big))
	mux.HandleFunc("/teapot", reply(418, "application/json", `not json`))
	mux.HandleFunc("/302", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "/elsewhere")
		w.WriteHeader(302)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	c := New(srv.URL, nil, WithHTTPClient(noRedirect))
	responses := []Response{
		{Status: "200", Kind: BodyJSON},
		{Status: "404", Kind: BodyJSON, NewError: func() any { return new(problem) }},
		{Status: "4XX", Kind: BodyJSON},
		{Status: "default", Kind: BodyJSON, NewError: func() any { return new(problem) }},
	}
	call := func(path string) *runtime.CallError {
		t.Helper()
		_, err := Do[pet](t.Context(), c, c.NewRequest("getPet", "GET", path), responses)
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.HTTP == nil {
			t.Fatalf("%s: got %v, want a CallError with HTTP", path, err)
		}
		return ce
	}

	ce := call("/404")
	if ce.Code != runtime.CodeExecution || ce.Message != "HTTP 404 Not Found" || ce.OperationID != "getPet" ||
		ce.HTTP.StatusCode != 404 || ce.HTTP.Headers.Get("X-Request-Id") != "r1" || ce.HTTP.ContentType != "application/problem+json" {
		t.Errorf("404: %+v %+v", ce, ce.HTTP)
	}
	if p, ok := runtime.ErrorBody[problem](ce); !ok || p.Message != "no such pet" {
		t.Errorf("404 typed body: %+v %v", p, ok)
	}
	if runtime.StatusCode(ce) != 404 || string(ce.HTTP.Body) != `{"code":"nope","message":"no such pet"}` || ce.HTTP.Truncated {
		t.Errorf("404 body: %q", ce.HTTP.Body)
	}
	if p, ok := runtime.ErrorBody[problem](call("/500")); !ok || p.Code != "boom" {
		t.Errorf("500 through default: %+v %v", p, ok)
	}
	if ce := call("/401"); ce.Code != runtime.CodeAccessDenied || !errors.Is(ce, runtime.ErrAccessDenied) || string(ce.HTTP.Body) != "who are you" || ce.HTTP.Typed != nil {
		t.Errorf("401: %+v", ce)
	}
	if ce := call("/403"); ce.Code != runtime.CodeAccessDenied || ce.Message != "HTTP 403 Forbidden" {
		t.Errorf("403: %+v", ce)
	}
	ce = call("/big")
	if !ce.HTTP.Truncated || len(ce.HTTP.Body) != opsgenimpl.MaxErrorBody || ce.HTTP.Typed != nil {
		t.Errorf("big: truncated %v, %d bytes, typed %v", ce.HTTP.Truncated, len(ce.HTTP.Body), ce.HTTP.Typed)
	}
	// 418 matches 4XX, which declares no error type; and the body is not JSON anyway.
	if ce := call("/teapot"); ce.HTTP.Typed != nil || string(ce.HTTP.Body) != "not json" || ce.Code != runtime.CodeExecution {
		t.Errorf("teapot: %+v", ce.HTTP)
	}
	if ce := call("/302"); ce.HTTP.StatusCode != 302 || ce.HTTP.Headers.Get("Location") != "/elsewhere" {
		t.Errorf("302: %+v", ce.HTTP)
	}
}

func TestDoDecodeErrors(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/malformed", reply(200, "application/json", `{"id":`))
	mux.HandleFunc("/trailing", reply(200, "application/json", `{"id":1} {"id":2}`))
	mux.HandleFunc("/large", reply(200, "application/json", `{"name":"`+strings.Repeat("a", 200)+`"}`))
	mux.HandleFunc("/largetext", reply(200, "text/plain", strings.Repeat("a", 101)))
	mux.HandleFunc("/exact", reply(200, "text/plain", strings.Repeat("a", 100)))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c := New(srv.URL, nil, WithMaxBodyBytes(100))
	schema := opsgenimpl.NewSchema(`{"type":"object"}`)
	for _, mode := range []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn} {
		responses := []Response{{Status: "200", Kind: BodyJSON, Schema: schema}}
		for _, path := range []string{"/malformed", "/trailing"} {
			_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", path), responses, WithCallValidation(mode))
			if !errors.Is(err, runtime.ErrDecode) {
				t.Errorf("%s (%v): got %v, want DECODE_ERROR", path, mode, err)
			}
		}
		_, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/large"), responses, WithCallValidation(mode))
		if !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), "response body exceeds 100 bytes") {
			t.Errorf("large JSON (%v): %v", mode, err)
		}
	}
	if _, err := Do[string](t.Context(), c, c.NewRequest("op", "GET", "/largetext"), nil); !errors.Is(err, runtime.ErrDecode) || !strings.Contains(err.Error(), "exceeds 100 bytes") {
		t.Errorf("large text: %v", err)
	}
	if env, err := Do[string](t.Context(), c, c.NewRequest("op", "GET", "/exact"), nil); err != nil || len(env.Data) != 100 {
		t.Errorf("body at the cap: %d bytes, %v", len(env.Data), err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestDoTransportAndContextErrors(t *testing.T) {
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slowbody" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":`)
			w.(http.Flusher).Flush()
		}
		if r.URL.Path != "/hang" {
			arrived <- struct{}{}
		}
		<-r.Context().Done()
	}))
	defer srv.Close()
	// The transport tells when the response headers are in.
	gotHeaders := make(chan struct{}, 1)
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(r)
		if err == nil {
			gotHeaders <- struct{}{}
		}
		return resp, err
	})}
	c := New(srv.URL, nil, WithHTTPClient(hc))

	ctx, cancel := context.WithTimeout(t.Context(), 0)
	defer cancel()
	<-ctx.Done()
	if _, err := Do[pet](ctx, c, c.NewRequest("op", "GET", "/hang"), nil); !errors.Is(err, runtime.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline: %v", err)
	}

	// A deadline that passes while waiting for the response.
	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if _, err := Do[pet](ctx, c, c.NewRequest("op", "GET", "/hang"), nil); !errors.Is(err, runtime.ErrTimeout) {
		t.Errorf("deadline while waiting: %v", err)
	}
	// The http.Client's own timeout is a TIMEOUT too.
	short := New(srv.URL, nil, WithHTTPClient(&http.Client{Timeout: 20 * time.Millisecond}))
	if _, err := Do[pet](t.Context(), short, short.NewRequest("op", "GET", "/hang"), nil); !errors.Is(err, runtime.ErrTimeout) || !strings.Contains(err.Error(), "request timed out") {
		t.Errorf("client timeout: %v", err)
	}

	for _, path := range []string{"/wait", "/slowbody"} {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := Do[pet](ctx, c, c.NewRequest("op", "GET", path), nil)
			done <- err
		}()
		<-arrived
		if path == "/slowbody" {
			<-gotHeaders // cancel while the body is being read
		}
		cancel()
		if err := <-done; !errors.Is(err, runtime.ErrCanceled) || !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancel: %v", path, err)
		}
	}

	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	c2 := New(closed.URL, nil)
	if _, err := Do[pet](t.Context(), c2, c2.NewRequest("op", "GET", "/"), nil); !errors.Is(err, runtime.ErrTransport) {
		t.Errorf("closed server: %v", err)
	}
	if _, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithRequestEditor(func(*http.Request) error { return errors.New("no way") })); !errors.Is(err, runtime.ErrTransport) || !strings.Contains(err.Error(), "no way") {
		t.Errorf("editor error: %v", err)
	}
}

func TestDoCallOptions(t *testing.T) {
	first := newRecorder(t, reply(200, "text/plain", "first"))
	second := newRecorder(t, reply(200, "text/plain", "second"))
	c := New(first.URL, nil, WithHeader("X-A", "client"))
	r := c.NewRequest("op", "GET", "/x")
	r.HeaderParam("X-B", false, "param")
	env, err := Do[string](t.Context(), c, r, nil,
		WithCallBaseURL(second.URL+"/base"),
		WithRequestHeader("X-A", "call"),
		WithRequestEditor(func(req *http.Request) error {
			req.Header.Set("X-Edited", req.Header.Get("X-B")+"!")
			return nil
		}))
	if err != nil || env.Data != "second" || first.count() != 0 {
		t.Fatalf("call base URL: %+v %v", env, err)
	}
	got := second.last(t)
	if got.requestURI != "/base/x" || got.header.Get("X-A") != "call" || len(got.header.Values("X-A")) != 1 || got.header.Get("X-Edited") != "param!" {
		t.Errorf("request: %+v", got)
	}
}
