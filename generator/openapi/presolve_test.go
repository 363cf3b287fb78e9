package openapi

import (
	"context"
	"maps"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

const presolveDoc = `{
  "openapi": "3.0.3",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/a/{id}": {
      "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/Id"}},
        {"$ref": "#/components/parameters/P"}],
      "get": {
        "parameters": [{"name": "q", "in": "query", "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Id"}}},
          {"$ref": "#/components/parameters/P"}, {"$ref": "#/components/parameters/Chain"}],
        "responses": {
          "200": {"description": "ok",
            "headers": {"X-Next": {"schema": {"$ref": "#/components/schemas/Id"}}, "X-Rate": {"$ref": "#/components/headers/Rate"}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"},
              "examples": {"one": {"$ref": "#/components/examples/Pet"}, "odd": {"$ref": "#/components/examples/we~1ird"}}}}},
          "404": {"$ref": "#/components/responses/Err"},
          "default": {"$ref": "#/components/responses/Err", "description": "siblings"}
        }
      },
      "post": {
        "requestBody": {"content": {
          "application/json": {"schema": {"$ref": "#/components/schemas/Alias"}, "examples": {"one": {"$ref": "#/components/examples/Pet"}}},
          "multipart/form-data": {"schema": {"type": "object", "properties": {"f": {"$ref": "#/components/schemas/Pet"}}},
            "encoding": {"f": {"headers": {"X-H": {"schema": {"$ref": "#/components/schemas/Id"}}, "X-Rate": {"$ref": "#/components/headers/Rate"}}}}}
        }},
        "responses": {"204": {"description": "none"}}
      },
      "put": {
        "requestBody": {"$ref": "#/components/requestBodies/Pet"},
        "responses": {"204": {"description": "none"}},
        "callbacks": {"c": {"{$request.body#/u}": {"post": {"parameters": [{"$ref": "#/components/parameters/P"}],
          "responses": {"200": {"$ref": "#/components/responses/Err"}}}}}}
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
    "parameters": {"P": {"name": "p", "in": "query", "schema": {"$ref": "#/components/schemas/Id"}},
      "Chain": {"$ref": "#/components/parameters/P"}},
    "headers": {"Rate": {"schema": {"type": "integer"}}},
    "examples": {"Pet": {"value": {"id": "1"}}, "we/ird": {"value": 1}},
    "requestBodies": {"Pet": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"},
      "examples": {"one": {"$ref": "#/components/examples/Pet"}}}}}},
    "responses": {"Err": {"description": "e",
      "headers": {"X-Rate": {"$ref": "#/components/headers/Rate"}},
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Base"},
        "examples": {"one": {"$ref": "#/components/examples/Pet"}}}}}}
  }
}`

// TestPresolveRefs checks presolveRefs against kin-openapi: every
// reference it resolves, kin-openapi resolves to the same value (checked
// by clearing them and letting kin-openapi resolve the document), and it
// leaves alone the references it cannot be sure of.
func TestPresolveRefs(t *testing.T) {
	docs := map[string][]byte{"presolve.json": []byte(presolveDoc)}
	// GitHub's description too, when the benchmark's copy is there.
	if data, err := os.ReadFile(os.Getenv("OPSGEN_BENCH_SPEC")); err == nil {
		docs["bench spec"] = data
	}
	for name, data := range docs {
		s, doc, decs := presolved(t, name, data)
		// Each presolved slot's Value (a field of every reference type).
		presolved := map[any]any{}
		for _, d := range decs {
			for _, u := range d.refs {
				v := reflect.ValueOf(u.slot).Elem()
				if v.Kind() != reflect.Struct || !v.FieldByName("Value").IsValid() {
					continue // a path item
				}
				if val := v.FieldByName("Value"); !val.IsNil() && v.FieldByName("Ref").String() != "" {
					presolved[u.slot] = val.Interface()
					val.SetZero()
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
		kinds := map[string]int{}
		for slot, v := range presolved {
			e := reflect.ValueOf(slot).Elem()
			ref := e.FieldByName("Ref").String()
			if got := e.FieldByName("Value").Interface(); got != v {
				t.Errorf("%s: $ref %q presolved to %p, kin-openapi resolves it to %p", name, ref, v, got)
			}
			kinds[strings.Split(ref, "/")[2]]++
		}
		if name != "presolve.json" {
			continue
		}
		// In the places kin-openapi walks (Alias's own $ref among them): 13
		// schemas, 2 parameters (not the one in the callback, nor the one
		// to the chain), a request body, a response (not the one with
		// siblings, nor the one in the callback), 2 response headers (not
		// the encoding's), 4 examples (not the escaped name). Not the
		// $refs with siblings, to escaped names or to a chain (Alias).
		for slot := range presolved {
			switch ref := reflect.ValueOf(slot).Elem().FieldByName("Ref").String(); ref {
			case "#/components/schemas/Alias", "#/components/schemas/we~1ird", "#/components/examples/we~1ird", "#/components/parameters/Chain":
				t.Errorf("presolved %q", ref)
			}
		}
		want := map[string]int{"schemas": 13, "parameters": 2, "requestBodies": 1, "responses": 1, "headers": 2, "examples": 4}
		if !maps.Equal(kinds, want) {
			t.Errorf("presolved %v, want %v", kinds, want)
		}
	}
}

// TestUnresolved checks when kin-openapi's resolution is left with
// nothing to resolve after presolveRefs (and may run alongside the
// declarations): not with a $ref to a chain, a path item's $ref, a null
// where a reference object could be, or a discriminator mapping to
// another file.
func TestUnresolved(t *testing.T) {
	const head = `{"openapi":"3.0.3","info":{"title":"t","version":"1"},`
	for doc, want := range map[string]bool{
		presolveDoc: true,
		head + `"paths":{"/a":{"get":{"parameters":[{"$ref":"#/components/parameters/P"}],"responses":{"200":{"$ref":"#/components/responses/R"}}}}},
			"components":{"schemas":{"A":{"type":"object","properties":{"b":{"$ref":"#/components/schemas/B"}},
				"discriminator":{"propertyName":"k","mapping":{"b":"#/components/schemas/B","c":"B"}}},"B":{"type":"string"}},
				"parameters":{"P":{"name":"p","in":"query","schema":{"$ref":"#/components/schemas/B"}}},
				"responses":{"R":{"description":"r","content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}`: false,
		head + `"paths":{},"components":{"schemas":{"A":{"$ref":"#/components/schemas/B"},"B":{"type":"string"},"C":{"$ref":"#/components/schemas/A"}}}}`: true,
		head + `"paths":{"/a":{"$ref":"#/paths/~1b"},"/b":{}}}`:                                                                    true,
		head + `"paths":{},"components":{"schemas":{"A":{"type":"object","properties":{"b":null}}}}}`:                              true,
		head + `"paths":{},"components":{"schemas":{"A":{"discriminator":{"propertyName":"k","mapping":{"b":"other.json#/B"}}}}}}`: true,
	} {
		s, _, decs := presolved(t, "d.json", []byte(doc))
		if got := slices.ContainsFunc(decs, (*decoder).unresolved); got != want {
			t.Errorf("unresolved: %v, want %v: %.200s", got, want, s.data)
		}
	}
}

// presolved decodes the JSON document data, runs the references pass
// and presolveRefs on it.
func presolved(t *testing.T, name string, data []byte) (*docSource, *openapi3.T, []*decoder) {
	t.Helper()
	s := &docSource{name: name, data: data, json: true, files: newFiles(name, Options{})}
	doc, tree, decs, err := s.decode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.references(tree, decs); err != nil {
		t.Fatal(err)
	}
	presolveRefs(doc, decs)
	return s, doc, decs
}
