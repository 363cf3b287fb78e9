// Command corpus runs opsgen over directories of OpenAPI documents and
// reports how many generate, build and vet (see package internal/corpus).
//
// Usage:
//
//	corpus [-sample N] [-seed S] [-work DIR] [-timeout D] [-stopgrace D] [-batch N] [-vetonly] [-v] DIR...
//
// Every *.json, *.yaml and *.yml under each DIR is a spec; -sample picks N of
// them at random with -seed (all by default). The summary table, the
// generator's warnings by kind of degradation (raw JSON, untyped $ref,
// renamed identifier, left out, other: totals, then per spec) and the reason
// of every failure go to standard output; the exit status is 1 when a spec
// failed. A generation that overruns -timeout is cancelled and waited for
// (at most -stopgrace) before the next spec starts. scripts/corpus.sh installs the APIs.guru directory and GitHub's
// specs and runs it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/opsgen/opsgen/internal/corpus"
)

func main() {
	sample := flag.Int("sample", 0, "number of specs to pick at random (0: all)")
	seed := flag.Uint64("seed", 1, "seed of the random sample")
	work := flag.String("work", filepath.Join(os.TempDir(), "opsgen-corpus"), "scratch module directory (emptied first)")
	repo := flag.String("repo", ".", "root of the opsgen module")
	timeout := flag.Duration("timeout", 2*time.Minute, "generation timeout per spec")
	stopGrace := flag.Duration("stopgrace", time.Minute, "how long to wait for a generation to stop after its timeout")
	batch := flag.Int("batch", 100, "packages per go build / go vet")
	vetOnly := flag.Bool("vetonly", false, "type-check with go vet instead of go build + go vet (faster)")
	verbose := flag.Bool("v", false, "print progress to standard error")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: corpus [flags] DIR...")
		flag.PrintDefaults()
		os.Exit(2)
	}
	var specs []corpus.Spec
	for _, dir := range flag.Args() {
		s, err := corpus.Discover(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "corpus:", err)
			os.Exit(1)
		}
		specs = append(specs, s...)
	}
	specs = corpus.Sample(specs, *sample, *seed)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := corpus.Options{Repo: *repo, Work: *work, Timeout: *timeout, StopGrace: *stopGrace, Batch: *batch, VetOnly: *vetOnly}
	if *verbose {
		opts.Log = os.Stderr
	}
	start := time.Now()
	results, err := corpus.Run(ctx, specs, opts)
	corpus.Summarize(os.Stdout, results)
	fmt.Printf("\n%d specs in %s\n", len(results), time.Since(start).Round(time.Second))
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
	for _, r := range results {
		if r.Outcome != corpus.OK {
			os.Exit(1)
		}
	}
}
