#!/usr/bin/env bash
# Installs the official TypeScript MCP SDK (npm, pinned) into
# .work/mcp-ts-client, for runtime/mcpserver's TestTypeScriptClient, which
# runs runtime/mcpserver/testdata/tsclient.mjs with it against served
# registries (stdio and streamable HTTP, stateful and stateless):
#
#   bash scripts/mcp-ts-client.sh    # or: make mcp-ts-client
#
# Without it (or without node and npm) the test skips with a message saying
# so, and fails when CI is set. Installing again is a no-op when the pinned
# version is there.
set -euo pipefail

cd "$(dirname "$0")/.."
dest=.work/mcp-ts-client
pkgs=(@modelcontextprotocol/sdk@1.32.2)

for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "mcp-ts-client: $tool not found; install Node.js (20 or newer)" >&2; exit 1; }
done

stamp="$dest/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pkgs[*]}" ]; then
	exit 0
fi
mkdir -p "$dest"
npm install --silent --no-audit --no-fund --prefix "$dest" "${pkgs[@]}"
echo "${pkgs[*]}" > "$stamp"
echo "mcp-ts-client: installed ${pkgs[*]} into $dest"
