// Package corpus runs opsgen over a corpus of real OpenAPI documents and
// checks that what it generates is gofmt'd, builds and vets.
//
// Run generates every spec in-process (with a per-spec timeout and panic
// recovery) into one package per spec of a scratch module whose go.mod
// replaces github.com/opsgen/opsgen with the repository, then runs
// `go build` and `go vet` over the packages in batches (one go command for
// many packages is much faster than one per spec) and attributes each
// compiler or vet message to its package. Summarize prints the table, the
// generator's warnings by kind of degradation (see Classify), totalled and
// per spec, and the reason of every failure.
//
// A generation that overruns its timeout is cancelled through its context,
// which the loader watches, and waited for (at most Options.StopGrace)
// before the next spec starts, so that it does not go on using the CPU
// and memory the next ones are measured with.
//
// The command internal/corpus/cmd/corpus drives it over the APIs.guru
// directory and GitHub's specs (scripts/corpus.sh installs them);
// TestCorpus runs it over the fixed sample in testdata/corpus.
package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/emit"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// Outcome is what happened to one spec.
type Outcome string

// The outcomes, in the order of the summary table.
const (
	OK             Outcome = "ok"
	GenerateFailed Outcome = "generate failed"
	BuildFailed    Outcome = "build failed"
	VetFailed      Outcome = "vet failed"
	Panic          Outcome = "panic"
	Timeout        Outcome = "timeout"
	// NotFormatted: a generated file changes under gofmt.
	NotFormatted Outcome = "not gofmt'd"
)

var outcomes = []Outcome{OK, GenerateFailed, NotFormatted, BuildFailed, VetFailed, Panic, Timeout}

// Spec is one input document.
type Spec struct {
	// Name identifies the spec in reports (its path relative to the corpus root).
	Name string
	// Path is the file to load.
	Path string
}

// Result is the outcome for one spec.
type Result struct {
	Spec    Spec
	Outcome Outcome
	// Reason is the error, panic or first compiler/vet messages when the
	// outcome is not OK.
	Reason string
	// Package is the scratch package's directory name ("" when nothing was written).
	Package string
	// SpecOps counts the operations declared in the document; Ops those
	// that reached the IR.
	SpecOps, Ops int
	// Warnings counts the generator's warnings.
	Warnings int
	// Degradations counts the warnings by kind.
	Degradations Degradations
	// Abandoned is set when the generation overran its timeout and had not
	// returned StopGrace after it was cancelled: its goroutine may still
	// be running.
	Abandoned bool
	// Bytes is the size of the generated code.
	Bytes int
	// Gen is the time spent loading and emitting.
	Gen time.Duration
}

// Silent reports the number of operations of the document missing from the
// IR: the generator never leaves an operation out (it degrades what it cannot
// type, with a warning), so every one is a defect.
func (r Result) Silent() int {
	if r.Outcome == GenerateFailed || r.Outcome == Panic || r.Outcome == Timeout {
		return 0
	}
	n := r.SpecOps - r.Ops
	return max(n, 0)
}

// The defaults of Options.Timeout and Options.StopGrace.
const (
	defaultTimeout   = 2 * time.Minute
	defaultStopGrace = time.Minute
)

// Options configure Run.
type Options struct {
	// Repo is the root of the opsgen module the scratch module replaces it with.
	Repo string
	// Work is the scratch module's directory; it is emptied first.
	Work string
	// Timeout bounds the generation of one spec (default 2 minutes), plus
	// TimeoutPerOp for each operation the spec declares: generation time
	// grows with the document (Microsoft Graph beta's 22,361 operations).
	Timeout, TimeoutPerOp time.Duration
	// StopGrace bounds the wait for a generation that overran Timeout to
	// return after its cancellation (default 1 minute).
	StopGrace time.Duration
	// Batch is the number of packages per go build / go vet (default 100).
	Batch int
	// Log, when set, receives progress lines.
	Log io.Writer
	// Go is the go command (default "go").
	Go string
	// Split is emit.Options.Split: "" splits the largest APIs into
	// packages, as opsgen generate does.
	Split string
	// VetOnly skips go build: go vet type-checks each package from source
	// (against the export data of its dependencies) before analysing it,
	// and a type error, which it reports with a "vet: " prefix, counts as a
	// build failure. About twice as fast; the compiler's back end, which
	// rejects next to nothing that type-checks, does not run.
	VetOnly bool
}

// Discover lists the OpenAPI documents (*.json, *.yaml, *.yml) under root,
// sorted by name.
func Discover(root string) ([]Spec, error) {
	var specs []Spec
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".yaml", ".yml":
		default:
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		specs = append(specs, Spec{Name: filepath.ToSlash(rel), Path: p})
		return nil
	})
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs, err
}

// Sample returns n specs picked at random with the seed, in name order;
// all of them when n <= 0 or n >= len(specs).
func Sample(specs []Spec, n int, seed uint64) []Spec {
	if n <= 0 || n >= len(specs) {
		return specs
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	idx := r.Perm(len(specs))[:n]
	sort.Ints(idx)
	out := make([]Spec, n)
	for i, j := range idx {
		out[i] = specs[j]
	}
	return out
}

// Run generates, builds and vets every spec and returns one result per spec,
// in the order of specs. Its error is for setup failures only.
func Run(ctx context.Context, specs []Spec, opts Options) ([]Result, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = defaultTimeout
	}
	if opts.StopGrace <= 0 {
		opts.StopGrace = defaultStopGrace
	}
	if opts.Batch <= 0 {
		opts.Batch = 100
	}
	if opts.Go == "" {
		opts.Go = "go"
	}
	if err := scratchModule(opts.Repo, opts.Work); err != nil {
		return nil, err
	}
	results := make([]Result, len(specs))
	var built []int
	for i, s := range specs {
		r := &results[i]
		r.Spec = s
		r.Package = fmt.Sprintf("s%04d", i)
		generate(ctx, r, filepath.Join(opts.Work, r.Package), opts.Timeout, opts.TimeoutPerOp, opts.StopGrace, opts.Split)
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "[%d/%d] %s: %s (%d ops, %d warnings, %s)\n", i+1, len(specs), s.Name, r.Outcome, r.Ops, r.Warnings, r.Gen.Round(time.Millisecond))
		}
		if r.Outcome == OK {
			built = append(built, i)
		} else {
			r.Package = ""
		}
	}
	for start := 0; start < len(built); start += opts.Batch {
		batch := built[start:min(start+opts.Batch, len(built))]
		vet := batch
		if !opts.VetOnly {
			if err := check(ctx, opts, "build", results, batch); err != nil {
				return results, err
			}
			vet = nil
			for _, i := range batch {
				if results[i].Outcome == OK {
					vet = append(vet, i)
				}
			}
		}
		if err := check(ctx, opts, "vet", results, vet); err != nil {
			return results, err
		}
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, "built and vetted %d/%d packages\n", start+len(batch), len(built))
		}
	}
	return results, nil
}

// scratchModule makes dir an empty module that requires what the repository
// requires and replaces opsgen with it.
func scratchModule(repo, dir string) error {
	repo, err := filepath.Abs(repo)
	if err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return err
	}
	gosum, err := os.ReadFile(filepath.Join(repo, "go.sum"))
	if err != nil {
		return err
	}
	// The repository's requirements, verbatim, so that the scratch module
	// needs neither the network nor go mod tidy.
	var b strings.Builder
	b.WriteString("module corpus.example\n\n")
	for _, line := range strings.Split(string(gomod), "\n") {
		if strings.HasPrefix(line, "module ") || strings.HasPrefix(line, "tool ") {
			continue
		}
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(&b, "\nrequire github.com/opsgen/opsgen v0.0.0\n\nreplace github.com/opsgen/opsgen => %s\n", repo)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644)
}

// load is the loader generate runs (a variable for the tests).
var load = openapi.LoadData

// generate loads and emits one spec into dir, filling r. The generation
// runs in a goroutine with a context that expires after timeout; when it
// does, generate waits up to grace for the goroutine to return (the loader
// checks the context between its phases), so that none is left running.
func generate(ctx context.Context, r *Result, dir string, timeout, perOp, grace time.Duration, split string) {
	data, err := os.ReadFile(r.Spec.Path)
	if err != nil {
		r.Outcome, r.Reason = GenerateFailed, err.Error()
		return
	}
	r.SpecOps = countOps(data)
	timeout += perOp * time.Duration(r.SpecOps)
	gctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type gen struct {
		svc   *ir.Service
		files []emit.File
		diags diag.List
		err   error
		panic string
	}
	done := make(chan gen, 1)
	start := time.Now()
	// The goroutine reads copies: it may outlive this call (see Abandoned).
	path, pkg := r.Spec.Path, r.Package
	go func() {
		var g gen
		defer func() {
			if p := recover(); p != nil {
				g.panic = fmt.Sprintf("%v\n%s", p, debug.Stack())
			}
			done <- g
		}()
		g.svc, g.diags, g.err = load(gctx, data, path, openapi.Options{})
		if g.err != nil {
			return
		}
		if g.svc == nil {
			g.err = errors.New("the loader returned no service")
			return
		}
		// The emitter takes no context: do not start it after the deadline.
		if g.err = gctx.Err(); g.err != nil {
			return
		}
		var d diag.List
		// The package is <Work>/<pkg> in the scratch module corpus.example:
		// a large API's operation packages import it by that path.
		g.files, d, g.err = emit.Emit(g.svc, emit.Options{Package: pkg, Version: "corpus", Registry: true, ImportPath: "corpus.example/" + pkg, Split: split})
		g.diags = append(g.diags, d...)
	}()
	var g gen
	var stopped time.Duration // from the deadline to the goroutine's return
	select {
	case g = <-done:
	case <-gctx.Done():
		cancel()
		deadline := time.Now()
		select {
		case g = <-done:
			stopped = time.Since(deadline)
		case <-time.After(grace):
			r.Abandoned = true
		}
	}
	r.Gen = time.Since(start)
	// The deadline passed before the result was in: unless it panicked,
	// whatever the generation returned (most likely the context's error),
	// it timed out.
	if gctx.Err() != nil && g.panic == "" {
		r.Outcome = Timeout
		if ctx.Err() != nil {
			r.Reason = fmt.Sprintf("generation interrupted (%v)", context.Cause(ctx))
		} else {
			r.Reason = fmt.Sprintf("generation took longer than %s", timeout)
		}
		if r.Abandoned {
			r.Reason += fmt.Sprintf("; it had not stopped %s after its cancellation and is left running", grace)
		} else {
			r.Reason += fmt.Sprintf("; it stopped %s after its cancellation", stopped.Round(time.Millisecond))
		}
		return
	}
	for _, d := range g.diags {
		if d.Severity == diag.Warning {
			r.Warnings++
			r.Degradations[ClassifyDiagnostic(d)]++
		}
	}
	if g.svc != nil {
		r.Ops = len(g.svc.Operations)
	}
	switch {
	case g.panic != "":
		r.Outcome, r.Reason = Panic, g.panic
		return
	case g.err != nil:
		r.Outcome, r.Reason = GenerateFailed, g.err.Error()
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.Outcome, r.Reason = GenerateFailed, err.Error()
		return
	}
	for _, f := range g.files {
		if src, err := format.Source(f.Content); err != nil || !bytes.Equal(src, f.Content) {
			r.Outcome, r.Reason = NotFormatted, fmt.Sprintf("%s changes under gofmt (error: %v)", f.Name, err)
			return
		}
	}
	for _, f := range g.files {
		r.Bytes += len(f.Content)
		name := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			r.Outcome, r.Reason = GenerateFailed, err.Error()
			return
		}
		if err := os.WriteFile(name, f.Content, 0o644); err != nil {
			r.Outcome, r.Reason = GenerateFailed, err.Error()
			return
		}
	}
	r.Outcome = OK
}

// countOps counts the operations of the document's paths (0 when it does
// not parse: the loader will say why).
func countOps(data []byte) int {
	var doc struct {
		Paths map[string]map[string]any `json:"paths" yaml:"paths"`
	}
	if json.Unmarshal(data, &doc) != nil && yaml.Unmarshal(data, &doc) != nil {
		return 0
	}
	n := 0
	for _, item := range doc.Paths {
		for m := range item {
			switch strings.ToLower(m) {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				n++
			}
		}
	}
	return n
}

// check runs `go <verb>` over the packages of idx and marks those it
// reports as failed.
func check(ctx context.Context, opts Options, verb string, results []Result, idx []int) error {
	if len(idx) == 0 {
		return nil
	}
	byPkg := map[string]int{}
	// go build of non-main packages compiles them and discards the result.
	args := []string{verb}
	for _, i := range idx {
		byPkg[results[i].Package] = i
		args = append(args, "./"+results[i].Package)
	}
	cmd := exec.CommandContext(ctx, opts.Go, args...)
	cmd.Dir = opts.Work
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msgs := attribute(out)
	blamed := false
	for pkg, lines := range msgs {
		i, ok := byPkg[pkg]
		if !ok {
			continue
		}
		blamed = true
		results[i].Outcome = BuildFailed
		if verb == "vet" && !typeErrors(lines) {
			results[i].Outcome = VetFailed
		}
		results[i].Reason = firstLines(lines, 8)
	}
	if !blamed {
		return fmt.Errorf("go %s failed without naming a package: %v\n%s", verb, err, out)
	}
	return nil
}

var (
	pkgHeader = regexp.MustCompile(`^# corpus\.example/(s\d{4})`)
	pkgInLine = regexp.MustCompile(`(?:^|[\s/.])(s\d{4})/`)
)

// attribute splits go build / go vet output by package: a "# pkg" header
// opens a package's section; other lines naming a package's directory are
// also counted for it.
func attribute(out []byte) map[string][]string {
	msgs := map[string][]string{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := pkgHeader.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if strings.HasPrefix(line, "# ") {
			cur = ""
			continue
		}
		pkg := cur
		if m := pkgInLine.FindStringSubmatch(line); m != nil {
			pkg = m[1]
		}
		if pkg != "" {
			msgs[pkg] = append(msgs[pkg], line)
		}
	}
	return msgs
}

// typeErrors reports whether go vet's messages include type errors.
func typeErrors(lines []string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, "vet: ") {
			return true
		}
	}
	return false
}

func firstLines(lines []string, n int) string {
	if len(lines) > n {
		lines = append(lines[:n:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return strings.Join(lines, "\n")
}

// Summarize writes the table of outcomes, the operation counts and the
// reason of every failure.
func Summarize(w io.Writer, results []Result) {
	count := map[Outcome]int{}
	var ops, specOps, warnings, silent int
	for _, r := range results {
		count[r.Outcome]++
		ops += r.Ops
		specOps += r.SpecOps
		warnings += r.Warnings
		silent += r.Silent()
	}
	n := len(results)
	fmt.Fprintf(w, "%-16s %6s %7s\n", "outcome", "specs", "share")
	for _, o := range outcomes {
		fmt.Fprintf(w, "%-16s %6d %6.2f%%\n", o, count[o], pct(count[o], n))
	}
	fmt.Fprintf(w, "%-16s %6d\n", "total", n)
	fmt.Fprintf(w, "operations: %d in the specs, %d generated, %d missing\n", specOps, ops, silent)
	fmt.Fprintf(w, "warnings: %d\n", warnings)
	abandoned := 0
	for _, r := range results {
		if r.Abandoned {
			abandoned++
		}
	}
	if abandoned > 0 {
		fmt.Fprintf(w, "generations left running after their timeout: %d\n", abandoned)
	}
	fmt.Fprintln(w)
	summarizeDegradations(w, results)
	for _, r := range results {
		if r.Outcome != OK {
			fmt.Fprintf(w, "\n%s: %s\n%s\n", r.Spec.Name, r.Outcome, indent(r.Reason))
		} else if s := r.Silent(); s > 0 {
			fmt.Fprintf(w, "\n%s: %d operations missing\n", r.Spec.Name, s)
		}
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}
