#!/usr/bin/env bash
# test.sh: vet and test every example module and compare/ (each is its own Go module, so
# the root module's `go test ./...` does not reach them).
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-go}"
for ex in petstore mcp mcpserve; do
	echo "=== examples/$ex"
	(cd "$ex" && "$GO" vet ./... && "$GO" test -count=1 ./...)
done
# compare/: the same consumer program against opsgen, ogen and oapi-codegen
# (docs/compare.md), a module of its own like the examples.
echo "=== compare"
(cd ../compare && "$GO" vet ./... && "$GO" test -count=1 ./...)
