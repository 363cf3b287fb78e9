package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// IdempotencyHeader is the HTTP header that carries an idempotency key
// (the IETF httpapi draft's, which Stripe, Adyen and others use).
const IdempotencyHeader = "Idempotency-Key"

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

// NewIdempotencyKey returns a fresh key: a random (version 4) UUID from
// crypto/rand.
func NewIdempotencyKey() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand panics if the system cannot supply randomness)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
