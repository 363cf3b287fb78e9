package webhook

import (
	"context"
	"sync"
	"time"
)

// A ReplayStore remembers the ids of deliveries a Receiver has accepted,
// so that a delivery sent again (replayed by an attacker who captured it,
// or retried by a sender that missed the answer) is not handled twice.
// Implementations must be safe for concurrent use; one shared by several
// processes (a database, Redis) makes the guarantee hold across them.
type ReplayStore interface {
	// Claim records id until the time until and reports whether it was
	// new; false means it is recorded already (a duplicate).
	Claim(ctx context.Context, id string, until time.Time) (bool, error)
	// Release forgets id, after its handler failed, so that the sender's
	// retry is handled.
	Release(ctx context.Context, id string) error
}

// MemoryReplayStore is a ReplayStore in memory, bounded in time and size:
// an id is forgotten when its time passes, and the oldest ids are
// forgotten first when more than Max are held.
type MemoryReplayStore struct {
	max int

	mu    sync.Mutex
	until map[string]time.Time
	order []memoryEntry // ids in the order claimed; until rises along it when clocks do
	now   func() time.Time
}

type memoryEntry struct {
	id    string
	until time.Time
}

// DefaultReplayMax is the number of ids a MemoryReplayStore made with max
// <= 0 holds at most.
const DefaultReplayMax = 100_000

// NewMemoryReplayStore returns an empty store holding at most max ids
// (DefaultReplayMax when max <= 0).
func NewMemoryReplayStore(max int) *MemoryReplayStore {
	if max <= 0 {
		max = DefaultReplayMax
	}
	return &MemoryReplayStore{max: max, until: map[string]time.Time{}, now: time.Now}
}

// Claim implements ReplayStore.
func (s *MemoryReplayStore) Claim(_ context.Context, id string, until time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.expire(now)
	if u, ok := s.until[id]; ok && u.After(now) {
		return false, nil
	}
	s.until[id] = until
	s.order = append(s.order, memoryEntry{id, until})
	for len(s.until) > s.max {
		s.dropFirst()
	}
	return true, nil
}

// Release implements ReplayStore.
func (s *MemoryReplayStore) Release(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.until, id) // its entry in order is skipped when it comes first
	return nil
}

// Len returns the number of ids held.
func (s *MemoryReplayStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire(s.now())
	return len(s.until)
}

// expire drops the ids at the front of order whose time has passed.
func (s *MemoryReplayStore) expire(now time.Time) {
	for len(s.order) > 0 && !s.order[0].until.After(now) {
		s.dropFirst()
	}
}

// dropFirst forgets the oldest entry of order, unless its id was claimed
// again since (then the map holds the later time, and a later entry).
func (s *MemoryReplayStore) dropFirst() {
	e := s.order[0]
	s.order[0] = memoryEntry{}
	s.order = s.order[1:]
	if u, ok := s.until[e.id]; ok && u.Equal(e.until) {
		delete(s.until, e.id)
	}
	if cap(s.order) > 64 && len(s.order) < cap(s.order)/4 {
		s.order = append([]memoryEntry(nil), s.order...)
	}
}
