package callproto

import (
	"context"
	"encoding/json"
	"time"
)

// dedupe remembers finished requests for a while, bounded in count and in
// the bytes of the final events it keeps: the record behind
// HandlerOptions.DedupeWindow. Records are added in finishing order, so
// the oldest is always at the front of the queue and expiry and eviction
// both take from there. It is not safe for concurrent use (the
// CallHandler's mutex guards it).
type dedupe struct {
	window     time.Duration // <= 0: remember nothing
	maxEntries int
	maxBytes   int

	byID  map[string]*doneRecord
	queue []*doneRecord // oldest first, from head
	head  int
	kept  int // queue index before which final events have been let go
	bytes int // bytes of the final events kept
}

// doneRecord is one finished request.
type doneRecord struct {
	id      string
	replyTo string
	final   []byte // nil: not kept, or none was sent
	at      time.Time
}

func newDedupe(window time.Duration, entries, bytes int) dedupe {
	if window == 0 {
		window = DefaultDedupeWindow
	}
	if entries <= 0 {
		entries = 10000
	}
	if bytes <= 0 {
		bytes = 16 << 20
	}
	return dedupe{window: window, maxEntries: entries, maxBytes: bytes, byID: map[string]*doneRecord{}}
}

// add records that id, answered on replyTo, finished at now with final.
func (d *dedupe) add(id, replyTo string, final []byte, now time.Time) {
	if d.window <= 0 {
		return
	}
	if len(final) > d.maxBytes {
		final = nil // would evict every other answer: keep the id only
	}
	r := &doneRecord{id: id, replyTo: replyTo, final: final, at: now}
	if old := d.byID[id]; old != nil {
		old.id = "" // superseded: its queue slot no longer owns the map entry
	}
	d.byID[id] = r
	d.queue = append(d.queue, r)
	d.bytes += len(final)
	for len(d.queue)-d.head > d.maxEntries {
		d.pop()
	}
	for i := max(d.kept, d.head); d.bytes > d.maxBytes && i < len(d.queue); i++ {
		d.bytes -= len(d.queue[i].final)
		d.queue[i].final = nil
		d.kept = i + 1
	}
	d.expire(now)
}

// get returns the record of id, if it finished within the window.
func (d *dedupe) get(id string, now time.Time) (doneRecord, bool) {
	r := d.byID[id]
	if r == nil || now.Sub(r.at) > d.window {
		return doneRecord{}, false
	}
	return *r, true
}

// expire forgets the records older than the window.
func (d *dedupe) expire(now time.Time) {
	for d.head < len(d.queue) && now.Sub(d.queue[d.head].at) > d.window {
		d.pop()
	}
}

// pop forgets the oldest record.
func (d *dedupe) pop() {
	r := d.queue[d.head]
	d.queue[d.head] = nil
	d.head++
	d.bytes -= len(r.final)
	if r.id != "" && d.byID[r.id] == r {
		delete(d.byID, r.id)
	}
	if d.head > len(d.queue)/2 && d.head > 64 { // reuse the slice's space
		n := copy(d.queue, d.queue[d.head:])
		clear(d.queue[n:])
		d.queue = d.queue[:n]
		d.kept = max(d.kept-d.head, 0)
		d.head = 0
	}
}

// len returns the number of requests remembered.
func (d *dedupe) len() int { return len(d.byID) }

// SharedDedupe is a duplicate record shared by the hubs of a queue group
// (HandlerOptions.SharedDedupe): with it, a duplicate call.requested is
// answered from the record, or dropped while the first runs, whichever
// hub of the group the broker hands it to. natsbus (JetStream key-value)
// and redisbus (Redis keys) provide one. It must be safe for concurrent
// use; each method is called from a goroutine of its own request.
type SharedDedupe interface {
	// Claim records that this hub takes request id, answered on replyTo,
	// unless a record of id exists: then it returns that record and
	// claimed false. The record lives for ttl (the dedupe window).
	Claim(ctx context.Context, id, replyTo string, ttl time.Duration) (rec DedupeRecord, claimed bool, err error)
	// Finish records that id finished with final, its final event (nil:
	// not kept), for ttl from now.
	Finish(ctx context.Context, id, replyTo string, final []byte, ttl time.Duration) error
}

// DedupeRecord is what a SharedDedupe holds of a request.
type DedupeRecord struct {
	// ReplyTo is the reply subject of the request that claimed the id.
	ReplyTo string `json:"replyTo"`
	// Done says the request finished; Final is then its final event
	// (nil: not kept, over the size bound).
	Done  bool   `json:"done,omitempty"`
	Final []byte `json:"final,omitempty"`
}

// EncodeDedupeRecord and DecodeDedupeRecord are the stored form of a
// record (JSON), shared by the stores so that their contents read alike.
func EncodeDedupeRecord(r DedupeRecord) []byte {
	b, _ := json.Marshal(r) // strings and bytes: always marshals
	return b
}

// DecodeDedupeRecord decodes a record EncodeDedupeRecord wrote.
func DecodeDedupeRecord(b []byte) (DedupeRecord, error) {
	var r DedupeRecord
	err := json.Unmarshal(b, &r)
	return r, err
}
