package httpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// thingClient is a generated client in miniature: a method taking
// parameters and a body, as httpclient.CallMethod calls them.
type thingClient struct{ c *httpclient.Client }

type putThingParams struct {
	ID    string `json:"id"`
	Force *bool  `json:"force,omitempty"`
}

type thing struct {
	Name string `json:"name"`
}

func (c *thingClient) PutThing(ctx context.Context, params putThingParams, body thing, opts ...httpclient.CallOption) (runtime.ResponseEnvelope[thing], error) {
	r := c.c.NewRequest("putThing", "PUT", "/things/{id}")
	r.PathParam("id", httpclient.StyleSimple, false, params.ID)
	r.QueryParam("force", httpclient.StyleForm, true, false, params.Force)
	r.JSONBody("application/json", body)
	var env runtime.ResponseEnvelope[thing]
	meta, warnings, err := c.c.Call(ctx, r, []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}}, &env.Data, opts...)
	env.Meta, env.Warnings = meta, warnings
	return env, err
}

func (c *thingClient) ListThings(ctx context.Context, opts ...httpclient.CallOption) (runtime.ResponseEnvelope[[]thing], error) {
	var env runtime.ResponseEnvelope[[]thing]
	meta, warnings, err := c.c.Call(ctx, c.c.NewRequest("listThings", "GET", "/things"), []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}}, &env.Data, opts...)
	env.Meta, env.Warnings = meta, warnings
	return env, err
}

func TestCallMethod(t *testing.T) {
	var got struct{ path, query, body string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := make([]byte, 256)
		n, _ := r.Body.Read(b)
		got.path, got.query, got.body = r.URL.Path, r.URL.RawQuery, string(b[:n])
		w.Header().Set("Content-Type", "application/json")
		if r.Method == "GET" {
			w.Write([]byte(`[{"name":"a"},{"name":"b"}]`))
			return
		}
		w.Write([]byte(`{"name":"stored"}`))
	}))
	defer srv.Close()
	c := &thingClient{httpclient.New(srv.URL, nil)}
	ctx := context.Background()

	out, err := httpclient.CallMethod(ctx, "things.putThing", json.RawMessage(`{"params":{"id":"7","force":true},"body":{"name":"x"}}`), (*thingClient).PutThing, c, "params", "body")
	if err != nil {
		t.Fatal(err)
	}
	env, ok := out.(runtime.ResponseEnvelope[thing])
	if !ok || env.Data.Name != "stored" || runtime.HTTPMetaOf(env.Meta).StatusCode != 200 {
		t.Fatalf("result %#v", out)
	}
	if got.path != "/things/7" || got.query != "force=true" || got.body != `{"name":"x"}` {
		t.Fatalf("request %+v", got)
	}

	// Members are matched as encoding/json matches struct fields (case
	// aside); absent ones stay zero.
	if _, err := httpclient.CallMethod(ctx, "things.putThing", json.RawMessage(`{"Params":{"id":"8"}}`), (*thingClient).PutThing, c, "params", "body"); err != nil {
		t.Fatal(err)
	}
	if got.path != "/things/8" || got.query != "" || got.body != `{"name":""}` {
		t.Fatalf("request %+v", got)
	}

	// No members, no input.
	out, err = httpclient.CallMethod(ctx, "things.listThings", nil, (*thingClient).ListThings, c)
	if list, ok := out.(runtime.ResponseEnvelope[[]thing]); err != nil || !ok || len(list.Data) != 2 || list.Data[1].Name != "b" {
		t.Fatalf("list: %#v %v", out, err)
	}

	// Input that does not decode: a validation error naming the operation.
	for _, bad := range []string{`{"params":{"id":7}}`, `[1]`, `{`} {
		_, err := httpclient.CallMethod(ctx, "things.putThing", json.RawMessage(bad), (*thingClient).PutThing, c, "params", "body")
		var ce *runtime.CallError
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || ce.OperationID != "things.putThing" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestCallLeavesDataZeroOnError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":7}`))
	}))
	defer srv.Close()
	c := &thingClient{httpclient.New(srv.URL, nil, httpclient.WithValidation(runtime.ValidateStrict))}
	env, err := c.PutThing(context.Background(), putThingParams{ID: "1"}, thing{})
	if err == nil {
		t.Fatal("strict mode accepted a mismatch")
	}
	// Data zero, no meta: the zero envelope Do returns on error.
	if env.Data != (thing{}) || env.Meta != nil || env.Warnings != nil {
		t.Fatalf("envelope on error: %#v", env)
	}
}
