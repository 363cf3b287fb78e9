package openapi_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

func TestPetstore(t *testing.T) {
	svc, diags := load(t, "petstore.json", openapi.Options{})
	if len(diags) != 0 {
		t.Errorf("unexpected diagnostics: %v", diags)
	}
	equal(t, "Kind", svc.Kind, ir.OpenAPI)
	equal(t, "Source", svc.Source, specDir+"petstore.json")
	equal(t, "Title", svc.Title, "Petstore")
	equal(t, "Version", svc.Version, "1.0.0")
	if len(svc.Servers) != 1 || svc.Servers[0].URL != "https://{env}.example.com/v1" || svc.Servers[0].Variables["env"] != "api" {
		t.Errorf("Servers = %+v", svc.Servers)
	}

	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	equalSlice(t, "types", names, []string{"CreatePetBody", "Error", "ListPetsStatus", "Pet", "PetOwner", "PetStatus"})

	pet := typ(t, svc, "Pet")
	equal(t, "Pet.Kind", pet.Kind, ir.Struct)
	equal(t, "Pet.Pos.Pointer", pet.Pos.Pointer, "/components/schemas/Pet")
	equal(t, "Pet.Doc.Origin", pet.Doc.Origin, "#/components/schemas/Pet")
	equalSlice(t, "Pet fields", fields(pet), []string{
		"Born:born:datetime/date-time", "ID:id:int/int64:req", "Name:name:string:req",
		"Owner:owner:PetOwner", "Status:status:PetStatus", "Tag:tag:string",
	})
	equal(t, "Pet.name doc", field(t, pet, "name").Doc.Description, "The pet's name")
	equalSlice(t, "PetOwner fields", fields(typ(t, svc, "PetOwner")), []string{"HomeURL:home_url:string/uri", "UserID:user_id:string"})
	equalJSON(t, "Pet schema", pet.Def, `{"type":"object","required":["id","name"],"properties":{
		"born":{"type":"string","format":"date-time"},"id":{"type":"integer","format":"int64"},
		"name":{"type":"string"},"owner":{"$ref":"#/$defs/PetOwner"},"status":{"$ref":"#/$defs/PetStatus"},"tag":{"type":"string"}}}`)
	equalJSON(t, "Defs[Pet]", svc.Def("Pet"), pet.Def.Schema.String())

	st := typ(t, svc, "PetStatus")
	equal(t, "PetStatus.Kind", st.Kind, ir.Enum)
	equal(t, "PetStatus.Base", st.Base, ir.String)
	equal(t, "PetStatus.Default", st.Default, any("available"))
	var vals []string
	for _, v := range st.Values {
		vals = append(vals, v.Name+"="+v.Value.(string))
	}
	equalSlice(t, "PetStatus values", vals, []string{"PetStatusAvailable=available", "PetStatusPending=pending", "PetStatusSold=sold"})

	var opNames []string
	for _, o := range svc.Operations {
		opNames = append(opNames, o.GoName)
	}
	equalSlice(t, "operations", opNames, []string{"CreatePet", "DeletePetsPetID", "ListPets", "ShowPetByID"})

	list := op(t, svc, "listPets")
	equal(t, "listPets.Method", list.Method, "GET")
	equal(t, "listPets.Path", list.Path, "/pets")
	equal(t, "listPets.Doc.Summary", list.Doc.Summary, "List all pets")
	equal(t, "listPets.Doc.Origin", list.Doc.Origin, "GET /pets")
	equal(t, "listPets.ParamsName", list.ParamsName, "ListPetsParams")
	equalSlice(t, "listPets.Tags", list.Tags, []string{"pets"})
	if list.Security != nil {
		t.Errorf("listPets.Security = %v, want nil (document default)", list.Security)
	}
	if len(list.Params) != 2 || list.Params[1].Type.Name != "ListPetsStatus" {
		t.Fatalf("listPets params = %+v", list.Params)
	}
	equal(t, "limit format", list.Params[0].Type.Format, "int32")
	equal(t, "result", list.Result, list.Responses[0])
	equal(t, "result type", ts(list.Result.Type), "array[Pet]")
	equal(t, "default status", list.Responses[1].Status, "default")
	equal(t, "default type", list.Responses[1].Type.Name, "Error")
	equalJSON(t, "listPets.OutputSchema", list.OutputSchema, `{"type":"array","items":{"$ref":"#/$defs/Pet"}}`)
	equalJSON(t, "listPets.InputSchema", list.InputSchema, `{"type":"object","properties":{"params":{"type":"object","properties":{
		"limit":{"type":"integer","format":"int32","maximum":100},"status":{"$ref":"#/$defs/ListPetsStatus"}}}}}`)

	create := op(t, svc, "createPet")
	if create.Security == nil || len(create.Security) != 0 {
		t.Errorf("createPet.Security = %#v, want empty non-nil", create.Security)
	}
	equal(t, "createPet.ParamsName", create.ParamsName, "")
	if create.Body == nil || create.Body.Name != "CreatePetBody" || create.Body.Kind != ir.BodyJSON || !create.Body.Required {
		t.Fatalf("createPet body = %+v", create.Body)
	}
	equalSlice(t, "CreatePetBody fields", fields(create.Body.Type), []string{"Name:name:string:req", "Tag:tag:string?:null"})
	equalJSON(t, "createPet.InputSchema", create.InputSchema, `{"type":"object","required":["body"],"properties":{"body":{"$ref":"#/$defs/CreatePetBody"}}}`)
	equalJSON(t, "CreatePetBody schema", svc.Def("CreatePetBody"), `{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"tag":{"type":["string","null"]}}}`)

	show := op(t, svc, "showPetById")
	equal(t, "showPetById.GoName", show.GoName, "ShowPetByID")
	equal(t, "deprecated", show.Doc.Deprecated, true)
	equal(t, "path param from path item", show.Params[0].Name, "petId")
	equal(t, "path param style", show.Params[0].Style, "simple")
	equal(t, "path param required", show.Params[0].Required, true)
	equal(t, "404 type", show.Responses[1].Type.Name, "Error")

	del := op(t, svc, "DeletePetsPetID")
	if del.Result != nil || del.OutputSchema != nil {
		t.Errorf("no-body success: Result = %+v", del.Result)
	}

	if len(svc.Security) != 1 || svc.Security[0][0] != "apiKey" {
		t.Errorf("Security = %v", svc.Security)
	}
	if len(svc.SecuritySchemes) != 1 {
		t.Fatalf("SecuritySchemes = %+v", svc.SecuritySchemes)
	}
	ss := svc.SecuritySchemes[0]
	if ss.Name != "apiKey" || ss.GoName != "APIKey" || ss.Type != "apiKey" || ss.In != "header" || ss.ParamName != "X-API-Key" {
		t.Errorf("scheme = %+v", ss)
	}
}

func TestSchemas31(t *testing.T) {
	svc, diags := load(t, "schemas31.yaml", openapi.Options{})
	if len(diags) != 0 {
		t.Errorf("unexpected diagnostics: %v", diags)
	}
	thing := typ(t, svc, "Thing")
	equal(t, "Thing line", thing.Pos.Line, 18)
	equalSlice(t, "Thing fields", fields(thing), []string{
		"ID:id:string/uuid:req", "Kind:kind:string:req", "Label:label:string?:null", "Nested:nested:Nested",
		"Point:point:tuple(float/double,float;<nil>)", "Score:score:ThingScore", "Size:size:int",
	})
	kind := field(t, thing, "kind").Type
	if !kind.HasConst || kind.Const != "thing" {
		t.Errorf("kind const = %v %v", kind.HasConst, kind.Const)
	}
	score := typ(t, svc, "ThingScore")
	equal(t, "score kind", score.Kind, ir.Union)
	if len(score.Variants) != 2 || score.Variants[0].JSONKind != "integer" || score.Variants[1].JSONKind != "string" || score.Variants[0].Name != "Integer" {
		t.Errorf("score variants = %+v %+v", score.Variants[0], score.Variants[1])
	}
	n := typ(t, svc, "Nullable31")
	equal(t, "Nullable31.Nullable", n.Nullable, true)
	equal(t, "Nullable31.Kind", n.Kind, ir.Struct)
	equalJSON(t, "Thing schema", thing.Def, `{"type":"object","required":["kind","id"],"properties":{
		"id":{"type":"string","format":"uuid"},"kind":{"const":"thing"},"label":{"type":["string","null"]},
		"nested":{"$ref":"#/$defs/Nested"},"point":{"type":"array","prefixItems":[{"type":"number","format":"double"},{"type":"number"}],"items":false},
		"score":{"$ref":"#/$defs/ThingScore"},"size":{"type":"integer","exclusiveMinimum":0}}}`)
	equalSlice(t, "Nested fields", fields(typ(t, svc, "Nested")), []string{"Depth:depth:int"})
}

func TestComposition(t *testing.T) {
	svc, diags := load(t, "composition.yaml", openapi.Options{})
	if !hasDiag(diags, "composition.yaml", 96, "/components/schemas/BadAllOf/allOf/1", "allOf part is not an object schema") {
		t.Errorf("missing BadAllOf warning in %v", diags)
	}
	if !hasDiag(diags, "composition.yaml", 133, "/components/schemas/Mixed", "enum mixes values of different kinds") {
		t.Errorf("missing Mixed warning in %v", diags)
	}
	equal(t, "diagnostics", len(diags), 2)
	equal(t, "BadAllOf kind", typ(t, svc, "BadAllOf").Kind, ir.Any)
	equal(t, "Mixed kind", typ(t, svc, "Mixed").Kind, ir.Any)

	dog := typ(t, svc, "Dog")
	equalSlice(t, "Dog fields (allOf merged)", fields(dog), []string{
		"Bark:bark:bool:req", "Created:created:datetime/date-time", "ID:id:int:req", "PetType:petType:string:req",
	})
	equal(t, "Cat.lives default", field(t, typ(t, svc, "Cat"), "lives").Default, any(float64(9)))

	pet := typ(t, svc, "Pet")
	equal(t, "Pet kind", pet.Kind, ir.Union)
	equal(t, "Pet discriminator", pet.Discriminator, "petType")
	equal(t, "Pet anyOf", pet.AnyOf, false)
	if len(pet.Variants) != 2 {
		t.Fatalf("Pet variants = %+v", pet.Variants)
	}
	equal(t, "Pet variant 0", pet.Variants[0].Type, dog)
	equal(t, "Pet variant 0 name", pet.Variants[0].Name, "Dog")
	equalSlice(t, "Dog tags", pet.Variants[0].Tags, []string{"dog", "doggo"})
	equalSlice(t, "Cat tags", pet.Variants[1].Tags, []string{"cat"})
	equalSlice(t, "Dog required", pet.Variants[0].Required, []string{"bark", "id", "petType"})
	imp := typ(t, svc, "Implicit")
	equalSlice(t, "implicit Dog tags", imp.Variants[0].Tags, []string{"Dog"})
	equalSlice(t, "implicit Cat tags", imp.Variants[1].Tags, []string{"Cat"})

	partly := typ(t, svc, "PartlyMapped")
	equalSlice(t, "mapped Dog tags", partly.Variants[0].Tags, []string{"woof"})
	equalSlice(t, "implicitly mapped Cat tags", partly.Variants[1].Tags, []string{"Cat"})

	shape := typ(t, svc, "ByShape")
	equal(t, "ByShape anyOf", shape.AnyOf, true)
	var kinds []string
	for _, v := range shape.Variants {
		kinds = append(kinds, v.Name+":"+v.JSONKind)
	}
	equalSlice(t, "ByShape variants", kinds, []string{"String:string", "Integer:integer", "Base:object"})
	equalSlice(t, "ByShape Base required", shape.Variants[2].Required, []string{"id"})

	maybe := typ(t, svc, "MaybeBase")
	equal(t, "MaybeBase nullable", maybe.Nullable, true)
	equal(t, "MaybeBase kind", maybe.Kind, ir.Struct)
	equalSlice(t, "Holder fields", fields(typ(t, svc, "Holder")), []string{"Either:either:Cat:null", "Maybe:maybe:Base:null"})
	equalJSON(t, "Holder schema", typ(t, svc, "Holder").Def, `{"type":"object","properties":{
		"either":{"anyOf":[{"$ref":"#/$defs/Cat"},{"type":"null"}]},
		"maybe":{"anyOf":[{"allOf":[{"$ref":"#/$defs/Base"}]},{"type":"null"}]}}}`)

	node := typ(t, svc, "Node")
	if field(t, node, "parent").Type != node || field(t, node, "children").Type.Elem != node {
		t.Error("recursive Node does not refer to itself")
	}
	equal(t, "Tree.root", field(t, typ(t, svc, "Tree"), "root").Type, node)

	extra := typ(t, svc, "Extra")
	equal(t, "Extra kind", extra.Kind, ir.Struct)
	equal(t, "Extra extra", ts(extra.AdditionalProperties), "int")
	labels := typ(t, svc, "Labels")
	equal(t, "Labels kind", labels.Kind, ir.Map)
	equal(t, "Labels elem", ts(labels.Elem), "string")

	var vals []string
	for _, v := range typ(t, svc, "Color").Values {
		vals = append(vals, v.Name)
	}
	equalSlice(t, "Color constants", vals, []string{"ColorRed", "ColorGreen", "ColorLightBlue", "ColorLightBlue2", "ColorValue5", "ColorValue6", "Color2x"})
	code := typ(t, svc, "Code")
	equal(t, "Code base", code.Base, ir.Int)
	equal(t, "Code value", code.Values[0].Value, any(int64(200)))
	equal(t, "Code const name", code.Values[1].Name, "Code404")
	equal(t, "Ratio base", typ(t, svc, "Ratio").Base, ir.Float)
	ne := typ(t, svc, "NullableEnum")
	if !ne.Nullable || len(ne.Values) != 1 || !ne.HasConst {
		t.Errorf("NullableEnum = %+v", ne)
	}
	equalJSON(t, "NullableEnum schema", ne.Def, `{"type":["string","null"],"enum":["x",null]}`)

	equalSlice(t, "Formats", fields(typ(t, svc, "Formats")), []string{
		"Day:day:date/date", "Email:email:string/email", "F32:f32:float/float", "F64:f64:float/double",
		"File:file:binary/binary", "Free:free:any", "I32:i32:int/int32", "I64:i64:int/int64",
		"Obj:obj:map[any]", "Raw:raw:bytes/byte", "When:when:datetime/date-time",
	})
	equalSlice(t, "x-go-name", fields(typ(t, svc, "BetterName")), []string{
		"X1st:1st:string", "Type:Type:string", "Type2:type:string", "Fine:weird_field:string",
	})
}

func TestSwagger(t *testing.T) {
	svc, diags := load(t, "swagger.yaml", openapi.Options{})
	if !hasDiag(diags, "swagger.yaml", 52, "/paths/~1items~1{ids}/get/parameters/5", `collectionFormat "tsv"`) {
		t.Errorf("missing tsv warning in %v", diags)
	}
	equal(t, "diagnostics", len(diags), 1)
	equal(t, "server", svc.Servers[0].URL, "https://api.example.com/v2")
	list := op(t, svc, "listItems")
	got := map[string]string{}
	for _, p := range list.Params {
		got[p.Name] = fmt.Sprintf("%s/%s/%v", p.In, p.Style, p.Explode)
	}
	want := map[string]string{
		"ids": "path/simple/false", "csv": "query/form/false", "ssv": "query/spaceDelimited/false",
		"multi": "query/form/true", "tsv": "query/form/false", "X-Ids": "header/simple/false",
		"tags": "query/pipeDelimited/false", "maybe": "query/form/true",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("param %s = %s, want %s", name, got[name], w)
		}
	}
	for _, p := range list.Params {
		if p.Name == "maybe" && !p.Type.Nullable {
			t.Error("x-nullable parameter is not nullable")
		}
	}
	equalSlice(t, "Item fields", fields(typ(t, svc, "Item")), []string{"ID:id:int/int64:req", "Note:note:string?:null"})
	create := op(t, svc, "createItem")
	if create.Body == nil || create.Body.Type.Name != "Item" || !create.Body.Required {
		t.Errorf("body = %+v", create.Body)
	}
	var schemes []string
	for _, s := range svc.SecuritySchemes {
		schemes = append(schemes, s.Name+":"+s.Type+":"+s.Scheme+":"+s.In+":"+s.ParamName)
	}
	equalSlice(t, "schemes", schemes, []string{"basic:http:basic::", "token:apiKey::query:access_token"})
}

func TestParams(t *testing.T) {
	svc, diags := load(t, "params.yaml", openapi.Options{})
	if !hasDiag(diags, "params.yaml", 106, "/paths/~1m~1{m}/get/parameters/1", `unknown location "body"`) {
		t.Errorf("missing body-param warning in %v", diags)
	}
	get := op(t, svc, "get_repo")
	equal(t, "GoName", get.GoName, "GetRepo")
	var got []string
	for _, p := range get.Params {
		s := fmt.Sprintf("%s:%s:%s:%s:%v:%s", p.GoName, p.Name, p.In, p.Style, p.Explode, ts(p.Type))
		if p.Required {
			s += ":req"
		}
		if p.AllowReserved {
			s += ":reserved"
		}
		if p.ContentType != "" {
			s += ":" + p.ContentType
		}
		got = append(got, s)
	}
	equalSlice(t, "params", got, []string{
		"Org:org:path:simple:false:string:req",
		"Repo:repo:path:simple:false:string:req",
		"Coords:coords:query:form:true:GetRepoCoords:application/json",
		"Filter:filter:query:deepObject:true:GetRepoFilter",
		"IDs:ids:query:form:false:array[int]",
		"Level:level:query:form:true:GetRepoLevel",
		"Piped:piped:query:pipeDelimited:false:array[string]",
		"Spaced:spaced:query:spaceDelimited:false:array[string]",
		"Verbose:verbose:query:form:true:int",
		"XTraceID:X-Trace-ID:header:simple:false:string",
		"PathLabel:path_label:header:simple:false:string:reserved",
		"SessionCookie:session:cookie:form:true:string",
	})
	m := op(t, svc, "GetMM")
	equal(t, "GetMM GoName", m.GoName, "GetMM")
	equal(t, "GetMM ParamsName", m.ParamsName, "GetMMParams")
	equal(t, "matrix", fmt.Sprintf("%s:%v", m.Params[0].Style, m.Params[0].Explode), "matrix:true")
	equal(t, "text result", m.Result.Kind, ir.BodyText)
}

func TestBodies(t *testing.T) {
	svc, diags := load(t, "bodies.yaml", openapi.Options{})
	if !hasDiag(diags, "bodies.yaml", 98, "/paths/~1empty/post/requestBody", "has no content") {
		t.Errorf("missing empty-body warning in %v", diags)
	}
	tests := []struct {
		id, media string
		kind      ir.BodyKind
		typ, name string
	}{
		{"postJSON", "application/vnd.api+json", ir.BodyJSON, "PostJSONBody", "PostJSONBody"},
		{"postForm", "application/x-www-form-urlencoded", ir.BodyForm, "PostFormBody", "PostFormBody"},
		{"upload", "multipart/form-data", ir.BodyMultipart, "UploadBody", "UploadBody"},
		{"postText", "text/plain", ir.BodyText, "string", ""},
		{"postRaw", "application/octet-stream", ir.BodyBinary, "binary/binary", ""},
		{"putRef", "application/json", ir.BodyJSON, "Thing", ""},
	}
	for _, tt := range tests {
		b := op(t, svc, tt.id).Body
		if b == nil {
			t.Errorf("%s: no body", tt.id)
			continue
		}
		if b.MediaType != tt.media || b.Kind != tt.kind || ts(b.Type) != tt.typ || b.Name != tt.name {
			t.Errorf("%s: body = %s %d %s %q, want %s %d %s %q", tt.id, b.MediaType, b.Kind, ts(b.Type), b.Name, tt.media, tt.kind, tt.typ, tt.name)
		}
	}
	up := op(t, svc, "upload").Body
	equal(t, "file part", up.Encoding["file"], "image/png")
	equal(t, "meta part", up.Encoding["meta"], "application/json")
	equal(t, "nested part type", field(t, up.Type, "meta").Type.Name, "UploadBodyMeta")
	equal(t, "putRef required", op(t, svc, "putRef").Body.Required, true)
	if op(t, svc, "postEmpty").Body != nil {
		t.Error("empty body kept")
	}
}

func TestResponses(t *testing.T) {
	svc, diags := load(t, "responses.yaml", openapi.Options{})
	if !hasDiag(diags, "responses.yaml", 7, "/paths/~1a/get", "different body types") {
		t.Errorf("missing different-types warning in %v", diags)
	}
	st := op(t, svc, "statuses")
	var got []string
	for _, r := range st.Responses {
		got = append(got, fmt.Sprintf("%s:%s:%d:%s", r.Status, r.MediaType, r.Kind, ts(r.Type)))
	}
	equalSlice(t, "responses", got, []string{
		"200:application/json:1:StatusesResponse",
		"202:application/json:1:Problem",
		"404:application/json:1:StatusesResponse404",
		"5XX:text/plain:4:string",
		"default:application/problem+json:1:Problem",
	})
	equal(t, "mixed result type", ts(st.Result.Type), "any")
	if st.OutputSchema != nil {
		t.Errorf("mixed result has output schema %s", st.OutputSchema)
	}
	equalSlice(t, "nested item", fields(typ(t, svc, "StatusesResponse")), []string{"Items:items:array[StatusesResponseItemsItem]"})
	equalJSON(t, "404 schema", st.Responses[2].Schema, `{"$ref":"#/$defs/StatusesResponse404"}`)

	r := op(t, svc, "rangeOnly")
	equal(t, "2XX result", r.Result.Status, "2XX")
	equal(t, "2XX type", ts(r.Result.Type), "array[string]")
	if op(t, svc, "noBody").Result != nil {
		t.Error("noBody has a result")
	}
	ev := op(t, svc, "events")
	if !ev.Stream || ev.Result.Kind != ir.BodyEventStream || ev.Result.Type.Name != "Event" {
		t.Errorf("events: stream=%v result=%+v", ev.Stream, ev.Result)
	}
	equalJSON(t, "events output", ev.OutputSchema, `{"$ref":"#/$defs/Event"}`)
	same := op(t, svc, "sameTypes")
	equal(t, "same types result", same.Result.Type.Name, "Event")
	dl := op(t, svc, "download")
	equal(t, "download kind", dl.Result.Kind, ir.BodyBinary)
	equal(t, "download type", ts(dl.Result.Type), "binary")
}

func TestLoadRefusesLargeDocument(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	// A valid document padded past a small limit: the size alone decides.
	doc := `{"openapi":"3.0.3","info":{"title":"t","version":"1","description":"` + strings.Repeat("x", 4096) + `"},"paths":{}}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := openapi.Load(context.Background(), path, openapi.Options{MaxBytes: 1024})
	if err == nil || !strings.Contains(err.Error(), "over the limit of 1024 bytes") {
		t.Fatalf("Load of a %d-byte document with MaxBytes 1024: err = %v, want a refusal naming the limit", len(doc), err)
	}
	if _, _, err := openapi.LoadData(context.Background(), []byte(doc), "big.json", openapi.Options{MaxBytes: 1024}); err == nil {
		t.Fatal("LoadData accepted a document over MaxBytes")
	}
	if _, _, err := openapi.Load(context.Background(), path, openapi.Options{}); err != nil {
		t.Fatalf("Load with the default limit: %v", err)
	}
}
