// Package mcpsnapshot captures the tool listing of a live MCP server as a
// file for generator/mcptools (`opsgen mcp snapshot`).
//
// [Snapshot] captures the listing of a running server, a stdio subprocess
// or an HTTP endpoint, as a file meant to be committed and diffed: every
// page of tools/list, the tools sorted by name with their object keys
// sorted, indented by two spaces. Each tool is kept as the server sent it,
// including fields the SDK does not model (such as execution); what belongs
// to the response (nextCursor, _meta) is left out. Over HTTP, a server that
// only speaks the older HTTP+SSE transport is detected and used; over
// stdio, a server that exits when probed with server/discover (the newest
// protocol's first request) is restarted and opened with initialize.
package mcpsnapshot
