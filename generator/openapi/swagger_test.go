package openapi_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// TestSwaggerExternalParameterRef (issue 11, class 5): Swagger 2.0
// parameters and responses behind a $ref to another file keep their type,
// format and collectionFormat, as if written in the document; the $refs
// inside them (to the other file's own definitions, and on to a third
// file) still resolve.
func TestSwaggerExternalParameterRef(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api.yaml": `swagger: "2.0"
info: {title: external, version: "1"}
paths:
  /items:
    parameters:
      - $ref: "common/parameters.yaml#/tagsParam"
    get:
      operationId: listItems
      parameters:
        - $ref: "common/parameters.yaml#/limitParam"
        - $ref: "#/parameters/idsParam"
      responses:
        "200": {$ref: "common/responses.yaml#/Items"}
    post:
      operationId: createItem
      parameters:
        - $ref: "common/parameters.yaml#/itemBody"
      responses:
        "204": {description: created}
parameters:
  idsParam: {$ref: "common/parameters.yaml#/idsParam"}
`,
		"common/parameters.yaml": `limitParam: {name: limit, in: query, type: integer, format: int32, description: At most this many.}
tagsParam: {name: tags, in: query, type: array, collectionFormat: pipes, items: {type: string}}
idsParam: {$ref: "#/realIds"}
realIds: {name: ids, in: query, type: array, items: {type: integer, format: int64}}
itemBody: {name: item, in: body, required: true, schema: {$ref: "#/definitions/Item"}}
definitions:
  Item: {type: object, properties: {id: {type: integer, format: int64}, shared: {$ref: "../shared.yaml#/Shared"}}}
`,
		"common/responses.yaml": `Items: {description: ok, schema: {type: array, items: {$ref: "parameters.yaml#/definitions/Item"}}}
`,
		"shared.yaml": "Shared: {type: string, format: date}\n",
	})
	var read []string
	svc, diags, err := openapi.Load(context.Background(), filepath.Join(dir, "api.yaml"), openapi.Options{Read: func(f string) {
		rel, _ := filepath.Rel(dir, f)
		read = append(read, filepath.ToSlash(rel))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}
	list := op(t, svc, "listItems")
	var got []string
	for _, p := range list.Params {
		got = append(got, fmt.Sprintf("%s:%s:%s:%v:%s:%q", p.Name, p.In, p.Style, p.Explode, ts(p.Type), p.Doc.Description))
	}
	equalSlice(t, "listItems params", got, []string{
		`ids:query:form:false:array[int/int64]:""`,
		`limit:query:form:true:int/int32:"At most this many."`,
		`tags:query:pipeDelimited:false:array[string]:""`,
	})
	if list.Result == nil || ts(list.Result.Type) != "array[Item]" {
		t.Errorf("listItems result = %+v", list.Result)
	}
	create := op(t, svc, "createItem")
	if create.Body == nil || ts(create.Body.Type) != "Item" || !create.Body.Required {
		t.Errorf("createItem body = %+v", create.Body)
	}
	equalSlice(t, "Item fields", fields(typ(t, svc, "Item")), []string{"ID:id:int/int64", "Shared:shared:Shared"})
	equal(t, "Shared", ts(typ(t, svc, "Shared")), "Shared")
	equal(t, "Shared kind", typ(t, svc, "Shared").Kind, ir.Date)
	equalSlice(t, "files read", read, []string{"api.yaml", "common/parameters.yaml", "common/responses.yaml", "shared.yaml"})
}
