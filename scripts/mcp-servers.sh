#!/usr/bin/env bash
# Installs the reference MCP servers (npm packages, pinned) into
# .work/mcp-servers, for the tests of runtime/mcpclient and
# generator/mcpsnapshot that run them over stdio (TestReferenceServers):
#
#   bash scripts/mcp-servers.sh    # or: make mcp-servers
#
# Without them (or without node and npm) those tests skip with a message
# saying so. Installing again is a no-op when the pinned versions are there.
set -euo pipefail

cd "$(dirname "$0")/.."
dest=.work/mcp-servers
pkgs=(
	@modelcontextprotocol/server-everything@2026.8.31
	@modelcontextprotocol/server-memory@2026.8.31
	@modelcontextprotocol/server-filesystem@2026.8.31
)

for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "mcp-servers: $tool not found; install Node.js (20 or newer)" >&2; exit 1; }
done

stamp="$dest/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pkgs[*]}" ]; then
	exit 0
fi
mkdir -p "$dest"
npm install --silent --no-audit --no-fund --prefix "$dest" "${pkgs[@]}"
echo "${pkgs[*]}" > "$stamp"
echo "mcp-servers: installed ${pkgs[*]} into $dest"
