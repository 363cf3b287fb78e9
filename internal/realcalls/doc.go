// Package realcalls is opsgen's end-to-end suite against a real validating
// server: it generates a client for each OpenAPI document, runs Prism
// (npm @stoplight/prism-cli, `prism mock`, static mode) as the document's
// mock, and calls every operation the client registers through
// runtime.Registry.Execute, with an input built from the operation's input
// JSON Schema. Every call is classified and every non-ok call diagnosed.
//
// How a run goes (Run):
//
//  1. internal/corpus generates one package per document (registry: true)
//     into a scratch module and type-checks them; a document that fails
//     here is blamed on opsgen.
//  2. The scratch module is renamed under this package's import path (Go's
//     internal rule is by import path, so its programs may import this
//     package), each package gets a file exposing its security schemes,
//     and a caller program listing every package as a Target is built.
//  3. The caller (CallerMain) runs Prism for each document on a free
//     loopback port (a few start ahead), creates the client with Prism's
//     URL as base URL, a recording transport and a dummy credential for
//     every security scheme, registers it, and for each operation
//     generates an input (InputGen: required members, enums, const,
//     formats, patterns, bounds, defaults and examples, optional members
//     at random; deterministic for a seed) and executes it. An input the
//     registry refuses before sending is checked against the operation's
//     published input schema by an independent validator: one it accepts
//     is opsgen's refusal (the call ends there); one it refuses too is
//     counted and generated again (without examples, then without
//     optional members, with other seeds). A Prism that crashes is
//     started again for the remaining operations, and the call's evidence
//     names the exception Prism printed. A Prism that does not listen in
//     time is started once more with twice the time; if it still does not,
//     the document's outcome is "prism timed out" (the harness's: the
//     machine's load). A document Prism finds no operation in (webhooks
//     only) whose client registers none is "no operations", no one's
//     fault.
//  4. Classify sorts each call into ok, warned, missed, rejected or error and
//     blames non-ok ones on opsgen, the description, the mock or the
//     harness, by the rules documented on Classify. The second opinion on
//     response bodies is Oracle: kin-openapi's reading of the original
//     document, independent of opsgen's loader and validator.
//
// Summary prints the table; WriteReports writes report.md (every non-ok
// call with its rule and evidence: request line, status, Prism's
// sl-violations, warnings, the oracle's reason) and report.json (all
// calls). The command cmd/realcalls, run by scripts/e2e.sh (`make e2e`),
// exits 1 when a call or a document is blamed on opsgen. `make e2e` runs a
// stratified sample of the APIs.guru directory (Stratified) in shards
// (Shard), keeping each document's result (State) so that a rerun
// continues; TestRealCalls runs the small documents of
// testdata/realcalls/subset in `go test ./...`.
package realcalls
