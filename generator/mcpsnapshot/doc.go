// Package mcpsnapshot captures the tool listing of a live MCP server as a
// file for generator/mcptools (`opsgen mcp snapshot`).
//
// [Snapshot] captures the listing of a running server, a stdio subprocess
// or an HTTP endpoint, as a file meant to be committed and diffed: every
// page of tools/list, the tools sorted by name with their object keys
// sorted, indented by two spaces. Each tool is kept as the server sent it,
// including fields the SDK does not model (such as execution); what belongs
// to the response (nextCursor, _meta) is left out. The file also records
// what the server said about itself (serverInfo: name, version, title) and
// the protocol version of the session, so that the generated package can
// name the server. SnapshotOptions.Capabilities chooses the client
// capabilities the snapshot advertises (ParseCapabilities reads
// "roots,sampling,elicitation"): servers may list some tools only to
// clients that support sampling or elicitation. Over HTTP, a server that
// only speaks the older HTTP+SSE transport is detected and used; over
// stdio, a server that exits when probed with server/discover (the newest
// protocol's first request) is restarted and opened with initialize.
package mcpsnapshot
