package httpclient

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// petXML is the schema of pet as XML: the root element <pet>, the id an
// attribute.
var petXML = opsgenimpl.NewSchema(`{"type":"object","xml":{"name":"pet"},"required":["name"],
	"properties":{"id":{"type":"integer","xml":{"attribute":true}},"name":{"type":"string"}}}`)

func TestXMLBody(t *testing.T) {
	rec := newRecorder(t, reply(200, "application/xml", `<pet id="9"><name>back</name></pet>`))
	c := New(rec.URL, nil)
	r := c.NewRequest("op", http.MethodPost, "/pets")
	r.XMLBody("", &pet{ID: 7, Name: "a<b"}, petXML)
	responses := []Response{{Status: "200", Kind: BodyXML, Schema: petXML}}
	env, err := Do[pet](t.Context(), c, r, responses)
	if err != nil {
		t.Fatal(err)
	}
	got := rec.last(t)
	if ct := got.header.Get("Content-Type"); ct != "application/xml" {
		t.Errorf("Content-Type = %q", ct)
	}
	if want := `<pet id="7"><name>a&lt;b</name></pet>`; !strings.HasSuffix(string(got.body), want) {
		t.Errorf("body = %s, want ...%s", got.body, want)
	}
	if env.Data != (pet{9, "back"}) {
		t.Errorf("Data = %+v", env.Data)
	}

	// A nil body sends none; a value that is not an XML name fails the call
	// before anything is sent.
	r = c.NewRequest("op", http.MethodPost, "/pets")
	r.XMLBody("text/xml", (*pet)(nil), petXML)
	if _, err := Do[pet](t.Context(), c, r, responses); err != nil || len(rec.last(t).body) != 0 {
		t.Errorf("nil body: %v, sent %q", err, rec.last(t).body)
	}
	n := rec.count()
	r = c.NewRequest("op", http.MethodPost, "/pets")
	r.XMLBody("", map[string]string{"not a name": "x"}, petXML)
	if _, err := Do[pet](t.Context(), c, r, nil); err == nil || rec.count() != n {
		t.Errorf("bad element name: %v, %d requests sent", err, rec.count()-n)
	}
}

func TestXMLResponses(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/typed", reply(200, "text/xml; charset=utf-8", `<pet id="1"><name>n</name></pet>`))
	mux.HandleFunc("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no Content-Type, not even a sniffed one: the declared kind decides
		w.Write([]byte(`<pet id="2"><name>m</name></pet>`))
	})
	mux.HandleFunc("/broken", reply(200, "application/xml", `<pet>`))
	mux.HandleFunc("/atom", reply(200, "application/atom+xml", `<pet id="3"><name>o</name></pet>`))
	rec := newRecorder(t, mux.ServeHTTP)
	c := New(rec.URL, nil)
	get := func(path string) *Request { return c.NewRequest("op", http.MethodGet, path) }
	xmlResp := []Response{{Status: "200", Kind: BodyXML, Schema: petXML}}

	for path, want := range map[string]pet{"/typed": {1, "n"}, "/untyped": {2, "m"}, "/atom": {3, "o"}} {
		if env, err := Do[pet](t.Context(), c, get(path), xmlResp); err != nil || env.Data != want {
			t.Errorf("%s: %+v, %v", path, env.Data, err)
		}
	}
	// A string or []byte result takes the document as it is.
	if env, err := Do[string](t.Context(), c, get("/typed"), xmlResp); err != nil || env.Data != `<pet id="1"><name>n</name></pet>` {
		t.Errorf("as string: %q, %v", env.Data, err)
	}
	_, err := Do[pet](t.Context(), c, get("/broken"), xmlResp)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeDecode || !strings.Contains(ce.Error(), "XML") {
		t.Errorf("broken XML: %v", err)
	}
}

// xmlNotFound is a generated-style error type of an XML error status.
type xmlNotFound struct {
	runtime.StatusError
	Body problem
}

func TestXMLErrorBodies(t *testing.T) {
	problemXML := opsgenimpl.NewSchema(`{"type":"object","properties":{"code":{"type":"string"},"message":{"type":"string"}}}`)
	responses := []Response{{Status: "404", Kind: BodyXML, Schema: problemXML, Error: (*xmlNotFound)(nil)}}
	const body = `<Error><code>NoSuchKey</code><message>gone</message></Error>`
	rec := newRecorder(t, reply(404, "application/xml", body))
	c := New(rec.URL, nil)

	// Directly, and as a failure that crossed a Remote (the hub's body).
	_, err := Do[pet](t.Context(), c, c.NewRequest("op", http.MethodGet, "/x"), responses)
	var ce *runtime.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v", err)
	}
	remote := &runtime.CallError{Code: ce.Code, OperationID: "op", HTTP: &runtime.HTTPFailure{StatusCode: 404, ContentType: "application/xml", Body: []byte(body)}}
	for what, err := range map[string]error{"direct": err, "remote": TypedError(remote, responses)} {
		var nf *xmlNotFound
		if !errors.As(err, &nf) || nf.Body != (problem{"NoSuchKey", "gone"}) {
			t.Errorf("%s: %v (%+v)", what, err, nf)
		}
		if errors.As(err, &ce); string(ce.HTTP.Body) != body {
			t.Errorf("%s: HTTP.Body = %s, want the XML as received", what, ce.HTTP.Body)
		}
	}
}
