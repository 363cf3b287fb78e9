package corpus

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
)

// Degradation is the kind of a generator warning: what the generated code
// lost compared to the spec.
//
// A warning whose raiser set its diag.Kind is classified by that kind
// (ClassifyDiagnostic); the others (the emitter's and the schema stage's,
// which do not set it yet) by their messages (Classify):
// TestClassifyGeneratorMessages holds one message of each form the
// generator writes, and TestDegradations checks the sample in
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

// The patterns of Classify, tried in this order: a $ref message that says
// "any value is accepted" is an untyped $ref, not raw JSON.
var classes = []struct {
	kind Degradation
	re   *regexp.Regexp
}{
	// openapi (a disabled $ref), mcptools ($ref to nowhere, remote, not a
	// string, or a schema that only refers to itself).
	{UntypedRef, regexp.MustCompile(`\$ref\b.*(untyped|any value is accepted)`)},
	// "name X is taken; using Y", "x-go-name X of property P is taken;
	// using Y", "operationId X is used more than once; using Y", "tool X is
	// named Y: Z is taken by another tool", "operation X is registered as
	// Y (registry ids allow only ...)".
	{Renamed, regexp.MustCompile(`is taken; using |is used more than once; using |^tool .* is named .*is taken|^operation .* is registered as `)},
	{RawJSON, regexp.MustCompile(`(?i)raw JSON|json\.RawMessage|any value is accepted|any arguments are accepted|accepts anything`)},
	{LeftOut, regexp.MustCompile(`left out|not registered|is not sent|no constant for it|the registry cannot set field|` +
		`; (those are )?ignored( too)?$|is ignored$|using oneOf only$|using the \w+ variants only$`)},
}

// Classify returns the kind of a generator warning's message.
func Classify(message string) Degradation {
	for _, c := range classes {
		if c.re.MatchString(message) {
			return c.kind
		}
	}
	return OtherDegradation
}

// kindDegradations maps the kinds of classified diagnostics.
var kindDegradations = map[diag.Kind]Degradation{
	diag.RawJSON:    RawJSON,
	diag.UntypedRef: UntypedRef,
	diag.Renamed:    Renamed,
	diag.LeftOut:    LeftOut,
	diag.Other:      OtherDegradation,
}

// ClassifyDiagnostic returns the kind of a generator warning: its Kind when
// the generator set one, else what Classify makes of its message.
func ClassifyDiagnostic(d diag.Diagnostic) Degradation {
	if k, ok := kindDegradations[d.Kind]; ok {
		return k
	}
	return Classify(d.Message)
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
