package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
)

// TestClassifyGeneratorMessages classifies one message of each form the
// generator's warnings take (generator/openapi, generator/emit,
// generator/mcptools).
func TestClassifyGeneratorMessages(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want Degradation
	}{
		// openapi
		{`$ref "#/components/responses/X" points at the wrong kind of object or where it cannot be followed; it is left out, and what it stood for is untyped (raw JSON), in 2 place(s)`, UntypedRef},
		{`schema with only not/if/then/else is not supported; using raw JSON`, RawJSON},
		{`unknown type "int"; using raw JSON`, RawJSON},
		{`allOf part is not an object schema; using raw JSON`, RawJSON},
		{`enum mixes values of different kinds; using raw JSON`, RawJSON},
		{`success responses of getPet have different body types; the result is raw JSON`, RawJSON},
		{`name "Pet" is taken; using "Pet2"`, Renamed},
		{`x-go-name "XAxis" of property "xAxis" is taken; using "XAxis2"`, Renamed},
		{`operationId "get" is used more than once; using "get_2"`, Renamed},
		{`parameter "p" has unknown location "body2"; it is left out`, LeftOut},
		{`request body of createPet has no content; it is left out`, LeftOut},
		{`unknown response status "2XY"; it is left out`, LeftOut},
		{`allOf refers to itself; the cycle is ignored`, LeftOut},
		{`both oneOf and anyOf; using oneOf only`, LeftOut},
		{`properties next to oneOf are not supported; using the oneOf variants only`, LeftOut},
		{`discriminator "kind": a variant has no mapping value; it is selected by shape only`, OtherDegradation},
		{`parameter "p" has neither schema nor content; using string`, OtherDegradation},
		{`collectionFormat "ssv" is not supported in path parameters; using simple (comma-separated)`, OtherDegradation},
		{`collectionFormat "tsv" has no OpenAPI 3 equivalent; using comma-separated values`, OtherDegradation},
		{`unknown collectionFormat "x"; using the default`, OtherDegradation},
		// emit
		{`unnamed object schema is represented as json.RawMessage`, RawJSON},
		{`unnamed oneOf/anyOf/prefixItems schema is represented as json.RawMessage`, RawJSON},
		{`schema of "Pet" is not valid JSON; it accepts anything`, RawJSON},
		{`schema is not valid JSON; the result is not validated`, OtherDegradation},
		{`operation "x y" is registered as "p.x_y" (registry ids allow only letters, digits, '_', '-' and '.')`, Renamed},
		{`operation "a" would be registered as "p.a" like another one; it is not registered`, LeftOut},
		{`stream operation "events" is not registered`, LeftOut},
		{`operation "upload" has a binary or file body and is not registered`, LeftOut},
		{`property name "a\"b" cannot be written as a Go struct tag; field AB is left out of JSON`, LeftOut},
		{`property name "a" appears twice; field A2 is left out of JSON`, LeftOut},
		{`enum value 1.5 of Size does not fit its type; no constant for it`, LeftOut},
		{`parameter name "a b" cannot be written as a Go struct tag; the registry cannot set field AB`, LeftOut},
		{`parameter name "name" appears in two locations; the registry cannot set field Name2`, LeftOut},
		{`parameter "p" is in unknown location "x"; it is not sent`, LeftOut},
		{`parameter "p" has unknown style "x"; using "form"`, OtherDegradation},
		{`multipart body of upload is not an object; it is sent as raw bytes`, OtherDegradation},
		{`security scheme "m" of type "mutualTLS" has no generated option; configure it with WithHTTPClient`, OtherDegradation},
		// mcptools
		{`$ref "other.json#/x" is not a local JSON pointer and is not supported; any value is accepted`, UntypedRef},
		{`$ref "#/$defs/x" does not resolve in this schema; any value is accepted`, UntypedRef},
		{`$ref must be a string, found number; any value is accepted`, UntypedRef},
		{`schema only refers to itself through $ref; any value is accepted`, UntypedRef},
		{`tool "a" is named A2: A is taken by another tool`, Renamed},
		{`schema nests deeper than 64 levels; any value is accepted`, RawJSON},
		{`not a valid JSON Schema: bad type; any value is accepted`, RawJSON},
		{`not a valid JSON Schema: bad type; any value is accepted there`, RawJSON},
		{`not a valid JSON Schema: bad type; the keyword "format" is ignored`, LeftOut},
		{`not a valid JSON Schema in more places; those are ignored too`, LeftOut},
		{`a schema must be an object or a boolean, found string; any value is accepted`, RawJSON},
		{`tool "a": the input schema cannot be converted (x); any arguments are accepted`, RawJSON},
		{`tool "a": the output schema cannot be converted (x); any value is accepted`, RawJSON},
		{`$dynamicRef "#x" is not supported; ignored`, LeftOut},
		{`expected an object of schemas, found array; ignored`, LeftOut},
		{`annotations must be an object, found string; ignored`, LeftOut},
		{`title must be a string, found number; ignored`, LeftOut},
		{`tool "a" has no inputSchema; it is taken to have no arguments`, OtherDegradation},
		{`tool "a" declares an outputSchema; the configured one is not used`, OtherDegradation},
		{`included tool "a" is not in the listing`, OtherDegradation},
	} {
		if got := Classify(tc.msg); got != tc.want {
			t.Errorf("Classify(%q) = %s, want %s", tc.msg, got, tc.want)
		}
	}
}

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
		generate(t.Context(), &r, filepath.Join(dir, r.Package), defaultTimeout, defaultStopGrace)
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
			t.Errorf("%s: %d warnings of no kind: teach Classify their messages", s.Name, n)
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

// TestClassifyDiagnostic: a warning's Kind, when set, decides its
// degradation whatever its message says; an unclassified one falls back
// on its message.
func TestClassifyDiagnostic(t *testing.T) {
	const rawMsg = `unknown type "int"; using raw JSON`
	for _, tc := range []struct {
		kind diag.Kind
		msg  string
		want Degradation
	}{
		{diag.Unclassified, rawMsg, RawJSON},
		{diag.Unclassified, `name "Pet" is taken; using "Pet2"`, Renamed},
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
