// Package openapi loads OpenAPI 3.0, 3.1 and 3.2 documents (YAML or JSON)
// and Swagger 2.0 documents into the generator's IR (generator/ir).
//
// The shape of a load (Load, LoadData):
//
//  1. Decode (decode.go): the text is parsed once into a tree of maps and
//     slices (jsontree.go for JSON, its large top-level members in
//     parallel; yamltree.go for YAML, with each mapping's position), and
//     built into kin-openapi's exported types by code of opsgen's own, one
//     function per type. A value of the wrong JSON type is data: an
//     annotation is ignored with a warning, anything else is an error
//     naming the place (file:line:col and JSON pointer).
//  2. References (refs.go): every local $ref is checked against the tree
//     before anything is resolved. A $ref to nowhere is an error naming its
//     place; one that points at the wrong kind of object (a response where a
//     schema belongs) or where it cannot be followed (into a header) is
//     disabled in the decoded document, with a warning.
//  3. Resolve (document.go): kin-openapi's public Loader.ResolveRefsIn
//     resolves the references, reading other files through the os.Root of
//     root.go (Loader.ReadFromURIFunc; the document itself is resolved at
//     an empty location, Loader.JoinFunc joins relative $refs to its path).
//     A file it cannot read, or a fragment missing from one, is reported at
//     the $ref that leads there. Swagger 2.0 documents take kin-openapi's
//     openapi2conv instead (swagger.go).
//  4. IR (load.go, operation.go, schema.go): operations, parameters, bodies
//     and results are converted here; schemas are adapted to
//     generator/jsonschema's model, which turns them into IR types and
//     writes their JSON Schemas.
//
// Loading is lenient: the document is not validated, and whatever the IR
// cannot express degrades with a warning naming the place instead of
// failing: an unsupported schema becomes ir.Any (raw JSON), an operation is
// never dropped without a warning. The error result is kept for input that
// is not OpenAPI at all, cannot be parsed, or whose references cannot be
// resolved.
//
// Annotations of the wrong JSON type (a schema pattern that is a number, an
// examples that is an object where a list belongs, a description that is
// not text...) do not cost the document: they are ignored with a warning
// naming their place (lenient.go lists them), in the document as in the
// files its $refs reach.
//
// Local files: the document (for Load) and every file its $refs reach are
// read through an os.Root opened on Options.Root (default: the document's
// directory), so a $ref cannot pull in a file from elsewhere ("../x.yaml",
// "/etc/passwd", a symbolic link that leads out): it fails with a
// *RootError naming the $ref and its place. Options.Read reports the files
// read (the generator hashes them into its manifest).
//
// Cancellation: the context is checked between the documents read, between
// the phases of a load, between operations and between schemas; a load
// that is stopped returns an error wrapping ctx.Err().
//
// Naming: every component schema becomes a named type called after its key
// (x-go-name and Options.Names win); inline objects, enums and unions are
// named after their parent (PetOwner, ListPetsResponse, CreatePetBody,
// ListPetsResponseItem). Names are allocated in the order of their JSON
// pointers, so they do not change when the document's order changes.
//
// Swagger 2.0 documents are converted with openapi2conv, then repaired:
// collectionFormat becomes style/explode for every parameter location
// (csv: form or simple, ssv: spaceDelimited, pipes: pipeDelimited, multi:
// form with explode; tsv has no equivalent and becomes csv with a warning),
// and x-nullable on parameters becomes nullable. Parameters and responses
// that are $refs to other files are inlined before the conversion, which
// would otherwise read them as OpenAPI 3 objects and lose their type.
//
// OpenAPI 3.2 (openapi32.go): the QUERY method and additionalOperations
// are operations like the others. A stream response (text/event-stream,
// application/jsonl, application/x-ndjson, application/json-seq) makes a
// stream operation whose result type is one item's: the media type's
// itemSchema, else its schema (the items of an array schema); for an
// event stream, itemSchema describes the whole event and the item is its
// data property's contentSchema (plain text when data is a string without
// one). What 3.2 adds that is not read (a parameter in querystring, a
// media type $ref to components/mediaTypes, itemSchema of other media
// types such as multipart/mixed, itemEncoding, prefixEncoding) is left out
// with a warning where it is; a version after 3.2 is read as 3.2, with a
// warning.
//
// Result: the lowest 2xx status (exact before 2XX) with a body. When other
// success responses have a different body type, Operation.Result is a copy of
// that response whose type is raw JSON (ir.Any, no schema, so no output
// schema), and a warning says so.
//
// Null: a named type's Nullable says its own schema allows null. Where a use
// of a type adds null (oneOf [X, null], 3.0 nullable, type arrays), a field
// records it in Field.Nullable (an anonymous type also in Type.Nullable); in
// other places (array items, map values) null for a named type is dropped,
// as decoding null leaves a Go value at its zero value anyway.
//
// Objects: properties with additionalProperties true (not a schema) keep
// only the declared properties. Type.Doc.Origin of a named type is the JSON
// pointer of its schema ("#/components/schemas/Pet", prefixed by the file
// for other files).
//
// Parameters are identified by name and location: when two share a name
// (Trello's path and query "token"), the first (path, query, header,
// cookie) keeps it as its member of the registry input's "params" and the
// others are "in.name" (ir.Param.Key). Two API families get the query
// encoding their documentation gives where OpenAPI gives none: APIs.guru's
// AWS query-protocol services (awsQuery, awsEC2) and PandaScore, whose
// deepObject array members are one comma-separated value
// (deepObjectComma: "filter[name]=Brand,Twitch").
//
// Header parameters named Accept, Content-Type or Authorization are left
// out with a warning: OpenAPI 3 says such a parameter definition "SHALL be
// ignored" (the media types and the security schemes set those headers).
//
// Positions: Pos.Pointer is always set; Pos.Line and Col come from the
// YAML tree's positions (kin-openapi's Origin, for the files it reads).
// Diagnostics without a line get one from the source text when they are
// reported, by generator/jsonptr for JSON: columns count characters, and an
// object member is placed at its key, in JSON as in YAML. Warnings carry a
// diag.Kind saying what was lost.
package openapi
