#!/usr/bin/env bash
# demo.sh: for each example, regenerate its client (go generate) and run its
# demo, which starts the example's server in-process, calls every operation
# with the generated client and prints the envelopes. Needs only Go.
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-go}"
for ex in petstore mcp mcpserve; do
	echo "=== examples/$ex: go generate ./..."
	(cd "$ex" && "$GO" generate ./...)
	echo "=== examples/$ex: go run ./cmd/demo"
	(cd "$ex" && "$GO" run ./cmd/demo)
	echo
done
