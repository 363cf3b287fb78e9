# opsgen's tasks. Everything here needs only Go (and, for `corpus`, `e2e` and
# `bench-generate`, npm): tools are installed from the Go module proxy on demand,
# Prism and public specs from npm into .work/.

GO        ?= go
FUZZTIME  ?= 5s
STATICCHECK_VERSION := v0.8.2

.PHONY: all test redis unit race examples-test fuzz golden demo bench bench-generate corpus e2e e2e-deps lint fmt mcp-servers

all: lint test

## test: everything CI needs: unit, golden, end-to-end, corpus-sample and
## real-calls (Prism) tests of the root module, the generator's concurrent
## packages under the race detector, the example modules' tests, then short
## fuzz runs. e2e-deps installs Prism first.
test: e2e-deps mcp-servers redis unit race examples-test fuzz

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

## fuzz: every Fuzz target for FUZZTIME each (default 5s).
fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) bash scripts/fuzz.sh

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
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./runtime/... ./generator/openapi/ ./internal/e2e/ ./callproto/ | tee bench.out
	cd bench && $(GO) test -run '^$$' -bench . -benchmem -count 5 . | tee -a ../bench.out

bench-generate:
	bash scripts/bench-generate.sh

## lint: gofmt, go vet and staticcheck (installed from the module proxy, pinned).
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt'd:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

## mcp-servers: install the reference MCP servers (npm, pinned) into .work/mcp-servers
## for the tests that run them (runtime/mcpclient TestReference*; they install
## them on their own when missing, and skip when node or npm is absent).
mcp-servers:
	@if command -v npm >/dev/null 2>&1; then bash scripts/mcp-servers.sh; \
	else echo "mcp-servers: npm not found: the reference MCP server tests (runtime/mcpclient) will be SKIPPED"; fi

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

## redis: install redis-server (Debian package; needs root) for the Redis bus
## tests (callproto/redisbus), which skip without it unless CI is set.
redis:
	@if command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then apt-get install -y redis-server || (apt-get update && apt-get install -y redis-server); \
	else echo "redis: redis-server not found and cannot apt-get install it: the callproto/redisbus tests will be SKIPPED (fail under CI)"; fi

## e2e-deps: install Prism (pinned) for TestRealCalls; without npm the test is skipped.
e2e-deps:
	@if command -v npm >/dev/null 2>&1; then bash scripts/e2e.sh deps; \
	else echo "e2e-deps: npm not found: TestRealCalls (internal/realcalls) will be SKIPPED"; fi
