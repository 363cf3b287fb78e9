package natsbus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/opsgen/opsgen/callproto"
)

// DedupeOptions configure NewDedupe.
type DedupeOptions struct {
	// Bucket names the JetStream key-value bucket (default
	// "opsgen_dedupe"). The hubs of one queue group use the same bucket;
	// deployments sharing a broker use one each.
	Bucket string
	// Window is how long a request is remembered: the bucket's TTL
	// (default callproto.DefaultDedupeWindow). Give it the hubs'
	// HandlerOptions.DedupeWindow.
	Window time.Duration
	// MaxEntries bounds the requests remembered (default 100000) and
	// MaxBytes the bucket's bytes (default 64 MiB): beyond either, the
	// oldest records are forgotten first (a duplicate of theirs then runs
	// again, as after the window).
	MaxEntries int64
	MaxBytes   int64
	// MaxFinal bounds the final event kept for replay (default 256 KiB;
	// at most the server's max payload less the record's other bytes): a
	// larger one is not kept, and its duplicates are dropped unanswered.
	MaxFinal int
	// Memory keeps the bucket in the servers' memory instead of on disk
	// (lost when they restart). Replicas is its replica count in a
	// cluster (default 1).
	Memory   bool
	Replicas int
}

// Dedupe is a callproto.SharedDedupe in a JetStream key-value bucket,
// shared by the hubs connected to the same NATS servers: each request is
// a key (its id) created when a hub claims it (JetStream's create is
// atomic: one hub wins) and overwritten with the final event when it
// finishes. The bucket is bounded by its TTL (the window), its entries
// and its bytes, the oldest discarded first. The NATS servers must have
// JetStream enabled (StartJetStreamServer does, for tests and demos).
type Dedupe struct {
	kv       jetstream.KeyValue
	maxFinal int
}

var _ callproto.SharedDedupe = (*Dedupe)(nil)

// NewDedupe binds the bucket opts.Bucket on b's connection, creating it
// (bounded as opts say) if no hub has yet.
func NewDedupe(ctx context.Context, b *Bus, opts DedupeOptions) (*Dedupe, error) {
	js, err := jetstream.New(b.nc)
	if err != nil {
		return nil, fmt.Errorf("natsbus: jetstream: %w", err)
	}
	if opts.Bucket == "" {
		opts.Bucket = "opsgen_dedupe"
	}
	if opts.Window <= 0 {
		opts.Window = callproto.DefaultDedupeWindow
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = 100000
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 64 << 20
	}
	if opts.MaxFinal <= 0 {
		opts.MaxFinal = 256 << 10
	}
	if limit := int(b.nc.MaxPayload()) - 1024; limit > 0 {
		// The record's JSON holds the event in base64 (4/3 of its size),
		// beside the reply subject.
		opts.MaxFinal = min(opts.MaxFinal, limit*3/4)
	}
	d := &Dedupe{maxFinal: opts.MaxFinal}
	d.kv, err = js.KeyValue(ctx, opts.Bucket)
	if err == nil {
		return d, nil
	}
	if !errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("natsbus: dedupe bucket %s: %w", opts.Bucket, err)
	}
	storage := jetstream.FileStorage
	if opts.Memory {
		storage = jetstream.MemoryStorage
	}
	d.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      opts.Bucket,
		Description: "opsgen call protocol: finished requests, for duplicates (callproto.SharedDedupe)",
		History:     1,
		TTL:         opts.Window,
		MaxBytes:    opts.MaxBytes,
		Storage:     storage,
		Replicas:    max(opts.Replicas, 1),
	})
	if err != nil {
		return nil, fmt.Errorf("natsbus: dedupe bucket %s: %w", opts.Bucket, err)
	}
	// A key-value bucket refuses writes when full (discard new); a record
	// of duplicates forgets its oldest entries instead, and has a bound on
	// their count, which the key-value configuration does not offer.
	s, err := js.Stream(ctx, "KV_"+opts.Bucket)
	if err != nil {
		return nil, fmt.Errorf("natsbus: dedupe bucket %s: %w", opts.Bucket, err)
	}
	cfg := s.CachedInfo().Config
	cfg.Discard = jetstream.DiscardOld
	cfg.MaxMsgs = opts.MaxEntries
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		return nil, fmt.Errorf("natsbus: dedupe bucket %s: %w", opts.Bucket, err)
	}
	return d, nil
}

// Claim implements callproto.SharedDedupe. ttl is the bucket's
// (DedupeOptions.Window).
func (d *Dedupe) Claim(ctx context.Context, id, replyTo string, ttl time.Duration) (callproto.DedupeRecord, bool, error) {
	key := dedupeKey(id)
	claim := callproto.EncodeDedupeRecord(callproto.DedupeRecord{ReplyTo: replyTo})
	for range 3 { // a record can expire between the two steps: claim again
		_, err := d.kv.Create(ctx, key, claim)
		if err == nil {
			return callproto.DedupeRecord{}, true, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return callproto.DedupeRecord{}, false, err
		}
		e, err := d.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return callproto.DedupeRecord{}, false, err
		}
		rec, err := callproto.DecodeDedupeRecord(e.Value())
		return rec, false, err
	}
	return callproto.DedupeRecord{}, false, errors.New("natsbus: dedupe: the record of " + id + " keeps changing")
}

// Finish implements callproto.SharedDedupe.
func (d *Dedupe) Finish(ctx context.Context, id, replyTo string, final []byte, ttl time.Duration) error {
	if len(final) > d.maxFinal {
		final = nil
	}
	_, err := d.kv.Put(ctx, dedupeKey(id), callproto.EncodeDedupeRecord(callproto.DedupeRecord{ReplyTo: replyTo, Done: true, Final: final}))
	return err
}

// dedupeKey is the bucket's key of request id: the id itself when it is a
// valid key (Go spokes' ids are), else a hash of it.
func dedupeKey(id string) string {
	valid := id != "" && id[0] != '.' && id[len(id)-1] != '.'
	for i := 0; valid && i < len(id); i++ {
		c := id[i]
		valid = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '=' || c == '.' && id[i-1] != '.'
	}
	if valid {
		return "r." + id
	}
	h := sha256.Sum256([]byte(id))
	return "h." + hex.EncodeToString(h[:])
}

// StartJetStreamServer is StartServer with JetStream enabled, storing in
// dir (for NewDedupe's bucket): for tests and demos.
func StartJetStreamServer(host string, port int, dir string) (*server.Server, error) {
	srv, err := StartServer(host, port)
	if err != nil {
		return nil, err
	}
	if err := srv.EnableJetStream(&server.JetStreamConfig{StoreDir: dir}); err != nil {
		srv.Shutdown()
		return nil, fmt.Errorf("natsbus: embedded server: jetstream: %w", err)
	}
	return srv, nil
}
