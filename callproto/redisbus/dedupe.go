package redisbus

import (
	"context"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opsgen/opsgen/callproto"
)

// DedupeOptions configure NewDedupe.
type DedupeOptions struct {
	// KeyPrefix prefixes the records' keys (default "<the bus's
	// KeyPrefix>dedupe:"). The hubs of one queue group use the same.
	KeyPrefix string
	// MaxFinal bounds the final event kept for replay (default 1 MiB): a
	// larger one is not kept, and its duplicates are dropped unanswered.
	MaxFinal int
}

// Dedupe is a callproto.SharedDedupe in Redis, shared by the hubs
// connected to the same server: each request is a key (the prefix and
// its id) set with SET NX when a hub claims it (one hub wins) and
// overwritten with the final event when it finishes, each time with the
// window as its expiry. Records are bounded by that expiry and by
// MaxFinal; Redis has no bound on a key count of its own: a server that
// must hold a bounded memory whatever the load sets maxmemory with a
// volatile-* eviction policy (volatile-ttl forgets the oldest first).
type Dedupe struct {
	rdb      *redis.Client
	prefix   string
	maxFinal int
}

var _ callproto.SharedDedupe = (*Dedupe)(nil)

// NewDedupe returns the duplicate record on b's Redis server.
func NewDedupe(b *Bus, opts DedupeOptions) *Dedupe {
	if opts.KeyPrefix == "" {
		opts.KeyPrefix = b.prefix + "dedupe:"
	}
	if opts.MaxFinal <= 0 {
		opts.MaxFinal = 1 << 20
	}
	return &Dedupe{rdb: b.rdb, prefix: opts.KeyPrefix, maxFinal: opts.MaxFinal}
}

// Claim implements callproto.SharedDedupe.
func (d *Dedupe) Claim(ctx context.Context, id, replyTo string, ttl time.Duration) (callproto.DedupeRecord, bool, error) {
	key := d.prefix + id
	claim := callproto.EncodeDedupeRecord(callproto.DedupeRecord{ReplyTo: replyTo})
	for range 3 { // a record can expire between the two steps: claim again
		ok, err := d.rdb.SetNX(ctx, key, claim, ttl).Result()
		if err != nil {
			return callproto.DedupeRecord{}, false, err
		}
		if ok {
			return callproto.DedupeRecord{}, true, nil
		}
		b, err := d.rdb.Get(ctx, key).Bytes()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			return callproto.DedupeRecord{}, false, err
		}
		rec, err := callproto.DecodeDedupeRecord(b)
		return rec, false, err
	}
	return callproto.DedupeRecord{}, false, errors.New("redisbus: dedupe: the record of " + id + " keeps changing")
}

// Finish implements callproto.SharedDedupe.
func (d *Dedupe) Finish(ctx context.Context, id, replyTo string, final []byte, ttl time.Duration) error {
	if len(final) > d.maxFinal {
		final = nil
	}
	return d.rdb.Set(ctx, d.prefix+id, callproto.EncodeDedupeRecord(callproto.DedupeRecord{ReplyTo: replyTo, Done: true, Final: final}), ttl).Err()
}
