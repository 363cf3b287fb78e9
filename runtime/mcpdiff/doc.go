// Package mcpdiff compares two MCP tool listings (a committed snapshot and
// what a live server lists now) and classifies each difference as
// compatible or breaking for a client generated from the older listing.
//
// The classification takes the generated client's side. Its methods send
// inputs built from the old inputSchema and decode results into types made
// from the old outputSchema, so a change is breaking when a value the old
// client sends may no longer be accepted (a removed tool, a removed or newly
// required input member, a narrowed input type, enum or format, a tool
// whose task support now refuses the calls the client makes: see
// Options), or when a value the server now returns
// may not decode into, or may lack what, the old client reads (a removed
// output member or output schema, a member that may now be absent, a widened
// output type, enum or format). The converse changes (a new tool, a new
// optional input member, a new output member, a widened input enum, a
// narrowed output type) are compatible: the old client keeps working and
// regenerating it only adds to it. Changes to anyOf, oneOf, allOf and not
// are not analysed member by member and count as breaking.
//
// It depends on the standard library only, so that both `opsgen mcp check`
// and a long-lived runtime client can use it.
package mcpdiff
