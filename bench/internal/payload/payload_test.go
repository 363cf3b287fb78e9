package payload

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"
)

func generator(t *testing.T, seed uint64) *Generator {
	t.Helper()
	doc, err := os.ReadFile("../../spec/stripe-payouts.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(doc, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDeterministic: a seed gives the same bytes every time, another seed
// others; the list reaches the size asked and is JSON.
func TestDeterministic(t *testing.T) {
	list := func(seed uint64) []byte {
		g := generator(t, seed)
		s, err := g.Schema("#/components/schemas/payout")
		if err != nil {
			t.Fatal(err)
		}
		return g.List(s, 20000)
	}
	a, b, c := list(1), list(1), list(2)
	if !bytes.Equal(a, b) {
		t.Error("seed 1 gave two different lists")
	}
	if bytes.Equal(a, c) {
		t.Error("seeds 1 and 2 gave the same list")
	}
	if len(a) < 20000 {
		t.Errorf("list of %d bytes, want at least 20000", len(a))
	}
	var items []map[string]any
	if err := json.Unmarshal(a, &items); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it["object"] != "payout" {
			t.Fatalf("item's object is %v, want payout (its enum's one value)", it["object"])
		}
	}
}

// TestMatching: strings for a pattern match it.
func TestMatching(t *testing.T) {
	g := generator(t, 3)
	for _, p := range []string{`^/v1/payouts`, `^[a-z]{3}_[0-9]+$`, `^(ab|cd)?x+\.y$`} {
		for range 20 {
			if s := g.matching(p); !regexp.MustCompile(p).MatchString(s) {
				t.Errorf("%q does not match %q", s, p)
			}
		}
	}
}

// TestSchemaMissing: a pointer to nothing is an error naming it.
func TestSchemaMissing(t *testing.T) {
	if _, err := generator(t, 1).Schema("#/components/schemas/nope"); err == nil {
		t.Error("no error for a missing schema")
	}
}
