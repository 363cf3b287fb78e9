package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
)

// TestDegradations generates (without building) the specs of
// testdata/corpus and checks the warnings' kinds: the specs below have
// degradations that their text forces (a $ref to the wrong kind of object,
// operationIds that are not registry ids, ...); every warning of the sample
// has a kind other than "other"; the counts add up to the warnings.
func TestDegradations(t *testing.T) {
	specs, err := Discover("../../testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Degradations{
		// $refs to responses or parameters where a schema belongs; two
		// Accept header parameters, which OpenAPI says to ignore.
		"rev.ai.json": {UntypedRef: 3, LeftOut: 2},
		// $refs into an allOf through a $ref with siblings: followed in the
		// document read untyped (generator/openapi/refs.go), none degrades.
		"dnd5eapi.co.json": {},
		// A $ref to a parameter; an enum of strings and a number.
		"enode.io.json": {UntypedRef: 1, RawJSON: 1},
		// Two properties pinning the same x-go-name (its two file-body
		// operations are registered now, with base64 input).
		"meshery.local.json": {Renamed: 2},
		// Ten operationIds with spaces.
		"payments.service.gov.uk__payments.json": {Renamed: 10},
	}
	dir := t.TempDir()
	var total Degradations
	var results []Result
	for i, s := range specs {
		r := Result{Spec: s, Package: fmt.Sprintf("s%04d", i)}
		generate(t.Context(), &r, filepath.Join(dir, r.Package), defaultTimeout, 0, defaultStopGrace, "")
		if r.Outcome != OK {
			t.Fatalf("%s: %s: %s", s.Name, r.Outcome, r.Reason)
		}
		results = append(results, r)
		if got := r.Degradations.Total(); got != r.Warnings {
			t.Errorf("%s: %d warnings, %d classified (%v)", s.Name, r.Warnings, got, r.Degradations)
		}
		if w, ok := want[s.Name]; ok && r.Degradations != w {
			t.Errorf("%s: degradations %v, want %v", s.Name, r.Degradations, w)
		}
		if n := r.Degradations[OtherDegradation]; n > 0 {
			t.Errorf("%s: %d warnings of kind other", s.Name, n)
		}
		total.add(r.Degradations)
	}
	for name := range want {
		if !containsSpec(results, name) {
			t.Errorf("%s is not in testdata/corpus", name)
		}
	}
	for k := range OtherDegradation {
		if total[k] == 0 {
			t.Errorf("no %s warning in the sample", k)
		}
	}

	// The report totals them by kind, and lists them by spec.
	var b strings.Builder
	Summarize(&b, results)
	report := b.String()
	for k := range numDegradations {
		specs := 0
		for _, r := range results {
			if r.Degradations[k] > 0 {
				specs++
			}
		}
		line := fmt.Sprintf("%-20s %8d %6d\n", k, total[k], specs)
		if !strings.Contains(report, line) {
			t.Errorf("report lacks %q:\n%s", line, report)
		}
	}
	if line := fmt.Sprintf("%-20s %8d\n", "total", total.Total()); !strings.Contains(report, line) {
		t.Errorf("report lacks %q", line)
	}
	if !strings.Contains(report, "  rev.ai.json: untyped $ref 3, left out 2\n") ||
		!strings.Contains(report, "  meshery.local.json: renamed identifier 2\n") {
		t.Errorf("report lacks the per-spec lines:\n%s", report)
	}
}

func containsSpec(results []Result, name string) bool {
	for _, r := range results {
		if r.Spec.Name == name {
			return true
		}
	}
	return false
}

// TestSummarizeDegradations checks the degradation part of the report on
// made-up results.
func TestSummarizeDegradations(t *testing.T) {
	results := []Result{
		{Spec: Spec{Name: "a.json"}, Outcome: OK, Warnings: 4, Degradations: Degradations{RawJSON: 3, Renamed: 1}},
		{Spec: Spec{Name: "b.json"}, Outcome: OK},
		{Spec: Spec{Name: "c.json"}, Outcome: BuildFailed, Reason: "x", Warnings: 3, Degradations: Degradations{RawJSON: 1, UntypedRef: 1, OtherDegradation: 1}},
	}
	var b strings.Builder
	summarizeDegradations(&b, results)
	want := `degradation          warnings  specs
raw JSON                    4      2
untyped $ref                1      1
renamed identifier          1      1
left out                    0      0
other                       1      1
total                       7

degradations by spec:
  a.json: raw JSON 3, renamed identifier 1
  c.json: raw JSON 1, untyped $ref 1, other 1
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	b.Reset()
	Summarize(&b, results)
	if !strings.Contains(b.String(), "warnings: 7\n") || !strings.Contains(b.String(), want) {
		t.Errorf("Summarize:\n%s", b.String())
	}
}

// TestClassifyDiagnostic: a warning's Kind decides its degradation
// whatever its message says; one without a kind counts as other.
func TestClassifyDiagnostic(t *testing.T) {
	const rawMsg = `unknown type "int"; using raw JSON`
	for _, tc := range []struct {
		kind diag.Kind
		msg  string
		want Degradation
	}{
		{diag.Unclassified, rawMsg, OtherDegradation},
		{diag.LeftOut, rawMsg, LeftOut},
		{diag.Renamed, rawMsg, Renamed},
		{diag.UntypedRef, rawMsg, UntypedRef},
		{diag.Other, rawMsg, OtherDegradation},
		{diag.RawJSON, `something new`, RawJSON},
		{diag.LeftOut, `header parameter "Accept" is ignored (OpenAPI: the media types and security schemes set this header)`, LeftOut},
	} {
		d := diag.Diagnostic{Severity: diag.Warning, Kind: tc.kind, Message: tc.msg}
		if got := ClassifyDiagnostic(d); got != tc.want {
			t.Errorf("ClassifyDiagnostic(%s, %q) = %s, want %s", tc.kind, tc.msg, got, tc.want)
		}
	}
}
