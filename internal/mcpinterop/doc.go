// Package mcpinterop holds the interoperability tests of runtime/mcpclient
// with MCP servers nobody here wrote (build tag mcpinterop; run them with
// make mcp-interop, which installs the servers).
package mcpinterop
