package openapi

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const presolveDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/a/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/Id"}}],
      "get": {
        "parameters": [{"name": "q", "in": "query", "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Id"}}}],
        "responses": {
          "200": {"description": "ok",
            "headers": {"X-Next": {"schema": {"$ref": "#/components/schemas/Id"}}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
          "default": {"$ref": "#/components/responses/Err"}
        }
      },
      "post": {
        "requestBody": {"content": {
          "application/json": {"schema": {"$ref": "#/components/schemas/Alias"}},
          "multipart/form-data": {"schema": {"type": "object", "properties": {"f": {"$ref": "#/components/schemas/Pet"}}},
            "encoding": {"f": {"headers": {"X-H": {"schema": {"$ref": "#/components/schemas/Id"}}}}}}
        }},
        "responses": {"204": {"description": "none"}}
      }
    },
    "/b": {"$ref": "#/paths/~1a~1{id}"}
  },
  "components": {
    "schemas": {
      "Id": {"type": "string"},
      "Pet": {"type": "object", "properties": {
        "id": {"$ref": "#/components/schemas/Id"},
        "owner": {"$ref": "#/components/schemas/Pet"},
        "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag.v1"}},
        "odd": {"$ref": "#/components/schemas/we~1ird"},
        "described": {"$ref": "#/components/schemas/Id", "description": "siblings"},
        "alias": {"$ref": "#/components/schemas/Alias"}
      }, "allOf": [{"$ref": "#/components/schemas/Base"}]},
      "Base": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Id"}},
      "Tag.v1": {"type": "string", "enum": ["a"]},
      "we/ird": {"type": "integer"},
      "Alias": {"$ref": "#/components/schemas/Pet"}
    },
    "parameters": {"P": {"name": "p", "in": "query", "schema": {"$ref": "#/components/schemas/Id"}}},
    "responses": {"Err": {"description": "e", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Base"}}}}}
  }
}`

// TestPresolveSchemaRefs checks presolveSchemaRefs against kin-openapi:
// every reference it resolves, kin-openapi resolves to the same schema
// (checked by clearing them and letting kin-openapi resolve the
// document), and it leaves alone the references it cannot be sure of.
func TestPresolveSchemaRefs(t *testing.T) {
	docs := map[string][]byte{"presolve.json": []byte(presolveDoc)}
	// GitHub's description too, when the benchmark's copy is there.
	if data, err := os.ReadFile(os.Getenv("OPSGEN_BENCH_SPEC")); err == nil {
		docs["bench spec"] = data
	}
	for name, data := range docs {
		s := &docSource{name: name, data: data, json: true, files: newFiles(name, Options{})}
		doc, tree, decs, err := s.decode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.references(tree, decs); err != nil {
			t.Fatal(err)
		}
		presolveSchemaRefs(doc, decs)
		presolved := map[*openapi3.SchemaRef]*openapi3.Schema{}
		for _, d := range decs {
			for _, u := range d.refs {
				if r, ok := u.slot.(*openapi3.SchemaRef); ok && r.Value != nil && r.Ref != "" {
					presolved[r] = r.Value
					r.Value = nil
				}
			}
		}
		if len(presolved) == 0 {
			t.Fatalf("%s: nothing presolved", name)
		}
		kl := newKinLoader(context.Background(), Options{}, s.files, false, s.data)
		if err := kl.ResolveRefsIn(doc, &url.URL{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for r, v := range presolved {
			if r.Value != v {
				t.Errorf("%s: $ref %q presolved to %p, kin-openapi resolves it to %p", name, r.Ref, v, r.Value)
			}
		}
		if name != "presolve.json" {
			continue
		}
		// 12 slots in the places kin-openapi walks (Alias's own $ref among
		// them); not the $ref with siblings, the escaped name, the two to
		// the chain (Alias), the encoding's header, the response header.
		for r := range presolved {
			if r.Ref == "#/components/schemas/Alias" || r.Ref == "#/components/schemas/we~1ird" {
				t.Errorf("presolved %q", r.Ref)
			}
		}
		if len(presolved) != 12 {
			var refs []string
			for r := range presolved {
				refs = append(refs, r.Ref)
			}
			t.Errorf("presolved %d references, want 12: %q", len(presolved), refs)
		}
	}
}
