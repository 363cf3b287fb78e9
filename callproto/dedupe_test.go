package callproto

import (
	"fmt"
	"testing"
	"time"
)

func TestDedupeWindow(t *testing.T) {
	d := newDedupe(time.Minute, 0, 0)
	t0 := time.Unix(1000, 0)
	d.add("a", "r", []byte("A"), t0)
	if r, ok := d.get("a", t0.Add(time.Minute)); !ok || string(r.final) != "A" || r.replyTo != "r" {
		t.Fatalf("within the window: %+v %v", r, ok)
	}
	if _, ok := d.get("a", t0.Add(time.Minute+1)); ok {
		t.Fatal("remembered past the window")
	}
	d.expire(t0.Add(2 * time.Minute))
	if d.len() != 0 || d.bytes != 0 {
		t.Fatalf("expire kept %d records, %d bytes", d.len(), d.bytes)
	}
	off := newDedupe(-1, 0, 0)
	off.add("a", "r", []byte("A"), t0)
	if _, ok := off.get("a", t0); ok || off.len() != 0 {
		t.Fatal("a negative window remembers")
	}
}

func TestDedupeEntries(t *testing.T) {
	d := newDedupe(time.Hour, 100, 0)
	t0 := time.Unix(1000, 0)
	for i := range 1000 {
		d.add(fmt.Sprint(i), "r", []byte("x"), t0)
	}
	if d.len() != 100 || d.bytes != 100 {
		t.Fatalf("%d records, %d bytes; want 100 each", d.len(), d.bytes)
	}
	if _, ok := d.get("899", t0); ok {
		t.Fatal("an evicted record is remembered")
	}
	if _, ok := d.get("900", t0); !ok {
		t.Fatal("one of the newest 100 is forgotten")
	}
	if len(d.queue)-d.head != 100 || len(d.queue) > 300 {
		t.Fatalf("queue of %d from %d: not compacted", len(d.queue), d.head)
	}
}

func TestDedupeBytes(t *testing.T) {
	d := newDedupe(time.Hour, 0, 10)
	t0 := time.Unix(1000, 0)
	for i := range 5 {
		d.add(fmt.Sprint(i), "r", []byte("abcd"), t0)
	}
	// 20 bytes offered, 10 kept: the newest two answers; the older three
	// are remembered without theirs.
	if d.bytes != 8 {
		t.Fatalf("%d bytes kept", d.bytes)
	}
	for i := range 5 {
		r, ok := d.get(fmt.Sprint(i), t0)
		if !ok {
			t.Fatalf("%d forgotten", i)
		}
		if kept := r.final != nil; kept != (i >= 3) {
			t.Errorf("record %d: answer kept %v", i, kept)
		}
	}
	d.add("big", "r", make([]byte, 11), t0)
	if r, ok := d.get("big", t0); !ok || r.final != nil || d.bytes != 8 {
		t.Fatalf("an answer over the whole budget: %v %d bytes, %d kept", ok, len(r.final), d.bytes)
	}
}

// A request id that runs again after its record expired gets a new record;
// the old one's eviction does not take the new one with it.
func TestDedupeSuperseded(t *testing.T) {
	d := newDedupe(time.Minute, 0, 0)
	t0 := time.Unix(1000, 0)
	d.add("a", "r", []byte("old"), t0)
	d.add("a", "r", []byte("new"), t0.Add(2*time.Minute)) // expires the old one
	d.add("b", "r", nil, t0.Add(2*time.Minute))
	if r, ok := d.get("a", t0.Add(2*time.Minute)); !ok || string(r.final) != "new" {
		t.Fatalf("got %q %v", r.final, ok)
	}
	d2 := newDedupe(time.Hour, 2, 0)
	d2.add("a", "r", []byte("old"), t0)
	d2.add("a", "r", []byte("new"), t0)
	d2.add("b", "r", nil, t0) // evicts the old "a" slot only
	if r, ok := d2.get("a", t0); !ok || string(r.final) != "new" {
		t.Fatalf("superseded eviction: %q %v", r.final, ok)
	}
}
