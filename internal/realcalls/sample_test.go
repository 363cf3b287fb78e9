package realcalls

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/internal/corpus"
)

// stratifiedSpecs writes 120 specs: 60 of provider big.com (a family), 40
// of mid.io (a family) and 20 of providers with one spec each (other),
// of growing sizes.
func stratifiedSpecs(t *testing.T) []corpus.Spec {
	dir := t.TempDir()
	var specs []corpus.Spec
	for i := range 120 {
		name := fmt.Sprintf("big.com/s%03d.json", i)
		switch {
		case i%6 == 1 || i%6 == 4:
			name = fmt.Sprintf("mid.io/s%03d.json", i)
		case i%6 == 5:
			name = fmt.Sprintf("tail%03d.com.json", i)
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat(" ", 10+i)), 0o644); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, corpus.Spec{Name: name, Path: p})
	}
	return specs
}

// TestStratified: each stratum (family x size third) gives its share, the
// picks are distinct, interleaved across strata, and the same for the
// same seed.
func TestStratified(t *testing.T) {
	specs := stratifiedSpecs(t)
	perProvider := map[string]int{}
	for _, s := range specs {
		perProvider[provider(s.Name)]++
	}
	got := Stratified(specs, 30, 7)
	if len(got) != 30 {
		t.Fatalf("%d specs, want 30", len(got))
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, s := range got {
		if seen[s.Name] {
			t.Errorf("%s picked twice", s.Name)
		}
		seen[s.Name] = true
		count[Family(s.Name, perProvider)]++
	}
	// 60, 40 and 20 of 120: 15, 10 and 5 of 30.
	if count["big.com"] != 15 || count["mid.io"] != 10 || count["other"] != 5 {
		t.Errorf("picks by family %v, want big.com 15, mid.io 10, other 5", count)
	}
	// The first picks come one from each stratum: 3 families x 3 thirds.
	firsts := map[string]bool{}
	for _, s := range got[:9] {
		firsts[Family(s.Name, perProvider)] = true
	}
	if len(firsts) != 3 {
		t.Errorf("the first 9 picks are of %d families, want 3: %v", len(firsts), got[:9])
	}
	if again := Stratified(specs, 30, 7); !slices.Equal(got, again) {
		t.Error("same seed, another sample")
	}
	if other := Stratified(specs, 30, 8); slices.Equal(got, other) {
		t.Error("another seed, the same sample")
	}
	if all := Stratified(specs, 0, 7); len(all) != 120 {
		t.Errorf("n=0 gave %d specs", len(all))
	}
}

// TestShard: the shards partition the specs.
func TestShard(t *testing.T) {
	specs := stratifiedSpecs(t)[:10]
	var all []corpus.Spec
	for k := 1; k <= 3; k++ {
		part := Shard(specs, k, 3)
		if len(part) < 3 || len(part) > 4 {
			t.Errorf("shard %d/3 has %d specs", k, len(part))
		}
		all = append(all, part...)
	}
	if len(all) != 10 {
		t.Errorf("the shards hold %d specs, want 10", len(all))
	}
	for _, s := range specs {
		if !slices.Contains(all, s) {
			t.Errorf("%s is in no shard", s.Name)
		}
	}
}

// TestState: saved results are found and loaded in the specs' order;
// specs without one are left out.
func TestState(t *testing.T) {
	st := State{Dir: filepath.Join(t.TempDir(), "1")}
	specs := []corpus.Spec{{Name: "a.com/x.json"}, {Name: "b.json"}, {Name: "c.json"}}
	runs := []SpecRun{
		{Spec: PlanSpec{Name: "c.json"}, Outcome: "ran", Calls: []*Call{{Op: "c.op", Class: ClassOK}}},
		{Spec: PlanSpec{Name: "a.com/x.json"}, Outcome: "generate failed", Fault: FaultOpsgen},
	}
	if err := st.Save(runs); err != nil {
		t.Fatal(err)
	}
	if !st.Has(specs[0]) || st.Has(specs[1]) || !st.Has(specs[2]) {
		t.Errorf("Has: %v %v %v, want true false true", st.Has(specs[0]), st.Has(specs[1]), st.Has(specs[2]))
	}
	got, err := st.Load(specs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Spec.Name != "a.com/x.json" || got[1].Spec.Name != "c.json" || got[1].Calls[0].Op != "c.op" || got[0].Fault != FaultOpsgen {
		t.Errorf("loaded %+v", got)
	}
}
