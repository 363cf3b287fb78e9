// Package mcpserver serves the operations of a runtime.Registry as an MCP
// server (with the MCP go-sdk): each operation is a tool with its input and
// output JSON Schemas. With a generated OpenAPI client registered
// (registry: true in opsgen.yaml), every operation of an HTTP API becomes a
// typed MCP tool; generated MCP clients and local Go handlers can be served
// beside it. It is a package of its own so that programs that only call
// operations do not link a server.
//
//	reg := runtime.NewRegistry(nil)
//	if err := petstore.NewClient(petstore.WithBaseURL(url)).Register(reg); err != nil {
//		return err
//	}
//	srv, err := mcpserver.New(reg, &mcpserver.Options{Name: "petstore"})
//	if err != nil {
//		return err
//	}
//	return srv.ServeStdio(ctx) // or: http.ListenAndServe(addr, srv.Handler())
//
// The tools are fixed when New runs; Options.Include serves a subset.
//
// # Tools
//
// A tool's input schema is the operation's (for a generated HTTP client:
// an object {"params": {...}, "body": ...}), with "type": "object" made
// explicit at its root; an operation without one takes any object. An
// operation whose input schema describes something else cannot be a tool:
// New fails and names it.
//
// The output schema is the operation's data schema, as the validation
// mode lets the data through (see "Output schemas"). Protocol 2026-07-28
// (SEP-2106) allows any schema; older protocols only object schemas, so a
// session that negotiated one sees no output schema on tools whose data is
// not an object (a list of pets), and gets their data in the text block
// only. A root that is a local $ref to an object schema, or a oneOf or
// anyOf whose branches are all objects, gets an explicit "type": "object"
// beside it: such a union is served to 2025-11-25 sessions as it is, not
// wrapped, so the data keeps its shape (a union with other branches is
// served to them as an array is: not at all). A union branch that refines one
// definition ({"allOf": [{"$ref": "#/$defs/Dog"}, ...]}, as generated
// clients write the variants of a discriminated union) gets the
// definition's name as its "title", so that a client generated from the
// tools names the variant Dog, as the API's own client does.
//
// Annotations come from what the operation says: GET, HEAD, OPTIONS and
// TRACE set readOnlyHint and idempotentHint; PUT and DELETE set
// idempotentHint; DELETE sets destructiveHint, POST sets it false (a
// client takes a tool without the hint to be destructive); PATCH says
// nothing more. OperationSpec.Hints (an MCP tool's own annotations, for a
// generated MCP client) override them. A
// deprecated operation's description ends with a paragraph "Deprecated:
// the API marks this operation as deprecated.", which a client generated
// from the tool turns into a Go deprecation. The title is
// OperationSpec.Title.
//
// # Output schemas
//
// The MCP specification says a tool's structured results MUST conform to
// its output schema, and clients check them (the TypeScript SDK's callTool
// fails with -32602 otherwise). In warn mode (the default) the runtime
// keeps what drifts from the operation's schema: a value outside an enum,
// a string that is not a date-time, a missing required member stay in the
// data, with warnings. So the schema a tool publishes is the one the
// runtime guarantees in the mode that Options.Validation names:
//
//   - runtime.ValidateStrict: the operation's schema as it is, since data
//     that does not match it is an error.
//   - runtime.ValidateWarn and runtime.ValidateOff: the operation's schema
//     relaxed: without enum, const, format, pattern, the length, range,
//     count and uniqueness bounds, required, dependentRequired,
//     propertyNames, not and if/then/else, without false
//     additionalProperties, unevaluatedProperties, unevaluatedItems, items
//     and additionalItems, and with oneOf
//     turned into anyOf. The types, properties, items, $defs, $refs, titles
//     and descriptions stay. The tool's _meta then holds the operation's
//     own schema under MetaOutputSchema ("io.opsgen/outputSchema"), which
//     opsgen's generator (generator/mcptools) reads back from a snapshot,
//     so that a client generated from the tools has the API's enums,
//     formats and required fields.
//
// What the relaxed schema cannot allow (a member of the wrong type, an
// array item of the wrong type, a value that fits no branch of a union)
// is brought into it: in warn mode when the envelope has warnings, in off
// mode always, the data is normalized against the served schema (members
// of the wrong type dropped) and what still does not fit is dropped from
// structuredContent, each with a warning. The text block keeps the data as
// the runtime returned it. Data whose root does not fit (a string where
// the schema says an object) cannot be structured content at all: the call
// is then an isError result with code VALIDATION_ERROR listing why,
// followed by the data's text block. A result that fits is sent as it is.
//
// # Tool names
//
// The MCP specification (2025-11-25) says tool names SHOULD be 1 to 128
// characters among A-Z, a-z, 0-9, '_', '-' and '.', case-sensitive, and
// unique within a server. The default name (DefaultToolName) is the
// operation id with '.' replaced by '_' ("petstore.listPets" ->
// "petstore_listPets"), at most 64 characters: LLM APIs that clients hand
// tools to accept only ^[a-zA-Z0-9_-]{1,64}$. Options.ToolName chooses
// other names; whatever it returns has its other characters replaced by
// '_' and is cut to 128 characters (ending in 8 hex digits of the id's
// SHA-256 when cut). Names that are still equal get "_2", "_3", ... in
// operation id order, so that the names depend only on the set of
// operations served.
//
// # Results
//
// A successful call's data is sent twice, as the specification recommends
// for clients that predate structured content: as structuredContent and as
// a text block holding the same JSON. An envelope that came from an MCP
// call (a generated MCP client's operation) passes its content blocks,
// isError and _meta through; its structuredContent is the envelope's data
// when the tool has an output schema, else what the upstream sent.
//
// A *runtime.CallError (invalid arguments, an HTTP status outside 2xx, a
// handler's error or panic, a timeout) becomes a result with isError set:
// a text block whose first line is the error, naming its code and the
// operation's registry id ("EXECUTION_ERROR pets.getPet: ..."), followed
// by the HTTP error body (at most 4 KiB), and the error as an object in
// _meta["io.opsgen/error"] (MetaError: code, message, operationId, status,
// issues), so that the model can read it and try again, and
// mcpclient.AsError can rebuild it. Protocol errors stay JSON-RPC errors:
// an unknown tool (-32602), malformed requests, a request over the size
// cap.
//
// The warnings of a result (the envelope's, and those of bringing its data
// into the served schema) are in its _meta under MetaWarnings
// ("io.opsgen/warnings"): an array of {"operationId", "pointer",
// "message"}. opsgen's MCP client (runtime/mcpclient) puts them back on
// the envelope's Warnings. With Options.IncludeMeta, _meta also holds the
// envelope's meta (MetaEnvelope, "io.opsgen/meta": the HTTP status and
// headers, or the local operation id).
//
// # Limits
//
// Options.MaxRequestBytes caps one incoming message (4 MiB by default):
// over HTTP a larger request body is answered 413 and the session goes on;
// over stdio a longer line ends the session, since the stream cannot be
// resynchronised. Options.MaxConcurrentCalls caps the calls running at once
// over all sessions (32 by default); more calls wait for a slot.
// Options.CallTimeout bounds each call. When the client cancels a request
// (notifications/cancelled; over stateless HTTP, by closing its request),
// the call's context is cancelled: a generated HTTP client's request to
// the upstream API is aborted with it. Over stateless HTTP, go-sdk ties a
// call to its HTTP request only at protocol 2026-07-28; Handler does it
// for older protocols too (the TypeScript SDK's and the Inspector's
// 2025-11-25), whose notifications/cancelled reaches another ephemeral
// session and cannot be matched to the call. (The TypeScript SDK keeps its
// POST open after an abort until the transport closes: its calls end then.)
//
// # Transports
//
// ServeStdio serves one session over standard input and output; Handler
// serves streamable HTTP; Run serves any go-sdk transport. Handler's
// sessions are stateful by default, and go-sdk's clients then speak
// protocol 2025-11-25; with Options.HTTP.Stateless they speak 2026-07-28
// (and older clients still work, one request at a time).
//
// # Subscriptions
//
// An operation of kind subscription (runtime.Registry.RegisterSubscription,
// and the server-sent-event operations of generated clients) is a tool
// whose call streams its events (Registry.Subscribe) as progress
// notifications of the tools/call request: each event's data is sent as it
// comes in a notifications/progress message (progress counts the events,
// message holds the data's JSON) when the client gave a progress token,
// and the result holds the events as a JSON array when the stream ends or
// after 100 events; the tool's output schema is an array of the event
// schema. Cancelling the request stops the stream. Progress notifications
// are chosen because they belong to the call that asked for them, reach
// the client over stdio and streamable HTTP alike, need nothing the client
// must support beyond a progress token, and end with the call, so that
// cancellation maps onto the stream's context; resource subscriptions
// would only say "updated" and make the client read again, losing the
// events in between.
//
// # Tasks
//
// With Options.Tasks, long-running calls become tasks (the tasks
// extension, io.modelcontextprotocol/tasks, of protocol 2026-07-28) for
// clients that declare the extension on their request, as mcpclient.Connect
// does: a subscription's call at once, any other call when it has run
// longer than TaskOptions.After. The client then gets a CreateTaskResult
// instead of waiting, polls tasks/get (at TaskOptions.PollInterval) until
// the task has the result, answers the task's input requests with
// tasks/update (see Ask), or ends it with tasks/cancel, which cancels the
// operation's context. The call runs on a context of its own, bounded by
// TaskOptions.TTL, so that the task outlives the request that made it
// (a stateless HTTP request, a client that polls from another session);
// tasks are kept for the TTL and shared by all sessions of the Server.
//
// # Asking for input
//
// A served operation's handler can ask the client for input while it
// runs: Elicit (a form for the user, or a URL) and Sample (a message from
// the client's model) wait for the answer. On protocols up to 2025-11-25
// they send the client a request; on 2026-07-28 the call becomes a task at
// once (with Options.Tasks, for a client that declares the extension) and
// the request waits in its inputRequests for tasks/update. Otherwise they
// return ErrNoInput.
// Clients that do not declare the extension, and sessions of older
// protocols, get every result directly. go-sdk v1.8.0 does not serve
// tasks; tasks.go does, and retires when go-sdk ships the extension.
package mcpserver
