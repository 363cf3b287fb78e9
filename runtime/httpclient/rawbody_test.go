package httpclient

import (
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// TestRawBody: WithRawBody hands the caller the body as received, members
// the schema does not declare included, whatever decoding made of it.
func TestRawBody(t *testing.T) {
	const body = `{"seq":1,"msg":"a","added":{"in":"v2"}}`
	srv := httptest.NewServer(reply(200, "application/json", body))
	defer srv.Close()
	c := New(srv.URL, nil)
	var raw []byte
	env, err := Do[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), []Response{{Status: "200", Kind: BodyJSON, Schema: tickSchema}}, WithRawBody(&raw))
	if err != nil || env.Data.Seq != 1 || string(raw) != body {
		t.Fatalf("%+v %v; raw %s", env.Data, err, raw)
	}

	// Kept when decoding fails.
	bad := httptest.NewServer(reply(200, "application/json", `{"seq":`))
	defer bad.Close()
	raw = nil
	if _, err := Do[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithCallBaseURL(bad.URL), WithRawBody(&raw)); !errors.Is(err, runtime.ErrDecode) || string(raw) != `{"seq":` {
		t.Errorf("decode error %v, raw %q", err, raw)
	}

	// Text bodies too; none for 204.
	text := httptest.NewServer(reply(200, "text/plain", "hello"))
	defer text.Close()
	if env, err := Do[string](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithCallBaseURL(text.URL), WithRawBody(&raw)); err != nil || env.Data != "hello" || string(raw) != "hello" {
		t.Errorf("text: %q %v, raw %q", env.Data, err, raw)
	}
	// XML bodies as received, not as converted.
	const doc = `<pet><id>7</id><name>a</name></pet>`
	xml := httptest.NewServer(reply(200, "application/xml", doc))
	defer xml.Close()
	if env, err := Do[pet](t.Context(), c, c.NewRequest("op", "GET", "/"), []Response{{Status: "200", Kind: BodyXML, Schema: petXML}}, WithCallBaseURL(xml.URL), WithRawBody(&raw)); err != nil || env.Data.ID != 7 || string(raw) != doc {
		t.Errorf("xml: %+v %v, raw %q", env.Data, err, raw)
	}
	empty := httptest.NewServer(reply(204, "", ""))
	defer empty.Close()
	raw = []byte("untouched")
	if _, err := Do[struct{}](t.Context(), c, c.NewRequest("op", "GET", "/"), nil, WithCallBaseURL(empty.URL), WithRawBody(&raw)); err != nil || string(raw) != "untouched" {
		t.Errorf("204: %v, raw %q", err, raw)
	}
}
