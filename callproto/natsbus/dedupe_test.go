package natsbus_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/opsgen/opsgen/callproto/natsbus"
)

// The record claims an id once, returns the claim or the final event to
// later claims, and is bounded: the bucket's TTL is the window, and beyond
// MaxEntries the oldest records are forgotten (so that their ids can be
// claimed again) rather than new claims refused.
func TestDedupeBounded(t *testing.T) {
	srv, err := natsbus.StartJetStreamServer("127.0.0.1", -1, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	bus, err := natsbus.Connect(natsbus.Options{URL: srv.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	ctx := context.Background()
	opts := natsbus.DedupeOptions{Bucket: "bounded", Window: time.Minute, MaxEntries: 5, Memory: true}
	d, err := natsbus.NewDedupe(ctx, bus, opts)
	if err != nil {
		t.Fatal(err)
	}
	// A second hub binds the same bucket.
	other, err := natsbus.NewDedupe(ctx, bus, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, claimed, err := d.Claim(ctx, "a-1", "r.1", time.Minute); err != nil || !claimed {
		t.Fatalf("first claim: %v %v", claimed, err)
	}
	rec, claimed, err := other.Claim(ctx, "a-1", "r.2", time.Minute)
	if err != nil || claimed || rec.Done || rec.ReplyTo != "r.1" {
		t.Fatalf("second claim while running: %+v %v %v", rec, claimed, err)
	}
	final := []byte(`{"type":"call.responded","requestId":"a-1","output":{"data":1,"meta":{"source":"local","operationId":"a.b","timestamp":1}}}`)
	if err := d.Finish(ctx, "a-1", "r.1", final, time.Minute); err != nil {
		t.Fatal(err)
	}
	rec, claimed, err = other.Claim(ctx, "a-1", "r.1", time.Minute)
	if err != nil || claimed || !rec.Done || !bytes.Equal(rec.Final, final) {
		t.Fatalf("claim after the finish: %+v %v %v", rec, claimed, err)
	}
	// Ids that are not valid keys are hashed, not refused.
	for _, id := range []string{"with space", "a..b", ".lead", "ünï"} {
		if _, claimed, err := d.Claim(ctx, id, "r.1", time.Minute); err != nil || !claimed {
			t.Fatalf("claim %q: %v %v", id, claimed, err)
		}
	}
	for i := range 10 {
		if _, claimed, err := d.Claim(ctx, fmt.Sprintf("b-%d", i), "r.1", time.Minute); err != nil || !claimed {
			t.Fatalf("claim b-%d: %v %v (a full bucket must forget its oldest, not refuse)", i, claimed, err)
		}
	}
	js, err := jetstream.New(bus.Conn())
	if err != nil {
		t.Fatal(err)
	}
	s, err := js.Stream(ctx, "KV_bounded")
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 5 || info.Config.MaxAge != time.Minute || info.Config.Discard != jetstream.DiscardOld {
		t.Fatalf("bucket: %d records, max age %v, discard %v; want 5, 1m, old", info.State.Msgs, info.Config.MaxAge, info.Config.Discard)
	}
	// a-1 was forgotten with the oldest: it can be claimed again.
	if _, claimed, err := other.Claim(ctx, "a-1", "r.1", time.Minute); err != nil || !claimed {
		t.Fatalf("claim of a forgotten id: %v %v", claimed, err)
	}
	// A final event over MaxFinal is not kept: the record says done.
	small, err := natsbus.NewDedupe(ctx, bus, natsbus.DedupeOptions{Bucket: "small", MaxFinal: 100, Memory: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := small.Finish(ctx, "c-1", "r.1", []byte(strings.Repeat("x", 101)), time.Minute); err != nil {
		t.Fatal(err)
	}
	if rec, claimed, err := small.Claim(ctx, "c-1", "r.1", time.Minute); err != nil || claimed || !rec.Done || rec.Final != nil {
		t.Fatalf("large final: %+v %v %v", rec, claimed, err)
	}
}
