// Package ir is the generator's intermediate representation: one model for
// OpenAPI documents and MCP tool listings. Loaders (generator/openapi,
// generator/mcptools) build it, their schemas converted to Types by
// generator/jsonschema; the emitter (generator/emit) turns it into Go.
//
// Every Go name in the generated package is decided here, once, by the
// loader and the schema stage: Type.Name, Field.Name, Operation.GoName,
// Operation.ParamsName, Body.Name, EnumValue.Name, Variant.Name,
// Response.ErrorName, ErrorType.Name. The emitter adds no exported names of
// its own except the fixed ones it documents (Client, NewClient, Option,
// ...), which loaders reserve (see Reserved).
//
// Slices in a Service are sorted (types and operations by Go name), so the
// emitter's output does not depend on the order of the source document.
//
// A Service is plain data, complete when a loader returns it. Its JSON
// Schemas are values (Schema) whose references point at the Def they
// name, so that renaming or merging types (MergeIdentical) moves pointers;
// the emitter writes each schema as JSON once.
package ir

import (
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
)

// SourceKind says what kind of document a Service came from.
type SourceKind int

const (
	// OpenAPI: an OpenAPI 3.0/3.1 or Swagger 2.0 document; operations are HTTP.
	OpenAPI SourceKind = iota
	// MCP: an MCP tools/list result; operations are tool calls.
	MCP
)

// Service is one source document.
type Service struct {
	Kind SourceKind
	// Source is the source path as given by the user (relative, slash-separated),
	// written into the generated header.
	Source      string
	Title       string
	Description string
	Version     string
	// ServerName and ProtocolVersion are, for an MCP listing that records
	// them (opsgen mcp snapshot), the server's serverInfo.name and the
	// protocol version of the session it was listed in; Title, Version and
	// Description then come from serverInfo too. The protocol version is
	// not used in generated code: it depends on the snapshot's transport.
	ServerName, ProtocolVersion string
	// Servers lists the document's servers; the first is the default base URL.
	Servers []Server
	// Types are the named types, sorted by Name.
	Types []*Type
	// Operations are sorted by GoName.
	Operations []*Operation
	// Webhooks are the requests the API sends to its clients: OpenAPI 3.1
	// webhooks and 3.0 callbacks, sorted by GoName. Each has Webhook set;
	// its Body is the payload and OutputSchema the payload's JSON Schema.
	Webhooks []*Operation
	// SecuritySchemes are sorted by Name.
	SecuritySchemes []*SecurityScheme
	// Security is the document-wide requirement (see Operation.Security).
	Security [][]string
	// Defs are the named JSON Schemas that schemas refer to (Schema.Ref):
	// the Def of every named type, and the defs MergeIdentical keeps under
	// the old names of merged types. The emitter writes each as an
	// opsgenimpl.Def, sorted by name, and the runtime compiles those a
	// schema reaches under "$defs" for normalization and validation.
	Defs []*Def
}

// Server is a base URL with variables.
type Server struct {
	URL         string
	Description string
	// Variables maps a {name} of URL to its default value.
	Variables map[string]string
}

// Kind is the shape of a Type.
type Kind int

const (
	// Any: any JSON value, emitted as json.RawMessage. Unsupported schemas
	// degrade to it (with a warning).
	Any Kind = iota
	Bool
	Int    // Format "int32" or "int64" (default int64)
	Float  // Format "float" or "double" (default float64)
	String // Format may be "uuid", "email", "uri", ... (still a string)
	// DateTime: format date-time, time.Time.
	DateTime
	// Date: format date, runtime.Date.
	Date
	// Bytes: format byte, base64 in JSON, []byte in Go.
	Bytes
	// Binary: format binary, a file or raw body: io.Reader for requests, []byte for responses.
	Binary
	// Array of Elem.
	Array
	// Map of string to Elem (additionalProperties without properties).
	Map
	// Struct: an object with Fields (and, when AdditionalProperties is set, an extra map).
	Struct
	// Enum: a named type over Base (String, Int or Float) with Values; unknown
	// values still decode.
	Enum
	// Union: oneOf/anyOf as a sum type over Variants.
	Union
	// Tuple: prefixItems, fixed positions Items, then optional Elem for the rest.
	Tuple
	// Null: a schema that only allows null.
	Null
)

// Type is a Go type to emit or refer to. Named types (Name != "") are
// declared once in the generated package; anonymous ones are written in place.
type Type struct {
	// Name is the Go name of a named type; "" for anonymous types.
	Name string
	Kind Kind
	Doc  Doc
	Pos  diag.Pos
	// Format is the schema's format, kept for the emitter's choices and docs.
	Format string
	// GoType, when set, is the Go type that holds the value instead of the
	// kind's: "import/path.Name" (net/netip.Addr) or a predeclared name.
	// It comes from x-go-type, the configuration's types mapping (by
	// format) or the built-in format table (generator/jsonschema).
	GoType string
	// Nullable says the schema allows null besides its kind.
	Nullable bool
	// Default is the schema's default value (decoded JSON), or nil.
	Default any
	// Const is set when the schema fixes the value (const, or a one-value enum).
	Const    any
	HasConst bool

	// Fields of a Struct, in the order the emitter writes them (sorted by JSON name
	// unless the loader kept the document's order deterministically).
	Fields []*Field
	// AdditionalProperties of a Struct or the value type of a Map.
	AdditionalProperties *Type
	// NonObject says a Struct's schema states no type (properties without
	// "type": "object"), so any JSON value that is not an object is valid
	// too (properties only constrain objects). The emitted struct keeps
	// such a value as it came, in a json.RawMessage field named
	// NonObjectField, and writes it back as is.
	NonObject bool
	// Elem of an Array, Map, or the rest of a Tuple.
	Elem *Type
	// Items of a Tuple.
	Items []*Type

	// Base kind and Values of an Enum.
	Base   Kind
	Values []*EnumValue

	// Variants of a Union; Discriminator is the property that selects one
	// (with each Variant's Tags), or "".
	Variants      []*Variant
	Discriminator string
	// AnyOf is set when the union came from anyOf (more than one variant may match).
	AnyOf bool
	// VariantKind is the Go name of a Union's string type naming its
	// variants (PetKind), whose constants are the Variants' Const.
	VariantKind string
	// ValueMatch is the Go name of a Union's generic function that, like
	// its Match method, calls the function of the variant it holds, and
	// returns that function's value (MatchPet).
	ValueMatch string

	// Def is a named type's definition in Service.Defs (its JSON Schema,
	// which references to the type point at); nil for anonymous types.
	Def *Def
}

// NonObjectField is the Go name of the field of a NonObject struct that
// holds a value that is not a JSON object; loaders reserve it among the
// struct's field names.
const NonObjectField = "NonObject"

// Named reports whether the type is declared under its own name.
func (t *Type) Named() bool { return t != nil && t.Name != "" }

// Field is a property of a Struct.
type Field struct {
	// Name is the Go field name; JSONName the property name on the wire.
	Name     string
	JSONName string
	Type     *Type
	Doc      Doc
	Pos      diag.Pos
	Required bool
	// Nullable says null is allowed as well as Type.
	Nullable   bool
	ReadOnly   bool
	WriteOnly  bool
	Deprecated bool
	// Default is the property's default (decoded JSON), or nil.
	Default any
}

// EnumValue is one value of an Enum.
type EnumValue struct {
	// Name is the Go constant name (type name + value, e.g. PetStatusAvailable).
	Name  string
	Value any
	Doc   string
}

// Variant is one member of a Union.
type Variant struct {
	// Name is the Go name of the variant's accessor/constructor suffix
	// (AsDog, PetFromDog), unique within the union: its discriminator
	// value, title, type name or JSON kind.
	Name string
	// Const is the Go name of the variant's constant of the union's
	// VariantKind type (DogPet).
	Const string
	// Constructor is the Go name of the function returning a union that
	// holds this variant (PetFromDog). Like Const it is allocated once in
	// the package namespace, so that it steps aside (PetFromDog2) for a
	// type that has the name already; the emitter only reads it.
	Constructor string
	Type        *Type
	// Tags are the discriminator values that select this variant.
	Tags []string
	// JSONKind is the JSON kind that can select it when there is no
	// discriminator: "object", "array", "string", "number", "integer", "boolean", "null".
	JSONKind string
	// Required are the properties whose presence selects it among objects.
	Required []string
}

// Doc is what the spec says about a node, for doc comments.
type Doc struct {
	Summary     string
	Description string
	Deprecated  bool
	// Origin ends the comment: `GET /pets/{id}` or `MCP tool "read_graph"`.
	Origin string
}

// OperationKind says how an operation is called.
type OperationKind int

const (
	// HTTPCall: an OpenAPI operation.
	HTTPCall OperationKind = iota
	// MCPTool: an MCP tools/call.
	MCPTool
)

// Operation is one remote operation: one generated method.
type Operation struct {
	Kind OperationKind
	// ID is the operation's id: the operationId (or a generated one), or the
	// MCP tool name. It is the id used by runtime.Registry and CallError.
	ID     string
	GoName string
	Doc    Doc
	Pos    diag.Pos
	Tags   []string

	// ParamsName is the Go name of the parameters struct (OpParams), or "" when
	// the operation has no parameters (and, for MCP, the name of the input type).
	ParamsName string
	Params     []*Param

	// HTTP only.
	Method string
	Path   string
	Body   *Body
	// Responses are sorted: exact statuses ascending, then ranges (2XX), then "default".
	Responses []*Response
	// Result is the success response that decides the method's data type,
	// or nil when no success response has a body (Data is then struct{}).
	Result *Response
	// Stream is set for stream results: text/event-stream and JSON
	// sequences (BodyJSONSeq); Result's type and schema are one item's.
	Stream bool
	// Security: nil means the document's; an empty, non-nil slice means none.
	// Each element is one alternative: the scheme names that must all apply.
	Security [][]string

	// MCP only.
	Tool *Tool

	// Webhook is set for an operation of Service.Webhooks.
	Webhook *Webhook

	// InputSchema and OutputSchema are the JSON Schemas of the operation's
	// input (an object of params and body, or the tool's inputSchema) and of its
	// result data; nil when there is none.
	InputSchema  *Schema
	OutputSchema *Schema
}

// Webhook is what a webhook or callback operation declares beyond an
// operation's fields.
type Webhook struct {
	// Name is the webhook's name, or "<operation id>/<callback name>" for a
	// callback.
	Name string
	// Expression is a callback's URL expression
	// ("{$request.body#/callbackUrl}"); "" for a webhook.
	Expression string
}

// ParamIn is where a parameter goes.
type ParamIn string

// Parameter locations.
const (
	InPath   ParamIn = "path"
	InQuery  ParamIn = "query"
	InHeader ParamIn = "header"
	InCookie ParamIn = "cookie"
)

// Param is one operation parameter (an HTTP parameter, or a property of an
// MCP tool's input object).
type Param struct {
	Name   string // on the wire
	GoName string // field of the params struct
	// Key is the parameter's member of the registry input's "params"
	// object: Name, unless another parameter of the operation has that
	// name in another location (then "in.name", see InputKey).
	Key string
	In  ParamIn
	// Style is form, simple, label, matrix, spaceDelimited, pipeDelimited or
	// deepObject, or one the loader picks for an API family: awsQuery,
	// awsEC2, deepObjectComma (see runtime/httpclient's Style).
	Style         string
	Explode       bool
	AllowReserved bool
	Required      bool
	Type          *Type
	Doc           Doc
	Pos           diag.Pos
	// ContentType is set when the parameter is given by content (JSON-encoded) instead of a schema.
	ContentType string
}

// InputKey returns p's member of the registry input's "params" object:
// Key, or Name when the loader set no Key.
func (p *Param) InputKey() string {
	if p.Key != "" {
		return p.Key
	}
	return p.Name
}

// BodyKind is how a request or response body is encoded.
type BodyKind int

const (
	BodyNone BodyKind = iota
	BodyJSON
	BodyForm      // application/x-www-form-urlencoded
	BodyMultipart // multipart/form-data
	BodyText      // text/*
	BodyBinary    // application/octet-stream and other media types
	BodyEventStream
	// BodyXML: application/xml, text/xml and +xml media types whose schema
	// is structured (an object, map, array or union): typed like JSON, sent
	// and read as XML. Other XML bodies are BodyText (text/xml) or BodyBinary.
	BodyXML
	BodyJSONSeq // application/jsonl, application/x-ndjson, application/json-seq: a stream of JSON values
)

// Body is a request body.
type Body struct {
	// Name is the Go name of the body's type when the loader had to invent one.
	Name      string
	MediaType string
	Kind      BodyKind
	Type      *Type
	Required  bool
	Doc       Doc
	// Encoding gives the content type of multipart parts by property name.
	Encoding map[string]string
	// Style is how a BodyForm body flattens lists and structures: "" for
	// FormBody's default, "awsQuery" or "awsEC2" for the AWS query
	// protocols' (httpclient.StyleAWSQuery, StyleAWSEC2).
	Style string
	// Schema is the JSON Schema of a BodyXML body (refs into Service.Defs),
	// which guides its XML form; nil for other kinds.
	Schema *Schema
}

// Response is one declared response.
type Response struct {
	// Status is "200", "2XX" or "default".
	Status    string
	MediaType string
	Kind      BodyKind
	// Type is the body's type, or nil when there is no body.
	Type *Type
	Doc  Doc
	// Schema is the body's JSON Schema, or nil.
	Schema *Schema
	// Headers are the names of the response headers the spec declares,
	// sorted, as written ("Link": the emitter detects Link pagination).
	Headers []string
	// ErrorName is the Go name of the error type for this status when the
	// status is an error one (not 2xx or 304); "" otherwise. It is the
	// operation's own type (OpNotFound, OpStatus4XX, OpDefault) for an
	// inline response, and Shared.Name for a reference to a component
	// response.
	ErrorName string
	// Shared is the error type of the component response this error
	// response refers to, one record shared by every operation and status
	// that refers to it; nil for an inline response.
	Shared *ErrorType
}

// ErrorType is the error type of a component response (OpenAPI's
// #/components/responses/NAME, Swagger 2.0's #/responses/NAME): one Go
// type serves every operation and error status whose response refers to
// it, instead of one type per operation and status.
type ErrorType struct {
	// Name is the Go name (NotFoundError for not_found).
	Name string
	// Component is the component response's name as the document writes it.
	Component string
	// Doc is the component response's description.
	Doc Doc
	// Pos is the component response's place.
	Pos diag.Pos
}

// Tool is what an MCP tool declares beyond its schemas.
type Tool struct {
	Name  string
	Title string
	// Annotations are the tool's hints; nil when not given.
	ReadOnly, Destructive, Idempotent, OpenWorld *bool
	// InputType is the type of the arguments object (named ParamsName), or nil for no arguments.
	InputType *Type
	// OutputType is the type of the structured content, or nil when the tool
	// declares no output schema (Data is then []runtime.ContentBlock).
	OutputType *Type
	// Convention is "", "toolenvelope-v1", "dotbot" or "auto".
	Convention string
	// TaskSupport is execution.taskSupport: "", "forbidden", "optional" or
	// "required" (task-augmented calls only).
	TaskSupport string
	// ParamHeaders are the x-mcp-header annotations of the input schema,
	// in path order.
	ParamHeaders []ParamHeader
}

// ParamHeader is an x-mcp-header annotation (MCP 2026-07-28): the argument
// at Path (property names from the arguments object down) is also sent as
// the HTTP header "Mcp-Param-<Header>".
type ParamHeader struct {
	Path   []string
	Header string
}

// SecurityScheme is a named way to authenticate.
type SecurityScheme struct {
	Name string // as in the document
	// GoName is the suffix of the generated option (WithBearerAuth...).
	GoName string
	// Type is "apiKey", "http", "oauth2", "openIdConnect" or "mutualTLS".
	Type string
	// Scheme is the HTTP scheme ("bearer", "basic") for Type "http".
	Scheme string
	// In and ParamName place an apiKey: In is "header", "query" or "cookie".
	In        string
	ParamName string
	Doc       Doc
}

// Filter selects operations. Empty lists select everything. A path pattern
// ending in "*" matches by prefix.
type Filter struct {
	IncludeTags       []string
	ExcludeTags       []string
	IncludeOperations []string
	ExcludeOperations []string
	IncludePaths      []string
	ExcludePaths      []string
}

// MatchPattern reports whether s is one of patterns, where a pattern ending
// in "*" matches by prefix (the form of Filter's lists).
func MatchPattern(patterns []string, s string) bool {
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "*"); ok && strings.HasPrefix(s, prefix) || p == s {
			return true
		}
	}
	return false
}

// Reserved lists the exported names the emitter declares itself; loaders
// must not give these to types.
var Reserved = []string{
	"Client", "NewClient", "Option", "CallOption", "RuntimeVersion",
	"Register", "Schemas", "ServerURL", "TypedError",
	// Options of MCP clients (generator/emit/mcp.go).
	"WithMiddleware", "WithBeforeCall", "WithAfterResult", "WithTimeout", "WithProgress",
	"WithMeta", "WithCallTimeout", "Invoker", "Middleware", "Progress",
	// Options re-exported by generated clients (generator/emit).
	"WithBaseURL", "WithHTTPClient", "WithValidation", "WithLogger", "WithWarningHook",
	"WithHeader", "WithUserAgent", "WithMaxBodyBytes", "WithRequestHeader",
	"WithRequestEditor", "WithCallValidation", "WithCallBaseURL", "WithConvention",
	"WithMiddleware", "WithBeforeRequest", "WithAfterResponse", "WithRetry", "WithTimeout",
	"WithOperationTimeout", "WithReconnect", "WithCallTimeout", "WithCallRetry", "WithCallReconnect",
	"WithRemote", "WithRawBody", "WithIdempotencyKeys",
	// The webhook receiver (generator/emit/webhooks.go).
	"WebhookHandler", "NewWebhookMux", "RegisterWebhooks",
}

// ReservedMethods lists the methods of Client the emitter declares itself;
// loaders must not give these to operations (Operation.GoName).
var ReservedMethods = []string{"Register", "Runtime"} // Runtime: of a split API (emit/split.go)
