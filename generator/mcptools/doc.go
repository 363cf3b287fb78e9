// Package mcptools reads MCP tool listings into the generator's IR.
//
// A listing is the result of tools/list: {"tools": [...]}, or a bare array
// of tools, as captured by generator/mcpsnapshot.
//
// # Loading
//
// [Load] and [LoadData] turn a listing into an [ir.Service] with one
// operation of kind [ir.MCPTool] per tool:
//
//   - ID is the tool name; GoName is derived from it (get_user, get-user,
//     users.get -> GetUser, UsersGet). Names that collide after conversion
//     get numeric suffixes, given in tool-name order so that they do not
//     depend on the listing's order; LoadOptions.Names pins a name.
//   - The input type is <GoName>Input (ParamsName, Tool.InputType), or
//     none when the input schema declares no properties. The output type is
//     <GoName>Output (Tool.OutputType), or nil when the tool declares no
//     output schema and LoadOptions.OutputSchemas gives none. Output
//     schemas may describe any JSON value, not only objects. A tool whose
//     _meta holds "io.opsgen/outputSchema" (an opsgen server in warn mode,
//     runtime/mcpserver, which serves a relaxed output schema: no enums,
//     formats or required members) is typed from that schema, the
//     operation's own; a union branch's "title" names its variant.
//   - Definitions ($defs, or definitions in draft-07) become types named
//     <GoName><Key>; references may point at them, at the root ("#") or at
//     any other place of the same schema.
//
// Schemas may use JSON Schema draft-04 to 2020-12 (by $schema; 2020-12
// when absent). Each is checked against its draft's metaschema, so a
// mistake is reported at its place in the listing. A schema never fails
// the load: each violation is a warning, the offending keyword is ignored
// (a value that should be a schema and is not accepts any value), and so
// are a $ref that does not resolve and a value the schema model cannot
// hold (a minimum of 1e400, a nullable that is not a boolean). A schema
// nested deeper than 200 levels accepts any value.
//
// The schemas are decoded from the listing's JSON straight into
// generator/jsonschema's model, which maps JSON Schema to Go types for
// every source: the root of each tool schema, each definition and each
// other place a $ref points at is a named component (references become
// the model's reference nodes), draft-07 tuples and dependencies take
// their 2020-12 shape, and keywords next to a 2019-09 $ref that assert
// something are kept with allOf. Positions are pointers into the listing,
// so diagnostics name the place (file:line:col and JSON pointer) directly.
package mcptools
