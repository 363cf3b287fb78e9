package webhook

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestMemoryReplayStoreWindow(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0)
	s := NewMemoryReplayStore(0)
	s.now = func() time.Time { return now }
	claim := func(id string) bool {
		t.Helper()
		ok, err := s.Claim(ctx, id, now.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !claim("a") || claim("a") {
		t.Fatal("a: first claim must be new, second a duplicate")
	}
	now = now.Add(30 * time.Second)
	if !claim("b") || claim("a") {
		t.Fatal("within the window a stays claimed")
	}
	now = now.Add(31 * time.Second) // a's window is over, b's is not
	if !claim("a") || claim("b") {
		t.Fatal("a must be forgotten after its window, b not")
	}
	if err := s.Release(ctx, "b"); err != nil || !claim("b") {
		t.Fatal("a released id can be claimed again")
	}
	now = now.Add(2 * time.Minute)
	if n := s.Len(); n != 0 {
		t.Errorf("after every window, %d ids held", n)
	}
}

func TestMemoryReplayStoreBounded(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0)
	s := NewMemoryReplayStore(100)
	s.now = func() time.Time { return now }
	for i := range 1000 {
		if ok, _ := s.Claim(ctx, fmt.Sprint(i), now.Add(time.Hour)); !ok {
			t.Fatalf("%d: not new", i)
		}
	}
	if n := s.Len(); n != 100 {
		t.Errorf("holds %d ids, want the bound 100", n)
	}
	if ok, _ := s.Claim(ctx, "999", now.Add(time.Hour)); ok {
		t.Error("the newest id was forgotten")
	}
	if ok, _ := s.Claim(ctx, "0", now.Add(time.Hour)); !ok {
		t.Error("the oldest id is still held beyond the bound")
	}
	if len(s.order) > 2*100+64 {
		t.Errorf("order holds %d entries for 100 ids", len(s.order))
	}
}
