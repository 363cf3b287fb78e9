package realcalls

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/internal/corpus"
	"github.com/opsgen/opsgen/internal/testdeps"
)

// prismBin returns Prism's executable, which `make e2e-deps` (part of
// `make test`) installs into .work/prism. Without it the test is skipped,
// loudly, except under CI (CI set), where it fails.
func prismBin(t *testing.T) string {
	t.Helper()
	return testdeps.Prism(t)
}

// TestRealCalls generates clients for the small descriptions of
// testdata/realcalls/subset, runs Prism for each, and calls every
// operation through the registry: every operation must be registered and
// called, and no call may be blamed on opsgen.
func TestRealCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Prism and builds the generated clients")
	}
	bin := prismBin(t)
	specs, err := corpus.Discover("../../testdata/realcalls/subset")
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) < 3 {
		t.Fatalf("%d specs in testdata/realcalls/subset, want at least 3", len(specs))
	}
	res, err := Run(t.Context(), specs, Options{Repo: "../..", Work: filepath.Join(t.TempDir(), "mod"), Prism: bin, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Summary(&b, res.Runs)
	tot := Tally(res.Runs)
	if tot.SpecsRan != len(specs) {
		t.Errorf("%d of %d specs ran", tot.SpecsRan, len(specs))
	}
	for _, r := range res.Runs {
		if r.Outcome == "ran" && (len(r.Calls) != r.Registered || r.Registered != r.Spec.SpecOps) {
			t.Errorf("%s: %d operations, %d registered, %d called", r.Spec.Name, r.Spec.SpecOps, r.Registered, len(r.Calls))
		}
		for _, c := range r.Calls {
			if c.Requests == 0 && c.Class != ClassError {
				t.Errorf("%s %s: %s without a request", r.Spec.Name, c.Op, c.Class)
			}
		}
	}
	if n := tot.OpsgenFaults(); n > 0 {
		t.Errorf("%d calls or specs blamed on opsgen", n)
	}
	if tot.ByClass[ClassOK] < tot.Calls/2 {
		t.Errorf("only %d of %d calls ok", tot.ByClass[ClassOK], tot.Calls)
	}
	if t.Failed() || testing.Verbose() {
		t.Log("\n" + b.String())
	}
}
