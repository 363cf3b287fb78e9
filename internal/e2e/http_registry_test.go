package e2e_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPRegistry registers the golden client's operations and calls
// them by id, with JSON input, as an agent would.
func TestHTTPRegistry(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(201, `{"id":7,"name":"box"}`, ""))
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"))
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}

	var ids []string
	for _, op := range reg.Operations() {
		ids = append(ids, op.ID)
	}
	slices.Sort(ids)
	want := []string{"e2ehttp.createItem", "e2ehttp.getItem", "e2ehttp.getNote", "e2ehttp.headerStyles", "e2ehttp.optionalAuth",
		"e2ehttp.pathArray", "e2ehttp.pathObject", "e2ehttp.pathPrimitive", "e2ehttp.queryStyles",
		"e2ehttp.ticks", "e2ehttp.withBasic", "e2ehttp.withKeys", "e2ehttp.withOAuth"} // ticks, a stream, as a subscription
	if !slices.Equal(ids, want) {
		t.Errorf("registered %q\nwant %q", ids, want)
	}
	// Kinds follow the method: GET and HEAD read, the rest may change
	// something; a stream is a subscription.
	for id, kind := range map[string]runtime.Kind{"e2ehttp.createItem": runtime.KindMutation, "e2ehttp.getItem": runtime.KindQuery, "e2ehttp.ticks": runtime.KindSubscription} {
		if spec, _ := reg.Lookup(id); spec.Kind != kind {
			t.Errorf("%s is a %q, want %q", id, spec.Kind, kind)
		}
	}
	spec, ok := reg.Lookup("e2ehttp.createItem")
	if !ok || spec.Description != "Create an item." || len(spec.InputSchema) == 0 || len(spec.OutputSchema) == 0 {
		t.Errorf("Lookup(createItem) = %+v, %v", spec, ok)
	}

	env, err := reg.Execute(ctx, "e2ehttp.createItem", json.RawMessage(`{"params":{"dry_run":false},"body":{"name":"box"}}`))
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/items?dry_run=false")
	checkWireHeader(t, r, "Authorization", "Bearer tok")
	if string(r.Body) != `{"name":"box"}` {
		t.Errorf("body = %s", r.Body)
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Data any            `json:"data"`
		Meta map[string]any `json:"meta"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if d, _ := json.Marshal(got.Data); string(d) != `{"id":7,"name":"box","size":"M"}` || got.Meta["source"] != "http" || got.Meta["statusCode"] != 201.0 {
		t.Errorf("envelope = %s", b)
	}
	typed, err := runtime.ExecuteAs[e2ehttp.Item](ctx, reg, "e2ehttp.createItem", map[string]any{"body": map[string]any{"name": "box"}})
	if err != nil || typed.Data.ID != 7 {
		t.Errorf("ExecuteAs = %+v, %v", typed, err)
	}

	// Input that does not match the operation's input schema is refused
	// before anything is sent.
	srv.reset()
	_, err = reg.Execute(ctx, "e2ehttp.createItem", json.RawMessage(`{"body":{"name":3}}`))
	wantCallError(t, err, runtime.CodeValidation)
	_, err = reg.Execute(ctx, "e2ehttp.getItem", json.RawMessage(`{"params":{}}`))
	wantCallError(t, err, runtime.CodeValidation)
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}

	// Failures of the remote call come back as they do from the method.
	srv.setReply(replyJSON(409, `{"existing":7}`, ""))
	_, err = reg.Execute(ctx, "e2ehttp.createItem", json.RawMessage(`{"body":{"name":"box"}}`))
	wantCallError(t, err, runtime.CodeExecution)
	if body, ok := runtime.ErrorBody[e2ehttp.CreateItemResponse409](err); !ok || *body.Existing != 7 {
		t.Errorf("typed body = %+v, %v", body, ok)
	}

	// The stream is a subscription (http_stream_registry_test.go): Execute refuses it.
	_, err = reg.Execute(ctx, "e2ehttp.ticks", nil)
	wantCallError(t, err, runtime.CodeExecution)
}
