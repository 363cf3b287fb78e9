#!/usr/bin/env bash
# make mcp-interop: the generated-client runtime (runtime/mcpclient) against
# MCP servers nobody here wrote, over every transport each offers and on
# every protocol version it speaks (internal/mcpinterop, build tag
# mcpinterop). The npm reference servers come from `make mcp-servers`; the
# extra servers with output schemas are installed here, pinned, into
# .work/mcp-interop. A small fixed subset (the everything server's tasks,
# elicitation and sampling over stdio and streamable HTTP) runs in
# `make test` (runtime/mcpclient's TestReferenceEverything*).
set -euo pipefail

cd "$(dirname "$0")/.."
bash scripts/mcp-servers.sh
dest=.work/mcp-interop
pkgs=(
	@modelcontextprotocol/server-pdf@2.0.4
)
stamp="$dest/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "${pkgs[*]}" ]; then
	mkdir -p "$dest"
	npm install --silent --no-audit --no-fund --prefix "$dest" "${pkgs[@]}"
	echo "${pkgs[*]}" > "$stamp"
	echo "mcp-interop: installed ${pkgs[*]} into $dest"
fi
"${GO:-go}" test -tags mcpinterop -count=1 -v ./internal/mcpinterop/ "$@"
