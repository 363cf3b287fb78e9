package httpclient

import (
	"context"
	"encoding/json"
	"iter"
	"regexp"
	"slices"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// keys returns the Idempotency-Key of each request rec saw.
func (rec *recorder) keys() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, r := range rec.reqs {
		out = append(out, r.header.Get("Idempotency-Key"))
	}
	return out
}

func TestIdempotencyKeySameAcrossRetries(t *testing.T) {
	h, count := flaky(2, 503)
	srv := newRecorder(t, h)
	c := New(srv.URL, nil, WithRetry(fastRetry), WithIdempotencyKeys())
	call := func() {
		r := c.NewRequest("op", "POST", "/")
		r.JSONBody("", map[string]int{"n": 1})
		if _, err := Do[struct{}](context.Background(), c, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	call()
	// A POST is retried because it has a key: after two 503s, the third
	// attempt succeeds, all three with one key.
	keys := srv.keys()
	if count.Load() != 3 || len(keys) != 3 || !uuidV4.MatchString(keys[0]) || keys[1] != keys[0] || keys[2] != keys[0] {
		t.Fatalf("%d requests, keys %q: want 3 with one UUIDv4", count.Load(), keys)
	}
	// The next logical call has a key of its own.
	call()
	if next := srv.keys()[3]; next == keys[0] || !uuidV4.MatchString(next) {
		t.Errorf("second call's key %q, first's %q", next, keys[0])
	}
}

func TestIdempotencyKeySources(t *testing.T) {
	srv := newRecorder(t, reply(200, "application/json", `{}`))
	keyed := New(srv.URL, nil, WithIdempotencyKeys())
	plain := New(srv.URL, nil)
	ctxKey := runtime.WithIdempotencyKey(context.Background(), "from-ctx")
	for _, tc := range []struct {
		name   string
		c      *Client
		ctx    context.Context
		method string
		opts   []CallOption
		want   string // "uuid": a generated one
	}{
		{"generated", keyed, context.Background(), "PATCH", nil, "uuid"},
		{"idempotent method", keyed, context.Background(), "PUT", nil, ""},
		{"GET", keyed, ctxKey, "GET", nil, ""},
		{"off by default", plain, context.Background(), "POST", nil, ""},
		{"context's key without the option", plain, ctxKey, "POST", nil, "from-ctx"},
		{"caller's header wins", keyed, ctxKey, "POST", []CallOption{WithRequestHeader("Idempotency-Key", "mine")}, "mine"},
	} {
		r := tc.c.NewRequest("op", tc.method, "/")
		if _, err := Do[struct{}](tc.ctx, tc.c, r, nil, tc.opts...); err != nil {
			t.Fatal(err)
		}
		got := srv.last(t).header.Get("Idempotency-Key")
		if tc.want == "uuid" && !uuidV4.MatchString(got) || tc.want != "uuid" && got != tc.want {
			t.Errorf("%s: Idempotency-Key %q, want %s", tc.name, got, tc.want)
		}
	}
}

// remoteRecorder is a Remote that keeps the idempotency key of each call.
type remoteRecorder struct{ keys []string }

func (r *remoteRecorder) CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error) {
	r.keys = append(r.keys, runtime.IdempotencyKeyFrom(ctx))
	return json.RawMessage(`{"data":{},"meta":{"source":"local","operationId":"ns.op","timestamp":1}}`), nil
}

func (r *remoteRecorder) SubscribeJSON(context.Context, string, any) iter.Seq2[json.RawMessage, error] {
	return nil
}

func TestIdempotencyKeyGoesRemote(t *testing.T) {
	rm := &remoteRecorder{}
	c := New("http://127.0.0.1:1", nil, WithRemote(rm), WithIdempotencyKeys())
	for range 2 {
		r := c.NewRequest("op", "POST", "/")
		r.Remote("ns.op", nil, map[string]int{"n": 1})
		if _, err := Do[struct{}](context.Background(), c, r, nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(rm.keys) != 2 || !uuidV4.MatchString(rm.keys[0]) || !uuidV4.MatchString(rm.keys[1]) || rm.keys[0] == rm.keys[1] {
		t.Errorf("remote calls' keys %q, want two different UUIDs", rm.keys)
	}
}

func TestNewIdempotencyKey(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		k := NewIdempotencyKey()
		if !uuidV4.MatchString(k) || seen[k] {
			t.Fatalf("key %q (repeated: %v)", k, seen[k])
		}
		seen[k] = true
	}
}

// keyedPages is a pagesRemote that also keeps the idempotency key of each
// call's context.
type keyedPages struct {
	pagesRemote
	keys []string
}

func (k *keyedPages) CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error) {
	k.keys = append(k.keys, runtime.IdempotencyKeyFrom(ctx))
	return k.pagesRemote.CallJSON(ctx, id, input)
}

// Each page is a call of its own: a key on the context is not sent with
// the pages (a hub would answer every page with the first).
func TestRemotePagesHaveNoKey(t *testing.T) {
	type params struct {
		After *string `json:"after,omitempty"`
	}
	rm := &keyedPages{pagesRemote: pagesRemote{serve: func(p map[string]any) (string, string) {
		if p["after"] == nil {
			return `{"items":[1],"next":"c2"}`, ""
		}
		return `{"items":[2],"next":null}`, ""
	}}}
	c := New("http://unused.invalid", nil, WithRemote(rm), WithIdempotencyKeys())
	r := c.NewRequest("op", "POST", "/search")
	r.Remote("api.op", params{}, nil)
	type page struct{ Items []int }
	n := 0
	for _, err := range Pages[page](runtime.WithIdempotencyKey(context.Background(), "k"), c, r, okJSON, Paging{Cursor: "after", Next: "/next"}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 2 || !slices.Equal(rm.keys, []string{"", ""}) {
		t.Errorf("%d pages, keys %q: want 2 pages without a key", n, rm.keys)
	}
}
