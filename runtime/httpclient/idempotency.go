package httpclient

import (
	"context"
	"net/http"
	"slices"

	"github.com/opsgen/opsgen/runtime"
)

// WithIdempotencyKeys makes the client give every call of a method that
// is not idempotent (POST, PATCH and any other outside GET, HEAD,
// OPTIONS, PUT, DELETE and TRACE) an Idempotency-Key header, generated
// once per call (NewIdempotencyKey) and sent unchanged on every
// retry: a server that honours the header runs the call once however
// often it is sent, and the retry policy retries such calls whatever its
// Methods (see RetryPolicy). A key the caller gives wins: the header set
// by WithRequestHeader or a header parameter, else the key of the call's
// context (runtime.WithIdempotencyKey); those are sent without this
// option too. With WithRemote, the key travels in the call protocol's
// call.requested instead, and the hub's client sends it. Calls with one
// response do: event streams (Stream) and pages (EachPage), whose
// requests are not repeats of one call, are sent without a key.
func WithIdempotencyKeys() Option { return func(c *Config) { c.IdempotencyKeys = true } }

// idempotencyKey gives the call of r its idempotency key (see
// WithIdempotencyKeys): it sets the header on r and returns ctx carrying
// the key, for the remote path; ctx as it is for idempotent methods and
// calls without a key.
func (c *Client) idempotencyKey(ctx context.Context, r *Request, cc *callConfig) context.Context {
	if slices.Contains(defaultRetryMethods, r.method) {
		return ctx
	}
	key := r.header.Get(IdempotencyHeader)
	if cc != nil && cc.header.Get(IdempotencyHeader) != "" {
		key = cc.header.Get(IdempotencyHeader) // sent over r's (prepareRequest)
	}
	fromCtx := runtime.IdempotencyKeyFrom(ctx)
	switch {
	case key != "":
	case fromCtx != "":
		key = fromCtx
	case c.cfg.IdempotencyKeys:
		key = NewIdempotencyKey()
	default:
		return ctx
	}
	if r.header.Get(IdempotencyHeader) == "" {
		if r.header == nil {
			r.header = make(http.Header, 1)
		}
		r.header.Set(IdempotencyHeader, key)
	}
	if key == fromCtx {
		return ctx
	}
	return runtime.WithIdempotencyKey(ctx, key)
}
