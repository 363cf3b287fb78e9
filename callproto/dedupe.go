package callproto

import "time"

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
