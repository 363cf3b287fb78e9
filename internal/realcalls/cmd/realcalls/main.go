// Command realcalls generates clients for OpenAPI documents, runs each
// document's Prism mock, and calls every operation through the registry
// (see package internal/realcalls). scripts/e2e.sh installs Prism and the
// corpora and runs it; `make e2e` runs the script.
//
// Usage:
//
//	realcalls -prism BIN [-fixed FILE] [-sample N] [-seed S] [-work DIR] [-out DIR] [-v] ROOT...
//
// -fixed lists paths relative to one of the ROOTs (the first that has it);
// -sample adds N documents of the first ROOT picked with -seed across sizes
// (thirds by file size). The seed also seeds the inputs. The summary goes
// to standard output, report.md and report.json to -out; the exit status is
// 1 when a call or a spec is blamed on opsgen.
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
	res, err := realcalls.Run(ctx, specs, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realcalls:", err)
		os.Exit(2)
	}
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
		specs = append(specs, realcalls.SampleBySize(rest, n, seed)...)
	}
	return specs, nil
}
