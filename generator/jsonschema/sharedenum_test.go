package jsonschema_test

import (
	"context"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

// sharedEnumSpec has the same $select enum on three operations (one on
// the array's items, as Graph writes it), a different value set, and a
// component enum with the same values, which keeps its own type.
const sharedEnumSpec = `openapi: 3.0.3
info: {title: shared enums, version: "1"}
paths:
  /users:
    get:
      operationId: users.user.ListUser
      parameters:
        - {name: $select, in: query, schema: {type: array, items: {type: string, enum: [id, name]}}}
        - {name: $orderby, in: query, schema: {type: array, items: {type: string, enum: [id, id desc]}}}
      responses: {"204": {description: none}}
  /me:
    get:
      operationId: me.GetMe
      parameters:
        - {name: $select, in: query, schema: {type: array, items: {type: string, enum: [id, name]}}}
      responses: {"204": {description: none}}
  /users/{id}:
    get:
      operationId: users.user.GetUser
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: $select, in: query, schema: {type: array, items: {type: string, enum: [id, name]}}}
      responses: {"204": {description: none}}
components:
  schemas:
    Field: {type: string, enum: [id, name]}
`

// TestSharedParameterEnums: identical inline enums of parameters are one
// type, named after the shortest name asked for whatever the order of the
// operations; other value sets and component enums keep their own.
func TestSharedParameterEnums(t *testing.T) {
	reordered := strings.Replace(sharedEnumSpec, "  /me:", "  /zz:", 1) // /me sorts after /users now
	for _, spec := range []string{sharedEnumSpec, reordered} {
		svc, _, err := openapi.LoadData(context.Background(), []byte(spec), "shared.yaml", openapi.Options{})
		if err != nil {
			t.Fatal(err)
		}
		enums := map[string]int{}
		for _, ty := range svc.Types {
			if ty.Kind == ir.Enum {
				enums[ty.Name] = len(ty.Values)
			}
		}
		want := map[string]int{"MeGetMeSelectItem": 2, "UsersUserListUserOrderbyItem": 2, "Field": 2}
		if len(enums) != len(want) {
			t.Errorf("enum types %v, want %v", enums, want)
		}
		for name := range want {
			if _, ok := enums[name]; !ok {
				t.Errorf("no enum %s among %v", name, enums)
			}
		}
		for _, op := range svc.Operations {
			for _, p := range op.Params {
				if p.Name != "$select" {
					continue
				}
				if got := p.Type.Elem.Name; got != "MeGetMeSelectItem" {
					t.Errorf("%s: $select items are %s", op.ID, got)
				}
			}
		}
	}
}
