// Command realcalls generates clients for OpenAPI documents, runs each
// document's Prism mock, and calls every operation through the registry
// (see package internal/realcalls). scripts/e2e.sh installs Prism and the
// corpora and runs it; `make e2e` runs the script.
//
// Usage:
//
//	realcalls -prism BIN [-fixed FILE] [-sample N] [-seed S] [-shard K/N] [-state DIR] [-work DIR] [-out DIR] [-v] ROOT...
//
// -fixed lists paths relative to one of the ROOTs (the first that has it);
// -sample adds N documents of the first ROOT picked with -seed, stratified
// by provider family and size (realcalls.Stratified). The seed also seeds
// the inputs. -shard K/N runs the K-th of N shards of those documents
// (K 0: the first shard with documents left). With -state, each
// document's result is kept in DIR (per seed) as soon as its batch of
// -batch documents is done, documents with a result are not run again (a
// rerun continues), and the report covers every document of the sample
// with a result, all shards. The summary goes to standard output,
// report.md and report.json to -out; the exit status is 1 when a call or
// a spec of the report is blamed on opsgen.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/opsgen/opsgen/internal/corpus"
	"github.com/opsgen/opsgen/internal/realcalls"
)

func main() {
	prism := flag.String("prism", "", "prism executable")
	fixed := flag.String("fixed", "", "file listing the fixed picks")
	sample := flag.Int("sample", 0, "number of documents of the first root to pick at random")
	seed := flag.Uint64("seed", 1, "seed of the sample and of the inputs")
	work := flag.String("work", filepath.Join(os.TempDir(), "opsgen-realcalls"), "scratch module directory (emptied first)")
	out := flag.String("out", ".", "directory of report.md and report.json")
	repo := flag.String("repo", ".", "root of the opsgen module")
	verbose := flag.Bool("v", false, "progress on standard error")
	shard := flag.String("shard", "", "K/N: run the K-th of N shards of the documents (K 0: the first with documents left)")
	state := flag.String("state", "", "directory keeping each document's result (a rerun continues)")
	batch := flag.Int("batch", 8, "documents generated and run together (with -state)")
	flag.Parse()
	if *prism == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: realcalls -prism BIN [flags] ROOT...")
		flag.PrintDefaults()
		os.Exit(2)
	}
	specs, err := pick(*fixed, *sample, *seed, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "realcalls:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := realcalls.Options{Repo: *repo, Work: *work, Prism: *prism, Seed: *seed}
	if *verbose {
		opts.Log = os.Stderr
	}
	start := time.Now()
	var runs []realcalls.SpecRun
	if *state == "" {
		todo, err := shardOf(specs, *shard, func(corpus.Spec) bool { return false })
		if err != nil {
			fmt.Fprintln(os.Stderr, "realcalls:", err)
			os.Exit(2)
		}
		res, err := realcalls.Run(ctx, todo, opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, "realcalls:", err)
			os.Exit(2)
		}
		runs = res.Runs
	} else {
		st := realcalls.State{Dir: filepath.Join(*state, fmt.Sprint(*seed))}
		todo, err := shardOf(specs, *shard, st.Has)
		if err != nil {
			fmt.Fprintln(os.Stderr, "realcalls:", err)
			os.Exit(2)
		}
		var left []corpus.Spec
		for _, s := range todo {
			if !st.Has(s) {
				left = append(left, s)
			}
		}
		fmt.Fprintf(os.Stderr, "realcalls: %d documents in the shard, %d without a result\n", len(todo), len(left))
		for i := 0; i < len(left) && ctx.Err() == nil; i += *batch {
			part := left[i:min(i+*batch, len(left))]
			res, err := realcalls.Run(ctx, part, opts)
			if err != nil {
				fmt.Fprintln(os.Stderr, "realcalls:", err)
				os.Exit(2)
			}
			if err := st.Save(res.Runs); err != nil {
				fmt.Fprintln(os.Stderr, "realcalls:", err)
				os.Exit(2)
			}
			fmt.Fprintf(os.Stderr, "realcalls: %d of %d documents done (%s)\n", min(i+*batch, len(left)), len(left), time.Since(start).Round(time.Second))
		}
		if runs, err = st.Load(specs); err != nil {
			fmt.Fprintln(os.Stderr, "realcalls:", err)
			os.Exit(2)
		}
		fmt.Printf("%d of the %d documents of the sample have a result (seed %d)\n\n", len(runs), len(specs), *seed)
	}
	res := &realcalls.Result{Seed: *seed, Runs: runs}
	realcalls.Summary(os.Stdout, res.Runs)
	if err := realcalls.WriteReports(*out, res); err != nil {
		fmt.Fprintln(os.Stderr, "realcalls:", err)
		os.Exit(2)
	}
	fmt.Printf("\n%d specs in %s; report: %s\n", len(res.Runs), time.Since(start).Round(time.Second), filepath.Join(*out, "report.md"))
	if realcalls.Tally(res.Runs).OpsgenFaults() > 0 {
		os.Exit(1)
	}
}

// shardOf returns the shard "K/N" of specs ("" for all of them); K 0 is
// the first shard with a spec that done does not report.
func shardOf(specs []corpus.Spec, shard string, done func(corpus.Spec) bool) ([]corpus.Spec, error) {
	if shard == "" {
		return specs, nil
	}
	var k, n int
	if _, err := fmt.Sscanf(shard, "%d/%d", &k, &n); err != nil || n < 1 || k < 0 || k > n {
		return nil, fmt.Errorf("-shard %q: want K/N with 0 <= K <= N (K 0: the first shard with documents left)", shard)
	}
	if k > 0 {
		return realcalls.Shard(specs, k, n), nil
	}
	for k = 1; k <= n; k++ {
		part := realcalls.Shard(specs, k, n)
		for _, s := range part {
			if !done(s) {
				fmt.Fprintf(os.Stderr, "realcalls: shard %d/%d\n", k, n)
				return part, nil
			}
		}
	}
	return nil, nil
}

// pick returns the fixed picks, then the sample of the first root
// (without the fixed picks).
func pick(fixedFile string, n int, seed uint64, roots []string) ([]corpus.Spec, error) {
	var specs []corpus.Spec
	taken := map[string]bool{}
	if fixedFile != "" {
		f, err := os.Open(fixedFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		line := 0
		for sc.Scan() {
			line++
			name := strings.TrimSpace(sc.Text())
			if name == "" || strings.HasPrefix(name, "#") {
				continue
			}
			found := false
			for _, root := range roots {
				p := filepath.Join(root, filepath.FromSlash(name))
				if _, err := os.Stat(p); err == nil {
					specs = append(specs, corpus.Spec{Name: name, Path: p})
					taken[p] = true
					found = true
					break
				}
			}
			if !found {
				return nil, fmt.Errorf("%s:%d: %s is under none of %s", fixedFile, line, name, strings.Join(roots, ", "))
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if n > 0 {
		all, err := corpus.Discover(roots[0])
		if err != nil {
			return nil, err
		}
		var rest []corpus.Spec
		for _, s := range all {
			if !taken[s.Path] {
				rest = append(rest, s)
			}
		}
		specs = append(specs, realcalls.Stratified(rest, n, seed)...)
	}
	return specs, nil
}
