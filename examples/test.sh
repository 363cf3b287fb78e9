#!/usr/bin/env bash
# test.sh: vet and test every example module (each is its own Go module, so the root
# module's `go test ./...` does not reach them).
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-go}"
for ex in petstore mcp mcpserve; do
	echo "=== examples/$ex"
	(cd "$ex" && "$GO" vet ./... && "$GO" test -count=1 ./...)
done
# compare/ (the side-by-side comparison with ogen and oapi-codegen, whose
# clients are generated on demand) is `make compare`, scripts/compare.sh.
