package corpus

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpus generates, builds and vets the fixed sample of real specs in
// testdata/corpus: every one must come out OK with all its operations.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the generated packages")
	}
	specs, err := Discover("../../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) < 40 {
		t.Fatalf("%d specs in testdata/corpus, want at least 40", len(specs))
	}
	results, err := Run(t.Context(), specs, Options{Repo: "../..", Work: filepath.Join(t.TempDir(), "mod"), Batch: len(specs)})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Summarize(&b, results)
	for _, r := range results {
		if r.Outcome != OK {
			t.Errorf("%s: %s\n%s", r.Spec.Name, r.Outcome, r.Reason)
		} else if r.Ops != r.SpecOps {
			t.Errorf("%s: %d operations generated, the spec has %d", r.Spec.Name, r.Ops, r.SpecOps)
		}
	}
	if t.Failed() {
		t.Log(b.String())
	}
}

// TestAttribute checks how go build and go vet messages are assigned to
// the scratch packages.
func TestAttribute(t *testing.T) {
	out := strings.Join([]string{
		"# corpus.example/s0001",
		"s0001/types.go:3:2: undefined: X",
		"s0001/types.go:4:2: undefined: Y",
		"# corpus.example/s0002",
		"vet: s0002/client.go:1:1: expected 'package'",
		"s0003/ops.go:9:9: printf: bad verb",
		"# other/pkg",
		"other.go:1:1: nothing to do with us",
	}, "\n")
	got := attribute([]byte(out))
	if len(got) != 3 || len(got["s0001"]) != 2 || len(got["s0002"]) != 1 || len(got["s0003"]) != 1 {
		t.Fatalf("attribute = %q", got)
	}
	if !typeErrors(got["s0002"]) || typeErrors(got["s0003"]) {
		t.Errorf("type errors misclassified: %q", got)
	}
}

// TestSample checks that a seeded sample is stable, sorted and of the asked size.
func TestSample(t *testing.T) {
	var specs []Spec
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		specs = append(specs, Spec{Name: n})
	}
	a, b := Sample(specs, 3, 7), Sample(specs, 3, 7)
	if len(a) != 3 || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || !(a[0].Name < a[1].Name && a[1].Name < a[2].Name) {
		t.Errorf("samples %v, %v", a, b)
	}
	if len(Sample(specs, 0, 1)) != 7 {
		t.Error("sample 0 is not all")
	}
}

// TestCountOps counts the operations of JSON and YAML documents.
func TestCountOps(t *testing.T) {
	yml := "paths:\n  /a:\n    get: {}\n    post: {}\n    parameters: []\n  /b:\n    x-foo: 1\n    delete: {}\n"
	if n := countOps([]byte(yml)); n != 3 {
		t.Errorf("yaml: %d", n)
	}
	if n := countOps([]byte(`{"paths":{"/a":{"get":{},"summary":"s"}}}`)); n != 1 {
		t.Errorf("json: %d", n)
	}
	if n := countOps([]byte("\x00not a spec")); n != 0 {
		t.Errorf("garbage: %d", n)
	}
}
