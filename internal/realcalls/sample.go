package realcalls

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/opsgen/opsgen/internal/corpus"
)

// Family is the stratum of a spec's provider: the first element of its
// name (APIs.guru's provider directory or file, "amazonaws.com",
// "googleapis.com"), when the provider has at least minFamily specs, else
// "other" (the long tail of providers with a few specs each).
func Family(name string, perProvider map[string]int) string {
	p := provider(name)
	if perProvider[p] >= minFamily {
		return p
	}
	return "other"
}

// minFamily is the size of a provider that is a stratum of its own.
const minFamily = 20

func provider(name string) string {
	p, _, _ := strings.Cut(filepath.ToSlash(name), "/")
	return p
}

// Stratified picks n specs with the seed, stratified by provider family
// (Family) and size (thirds of the whole by file size): each stratum gives
// its share of n in proportion to its size (largest remainders, at least
// one from every stratum when n allows), picked with corpus.Sample. The
// result interleaves the strata (one of each in turn, strata in name
// order), so that any run of consecutive picks, and so every shard
// (Shard), spreads across them; it is the same for the same specs, n and
// seed.
func Stratified(specs []corpus.Spec, n int, seed uint64) []corpus.Spec {
	if n <= 0 || n >= len(specs) {
		return specs
	}
	sizes := make([]int64, len(specs))
	perProvider := map[string]int{}
	for i, s := range specs {
		if fi, err := os.Stat(s.Path); err == nil {
			sizes[i] = fi.Size()
		}
		perProvider[provider(s.Name)]++
	}
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	third := make([]int, len(specs))
	for rank, i := range order {
		third[i] = rank * 3 / len(specs)
	}
	strata := map[string][]corpus.Spec{}
	for i, s := range specs {
		k := fmt.Sprintf("%s/%d", Family(s.Name, perProvider), third[i])
		strata[k] = append(strata[k], s)
	}
	keys := slices.Sorted(maps.Keys(strata))
	// Shares: the floor of each stratum's proportion, at least one, then
	// the remainder to the largest fractions.
	share := map[string]int{}
	type frac struct {
		k string
		f float64
	}
	var fracs []frac
	given := 0
	for _, k := range keys {
		exact := float64(n) * float64(len(strata[k])) / float64(len(specs))
		share[k] = max(int(exact), 1)
		given += share[k]
		fracs = append(fracs, frac{k, exact - float64(int(exact))})
	}
	sort.SliceStable(fracs, func(a, b int) bool { return fracs[a].f > fracs[b].f })
	for i := 0; given < n; i = (i + 1) % len(fracs) {
		if share[fracs[i].k] < len(strata[fracs[i].k]) {
			share[fracs[i].k]++
			given++
		}
	}
	picks := make([][]corpus.Spec, len(keys))
	for i, k := range keys {
		part := strata[k]
		sort.Slice(part, func(a, b int) bool { return part[a].Name < part[b].Name })
		picks[i] = corpus.Sample(part, min(share[k], len(part)), seed+uint64(i))
	}
	var out []corpus.Spec
	for round := 0; len(out) < given; round++ {
		for _, p := range picks {
			if round < len(p) {
				out = append(out, p[round])
			}
		}
	}
	return out
}

// Shard returns the k-th (1-based) of n shards of specs: every n-th spec
// from the k-th.
func Shard(specs []corpus.Spec, k, n int) []corpus.Spec {
	var out []corpus.Spec
	for i := k - 1; i < len(specs); i += n {
		out = append(out, specs[i])
	}
	return out
}
