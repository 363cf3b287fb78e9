package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartup builds the programs of startup/ (stripped, as shipped:
// -ldflags=-s) and runs them to their exit, alternately, once each per
// iteration: a consumer's exec-to-exit and binary size with a generated
// opsgen client linked, against a hand-written net/http + encoding/json
// client. It reports the medians (hand-ms, opsgen-ms), their ratio, and
// the stripped sizes in MB (10^6 bytes) and their ratio. Package
// initialisation is most of what differs (jsonschema/v6 compiled its
// metaschemas in every program that linked the runtime until it moved to
// runtime/fullschema).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	names := []string{"handwritten", "opsgen"}
	bins := map[string]string{}
	sizes := map[string]float64{}
	for _, name := range names {
		bin := filepath.Join(dir, name)
		if out, err := exec.Command("go", "build", "-ldflags=-s", "-o", bin, "./startup/"+name).CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", name, err, out)
		}
		fi, err := os.Stat(bin)
		if err != nil {
			b.Fatal(err)
		}
		bins[name], sizes[name] = bin, float64(fi.Size())/1e6
	}
	times := map[string][]time.Duration{}
	run := func(name string) {
		start := time.Now()
		if out, err := exec.Command(bins[name]).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		times[name] = append(times[name], time.Since(start))
	}
	i := 0
	for b.Loop() {
		// Alternate the order so that neither always runs second.
		run(names[i%2])
		run(names[(i+1)%2])
		i++
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2]) / float64(time.Millisecond)
	}
	h, o := median(times["handwritten"]), median(times["opsgen"])
	b.ReportMetric(h, "hand-ms")
	b.ReportMetric(o, "opsgen-ms")
	b.ReportMetric(o/h, "time-ratio")
	b.ReportMetric(sizes["handwritten"], "hand-MB")
	b.ReportMetric(sizes["opsgen"], "opsgen-MB")
	b.ReportMetric(sizes["opsgen"]/sizes["handwritten"], "size-ratio")
	b.ReportMetric(0, "ns/op")
}
