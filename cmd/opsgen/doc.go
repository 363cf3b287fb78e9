// Command opsgen generates typed Go clients from OpenAPI documents and MCP
// tool listings: one method per remote operation, returning
// runtime.ResponseEnvelope[T] (the data, typed from the output schema, and
// what the transport said about it).
//
// Usage:
//
//	opsgen generate -config opsgen.yaml
//	opsgen generate -openapi SPEC -package NAME -out DIR [-registry] [-namespace NS] [-allow-remote-refs] [-root DIR] [-split MODE] [-import-path PATH]
//	opsgen generate -mcp TOOLS.json -package NAME -out DIR [-registry] [-namespace NS] [-root DIR]
//	opsgen check    (the same flags as generate)
//	opsgen init     [-dir DIR] [-package NAME] [-openapi SPEC | -mcp TOOLS.json]
//	opsgen schema
//	opsgen version
//	opsgen mcp snapshot [-o FILE] [-timeout 30s] [-capabilities LIST] [-env KEY=VALUE]... -- COMMAND [ARGS...]
//	opsgen mcp snapshot [-o FILE] [-timeout 30s] [-capabilities LIST] -url URL
//	opsgen mcp check -snapshot FILE [-timeout 30s] [-capabilities LIST] [-env KEY=VALUE]... -- COMMAND [ARGS...]
//	opsgen mcp check -snapshot FILE [-timeout 30s] [-capabilities LIST] -url URL
//
// # With the go command
//
// In a consumer module, add opsgen as a tool: this records it in go.mod
// with a tool directive (tool github.com/opsgen/opsgen/cmd/opsgen) and pins
// its version with the module's other requirements, so that everyone
// building the module runs the same opsgen:
//
//	go get -tool github.com/opsgen/opsgen/cmd/opsgen
//	go tool opsgen version
//
// Then run opsgen init in the directory of the package to generate, put the
// source document there, and regenerate with go generate, which runs the
// line init wrote into generate.go:
//
//	go tool opsgen init -dir internal/petstore -openapi petstore.yaml
//	go generate ./...
//
//	//go:generate go tool opsgen generate -config opsgen.yaml
//
// Commit the generated files and the manifest. In CI,
//
//	go tool opsgen check -config internal/petstore/opsgen.yaml
//
// exits 1 with a diff when the committed code is stale or hand-edited.
// For an MCP source, a second CI step learns whether the live server still
// serves what the committed listing promised (see mcp check):
//
//	go tool opsgen mcp check -snapshot internal/tools/tools.json -url "$MCP_URL"
//
// Upgrading opsgen (go get -tool github.com/opsgen/opsgen/cmd/opsgen@latest)
// changes the version in the generated headers: regenerate after it.
//
// # generate
//
// generate loads the source document, builds the package and writes it into
// the output directory. Only files whose content changed are rewritten,
// each through a temporary file renamed into place, so a failure leaves the
// previous files. Generated files that are no longer produced are removed;
// files that opsgen did not generate are never removed or overwritten.
// Files are written only inside the output directory, and only regular
// files are replaced: when an output file's name (or the manifest's) is
// taken by a symbolic link, a directory, a named pipe, a socket or a
// device, generate fails naming it, writes nothing and leaves it (check
// fails the same way).
//
// Warnings (an unsupported construct degraded to raw JSON, a renamed
// identifier, an annotation such as a description or a pattern written
// with the wrong JSON type and ignored) are printed to standard error as
//
//	file:line:col (#/json/pointer): warning: message
//
// and do not stop generation; -q silences them. Errors use the same form.
//
// Besides the Go files, the output directory receives .opsgen.json, the
// manifest: the opsgen version, a hash of the config, and hashes of every
// input file (the source document, the local files its $refs reach, the
// output schema files) and of every output file. Commit it with the code.
//
// Flags (with -config, the other input flags are not allowed):
//
//	-config FILE          the config file
//	-openapi SPEC         an OpenAPI 3.0-3.2 or Swagger 2.0 document (YAML or JSON)
//	-mcp TOOLS.json       an MCP tools/list result (see mcp snapshot)
//	-package NAME         the Go package name
//	-out DIR              the output directory
//	-namespace NS         registry id namespace (default: the package name)
//	-registry             emit (*Client).Register(r *runtime.Registry) and TypedError
//	-allow-remote-refs    follow $refs to http(s) URLs
//	-root DIR             the directory local files must stay inside (see Local files)
//	-split MODE           operation packages: auto (default), none, tags or paths (see Large APIs)
//	-import-path PATH     import path of the output directory (default: from go.mod; see Large APIs)
//	-q                    do not print warnings
//
// # Bodies
//
// A request body or response is typed by the media type the document
// prefers (JSON first): application/json and +json are decoded into the
// generated type; application/x-www-form-urlencoded and
// multipart/form-data are sent from it (objects of a multipart body as
// application/json parts, as OpenAPI's encoding default says); XML whose
// schema is an object, array or union is typed too, written and read as
// the schema's xml objects say (runtime/xmljson; an inline body schema is
// the root element, named after its Go type); a range that names no one
// media type (*/* or application/*) with such a schema is JSON, sent as
// application/json; text/* is a string, anything else []byte. APIs.guru's
// AWS descriptions follow the AWS models' XML conventions, which their
// conversion loses (wrapped lists, <member> items, a REST-XML body that
// is its payload's element or <OperationRequest>; see the README).
//
// # Large APIs
//
// An HTTP API of more than 2,000 operations (Microsoft Graph: 11,422) is
// generated as several packages, so that no one compilation needs the
// memory of all of it and a program compiles only what the operations it
// calls use. The output directory holds the root package: the package doc
// (listing the operation packages), Client, NewClient, the options and
// credentials, the types shared by more than one operation package, the
// shared error types and the webhooks. Each operation package is a
// subdirectory holding its operations' methods on its own Client, made by
// New from the root's, their parameter structs, error types and response
// tables, the types only its operations use, and with registry: true its
// own Register and TypedError (registry ids are unchanged). The types no
// operation uses are in package unreferenced; package schemaset's All
// returns the JSON Schemas of every type (Schemas in an API of one
// package); the schemas themselves are in packages under internal/schemas,
// placed as the types are. With Graph generated into example.com/m/graph,
// the operations on /users itself are in package example.com/m/graph/users:
//
//	c := graph.NewClient(graph.WithHTTPClient(authorized))
//	env, err := users.New(c).UsersUserListUser(ctx, users.UsersUserListUserParams{})
//
// The operations are grouped along the API's own structure, by the first
// literal segment of their path ("/v1.0/users/{id}": users; version
// segments such as v1, v2beta or api are skipped); a group of more than
// 300 operations is split again by the second literal segment that names a
// part of the API ("/users/{id}/calendar/events": userscalendar; an action
// such as "microsoft.graph.delta()" stays with the first). With split:
// tags they go by first tag, the parts of a dotted tag joined
// ("users.calendar": package userscalendar; nested packages would share
// names, such as Graph's many "actions"; an untagged operation goes by its
// path). Package names are the segments' or tag's lower-case ASCII letters
// and digits; a Go keyword, internal, testdata, vendor, main or the root's
// name gets "ops" appended. An operation with nothing to make a name of
// stays in the root package, with a warning. The config's split key (the
// -split flag) chooses: auto (the default: paths above 2,000 operations,
// one package below), none, tags or paths.
//
// In a split API an optional, nullable property holding an object is
// runtime.Nullable[*T] rather than runtime.Nullable[T]: every package that
// uses an instantiated generic type compiles its methods again for each
// type argument's shape, and every struct is a shape of its own, where
// pointers share one. That halves what a program calling one Graph
// operation compiles of the client.
//
// The operation packages import the root by its import path, derived from
// the go.mod in the output directory or above it (module path and the
// directory below it), or set by importPath (-import-path). The manifest
// records the files of every package; generate removes the files of an
// operation package that is no longer produced (only files the manifest
// records) and the directory it leaves empty, and check reports them as
// leftovers. A directory on an output file's path must be a directory, not
// a symbolic link.
//
// # Webhooks and callbacks
//
// The requests an API sends to its clients, OpenAPI 3.1 "webhooks" and the
// "callbacks" of operations (3.0 and 3.1), become a typed receiver in
// webhooks.go: the WebhookHandler interface, one method per operation
// taking a runtime.ResponseEnvelope of the payload's type (JSON payloads
// are typed, text/* is a string, anything else []byte); NewWebhookMux,
// an http.Handler serving each operation at "/<webhook name>" or
// "/<operationId>/<callback name>" (the Go name when the name is not
// URL-safe), with the method the spec gives; and RegisterWebhooks, which
// registers each operation in a runtime.Registry as a subscription of the
// events received, so that a call protocol hub fans them out. A webhook
// without a request body, or whose payload is form or multipart data, is
// left out with a warning; the responses it declares are not generated
// (the receiver answers 204).
//
//	rc := webhook.New(verifier) // webhook.StandardWebhooks, webhook.Stripe, webhook.GitHub
//	http.Handle("/hooks/", http.StripPrefix("/hooks", api.NewWebhookMux(rc, handler)))
//
// Package github.com/opsgen/opsgen/runtime/webhook does the work: it
// verifies signatures (Standard Webhooks, Stripe, GitHub), rejects
// replays within a window, caps the body, runs the payload through the
// result pipeline as a response's (undeclared members dropped, defaults,
// drift kept as Warnings) and answers 4xx with a text naming what is
// wrong. Only webhooks.go imports it.
//
// # Local files
//
// A document is not trusted to read files: the OpenAPI document and every
// local file its $refs reach (for an MCP source, the listing and its
// outputSchemas files) must be regular files inside a root directory, by
// default the config file's directory (without -config, the document's). A $ref
// such as "../secret.yaml" or "/etc/passwd", or one through a symbolic
// link that leads outside the root, stops generation with an error naming
// the $ref and its place:
//
//	api/spec.yaml:8:72 (#/paths/~1pets/get/responses/200/content/application~1json/schema):
//	  cannot resolve $ref "../shared/defs.yaml#/Pet": local file "shared/defs.yaml" is
//	  outside the root directory "api" that local files must stay inside (...)
//
// A document that shares files with others in a parent directory needs a
// wider root: the source's root key in the config, or -root DIR. $refs to
// http(s) URLs are a separate matter, refused unless allowRemoteRefs (or
// -allow-remote-refs) is set.
//
// # check
//
// check takes the same flags as generate and exits 0 when the output
// directory holds exactly what generate would write. When the manifest's
// hashes match the config, the inputs and the outputs on disk, it answers
// without loading the source. Otherwise it generates in memory and compares:
// each file that is stale (inputs changed), hand-edited (differs from what
// the manifest recorded), missing, or a leftover generated file is printed
// to standard output with a unified diff (at most 200 lines per file) from
// the file on disk to the generated one, followed on standard error by the
// command that fixes it; the exit code is then 1.
//
// # init
//
// init writes a starter opsgen.yaml, generate.go (package clause from
// -package or the directory's name, and the go:generate line above) and
// opsgen.schema.json (see Config) into -dir, generating into that same
// directory. It refuses to overwrite any of them, and then writes none.
//
// # schema
//
// schema prints the JSON Schema (draft 2020-12) of opsgen.yaml.
//
// # mcp snapshot
//
// mcp snapshot starts COMMAND as an MCP server over stdio (or connects to
// -url over streamable HTTP), lists all its tools and writes the listing,
// sorted and indented so that it diffs well, to -o or to standard output.
// A regular -o FILE is replaced atomically (keeping its permissions); a
// symbolic link is followed (its target replaced, the link kept); a named
// pipe or a character device (-o /dev/stdout) is written through; a
// directory, a socket, a block device or a link to nothing is refused.
// The listing is the -mcp input of generate. Besides the tools it records
// the server's name, version and title (serverInfo), the protocol
// version the session agreed on and the transport it agreed on it over
// ("transport": "stdio", "streamable-http" or "sse"; a server may speak
// different versions over different transports).
// -timeout (default 30s; 0 for none) bounds the whole snapshot, so a
// server that never answers ends with an error naming the timeout.
//
// A server may list some tools only to clients that support a feature
// those tools use, such as elicitation or sampling. -capabilities sets
// the client capabilities the snapshot advertises, a comma-separated list
// of roots, sampling and elicitation (or none); the default is go-sdk's,
// roots only. To capture every tool a capable client would see:
//
//	opsgen mcp snapshot -capabilities roots,sampling,elicitation -o tools.json -- npx @modelcontextprotocol/server-everything
//
// The snapshot only lists tools: it never answers a sampling or
// elicitation request, so advertise the capabilities of the clients that
// will call the tools.
//
// # mcp check
//
// mcp check lists the tools of a live server as mcp snapshot does (the
// same server flags; the session starts with server/discover where the
// server offers it, else initialize, and every page of tools/list is read)
// and compares them with the committed listing -snapshot FILE, from which
// the client was generated. Each difference is printed on standard output
// as one line, classified for the generated client:
//
//	BREAKING   add: tool removed (the generated client still calls it)
//	BREAKING   echo: /outputSchema/properties/text/type: output type changed from string to integer (...)
//	COMPATIBLE echo: /inputSchema/properties/times: new optional input member "times"
//	COMPATIBLE reverse: tool added (regenerate to call it)
//
// A change is BREAKING when the generated client may fail or misread: a
// removed tool; an input member removed, added as required or made
// required; an input type, enum or format narrowed or changed; an output
// schema or output member removed, or an output member no longer required;
// an output type, enum or format widened or changed; a changed anyOf, oneOf,
// allOf or not (not compared member by member); on a server speaking a
// protocol before 2026-07-28 (the live listing's protocolVersion), a tool
// whose execution.taskSupport became "required" when it was not
// "optional" (the client makes plain calls) or "forbidden" when it was not
// (the client asks for a task). From 2026-07-28 the generated client
// follows whatever tasks the server makes, so no taskSupport change breaks
// it. COMPATIBLE are the converse (a new tool, a new
// optional input member, a new output member or output schema, a widened
// input type or enum, a narrowed output type or enum) and changed titles
// and descriptions. Local $refs ("#/$defs/...") are followed on both sides.
// A summary goes to standard error. The exit code is 0 when nothing
// breaks (compatible changes included), 1 when something does or when the
// listing could not be taken or read, 2 on a usage error. Pass the
// -capabilities the snapshot was taken with: a server may list some tools
// only to clients with some capabilities.
//
// In CI, beside opsgen check (GitHub Actions, say; a scheduled job catches
// a server that changes while the client does not):
//
//	steps:
//	  - run: go tool opsgen check -config internal/tools/opsgen.yaml
//	  - run: go tool opsgen mcp check -snapshot internal/tools/tools.json -url "$MCP_URL"
//	  - run: go tool opsgen mcp check -snapshot internal/fs/tools.json -- npx -y @modelcontextprotocol/server-filesystem /tmp
//
// When it fails, take a new snapshot (mcp snapshot -o FILE), regenerate
// (go generate) and fix the callers the compiler points at.
//
// # Config
//
// opsgen.yaml (paths are relative to the config file; unknown keys are
// errors, reported with their line and column). Its JSON Schema is
// generator/config/opsgen.schema.json in opsgen's module, printed by
// opsgen schema. Editors using the YAML language server (VS Code's YAML
// extension, yamlls in Neovim, ...) find it through the modeline that
// starts the config written by init:
//
//	# yaml-language-server: $schema=opsgen.schema.json
//
// The path is relative to the config file, where init writes the schema;
// after upgrading opsgen, refresh it with
// go tool opsgen schema > opsgen.schema.json. For a config written by hand,
// add the modeline and the file the same way.
//
// The keys:
//
//	package: petstore          # Go package name (required)
//	output: ./petstore         # output directory (required)
//	registry: true             # emit (*Client).Register (and TypedError)
//	namespace: petstore        # registry id namespace (default: package)
//	split: auto                # operation packages: auto (default: paths above 2,000
//	                           # operations), none, tags or paths (see Large APIs)
//	importPath: example.com/m/petstore # import path of output (default: from go.mod)
//	sources:                   # exactly one source: one config makes one package
//	  - openapi: specs/petstore.yaml
//	    allowRemoteRefs: false
//	    root: ..                 # local files must stay inside (default: this file's directory)
//	    include: {tags: [pets], operations: [listPets], paths: ["/pets*"]}
//	    exclude: {tags: [], operations: [deletePet], paths: []}
//	    names: {listPets: ListAllPets, "#/components/schemas/Pet": Animal}
//	    types: {uuid: github.com/google/uuid.UUID}  # Go type of a format's values
//	    keepUnknownMembers: true # keep what object schemas do not declare (see below)
//	client:
//	  validation: strict       # NewClient's default mode: warn (default), strict or off;
//	                           # WithValidation overrides it
//	  timeout: 30s             # default timeout of every call (WithTimeout overrides it)
//	  idempotencyKeys: true    # an Idempotency-Key per call of POST, PATCH...: the same on
//	                           # every retry and call protocol hop (default false)
//	operations:                # settings of single operations, by operation id
//	  listPets:
//	    timeout: 5s            # replaces client.timeout (WithOperationTimeout overrides it)
//	    pagination:            # adds ListPetsPages (an iter.Seq2 of pages)
//	      cursor: after        # query parameter taking the next cursor...
//	      next: /meta/next     # ...read from the response at this JSON pointer
//	  search:
//	    pagination: {page: page, items: /items}  # page numbers, until a page has no items
//	  issues/list-for-repo:
//	    pagination: {disabled: true}  # no pages method, though the spec declares a Link header
//
// types belongs to a source, beside names: it maps a schema format to the
// Go type that holds its values, "import/path.Name", over the built-in
// table (date-time time.Time, date runtime.Date, duration runtime.Duration,
// ipv4 and ipv6 net/netip.Addr; other formats stay string). The type reads
// and writes the JSON string itself (encoding.TextMarshaler and
// TextUnmarshaler). x-go-type on a schema pins the type of that schema
// alone.
//
// keepUnknownMembers (a source's, default false) is for forward
// compatibility: every struct type whose schema has no additionalProperties
// schema (absent or true; not false) gets AdditionalProperties, a
// map[string]json.RawMessage of the members its schema does not declare,
// kept as received when decoding and written back by MarshalJSON, so a
// value read from a newer server and sent back loses nothing. Such types
// are decoded by encoding/json, more slowly. Without it, the raw body of
// one call is there for the asking: pass httpclient.WithRawBody(&b) to the
// method (CallOption is httpclient's).
//
// OpenAPI 3.2: a stream response (text/event-stream, application/jsonl,
// application/x-ndjson, application/json-seq) makes a method returning an
// iter.Seq2 of envelopes, one per event or item, each through the
// pipeline; the item type is the media type's itemSchema (for an event
// stream, its data property's contentSchema). The QUERY method and
// additionalOperations are methods like the others; what 3.2 adds that
// opsgen does not read is a warning naming its place.
//
// Error types: each error status an operation declares (not 2xx or 304)
// has a type embedding runtime.StatusError, with its body typed as Body,
// which errors.As reaches. An inline response gets a type of its own, named
// after the operation and the status (ShowPetByIDNotFound, GetPetStatus4XX,
// GetPetDefault). A response that is a $ref to a component response
// (#/components/responses/not_found; Swagger 2.0's #/responses/not_found)
// gets the component's type, one for every operation and status that
// refers to it, declared in errors.go and named after the component
// (not_found is NotFoundError, validation_failed ValidationFailedError,
// error ErrorResponse); when it serves several statuses, StatusCode tells
// them apart. A names entry by the component's pointer, or x-go-name on
// the component response, pins that name.
//
// Two shapes of large descriptions are written smaller. Parameters whose
// inline enum schemas are identical (Microsoft Graph repeats an entity's
// $select, $expand and $orderby values in every operation on it) share one
// enum type, named after the shortest of the names its uses would have
// (independent of the document's order); a names entry for one of them,
// by its JSON pointer, gives that one a type of its own. And anyOf or
// oneOf of X and an open object ({type: object, nullable: true}, Graph's
// way to write "X or null") is X, nullable, when X is an object that
// allows other properties; validation still checks the union as written.
//
// A GET operation whose result declares a Link response header (as GitHub's
// list operations do) gets a pages method that follows rel="next" without
// configuration (pagination: {link: true} asks for it where the header is
// not declared).
//
// An MCP source instead:
//
//	sources:
//	  - mcp: tools.json
//	    convention: auto                  # default for all tools: auto, toolenvelope-v1 or dotbot
//	    conventions: {read_graph: dotbot}  # by tool name
//	    outputSchemas:                    # for tools that declare none
//	      add: {type: object, properties: {sum: {type: integer}}}
//	      mul: schemas/mul.json           # or a JSON/YAML file
//	    include: {operations: [add, "read_*"]}
//	    names: {read_graph: ReadGraph}
//
// A path pattern or tool name ending in "*" matches by prefix. To generate
// several packages, write one config per package.
//
// # Memory
//
// generate and check are short batch processes, and trade memory for time:
// nothing is collected until the heap reaches 512 MiB (GitHub's 12.4 MB
// description is generated without a collection, at about 380 MB of peak
// RSS); past half of that live after a collection, the collector's default
// pacing comes back. A GOGC or GOMEMLIMIT in the environment is left to
// rule instead. On Linux, generate asks for transparent huge pages for the
// heap it is about to build when the source is 1 MiB or more (where
// /sys/kernel/mm/transparent_hugepage/enabled leaves that to programs):
// with 4 KiB pages about a third of a large generation's CPU time went to
// page faults. GODEBUG=disablethp=1, the Go runtime's switch for huge
// pages, turns that off.
//
// # Exit codes
//
//	0  success (check: the files are current; mcp check: nothing breaks)
//	1  failure (check: the files are not current; mcp check: something breaks)
//	2  usage error
package main
