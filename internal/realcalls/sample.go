package realcalls

import (
	"os"
	"sort"

	"github.com/opsgen/opsgen/internal/corpus"
)

// SampleBySize picks n specs with the seed across sizes: the specs are
// split into thirds by file size and each third gives its share of n
// (corpus.Sample within it). The result is in name order within each third,
// smallest third first.
func SampleBySize(specs []corpus.Spec, n int, seed uint64) []corpus.Spec {
	if n <= 0 || n >= len(specs) {
		return specs
	}
	type sized struct {
		s    corpus.Spec
		size int64
	}
	all := make([]sized, 0, len(specs))
	for _, s := range specs {
		var size int64
		if fi, err := os.Stat(s.Path); err == nil {
			size = fi.Size()
		}
		all = append(all, sized{s, size})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].size < all[j].size })
	var out []corpus.Spec
	for third := 0; third < 3; third++ {
		lo, hi := third*len(all)/3, (third+1)*len(all)/3
		part := make([]corpus.Spec, 0, hi-lo)
		for _, x := range all[lo:hi] {
			part = append(part, x.s)
		}
		sort.Slice(part, func(i, j int) bool { return part[i].Name < part[j].Name })
		k := n / 3
		if third < n%3 {
			k++
		}
		out = append(out, corpus.Sample(part, k, seed+uint64(third))...)
	}
	return out
}
