package httpclient

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// fakeRemote answers with fixed envelopes and records the calls.
type fakeRemote struct {
	out      json.RawMessage
	err      error
	id       string
	input    []byte
	deadline bool
}

func (f *fakeRemote) CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error) {
	f.id = id
	f.input, _ = json.Marshal(input)
	_, f.deadline = ctx.Deadline()
	return f.out, f.err
}

func (f *fakeRemote) SubscribeJSON(ctx context.Context, id string, input any) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		f.id = id
		for range 2 {
			if !yield(f.out, nil) {
				return
			}
		}
		yield(nil, f.err)
	}
}

func TestRemote(t *testing.T) {
	httpCalls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		httpCalls++
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1}`))
	}))
	defer srv.Close()
	type pet struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	type params struct {
		PetID int64 `json:"petId"`
	}
	fr := &fakeRemote{out: json.RawMessage(`{"data":{"id":2,"name":"Rex","extra":1},"meta":{"source":"http","statusCode":200,"headers":{},"contentType":"application/json"}}`)}
	c := New(srv.URL, nil, WithRemote(fr), WithTimeout(5e9))
	ctx := context.Background()
	newReq := func(remote bool) *Request {
		r := c.NewRequest("getPet", "GET", "/pets/{petId}")
		r.PathParam("petId", StyleSimple, false, 2)
		if remote && c.HasRemote() {
			var body *pet // absent: not sent as null
			r.Remote("pets.getPet", params{PetID: 2}, body)
		}
		return r
	}
	env, err := Do[pet](ctx, c, newReq(true), nil)
	if err != nil {
		t.Fatal(err)
	}
	if env.Data != (pet{2, "Rex"}) || runtime.HTTPMetaOf(env.Meta).StatusCode != 200 || httpCalls != 0 {
		t.Fatalf("env %+v, %d HTTP calls", env, httpCalls)
	}
	if fr.id != "pets.getPet" || string(fr.input) != `{"params":{"petId":2}}` || !fr.deadline {
		t.Fatalf("remote got %s %s (deadline %v)", fr.id, fr.input, fr.deadline)
	}
	// A request without a registry id goes over HTTP.
	if _, err := Do[pet](ctx, c, newReq(false), []Response{{Status: "200", Kind: BodyJSON}}); err != nil || httpCalls != 1 {
		t.Fatalf("HTTP call: %v, %d calls", err, httpCalls)
	}
	// CallErrors pass through; what is not an envelope is a DECODE_ERROR.
	fr.err = runtime.Errorf(runtime.CodeAccessDenied, "pets.getPet", "no")
	if _, err := Do[pet](ctx, c, newReq(true), nil); !errors.Is(err, runtime.ErrAccessDenied) {
		t.Fatalf("err = %v", err)
	}
	fr.err = nil
	fr.out = json.RawMessage(`{"id":2}`)
	var ce *runtime.CallError
	if _, err := Do[pet](ctx, c, newReq(true), nil); !errors.As(err, &ce) || ce.Code != runtime.CodeDecode {
		t.Fatalf("err = %v", err)
	}
	// Streams: each envelope, then the error that ends the subscription.
	fr.out = json.RawMessage(`{"data":{"id":3},"meta":{"source":"local","operationId":"pets.getPet","timestamp":1}}`)
	fr.err = runtime.Errorf(runtime.CodeTransport, "pets.getPet", "lost")
	n := 0
	var end error
	for env, err := range Stream[pet](ctx, c, newReq(true), nil) {
		if err != nil {
			end = err
			break
		}
		if env.Data.ID != 3 {
			t.Fatalf("event %+v", env)
		}
		n++
	}
	if n != 2 || !errors.Is(end, runtime.ErrTransport) {
		t.Fatalf("%d events, then %v", n, end)
	}
}
