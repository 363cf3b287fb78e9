// Package mcpclient is the MCP caller of opsgen-generated code: Call runs a
// tool through a go-sdk client session and returns a
// runtime.ResponseEnvelope whose Data is typed from the tool's output schema
// and whose Meta is a *runtime.MCPMeta.
//
// Generated code declares one *Tool per tool and calls Call:
//
//	var toolGetWeather = &mcpclient.Tool{Name: "get_weather", OutputSchema: schemaWeather}
//
//	func (c *Client) GetWeather(ctx context.Context, in GetWeatherParams, opts ...mcpclient.CallOption) (runtime.ResponseEnvelope[Weather], error) {
//		return mcpclient.Call[Weather](ctx, c.mcp, toolGetWeather, in, opts...)
//	}
//
// Data follows the MCP data rules of opsgen's design:
//
//   - The tool declares an output schema and the result has structuredContent:
//     Data is structuredContent decoded into T by opsgenimpl.Decode (normalized and
//     validated per the client's validation mode).
//   - The tool declares an output schema but the result has no
//     structuredContent: Data is decoded from the first text block holding JSON
//     that fits T; when none does, Data is zero and the envelope has a warning.
//   - No output schema: T is []runtime.ContentBlock and Data is the result's
//     content, unless a content convention (ToolEnvelope V1, dotbot) applies:
//     then Data is the convention's payload decoded into T (any type, for
//     example json.RawMessage or a generated struct). With T
//     []runtime.ContentBlock the blocks stay the data and the convention goes
//     on the meta only. Any other T without a convention payload is decoded
//     from the first text block holding JSON that fits it (a string T takes
//     the first text block as it is), else left zero with a warning.
//   - A dotbot envelope may also come as structuredContent (with the dotbot
//     or auto convention): then Data is its data, whatever the output schema
//     says about structuredContent, and the envelope goes on the meta.
//   - isError: true is a result, not a Go error: Meta.IsError is set, Data is
//     the content when T is []runtime.ContentBlock and zero otherwise, and
//     nothing is normalized or validated. AsError turns it into an error.
//
// An opsgen server (runtime/mcpserver) sends the warnings of the envelope it
// made (its upstream's drift) in the result's _meta under MetaWarnings; Call
// puts them on the envelope's Warnings first, followed by the client's own
// (a warning equal to one already there is not repeated), so that a call
// through the server warns as the call on the server did. AsError rebuilds
// the error an opsgen server put under MetaError (its code, message,
// registry id and issues, and the upstream's HTTP status as HTTP.StatusCode;
// the HTTP body is in the result's text, after the error's line).
//
// Errors and warnings name the tool's registry id (Tool.ID, "inv.getItem")
// when it has one, else its name.
//
// Protocol failures are *runtime.CallError: OPERATION_NOT_FOUND for an
// unknown tool, VALIDATION_ERROR when the server rejects the arguments
// (JSON-RPC -32602), EXECUTION_ERROR for other JSON-RPC errors, CANCELED or
// TIMEOUT when ctx ends (returned as soon as it ends), TRANSPORT_ERROR when
// the connection is gone, DECODE_ERROR when the result cannot be read.
//
// Make sessions with Connect (or with a transport from WrapTransport): go-sdk
// rejects content blocks of types it does not know, and the wrapper maps them
// to text blocks holding their JSON before the SDK sees them; it also reads
// the progress notifications of calls made with WithProgress, in step with
// their results. ConnectOptions set the client's name and version (its
// clientInfo; default "opsgen" and opsgen's module version), go-sdk's client
// options (handlers, capabilities) and go-sdk middleware for every method.
//
// # Per-call options
//
// WithProgress sends a progress token in the request's _meta and calls a
// function with each notifications/progress the server sends for the call,
// in order, all of them before Call returns. WithMeta adds entries to the
// request's _meta (trace context, tenant ids...). WithCallTimeout and
// WithCallValidation set the call's timeout and validation mode.
//
// # Middlewares and hooks
//
// WithMiddleware wraps the sending of tools/call requests in a chain of
// Middleware (func(Invoker) Invoker, the first one outermost; the innermost
// is the session's CallTool): each sees the tool's name, arguments and
// _meta (*mcp.CallToolParams) and the raw result or error, and may answer
// itself. WithBeforeCall and WithAfterResult add hooks called before the
// chain and with the result it returns; their errors fail the call.
// WithTimeout sets a default timeout. For middleware on every method of a
// session (tools/list, resources/read...), use ConnectOptions.Middleware,
// go-sdk's own mcp.Middleware.
//
// # Tasks
//
// A call can become a task (a long-running operation the client polls).
// Call follows it to its end and returns the task's tools/call result as
// the same envelope, with progress notifications (WithProgress) on the way
// and each task status the server reports passed to WithTaskStatus. Both
// generations of tasks are spoken, on the session's protocol:
//
//   - 2025-11-25 (the npm reference servers): for a tool whose
//     Tool.TaskSupport is "optional" or "required", Call asks for a task
//     (params.task; WithTaskTTL sets its ttl), polls tasks/get at the
//     server's pollInterval and fetches the result with tasks/result. The
//     server's elicitation and sampling requests on the way go to the
//     handlers of the session's go-sdk client (ConnectOptions.Client).
//   - 2026-07-28: Connect declares the tasks extension
//     (io.modelcontextprotocol/tasks; ConnectOptions.NoTasks to not), and a
//     server may answer any call with a task. Call polls tasks/get at the
//     server's pollIntervalMs, answers the task's inputRequests with the
//     same handlers through tasks/update, and reads the result from the
//     completed task.
//
// When ctx ends before the task does, Call sends tasks/cancel and returns
// CANCELED or TIMEOUT. A task that fails is an EXECUTION_ERROR (or the
// JSON-RPC error it failed with, classified as for direct calls). Tasks
// need a session from Connect: go-sdk v1.8.0 has no task support, and the
// task methods and the wire rewrites that carry task requests and handles
// through go-sdk's CallTool live in tasks.go, which retires when go-sdk
// ships the extension.
//
// # Header parameters
//
// A tool input property annotated with x-mcp-header (MCP 2026-07-28) is
// also sent as the HTTP header Mcp-Param-<Name> on streamable HTTP, for
// gateways that route without reading the body. go-sdk sends these only
// for the tools of a listing it fetched itself; generated code carries the
// annotations in Tool.ParamHeaders instead, and the HTTP client of
// WrapTransport (so Connect) sets the headers of Call's requests: strings
// as they are, or as =?base64?...?= when not plain visible ASCII; booleans
// as true or false; integers in decimal. Absent and null arguments send no
// header; sessions of earlier versions and other transports send none.
//
// An envelope's MCPMeta.Tool names the tool called (the result itself does
// not), so AsError can name it in its error.
//
// # Listing changes
//
// A long-lived client can learn that the server's tools changed under it:
// ConnectOptions.OnListingChanged is called, on one goroutine, each time
// the server says its listing changed (notifications/tools/list_changed;
// go-sdk asks a 2026-07-28 server for them on a subscriptions/listen
// stream) and the listing read again differs from the last one reported.
// It gets the differences from a baseline, ConnectOptions.Listing (the
// listing file the client was generated from) or else the listing when
// the session opened, each classified by runtime/mcpdiff, the classifier of
// opsgen mcp check, as compatible or breaking for the generated client.
// Listings are read through go-sdk's mcp.Tool, so the watch does not see
// members it does not model, such as execution.taskSupport. go-sdk caches
// the listings of 2026-07-28 sessions itself and drops its cache on a
// change notification; this package keeps no cache of its own.
//
// # Remote calls
//
// WithRemote sends the calls of tools that have a registry id (Tool.ID, in
// clients generated with registry: true) to a opsgenimpl.Remote, such as a
// call protocol spoke (*callproto.PendingRequestMap) whose hub registered
// the same generated client: the hub calls the tool on its session, and the
// envelope it returns is decoded into the same types. The spoke's client
// needs no session.
package mcpclient
