package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"

	"github.com/opsgen/opsgen/generator"
	"github.com/opsgen/opsgen/generator/output"
)

// gcLimit is the heap size below which generate and check do not collect
// garbage at all (see tuneGC).
const gcLimit = 512 << 20

// tuneGC trades memory for time in a short batch process, as esbuild's
// command line does: with the garbage collector's default pacing (GOGC=100)
// a generation from GitHub's 13 MB description spends a fifth of its CPU
// time marking a heap that is about to be dropped anyway. Instead, nothing
// is collected until the heap reaches gcLimit (the collector's memory
// limit); most descriptions are generated without a single collection.
// When the heap still live after a collection passes half the limit (a
// description several times GitHub's), the default pacing comes back, so
// that a large live heap never makes the collector run back to back.
// Explicit GOGC or GOMEMLIMIT settings are left alone. main calls it for
// generate and check with gcLimit.
func tuneGC(limit int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	watchGC(uint64(limit / 2))
}

// heapPerInputByte is about the peak heap of a generation per byte of its
// source, when nothing is collected (GitHub's 12.4 MB description peaks
// near 400 MB).
const heapPerInputByte = 32

// reserveHeap backs the heap a generation from opts' source is about to
// build with huge pages (hugePages), when the source is large enough
// (1 MiB and more) for that to pay: the advice, the allocation that grows
// the heap and the collection that frees it cost 1 to 3 ms. It grows the
// heap by at most seven eighths of gcLimit, under which nothing is
// collected.
func reserveHeap(opts generator.Options) {
	if opts.Config == nil || len(opts.Config.Sources) == 0 {
		return
	}
	fi, err := os.Stat(output.Resolve(opts.ConfigDir, opts.Config.Sources[0].Path()))
	if err != nil || fi.Size() < 1<<20 {
		return
	}
	hugePages(int(min(fi.Size()*heapPerInputByte, gcLimit*7/8)))
}

// gcSentinel is garbage from birth: its finalizer runs after each
// collection (the next sentinel's after the next one).
type gcSentinel struct{ _ [16]byte }

// paced, when set (by tests), is called after watchGC has restored the
// default pacing.
var paced func()

// watchGC checks the live heap after the next collection, and after every
// one until it passes most and the default pacing is restored.
func watchGC(most uint64) {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > most {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			if paced != nil {
				paced()
			}
			return
		}
		watchGC(most)
	})
}
