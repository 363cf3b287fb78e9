package emit

import (
	"maps"
	"slices"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

func ptrBool(b bool) *bool { return &b }

// testDefs are the defs of a hand-built service, by name.
type testDefs map[string]*ir.Def

// declare gives each of types a def named after it.
func (d testDefs) declare(types ...*ir.Type) {
	for _, t := range types {
		t.Def = &ir.Def{Name: t.Name}
		d[t.Name] = t.Def
	}
}

// schema decodes JSON text into a schema whose references to
// "#/$defs/<Name>" point at the defs declared.
func (d testDefs) schema(text string) *ir.Schema {
	s, err := ir.DecodeSchema([]byte(text), func(name string) *ir.Def { return d[name] })
	if err != nil {
		panic(err)
	}
	return s
}

// list returns the defs sorted by name.
func (d testDefs) list() []*ir.Def {
	var out []*ir.Def
	for _, name := range slices.Sorted(maps.Keys(d)) {
		out = append(out, d[name])
	}
	return out
}

func pos(ptr string) diag.Pos { return diag.Pos{File: "specs/petstore.yaml", Pointer: ptr} }

// petstore builds, by hand, the IR of a petstore-like HTTP service that
// exercises every construct the emitter supports.
func petstore() *ir.Service {
	str := &ir.Type{Kind: ir.String}
	i64 := &ir.Type{Kind: ir.Int}
	i32 := &ir.Type{Kind: ir.Int, Format: "int32"}
	defs := testDefs{}
	ref := func(name string) *ir.Schema { return ir.RefTo(defs[name]) }

	status := &ir.Type{Name: "PetStatus", Kind: ir.Enum, Base: ir.String, Pos: pos("/components/schemas/PetStatus"),
		Doc: ir.Doc{Description: "Status of a pet in the store.", Origin: "#/components/schemas/PetStatus"},
		Values: []*ir.EnumValue{
			{Name: "PetStatusAvailable", Value: "available", Doc: "Ready to go."},
			{Name: "PetStatusPending", Value: "pending"},
			{Name: "PetStatusSold", Value: "sold"},
			{Value: nil},
		}}
	priority := &ir.Type{Name: "Priority", Kind: ir.Enum, Base: ir.Int, Values: []*ir.EnumValue{
		{Name: "Priority1", Value: float64(1)}, {Name: "Priority2", Value: float64(2)},
	}}
	ratio := &ir.Type{Name: "Ratio", Kind: ir.Enum, Base: ir.Float, Values: []*ir.EnumValue{
		{Name: "RatioHalf", Value: 0.5}, {Name: "RatioOne", Value: float64(1)},
	}}
	category := &ir.Type{Name: "Category", Kind: ir.Struct, Doc: ir.Doc{Summary: "A category.", Origin: "#/components/schemas/Category"}}
	category.Fields = []*ir.Field{
		{Name: "ID", JSONName: "id", Type: i64, Required: true},
		{Name: "Name", JSONName: "name", Type: str, Required: true},
		// Recursion by value: must become a pointer.
		{Name: "Parent", JSONName: "parent", Type: category, Required: true},
		{Name: "Children", JSONName: "children", Type: &ir.Type{Kind: ir.Array, Elem: category}},
	}
	tags := &ir.Type{Name: "Tags", Kind: ir.Map, Elem: str}
	tree := &ir.Type{Name: "Tree", Kind: ir.Array}
	tree.Elem = tree
	circle := &ir.Type{Name: "Circle", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Kind", JSONName: "kind", Type: str, Required: true},
		{Name: "Radius", JSONName: "radius", Type: &ir.Type{Kind: ir.Float}, Required: true},
	}}
	square := &ir.Type{Name: "Square", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Kind", JSONName: "kind", Type: str, Required: true},
		{Name: "Side", JSONName: "side", Type: &ir.Type{Kind: ir.Float, Format: "float"}, Required: true},
	}}
	shape := &ir.Type{Name: "Shape", Kind: ir.Union, Discriminator: "kind", Variants: []*ir.Variant{
		{Name: "Circle", Type: circle, Tags: []string{"circle"}, JSONKind: "object"},
		{Name: "Square", Type: square, Tags: []string{"square"}, JSONKind: "object"},
	}}
	idOrName := &ir.Type{Name: "IDOrName", Kind: ir.Union, AnyOf: true, Variants: []*ir.Variant{
		{Name: "Int", Type: i64, JSONKind: "integer"},
		{Name: "String", Type: str, JSONKind: "string"},
		{Name: "Circle", Type: circle, JSONKind: "object", Required: []string{"radius"}},
	}}
	point := &ir.Type{Name: "Point", Kind: ir.Tuple, Items: []*ir.Type{&ir.Type{Kind: ir.Float}, &ir.Type{Kind: ir.Float}}, Elem: str}
	pair := &ir.Type{Name: "Pair", Kind: ir.Tuple, Items: []*ir.Type{str, i32}}
	when := &ir.Type{Name: "When", Kind: ir.DateTime}
	blob := &ir.Type{Name: "Blob", Kind: ir.Any}
	apiErr := &ir.Type{Name: "Error", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Code", JSONName: "code", Type: i32, Required: true},
		{Name: "Message", JSONName: "message", Type: str, Required: true},
	}}
	pet := &ir.Type{Name: "Pet", Kind: ir.Struct, Pos: pos("/components/schemas/Pet"),
		Doc:                  ir.Doc{Summary: "A pet.", Description: "A pet for sale.\n\nIt has a name.", Origin: "#/components/schemas/Pet"},
		AdditionalProperties: str}
	pet.Fields = []*ir.Field{
		{Name: "ID", JSONName: "id", Type: i64, Required: true, ReadOnly: true},
		{Name: "Name", JSONName: "name", Type: str, Required: true, Doc: ir.Doc{Description: "The pet's name."}},
		{Name: "Status", JSONName: "status", Type: status},
		{Name: "Category", JSONName: "category", Type: category},
		{Name: "Nickname", JSONName: "nickname", Type: str, Required: true, Nullable: true},
		{Name: "Born", JSONName: "born", Type: &ir.Type{Kind: ir.Date}},
		{Name: "Updated", JSONName: "updated", Type: &ir.Type{Kind: ir.DateTime}, Required: true},
		{Name: "Photo", JSONName: "photo", Type: &ir.Type{Kind: ir.Bytes}},
		{Name: "Tags", JSONName: "tags", Type: tags},
		{Name: "Extra", JSONName: "extra", Type: &ir.Type{Kind: ir.Any}},
		{Name: "Shape", JSONName: "shape", Type: shape},
		{Name: "Weight", JSONName: "weight", Type: &ir.Type{Kind: ir.Float}, Default: 1.5, Deprecated: true},
		{Name: "Owner", JSONName: "owner", Type: &ir.Type{Kind: ir.Struct, Fields: []*ir.Field{
			{Name: "Name", JSONName: "name", Type: str},
		}}},
		{Name: "Location", JSONName: "location", Type: point},
		{Name: "Nothing", JSONName: "nothing", Type: &ir.Type{Kind: ir.Null}},
		{Name: "Dash", JSONName: "-", Type: str},
	}
	upload := &ir.Type{Name: "UploadForm", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "File", JSONName: "file", Type: &ir.Type{Kind: ir.Binary}, Required: true},
		{Name: "Note", JSONName: "note", Type: str},
		{Name: "Meta", JSONName: "meta", Type: tags},
	}}
	search := &ir.Type{Name: "SearchForm", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Q", JSONName: "q", Type: str, Required: true},
		{Name: "Limit", JSONName: "limit", Type: i32},
	}}
	event := &ir.Type{Name: "Event", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Type", JSONName: "type", Type: str, Required: true},
		{Name: "At", JSONName: "at", Type: when},
	}}

	types := []*ir.Type{apiErr, blob, category, circle, event, idOrName, pair, pet, status, point, priority, ratio, search, shape, square, tags, tree, upload, when}
	defs.declare(types...)
	for _, t := range types {
		t.Def.Schema = defs.schema(`{"type":"object","x-name":"` + t.Name + `"}`)
	}
	defs["Pet"].Schema = defs.schema(`{"type": "object", "properties": {"category": {"$ref": "#/$defs/Category"}}}`)
	defs["Category"].Schema = defs.schema(`{"type":"object","properties":{"parent":{"$ref":"#/$defs/Category"}}}`)

	errResp := func(status string) *ir.Response {
		return &ir.Response{Status: status, MediaType: "application/json", Kind: ir.BodyJSON, Type: apiErr, Schema: ref("Error")}
	}
	petResp := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: pet, Schema: ref("Pet")}
	listResp := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: &ir.Type{Kind: ir.Array, Elem: pet}, Schema: defs.schema(`{"type":"array","items":{"$ref":"#/$defs/Pet"}}`)}
	textResp := &ir.Response{Status: "200", MediaType: "text/plain", Kind: ir.BodyText, Type: str}
	binResp := &ir.Response{Status: "200", MediaType: "image/png", Kind: ir.BodyBinary, Type: &ir.Type{Kind: ir.Binary}}
	streamResp := &ir.Response{Status: "200", MediaType: "text/event-stream", Kind: ir.BodyEventStream, Type: event, Schema: ref("Event")}
	noContent := &ir.Response{Status: "204"}

	ops := []*ir.Operation{
		{ID: "getPet", GoName: "GetPet", Method: "get", Path: "/pets/{petId}/{label}", ParamsName: "GetPetParams",
			Doc: ir.Doc{Summary: "Find pet by ID", Description: "Returns a single pet.", Origin: "GET /pets/{petId}"},
			Params: []*ir.Param{
				{Name: "petId", GoName: "PetID", In: ir.InPath, Style: "simple", Required: true, Type: i64, Doc: ir.Doc{Description: "ID of the pet."}},
				{Name: "X-Request-ID", GoName: "XRequestID", In: ir.InHeader, Style: "simple", Type: str},
				{Name: "session", GoName: "Session", In: ir.InCookie, Style: "form", Explode: true, Type: str},
				{Name: "fields", GoName: "Fields", In: ir.InQuery, Style: "form", Explode: false, Type: &ir.Type{Kind: ir.Array, Elem: str}},
				{Name: "filter", GoName: "Filter", In: ir.InQuery, ContentType: "application/json", Type: tags},
				{Name: "deep", GoName: "Deep", In: ir.InQuery, Style: "deepObject", Explode: true, AllowReserved: true, Type: search},
				{Name: "label", GoName: "Label", In: ir.InPath, Style: "label", Required: true, Type: status},
			},
			Responses: []*ir.Response{petResp, errResp("404"), errResp("default")}, Result: petResp,
			InputSchema:  defs.schema(`{"type":"object","properties":{"params":{"type":"object"}}}`),
			OutputSchema: ref("Pet")},
		{ID: "listPets", GoName: "ListPets", Method: "GET", Path: "/pets", ParamsName: "ListPetsParams",
			Doc: ir.Doc{Summary: "List pets", Origin: "GET /pets"}, Security: [][]string{},
			Params: []*ir.Param{
				{Name: "limit", GoName: "Limit", In: ir.InQuery, Style: "form", Explode: true, Type: i32},
				{Name: "status", GoName: "Status", In: ir.InQuery, Style: "pipeDelimited", Type: &ir.Type{Kind: ir.Array, Elem: status}},
				{Name: "since", GoName: "Since", In: ir.InQuery, Type: &ir.Type{Kind: ir.DateTime}},
			},
			Responses: []*ir.Response{listResp, {Status: "4XX", MediaType: "application/json", Kind: ir.BodyJSON, Type: apiErr, Schema: ref("Error")}}, Result: listResp,
			OutputSchema: listResp.Schema},
		{ID: "addPet", GoName: "AddPet", Method: "POST", Path: "/pets",
			Doc:       ir.Doc{Summary: "Add a pet", Deprecated: true, Origin: "POST /pets"},
			Body:      &ir.Body{MediaType: "application/json", Kind: ir.BodyJSON, Type: pet, Required: true},
			Responses: []*ir.Response{petResp, errResp("default")}, Result: petResp,
			Security:    [][]string{{"oauth"}, {"apiKey", "basic"}, {}},
			InputSchema: defs.schema(`{"type":"object","properties":{"body":{"$ref":"#/$defs/Pet"}}}`), OutputSchema: ref("Pet")},
		{ID: "updatePet", GoName: "UpdatePet", Method: "PATCH", Path: "/pets",
			Doc:       ir.Doc{Origin: "PATCH /pets"},
			Body:      &ir.Body{MediaType: "application/merge-patch+json", Kind: ir.BodyJSON, Type: pet},
			Responses: []*ir.Response{noContent}},
		{ID: "searchPets", GoName: "SearchPets", Method: "POST", Path: "/pets/search",
			Doc:       ir.Doc{Origin: "POST /pets/search"},
			Body:      &ir.Body{MediaType: "application/x-www-form-urlencoded", Kind: ir.BodyForm, Type: search, Required: true},
			Responses: []*ir.Response{listResp}, Result: listResp},
		{ID: "uploadPhoto", GoName: "UploadPhoto", Method: "POST", Path: "/pets/{petId}/photo", ParamsName: "UploadPhotoParams",
			Doc:       ir.Doc{Origin: "POST /pets/{petId}/photo"},
			Params:    []*ir.Param{{Name: "petId", GoName: "PetID", In: ir.InPath, Required: true, Type: i64}},
			Body:      &ir.Body{MediaType: "multipart/form-data", Kind: ir.BodyMultipart, Type: upload, Required: true, Encoding: map[string]string{"meta": "application/json"}},
			Responses: []*ir.Response{noContent}},
		{ID: "putPhoto", GoName: "PutPhoto", Method: "PUT", Path: "/photo",
			Doc:       ir.Doc{Origin: "PUT /photo"},
			Body:      &ir.Body{MediaType: "image/png", Kind: ir.BodyBinary, Type: &ir.Type{Kind: ir.Binary}, Required: true},
			Responses: []*ir.Response{noContent}},
		{ID: "getPhoto", GoName: "GetPhoto", Method: "GET", Path: "/photo",
			Doc:       ir.Doc{Origin: "GET /photo"},
			Responses: []*ir.Response{binResp}, Result: binResp},
		{ID: "setNote", GoName: "SetNote", Method: "PUT", Path: "/note",
			Doc:       ir.Doc{Origin: "PUT /note"},
			Body:      &ir.Body{MediaType: "text/plain", Kind: ir.BodyText, Type: str},
			Responses: []*ir.Response{textResp}, Result: textResp},
		{ID: "watchPets", GoName: "WatchPets", Method: "GET", Path: "/pets/events", Stream: true,
			Doc:       ir.Doc{Summary: "Watch pets", Origin: "GET /pets/events"},
			Responses: []*ir.Response{streamResp, errResp("default")}, Result: streamResp},
	}
	schemes := []*ir.SecurityScheme{
		{Name: "apiKey", GoName: "APIKey", Type: "apiKey", In: "header", ParamName: "X-API-Key", Doc: ir.Doc{Description: "Key from the dashboard."}},
		{Name: "basic", GoName: "BasicAuth", Type: "http", Scheme: "basic"},
		{Name: "bearer", GoName: "BearerAuth", Type: "http", Scheme: "bearer"},
		{Name: "oauth", GoName: "OAuth", Type: "oauth2"},
		{Name: "mtls", GoName: "MTLS", Type: "mutualTLS"},
	}
	return &ir.Service{
		Kind: ir.OpenAPI, Source: "specs/petstore.yaml", Title: "Swagger Petstore", Version: "1.0.0",
		Description: "A sample API that uses a petstore as an example.",
		Servers: []ir.Server{{URL: "https://{region}.petstore.example/{version}", Description: "Production",
			Variables: map[string]string{"region": "eu", "version": "v2"}}},
		Types: types, Operations: ops, SecuritySchemes: schemes,
		Security: [][]string{{"bearer"}},
		Defs:     defs.list(),
	}
}

// mcpService builds the IR of an MCP server with tools with and without
// input and output schemas.
func mcpService() *ir.Service {
	str := &ir.Type{Kind: ir.String}
	weather := &ir.Type{Name: "Weather", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Temperature", JSONName: "temperature", Type: &ir.Type{Kind: ir.Float}, Required: true},
		{Name: "Conditions", JSONName: "conditions", Type: str, Required: true},
		{Name: "Humidity", JSONName: "humidity", Type: &ir.Type{Kind: ir.Int}, Required: true},
	}}
	weatherIn := &ir.Type{Name: "GetWeatherParams", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "City", JSONName: "city", Type: str, Required: true},
		{Name: "Units", JSONName: "units", Type: str},
	}}
	echoIn := &ir.Type{Kind: ir.Struct, Fields: []*ir.Field{{Name: "Text", JSONName: "text", Type: str, Required: true}}}
	defs := testDefs{}
	defs.declare(weather, weatherIn)
	weather.Def.Schema = defs.schema(`{"type":"object"}`)
	weatherIn.Def.Schema = defs.schema(`{"type":"object"}`)
	return &ir.Service{
		Kind: ir.MCP, Source: "specs/tools.json", Title: "Test server",
		Types: []*ir.Type{weather, weatherIn},
		Defs:  defs.list(),
		Operations: []*ir.Operation{
			{Kind: ir.MCPTool, ID: "get_weather", GoName: "GetWeather", ParamsName: "GetWeatherParams",
				Doc:          ir.Doc{Description: "Current weather for a city.", Origin: `MCP tool "get_weather"`},
				Tool:         &ir.Tool{Name: "get_weather", Title: "Get weather", ReadOnly: ptrBool(true), OpenWorld: ptrBool(false), InputType: weatherIn, OutputType: weather},
				InputSchema:  defs.schema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
				OutputSchema: ir.RefTo(weather.Def)},
			{Kind: ir.MCPTool, ID: "echo", GoName: "Echo", ParamsName: "EchoParams",
				Doc:         ir.Doc{Description: "Echoes its input.", Origin: `MCP tool "echo"`},
				Tool:        &ir.Tool{Name: "echo", InputType: echoIn, Destructive: ptrBool(false), Idempotent: ptrBool(true)},
				InputSchema: defs.schema(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
			{Kind: ir.MCPTool, ID: "read-graph.v2", GoName: "ReadGraphV2",
				Doc:  ir.Doc{Origin: `MCP tool "read-graph.v2"`},
				Tool: &ir.Tool{Name: "read-graph.v2", InputType: &ir.Type{Kind: ir.Struct}, Convention: "auto"}},
		},
	}
}
