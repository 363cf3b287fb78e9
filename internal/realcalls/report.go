package realcalls

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/opsgen/opsgen/internal/corpus"
)

// Totals counts calls by class and non-ok calls by fault and rule.
type Totals struct {
	Specs, SpecsRan, Calls int
	ByClass                map[Class]int
	ByFault                map[Fault]int
	ByRule                 map[string]int
	// SpecFaults counts specs that made no call, by fault.
	SpecFaults map[Fault]int
	// Refusals counts the generated inputs refused before sending that the
	// published schema refuses too (retried), on RefusedCalls calls.
	Refusals, RefusedCalls int
}

// Tally adds up the runs.
func Tally(runs []SpecRun) Totals {
	t := Totals{ByClass: map[Class]int{}, ByFault: map[Fault]int{}, ByRule: map[string]int{}, SpecFaults: map[Fault]int{}}
	for _, r := range runs {
		t.Specs++
		if r.Outcome != "ran" {
			t.SpecFaults[r.Fault]++
			continue
		}
		t.SpecsRan++
		for _, c := range r.Calls {
			t.Calls++
			t.ByClass[c.Class]++
			if c.Refusals > 0 {
				t.Refusals += c.Refusals
				t.RefusedCalls++
			}
			if c.Class != ClassOK {
				t.ByFault[c.Fault]++
				t.ByRule[string(c.Fault)+" / "+c.Rule]++
			}
		}
	}
	return t
}

// OpsgenFaults counts the calls and specs blamed on opsgen.
func (t Totals) OpsgenFaults() int { return t.ByFault[FaultOpsgen] + t.SpecFaults[FaultOpsgen] }

// Summary writes the table of specs, the calls by class and fault, and
// every opsgen-blamed call, to w.
func Summary(w io.Writer, runs []SpecRun) {
	fmt.Fprintf(w, "%-52s %5s %5s %6s %8s %5s %6s %6s  %s\n", "spec", "ops", "calls", "ok", "warned", "rej", "error", "secs", "(opsgen faults)")
	for _, r := range runs {
		name := clipS(r.Spec.Name, 52)
		if r.Outcome != "ran" {
			fmt.Fprintf(w, "%-52s %5d %5s  %s (%s): %s\n", name, r.Spec.SpecOps, "-", r.Outcome, r.Fault, clipS(oneLine(r.Reason), 100))
			continue
		}
		m := r.Counts()
		og := 0
		for _, c := range r.Calls {
			if c.Fault == FaultOpsgen {
				og++
			}
		}
		fmt.Fprintf(w, "%-52s %5d %5d %6d %8d %5d %6d %6.1f  (%d)\n", name, r.Spec.SpecOps, len(r.Calls), m[ClassOK], m[ClassWarned], m[ClassRejected], m[ClassError], r.Seconds, og)
	}
	t := Tally(runs)
	fmt.Fprintf(w, "\n%d specs (%d ran), %d calls:", t.Specs, t.SpecsRan, t.Calls)
	for _, c := range Classes {
		fmt.Fprintf(w, " %s %d", c, t.ByClass[c])
	}
	fmt.Fprintf(w, "\ninputs refused before sending and by the published schema (the harness's, retried): %d, on %d calls", t.Refusals, t.RefusedCalls)
	fmt.Fprintf(w, "\nnon-ok calls by fault:")
	for _, f := range Faults {
		fmt.Fprintf(w, " %s %d", f, t.ByFault[f])
	}
	fmt.Fprintln(w)
	for _, k := range slices.Sorted(maps.Keys(t.ByRule)) {
		fmt.Fprintf(w, "  %-40s %5d\n", k, t.ByRule[k])
	}
	if len(t.SpecFaults) > 0 {
		fmt.Fprintf(w, "specs without calls by fault:")
		for _, f := range Faults {
			if t.SpecFaults[f] > 0 {
				fmt.Fprintf(w, " %s %d", f, t.SpecFaults[f])
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "opsgen faults: %d\n", t.OpsgenFaults())
	for _, r := range runs {
		for _, c := range r.Calls {
			if c.Fault == FaultOpsgen {
				fmt.Fprintf(w, "  %s %s [%s]: %s\n", r.Spec.Name, c.Op, c.Rule, clipS(oneLine(c.Evidence), 400))
			}
		}
	}
}

// Markdown writes the report: totals, the table of specs, and every
// non-ok call with its diagnosis and evidence, grouped by fault and rule.
func Markdown(w io.Writer, res *Result) {
	runs := res.Runs
	t := Tally(runs)
	fmt.Fprintf(w, "# Real calls against Prism (seed %d)\n\n", res.Seed)
	fmt.Fprintf(w, "%d specs, %d ran, %d calls.\n\n| class | calls |\n| --- | ---: |\n", t.Specs, t.SpecsRan, t.Calls)
	for _, c := range Classes {
		fmt.Fprintf(w, "| %s | %d |\n", c, t.ByClass[c])
	}
	fmt.Fprintf(w, "\n| fault of non-ok calls | calls |\n| --- | ---: |\n")
	for _, f := range Faults {
		fmt.Fprintf(w, "| %s | %d |\n", f, t.ByFault[f])
	}
	fmt.Fprintf(w, "\n| fault / rule | calls |\n| --- | ---: |\n")
	for _, k := range slices.Sorted(maps.Keys(t.ByRule)) {
		fmt.Fprintf(w, "| %s | %d |\n", k, t.ByRule[k])
	}
	fmt.Fprintf(w, "\n## Specs\n\n| spec | ops | registered | calls | ok | warned | rejected | error | seconds |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range runs {
		if r.Outcome != "ran" {
			fmt.Fprintf(w, "| %s | %d | - | %s (%s) | | | | | |\n", r.Spec.Name, r.Spec.SpecOps, r.Outcome, r.Fault)
			continue
		}
		m := r.Counts()
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %d | %.1f |\n", r.Spec.Name, r.Spec.SpecOps, r.Registered, len(r.Calls), m[ClassOK], m[ClassWarned], m[ClassRejected], m[ClassError], r.Seconds)
	}
	for _, r := range runs {
		if r.Outcome != "ran" {
			fmt.Fprintf(w, "\n### %s: %s (%s)\n\n```\n%s\n```\n", r.Spec.Name, r.Outcome, r.Fault, r.Reason)
		}
	}
	type item struct {
		spec string
		c    *Call
	}
	groups := map[string][]item{}
	for _, r := range runs {
		for _, c := range r.Calls {
			if c.Class != ClassOK {
				k := string(c.Fault) + " / " + c.Rule
				groups[k] = append(groups[k], item{r.Spec.Name, c})
			}
		}
	}
	keys := slices.Sorted(maps.Keys(groups))
	sort.SliceStable(keys, func(i, j int) bool { return faultRank(keys[i]) < faultRank(keys[j]) })
	for _, k := range keys {
		fmt.Fprintf(w, "\n## %s (%d)\n\n", k, len(groups[k]))
		for _, it := range groups[k] {
			c := it.c
			fmt.Fprintf(w, "- **%s** `%s` (%s", it.spec, c.Op, c.Class)
			if c.ErrCode != "" {
				fmt.Fprintf(w, ", %s", c.ErrCode)
			}
			fmt.Fprintf(w, "): %s\n", mdEscape(clipS(oneLine(c.Evidence), 1200)))
		}
	}
}

func faultRank(key string) int {
	for i, f := range Faults {
		if strings.HasPrefix(key, string(f)+" ") {
			return i
		}
	}
	return len(Faults)
}

// WriteReports writes report.md and report.json into dir.
func WriteReports(dir string, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "report.md"))
	if err != nil {
		return err
	}
	Markdown(f, res)
	if err := f.Close(); err != nil {
		return err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.json"), data, 0o644)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func mdEscape(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;").Replace(s)
}

// State keeps each spec's SpecRun in Dir (one JSON file per spec), so that
// a run of many specs continues where a stopped one left off.
type State struct{ Dir string }

func (s State) file(name string) string {
	return filepath.Join(s.Dir, strings.NewReplacer("/", "__", "\\", "__").Replace(name)+".json")
}

// Has reports whether the spec has a result.
func (s State) Has(spec corpus.Spec) bool {
	_, err := os.Stat(s.file(spec.Name))
	return err == nil
}

// Save writes the runs' results, each to its file (written whole, then
// renamed, so that a stopped run leaves none half written).
func (s State) Save(runs []SpecRun) error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	for _, r := range runs {
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		f := s.file(r.Spec.Name)
		if err := os.WriteFile(f+".tmp", data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(f+".tmp", f); err != nil {
			return err
		}
	}
	return nil
}

// Load returns the results of the specs that have one, in the specs' order.
func (s State) Load(specs []corpus.Spec) ([]SpecRun, error) {
	var runs []SpecRun
	for _, spec := range specs {
		data, err := os.ReadFile(s.file(spec.Name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var r SpecRun
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", s.file(spec.Name), err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}
