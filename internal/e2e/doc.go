// Package e2e holds opsgen's end-to-end tests: generated clients calling
// real servers. The HTTP tests (http*_test.go) call the golden clients
// against httptest servers. The MCP tests (mcp*_test.go) snapshot the
// internal/mcptest server over each transport (in memory, a stdio
// subprocess, streamable HTTP), generate a client from the listing, build
// it and call every kind of tool through it; mcpgen is that client,
// committed and checked against a fresh generation.
package e2e
