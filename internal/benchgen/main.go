// Command benchgen times whole-process code generation: opsgen against
// oapi-codegen and ogen on the same specs, side by side in one run. It is
// run by scripts/bench-generate.sh, which builds opsgen, installs
// oapi-codegen and ogen and fetches the specs.
//
// Usage:
//
//	go run ./internal/benchgen -opsgen BIN [-oapi-codegen BIN] [-ogen BIN] [-n 5] [-work DIR] [-build SPEC] SPEC...
//
// For each spec it reports the median wall and CPU (user+system) times and
// the largest peak RSS of n runs of each generator, interleaved (from the
// child's rusage, so no /usr/bin/time is needed), the lines of Go they wrote, the median time of a bare
// json.Unmarshal of the spec into any (in this process, once in each round
// before the generators: the floor any JSON tool pays), the median time of
// opsgen check on the unchanged output, and the ratios (opsgen's to the
// bare decode: the median of the rounds' ratios). A generator that fails on a spec is reported as such, left
// out of the ratios, and its error listed under the table. ogen generates
// a client only (its server and webhook servers disabled by a config file
// written into the work directory), as the other two do; with
// -ogen-skip-unsupported it leaves out the operations it cannot generate
// (ignore_not_implemented: all) instead of failing. With -build, the
// package opsgen generated for that spec is compiled (its dependencies
// built first, then the package alone, timed).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	opsgen := flag.String("opsgen", "", "the opsgen binary")
	oapi := flag.String("oapi-codegen", "", "the oapi-codegen binary (optional)")
	ogen := flag.String("ogen", "", "the ogen binary (optional)")
	ogenSkip := flag.Bool("ogen-skip-unsupported", false, "let ogen leave out the operations it cannot generate instead of failing")
	n := flag.Int("n", 5, "runs per measurement")
	work := flag.String("work", "", "work directory (default: a temporary one)")
	build := flag.String("build", "", "a spec whose opsgen output to compile and time")
	flag.Parse()
	if *opsgen == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchgen -opsgen BIN [-oapi-codegen BIN] [-ogen BIN] [-n 5] [-work DIR] [-build SPEC] SPEC...")
		os.Exit(2)
	}
	cfg := ogenConfig
	if *ogenSkip {
		cfg += "  ignore_not_implemented: [all]\n"
	}
	if err := run(*opsgen, *oapi, *ogen, cfg, *n, *work, *build, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

// result is one generator's measurement on one spec.
type result struct {
	walls []time.Duration // each round's, in order
	wall  time.Duration   // median
	cpu   time.Duration   // median of user + system time
	rssKB int64           // largest
	lines int
	err   error
}

// ogenConfig makes ogen generate a client only, as opsgen and oapi-codegen
// do: its defaults add a server, webhook servers and an Unimplemented
// handler.
const ogenConfig = `generator:
  features:
    disable: [paths/server, webhooks/server, ogen/unimplemented]
`

func run(opsgen, oapi, ogen, ogenCfgText string, n int, work, build string, specs []string) error {
	if work == "" {
		dir, err := os.MkdirTemp("", "benchgen")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	ogenCfg := filepath.Join(work, "ogen.yml")
	if ogen != "" {
		if err := os.MkdirAll(work, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(ogenCfg, []byte(ogenCfgText), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("runs per measurement: %d, the generators' runs interleaved; wall and CPU (user+system) = median, RSS = largest peak\n\n", n)
	fmt.Println("| spec | size | bare decode | opsgen wall | CPU | RSS | lines | oapi-codegen wall | CPU | RSS | lines | ogen wall | CPU | RSS | lines | opsgen/oapi wall | CPU | opsgen/ogen wall | CPU | opsgen/decode | check | check/generate |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	var failures []string
	for _, spec := range specs {
		data, err := os.ReadFile(spec)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(spec), filepath.Ext(spec))
		out := filepath.Join(work, name, "opsgen")
		cmds := []command{{name: "opsgen", out: out, bin: opsgen, args: []string{"generate", "-q", "-openapi", spec, "-package", "client", "-out", out}}}
		if oapi != "" {
			oout := filepath.Join(work, name, "oapi")
			cmds = append(cmds, command{name: "oapi-codegen", out: oout, bin: oapi, args: []string{"-generate", "types,client", "-package", "client", "-o", filepath.Join(oout, "client.gen.go"), spec}})
		}
		if ogen != "" {
			gout := filepath.Join(work, name, "ogen")
			cmds = append(cmds, command{name: "ogen", out: gout, bin: ogen, args: []string{"-target", gout, "-package", "client", "-clean", "-config", ogenCfg, spec}})
		}
		rs, decodes := measure(n, cmds, func() time.Duration { return bareDecode(data) })
		decode := median(decodes)
		og, oa, gn := rs[0], result{err: errors.New("not run")}, result{err: errors.New("not run")}
		for i, c := range cmds {
			switch c.name {
			case "oapi-codegen":
				oa = rs[i]
			case "ogen":
				gn = rs[i]
			}
			if rs[i].err != nil {
				failures = append(failures, fmt.Sprintf("%s on %s: %v", c.name, name, rs[i].err))
			}
		}
		ck := result{err: og.err}
		if og.err == nil {
			rs, _ := measure(n, []command{{name: "opsgen check", bin: opsgen, args: []string{"check", "-q", "-openapi", spec, "-package", "client", "-out", out}}}, nil)
			ck = rs[0]
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			name, size(len(data)), ms(decode),
			cell(og, ms(og.wall)), cell(og, ms(og.cpu)), cell(og, mb(og.rssKB)), cell(og, fmt.Sprint(og.lines)),
			cell(oa, ms(oa.wall)), cell(oa, ms(oa.cpu)), cell(oa, mb(oa.rssKB)), cell(oa, fmt.Sprint(oa.lines)),
			cell(gn, ms(gn.wall)), cell(gn, ms(gn.cpu)), cell(gn, mb(gn.rssKB)), cell(gn, fmt.Sprint(gn.lines)),
			ratio(og.wall, oa.wall, og, oa), ratio(og.cpu, oa.cpu, og, oa),
			ratio(og.wall, gn.wall, og, gn), ratio(og.cpu, gn.cpu, og, gn),
			roundRatio(og, decodes),
			cell(ck, ms(ck.wall)), ratio(ck.wall, og.wall, ck, og))
	}
	if oapi == "" {
		fmt.Println("\noapi-codegen: not run (no -oapi-codegen)")
	}
	if ogen == "" {
		fmt.Println("\nogen: not run (no -ogen)")
	} else if strings.Contains(ogenCfgText, "ignore_not_implemented") {
		fmt.Println("\nogen: operations it cannot generate left out (ignore_not_implemented: all)")
	}
	if len(failures) > 0 {
		fmt.Println("\nfailures:")
		for _, f := range failures {
			fmt.Println("- " + f)
		}
	}
	if build != "" {
		return buildTime(work, build, opsgen)
	}
	return nil
}

// command is a generator run; out, when set, is emptied before each run
// and its Go lines are counted after.
type command struct {
	name string
	out  string
	bin  string
	args []string
}

// measure runs each command n times, interleaved (so that a burst of load
// from elsewhere does not fall on one command only), and returns for each
// the median wall and CPU times, the largest peak RSS and the lines of Go
// under out. A command that fails once is not run again. decode, when not
// nil, is timed once in each round, before the commands; its times are
// returned.
func measure(n int, cmds []command, decode func() time.Duration) ([]result, []time.Duration) {
	rs := make([]result, len(cmds))
	walls := make([][]time.Duration, len(cmds))
	cpus := make([][]time.Duration, len(cmds))
	var decodes []time.Duration
	for range n {
		if decode != nil {
			decodes = append(decodes, decode())
		}
		for i, c := range cmds {
			if rs[i].err != nil {
				continue
			}
			if c.out != "" {
				os.RemoveAll(c.out)
				if err := os.MkdirAll(c.out, 0o755); err != nil {
					rs[i].err = err
					continue
				}
			}
			cmd := exec.Command(c.bin, c.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			walls[i] = append(walls[i], time.Since(start))
			if err != nil {
				rs[i].err = fmt.Errorf("%v: %s", err, reason(stderr.String()))
				continue
			}
			cpus[i] = append(cpus[i], cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rs[i].rssKB = max(rs[i].rssKB, int64(ru.Maxrss)) // kilobytes on Linux
			}
		}
	}
	for i, c := range cmds {
		rs[i].walls = walls[i]
		rs[i].wall, rs[i].cpu = median(walls[i]), median(cpus[i])
		if c.out != "" && rs[i].err == nil {
			rs[i].lines = goLines(c.out)
		}
	}
	return rs, decodes
}

// bareDecode is the time of a json.Unmarshal of data into any; 0 when
// data is not JSON.
func bareDecode(data []byte) time.Duration {
	start := time.Now()
	var v any
	if json.Unmarshal(data, &v) != nil {
		return 0
	}
	return time.Since(start)
}

// roundRatio is the median, over the rounds, of r's wall time to the bare
// decode's in the same round: "-" when r failed or data is not JSON.
func roundRatio(r result, decodes []time.Duration) string {
	if r.err != nil || len(r.walls) != len(decodes) || slices.Contains(decodes, 0) {
		return "-"
	}
	ratios := make([]float64, len(decodes))
	for i, d := range decodes {
		ratios[i] = float64(r.walls[i]) / float64(d)
	}
	slices.Sort(ratios)
	return fmt.Sprintf("%.2fx", ratios[len(ratios)/2])
}

// buildTime compiles the opsgen output for spec inside a workspace that
// uses this repository's module: dependencies first, then the package alone.
func buildTime(work, spec, opsgen string) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	mod := filepath.Join(work, "buildmod")
	os.RemoveAll(mod)
	pkg := filepath.Join(mod, "client")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		return err
	}
	if out, err := exec.Command(opsgen, "generate", "-q", "-openapi", spec, "-package", "client", "-out", pkg).CombinedOutput(); err != nil {
		return fmt.Errorf("generate for build: %v: %s", err, out)
	}
	files := map[string]string{
		"go.mod":  "module benchgen.example\n\ngo 1.26\n",
		"go.work": fmt.Sprintf("go 1.26\n\nuse (\n\t.\n\t%s\n)\n", root),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	goCmd := func(args ...string) (time.Duration, int64, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = mod
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil {
			return d, 0, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, stderr.String())
		}
		var rss int64
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = int64(ru.Maxrss)
		}
		return d, rss, nil
	}
	if _, _, err := goCmd("build", "github.com/opsgen/opsgen/runtime/..."); err != nil {
		return err
	}
	// -a would rebuild the standard library too; a fresh GOCACHE entry
	// for the package alone comes from a file that changes every run.
	stamp := fmt.Sprintf("package client\n\n// %d\n", time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(pkg, "zz_stamp.go"), []byte(stamp), 0o644); err != nil {
		return err
	}
	d, rss, err := goCmd("build", "./client")
	if err != nil {
		return err
	}
	fmt.Printf("\nbuild of opsgen's package for %s (%d lines), dependencies built: %s wall, %s peak RSS (largest process of the go command's tree)\n",
		filepath.Base(spec), goLines(pkg), ms(d), mb(rss))
	return nil
}

// goLines counts the lines of the .go files under dir.
func goLines(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "zz_stamp.go") {
			if b, err := os.ReadFile(path); err == nil {
				n += bytes.Count(b, []byte("\n"))
			}
		}
		return nil
	})
	return n
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func cell(r result, s string) string {
	if r.err != nil {
		return "failed"
	}
	return s
}

// ratio is a/b, or "-" when either result failed.
func ratio(a, b time.Duration, ra, rb result) string {
	if ra.err != nil || rb.err != nil || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", float64(a)/float64(b))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func mb(kb int64) string { return fmt.Sprintf("%.0f MB", float64(kb)/1024) }

func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", n/1024)
}

// reason picks the line of a failed generator's stderr that says why: the
// first that is not a log line of level INFO, WARN or DEBUG (ogen logs
// those before its error), or, when that line only opens a chain of
// causes ("generate:", then "- build IR:", ... one per line, with stack
// frames between them: ogen's errors), the chain's last link. It is cut
// to 200 bytes (ogen quotes the offending source line, the whole document
// for a minified spec).
func reason(stderr string) string {
	first, last := "", ""
	for l := range strings.Lines(stderr) {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "INFO") || strings.HasPrefix(l, "WARN") || strings.HasPrefix(l, "DEBUG") {
			continue
		}
		if first == "" {
			first = l
		} else if strings.HasPrefix(l, "- ") {
			last = l
		}
	}
	msg := first
	if strings.HasSuffix(first, ":") && last != "" {
		msg = strings.TrimPrefix(last, "- ")
	}
	if msg == "" {
		return "(no message)"
	}
	if len(msg) > 200 {
		msg = strings.ToValidUTF8(msg[:200], "") + "..."
	}
	return msg
}
