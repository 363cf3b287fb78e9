# opsgen's tasks. Everything here needs only Go (and, for `corpus`, `e2e` and
# `bench-generate`, npm): tools are installed from the Go module proxy on demand,
# Prism, the reference MCP servers and public specs from npm into .work/.
# `go test ./...` alone installs nothing and uses no network: the tests that
# need Prism or the MCP servers skip (fail under CI) until make test (or
# make e2e-deps mcp-servers) has installed them.

GO        ?= go
FUZZTIME  ?= 5s
STATICCHECK_VERSION := v0.8.2

.PHONY: all test redis unit race examples-test fuzz fuzz-sample golden demo bench bench-test peers bench-callproto bench-generate bench-scale compare corpus e2e e2e-deps aws-xml-check lint fmt mcp-servers mcp-interop mcp-ts-client faults

all: lint test

## test: what CI runs, kept short (the goal: 12 minutes on an idle 2-core machine): Prism,
## the reference MCP servers, the TypeScript MCP SDK and redis-server installed first, then unit,
## golden, end-to-end, the corpus's fixed sample and real-calls (Prism)
## tests of the root module, the generator's concurrent packages under the
## race detector, the example modules' tests, and a fixed sample of the fuzz
## targets. The long suites have their own targets: fuzz (every target),
## compare, corpus, e2e, bench, bench-generate.
test: e2e-deps mcp-servers mcp-ts-client redis unit race examples-test fuzz-sample

unit:
	$(GO) test -count=1 ./...

## race: the generator's packages that work concurrently (decoding in parts,
## resolving alongside the declarations, types.go built while the loader
## builds the schemas, the files rendered and compared), under the race
## detector.
race:
	$(GO) test -race -count=1 ./generator ./generator/openapi ./generator/emit ./generator/output

examples-test:
	GO=$(GO) bash examples/test.sh

## faults: the call protocol's fault tests (callproto/faults_test.go) at
## FAULTS_N mutations per scenario (default 5000; go test runs 300): a
## partition through a TCP proxy (drop, blackhole), a hub paused with
## SIGSTOP, the broker killed and restarted, a spoke's clock skewed, on
## NATS and Redis (go test: NATS only); the checker's numbers are logged
## per scenario.
FAULTS_N ?= 5000
faults:
	FAULTS_N=$(FAULTS_N) $(GO) test -count=1 -v -timeout 30m -run '^(TestFaults|TestWithRequestID|TestKeepaliveBlocked|TestRetryAfterSilence)' ./callproto/

## fuzz: every Fuzz target for FUZZTIME each (default 5s).
fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

## fuzz-sample: a fixed sample for make test, one target per parser of
## outside input (the runtime's decoder, server-sent events, the OpenAPI and
## MCP loaders, the generator, the call protocol's requests, XML bodies),
## FUZZTIME each.
FUZZ_SAMPLE := ^(runtime/fuzz_test.go:FuzzDecode|runtime/httpclient/stream_test.go:FuzzSSEParser|generator/openapi/fuzz_test.go:FuzzLoadData|generator/mcptools/load_test.go:FuzzLoadData|generator/hostile_test.go:FuzzGenerate|callproto/encode_test.go:FuzzDecodeRequested|runtime/xmljson/xmljson_test.go:FuzzDecode)$$
fuzz-sample:
	FUZZ_TARGETS='$(FUZZ_SAMPLE)' FUZZTIME=$(FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

## compare: the side-by-side comparison of docs/compare.md: ogen v1.24.0's
## and oapi-codegen v2.8.2's clients generated on demand into gitignored
## directories of compare/ (never committed), the line counts the document
## quotes printed, then compare/'s consumer tests vetted and run.
compare:
	GO=$(GO) bash scripts/compare.sh

## golden: regenerate golden/ from testdata/specs.
golden:
	$(GO) test ./golden -run TestGolden -update

## demo: generate the example clients, start the example servers, call them and print the envelopes;
## then a petstore hub and a spoke in two processes over the call protocol (embedded NATS).
demo:
	GO=$(GO) bash examples/demo.sh

## bench: runtime, loader, generated-client (HTTP in bench/: against a hand-written client,
## oapi-codegen v2.8.2 and ogen v1.24.0, in memory and over loopback, start-up and binary
## size; MCP in internal/e2e; the call protocol in callproto/) benchmarks, benchstat-friendly, into bench.out. bench-generate: whole-process generation timing
## against oapi-codegen v2.8.2 and ogen v1.24.0 (installed from the module proxy; specs from npm).
bench: bench-test
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./runtime/... ./generator/openapi/ ./internal/e2e/ ./callproto/ | tee bench.out
	cd bench && $(GO) test -run '^$$' -bench . -benchmem -count 5 . | tee -a ../bench.out

## bench-test: bench/'s tests (every client decodes every real payload; opsgen's data equals
## encoding/json's on the same types in every mode), after generating the peers. CI runs it.
bench-test: peers
	cd bench && $(GO) test -count=1 .

## peers: generate the peers' clients bench/ compares with (ogen v1.24.0, oapi-codegen
## v2.8.2, from the module proxy) into bench/peers/, which is not committed.
peers:
	cd bench && $(GO) generate -run peers/ .

bench-generate:
	bash scripts/bench-generate.sh

## bench-scale: the largest descriptions (Microsoft Graph v1.0 and beta, GitHub's full
## api.github.com.json; from npm into .work/corpus): generation time and memory, the
## generated package's build from a clean GOCACHE (wall, CPU, peak RSS per process and
## of the whole build) and a one-operation program's clean build time and stripped size
## against petstore's. Needs many GB for graph-beta; builds run one at a time.
## SPECS="graph github" to choose. Not part of make test.
bench-scale:
	GO=$(GO) bash scripts/bench-scale.sh

## bench-callproto: the call protocol against a bare NATS request-reply, hub and spoke in two
## processes (NATS embedded in the hub's), 1 and 8 callers, in interleaved rounds: p50, p99,
## throughput and CPU per call (both processes) as ratios protocol/bare (see BenchmarkAcrossProcesses).
bench-callproto:
	$(GO) test -run '^$$' -bench '^BenchmarkAcrossProcesses$$' -benchtime 15x ./callproto/

## lint: gofmt, go vet and staticcheck (installed from the module proxy, pinned).
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt'd:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) vet -tags mcpinterop ./internal/mcpinterop/ # built only by make mcp-interop
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

## mcp-servers: install the reference MCP servers (npm, pinned) into .work/mcp-servers
## for the tests that run them (runtime/mcpclient TestReference*, compare/mcp);
## without them those tests skip, or fail when CI is set.
mcp-servers:
	@if command -v npm >/dev/null 2>&1; then bash scripts/mcp-servers.sh; \
	else echo "mcp-servers: npm not found: the reference MCP server tests (runtime/mcpclient, compare/mcp) will be SKIPPED (fail under CI)"; fi

## mcp-interop: runtime/mcpclient against real MCP servers from npm (the
## reference servers and @modelcontextprotocol/server-pdf, pinned, installed
## into .work/), over each transport they offer, on each protocol version
## they speak (internal/mcpinterop; needs node and npm).
mcp-interop:
	GO=$(GO) bash scripts/mcp-interop.sh

## mcp-ts-client: install the official TypeScript MCP SDK (npm, pinned) into
## .work/mcp-ts-client for runtime/mcpserver's TestTypeScriptClient, which
## calls served registries with its client (skipped without it, failed under CI).
mcp-ts-client:
	@if command -v npm >/dev/null 2>&1; then bash scripts/mcp-ts-client.sh; \
	else echo "mcp-ts-client: npm not found: runtime/mcpserver TestTypeScriptClient* will be SKIPPED (fail under CI)"; fi

## corpus: generate, build and vet the APIs.guru directory and GitHub's specs
## (installed from npm into .work/); SAMPLE=N SEED=S for a seeded sample.
corpus:
	bash scripts/corpus.sh

## e2e: generate a client for each fixed pick and a seeded sample of the APIs.guru
## directory (250, stratified by provider family and size), run Prism (npm, into
## .work/prism) as each one's mock and call every operation, one shard at a time
## (SHARD=K/N, default the next of 10), resumably (state in .work/e2e/state);
## report of every document with a result in .work/e2e (SAMPLE=N SEED=S, VERBOSE=1).
e2e:
	GO=$(GO) bash scripts/e2e.sh

## aws-xml-check: check the XML request bodies generated for APIs.guru's AWS
## REST-XML descriptions against the AWS SDK's models (npm aws-sdk, into .work/corpus).
aws-xml-check:
	GO=$(GO) bash scripts/aws-xml-check.sh

## redis: install redis-server (Debian package; needs root) for the Redis bus
## tests (callproto/redisbus), which skip without it unless CI is set.
redis:
	@if command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then apt-get install -y redis-server || (apt-get update && apt-get install -y redis-server); \
	else echo "redis: redis-server not found and cannot apt-get install it: the callproto/redisbus tests will be SKIPPED (fail under CI)"; fi

## e2e-deps: install Prism (pinned) into .work/prism for TestRealCalls; without it
## the test is skipped, or fails when CI is set.
e2e-deps:
	@if command -v npm >/dev/null 2>&1; then bash scripts/e2e.sh deps; \
	else echo "e2e-deps: npm not found: TestRealCalls (internal/realcalls) will be SKIPPED (fail under CI)"; fi
