package runtime

import (
	"context"
)

type idempotencyKey struct{}

// WithIdempotencyKey returns a context that carries key, the idempotency
// key of one logical call: the call made with it sends key (an HTTP
// client as the Idempotency-Key header of a non-idempotent method, on
// every retry; a call protocol spoke in call.requested, where the hub
// dedupes on it and puts it in its handler's context, so that the next
// hop sends it too). Give each logical call its own key: two different
// calls made with one context would be one call to a server that dedupes.
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKey{}, key)
}

// IdempotencyKeyFrom returns the idempotency key ctx carries, or "".
func IdempotencyKeyFrom(ctx context.Context) string {
	k, _ := ctx.Value(idempotencyKey{}).(string)
	return k
}
