package corpus

import (
	"fmt"
	"io"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
)

// Degradation is the kind of a generator warning: what the generated code
// lost compared to the spec.
//
// Every generator warning carries its diag.Kind, which decides its
// degradation (ClassifyDiagnostic); TestDegradations checks the sample in
// testdata/corpus.
type Degradation int

// The kinds, in the order of the reports.
const (
	// RawJSON: a schema became json.RawMessage or "any value" (an
	// unsupported construct, incompatible success bodies, a schema that
	// cannot be converted).
	RawJSON Degradation = iota
	// UntypedRef: a $ref that cannot be followed was left out, and what it
	// stood for is untyped.
	UntypedRef
	// Renamed: an identifier (a type, field, method or registry id) differs
	// from the one the spec asked for, to avoid a collision or to be valid.
	Renamed
	// LeftOut: something (an operation's registration, a parameter, a
	// body, a response, a field's JSON tag, an enum constant, a schema
	// keyword or subschema) was dropped.
	LeftOut
	// OtherDegradation: any other warning (a serialization style replaced
	// by another, a security scheme without an option, ...).
	OtherDegradation
	numDegradations
)

var degradationNames = [numDegradations]string{"raw JSON", "untyped $ref", "renamed identifier", "left out", "other"}

func (d Degradation) String() string {
	if d < 0 || d >= numDegradations {
		return fmt.Sprintf("Degradation(%d)", int(d))
	}
	return degradationNames[d]
}

// Degradations counts warnings by kind.
type Degradations [numDegradations]int

// Total is the number of warnings counted.
func (c Degradations) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// add adds other's counts to c.
func (c *Degradations) add(other Degradations) {
	for k, v := range other {
		c[k] += v
	}
}

// String lists the non-zero counts ("raw JSON 3, renamed identifier 1"),
// "none" when all are zero.
func (c Degradations) String() string {
	var parts []string
	for k, v := range c {
		if v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", Degradation(k), v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// kindDegradations maps the kinds of classified diagnostics.
var kindDegradations = map[diag.Kind]Degradation{
	diag.RawJSON:    RawJSON,
	diag.UntypedRef: UntypedRef,
	diag.Renamed:    Renamed,
	diag.LeftOut:    LeftOut,
	diag.Other:      OtherDegradation,
}

// ClassifyDiagnostic returns the kind of a generator warning, from its
// diag.Kind; a warning without one (none is raised so: golden's TestGolden
// checks) counts as OtherDegradation.
func ClassifyDiagnostic(d diag.Diagnostic) Degradation {
	if k, ok := kindDegradations[d.Kind]; ok {
		return k
	}
	return OtherDegradation
}

// summarizeDegradations writes the totals by kind (with the number of specs
// that have each) and, for every spec with warnings, its counts.
func summarizeDegradations(w io.Writer, results []Result) {
	var total, specs Degradations
	for _, r := range results {
		total.add(r.Degradations)
		for k, v := range r.Degradations {
			if v > 0 {
				specs[k]++
			}
		}
	}
	fmt.Fprintf(w, "%-20s %8s %6s\n", "degradation", "warnings", "specs")
	for k := range numDegradations {
		fmt.Fprintf(w, "%-20s %8d %6d\n", k, total[k], specs[k])
	}
	fmt.Fprintf(w, "%-20s %8d\n", "total", total.Total())
	first := true
	for _, r := range results {
		if r.Degradations.Total() == 0 {
			continue
		}
		if first {
			fmt.Fprintf(w, "\ndegradations by spec:\n")
			first = false
		}
		fmt.Fprintf(w, "  %s: %s\n", r.Spec.Name, r.Degradations)
	}
}
