#!/usr/bin/env bash
# demo.sh: for each example, regenerate its client (go generate) and run its
# demo, which starts the example's server in-process, calls every operation
# with the generated client and prints the envelopes. Then the call protocol:
# the petstore hub (cmd/hub) and a spoke (cmd/spoke) in separate processes
# over NATS (an embedded server: nothing to install). Needs only Go.
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

# The call protocol: the petstore hub and a spoke in two processes, talking
# over NATS (the hub starts an embedded server and writes its URL down).
echo "=== examples/petstore: call protocol, go build ./cmd/hub ./cmd/spoke"
tmp="$(mktemp -d)"
hub_pid=""
cleanup() {
	[ -n "$hub_pid" ] && kill "$hub_pid" 2>/dev/null && wait "$hub_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
(cd petstore && "$GO" build -o "$tmp/hub" ./cmd/hub && "$GO" build -o "$tmp/spoke" ./cmd/spoke)
"$tmp/hub" -url-file "$tmp/url" &
hub_pid=$!
for _ in $(seq 100); do
	[ -s "$tmp/url" ] && break
	kill -0 "$hub_pid" 2>/dev/null || { echo "hub exited" >&2; exit 1; }
	sleep 0.1
done
[ -s "$tmp/url" ] || { echo "hub did not start" >&2; exit 1; }
echo "=== examples/petstore: spoke -nats $(cat "$tmp/url")"
"$tmp/spoke" -nats "$(cat "$tmp/url")"
