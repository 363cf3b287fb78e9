#!/usr/bin/env bash
# compare.sh (make compare): the side-by-side comparison of docs/compare.md.
# Generates the third-party clients of compare/ on demand (ogen v1.24.0 and
# oapi-codegen v2.8.2, pinned in compare/generate.go and fetched from the Go
# module proxy; their output goes to the gitignored ogenclient/ and
# oapiclient/ directories and is never committed) together with opsgen's
# (committed, so a stale one shows in git diff), prints the line counts
# docs/compare.md quotes, then vets and runs compare/'s consumer tests.
# The MCP part runs the reference servers that `make mcp-servers` installs
# (skipped without them, failed under CI).
set -euo pipefail
GO=${GO:-go}
cd "$(dirname "$0")/../compare"

echo "=== compare: go generate (opsgen, ogen v1.24.0, oapi-codegen v2.8.2)"
"$GO" generate ./...

# code LINES: the lines of a consumer without blank and comment lines.
code() { grep -v '^[[:space:]]*$' "$1" | grep -cv '^[[:space:]]*//'; }
# lines DIR...: all lines of the Go files in the directories.
lines() { cat "$@" | wc -l | tr -d ' '; }

echo
echo "consumer lines without blank and comment lines (full length), generated lines:"
printf '%-14s %-10s %-10s %-14s %s\n' API opsgen ogen oapi-codegen "generated: opsgen / ogen / oapi-codegen"
for api in petstore composition contentgroove devto; do
	row=()
	for gen in opsgen ogen oapi; do
		f=$api/${gen}_test.go
		row+=("$(code "$f") ($(wc -l <"$f" | tr -d ' '))")
	done
	printf '%-14s %-10s %-10s %-14s %s / %s / %s\n' "$api" "${row[@]}" \
		"$(lines $api/opsgenclient/*.go)" "$(lines $api/ogenclient/*.go)" "$(lines $api/oapiclient/*.go)"
done
printf '%-14s opsgen %s (%s), go-sdk CallTool %s (%s); generated memory / filesystem / everything: %s / %s / %s\n' mcp \
	"$(code mcp/opsgen_test.go)" "$(wc -l <mcp/opsgen_test.go | tr -d ' ')" \
	"$(code mcp/gosdk_test.go)" "$(wc -l <mcp/gosdk_test.go | tr -d ' ')" \
	"$(lines mcp/memory/*.go)" "$(lines mcp/filesystem/*.go)" "$(lines mcp/everything/*.go)"
echo

echo "=== compare: vet and test"
# -unreachable=false: ogen writes unreachable code
# (contentgroove/ogenclient/oas_uri_gen.go), which is not ours to fix, and vet
# reports it with the consumer package that imports it.
"$GO" vet -unreachable=false ./...
"$GO" test -count=1 ./...
