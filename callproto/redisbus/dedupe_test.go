package redisbus_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto/redisbus"
)

// The record claims an id once, returns the claim or the final event to
// later claims, and each write expires after the window.
func TestDedupe(t *testing.T) {
	srv := startServer(t)
	a, b := connect(t, srv.Addr), connect(t, srv.Addr)
	d := redisbus.NewDedupe(a, redisbus.DedupeOptions{MaxFinal: 1000})
	other := redisbus.NewDedupe(b, redisbus.DedupeOptions{MaxFinal: 1000})
	ctx := context.Background()
	if _, claimed, err := d.Claim(ctx, "a-1", "r.1", time.Minute); err != nil || !claimed {
		t.Fatalf("first claim: %v %v", claimed, err)
	}
	rec, claimed, err := other.Claim(ctx, "a-1", "r.2", time.Minute)
	if err != nil || claimed || rec.Done || rec.ReplyTo != "r.1" {
		t.Fatalf("second claim while running: %+v %v %v", rec, claimed, err)
	}
	ttl := a.Client().PTTL(ctx, "callproto:dedupe:a-1").Val()
	if ttl <= 0 || ttl > time.Minute {
		t.Fatalf("claim expires in %v, want within the window", ttl)
	}
	final := []byte(`{"type":"call.responded","requestId":"a-1","output":{"data":1,"meta":{"source":"local","operationId":"a.b","timestamp":1}}}`)
	if err := d.Finish(ctx, "a-1", "r.1", final, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	rec, claimed, err = other.Claim(ctx, "a-1", "r.1", time.Minute)
	if err != nil || claimed || !rec.Done || !bytes.Equal(rec.Final, final) {
		t.Fatalf("claim after the finish: %+v %v %v", rec, claimed, err)
	}
	if ttl := a.Client().PTTL(ctx, "callproto:dedupe:a-1").Val(); ttl <= time.Minute || ttl > 2*time.Minute {
		t.Fatalf("record expires in %v, want the window from the finish", ttl)
	}
	// A final event over MaxFinal is not kept: the record says done.
	if err := d.Finish(ctx, "c-1", "r.1", []byte(strings.Repeat("x", 1001)), time.Minute); err != nil {
		t.Fatal(err)
	}
	if rec, claimed, err := other.Claim(ctx, "c-1", "r.1", time.Minute); err != nil || claimed || !rec.Done || rec.Final != nil {
		t.Fatalf("large final: %+v %v %v", rec, claimed, err)
	}
	// An expired record is gone (Redis deletes it): its id is claimed again.
	a.Client().Del(ctx, "callproto:dedupe:c-1")
	if _, claimed, err := other.Claim(ctx, "c-1", "r.1", time.Minute); err != nil || !claimed {
		t.Fatalf("claim after expiry: %v %v", claimed, err)
	}
}
