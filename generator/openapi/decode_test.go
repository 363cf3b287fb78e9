package openapi

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/internal/testdeps"
)

// decodeCases are small documents with the constructs whose decoding has
// special cases in kin-openapi.
var decodeCases = map[string]string{
	"extensions.json": `{"openapi":"3.0.3","info":{"title":"t","version":"1","x-logo":{"n":1.5}},"x-top":[1,2,{"a":null}],
		"paths":{"x-paths-ext":true,"/a":{"x-item":1,"get":{"operationId":"a","x-op":"y","responses":{"x-r":1,"200":{"description":"ok","x-resp":{}}}}}}}`,
	"schemas.json": `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},
		"components":{"schemas":{
			"A":{"type":["string","null"],"maxLength":18446744073709551615,"minimum":-1e300,"exclusiveMinimum":3,"x-go-name":"Alpha","default":"d","example":12345678901234567890},
			"B":{"type":"object","additionalProperties":false,"properties":{"t":true,"f":false,"r":{"$ref":"#/components/schemas/A","description":"sib"}}},
			"C":{"type":"object","additionalProperties":{"type":"integer"},"required":["a"],"nullable":true,"discriminator":{"propertyName":"k","mapping":{"a":"#/components/schemas/A"},"x-d":1}},
			"D":{"oneOf":[{"$ref":"#/components/schemas/A"},{"type":"null"}],"const":null,"enum":[1,"a",null,{"b":[]}],"unknownKeyword":{"n":2}},
			"E":{"allOf":[],"anyOf":null,"items":{"type":"string"},"prefixItems":[{"type":"integer"}],"$defs":{"X":{"type":"string"}},"exclusiveMaximum":true},
			"F":{"$ref":"#/components/schemas/B","x-ext":1},
			"G":{"type":[]},"H":{"type":null},"J":{"type":["integer"]}
		},
		"parameters":{"P":{"name":"p","in":"query","schema":{"type":"array","items":{"type":"string"}},"style":"form","explode":false,"x-p":1}},
		"responses":{"R":{"description":"r","headers":{"H":{"schema":{"type":"integer"},"x-h":2}}}},
		"securitySchemes":{"S":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://x","scopes":{"a":"b"}}}}}}}`,
	"duplicates.json": `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{}},"paths":{"/b":{"get":{"responses":{"200":{"description":"b"}}}}}}`,
	"anchors.yaml": `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        200: &ok
          description: ok
          content:
            application/json:
              schema: {type: integer, minimum: 0x10, example: 2024-01-02}
        201: *ok
        default:
          <<: *ok
          description: other
`,
}

// TestDecodeMatchesKin checks that the decoder, with the references pass
// and kin-openapi's resolution, builds the document kin-openapi's own
// loader builds (compared as kin-openapi marshals them, and by the line
// of each schema's origin in YAML), on the cases above, the specs of
// testdata, and when present those of the shared specs beside the
// repository (../shared/specs, or $OPSGEN_SHARED/specs) and the OpenAPI
// examples of the corpus cache ($CORPUS_CACHE or .work/corpus, make corpus).
func TestDecodeMatchesKin(t *testing.T) {
	docs := map[string][]byte{}
	dir := t.TempDir()
	for name, text := range decodeCases {
		docs[filepath.Join(dir, name)] = []byte(text)
	}
	var files []string
	corpus, shared := testdeps.Corpus(t), filepath.Join(testdeps.SharedDir(t), "specs")
	for _, glob := range []string{"../../testdata/specs/openapi/*", shared + "/*.json", shared + "/*.yaml",
		corpus + "/oas-examples/package/3.*/*/*.*"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if testing.Short() && len(files) > 20 {
		files = files[:20]
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = data
	}
	compared := 0
	for file, data := range docs {
		t.Run(filepath.Base(file), func(t *testing.T) {
			if swagger, err := sniff(data, file); err != nil || swagger {
				t.Skip("not an OpenAPI 3 document")
			}
			name := filepath.ToSlash(file)
			ctx := context.Background()
			kf := newFiles(name, Options{})
			defer kf.close()
			want, wantErr := newKinLoader(ctx, Options{}, kf, false, nil).LoadFromDataWithPath(data, &url.URL{Path: name})
			f := newFiles(name, Options{})
			defer f.close()
			src := &docSource{name: name, data: data, files: f, json: strings.HasSuffix(name, ".json")}
			got, _, gotErr := resolvedDoc(ctx, src)
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("error: ours %v, kin-openapi's %v", gotErr, wantErr)
			}
			if gotErr != nil {
				return
			}
			compared++
			g, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			w, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if string(g) != string(w) {
				i := 0
				for i < len(g) && i < len(w) && g[i] == w[i] {
					i++
				}
				t.Fatalf("documents differ at byte %d\nours: %.300s\nkin:  %.300s", i, g[max(0, i-100):], w[max(0, i-100):])
			}
			if got.Components != nil {
				for name, s := range got.Components.Schemas {
					k := want.Components.Schemas[name]
					if (s.Value == nil) != (k.Value == nil) {
						t.Errorf("schema %s: resolved %v, kin-openapi %v", name, s.Value != nil, k.Value != nil)
						continue
					}
					if s.Value != nil && s.Ref == "" && line(s.Value.Origin) != line(k.Value.Origin) {
						t.Errorf("schema %s: origin line %d, kin-openapi %d", name, line(s.Value.Origin), line(k.Value.Origin))
					}
				}
			}
		})
	}
	if compared < len(docs)/2 {
		t.Errorf("compared %d of %d documents", compared, len(docs))
	}
}

func line(o *openapi3.Origin) int {
	if o == nil || o.Key == nil {
		return 0
	}
	return o.Key.Line*1000 + o.Key.Column
}

// TestDecodeWrongTypes checks that a value of the wrong JSON type that is
// not an annotation fails the document with its place, and that data after
// the document is refused.
func TestDecodeWrongTypes(t *testing.T) {
	for doc, want := range map[string]string{
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"operationId":5}}}}`:                                    `x.json:1:77 (#/paths/~1a/get/operationId): "operationId" is a number where a string belongs`,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}} x`:                                                                `x.json:1:67: invalid JSON`,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"x-big":1e400}`:                                                    `x.json:1:66 (#/x-big): "x-big" holds a number out of range`,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"parameters":[1]}}}`:                                           `x.json:1:84 (#/paths/~1a/parameters/0): a number where an object belongs`,
		"openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      parameters: [{name: q, in: query, required: [x]}]\n": `x.yaml:6:41 (#/paths/~1a/get/parameters/0/required): "required" is a list where a boolean belongs`,
	} {
		name := "x.json"
		if !strings.HasPrefix(doc, "{") {
			name = "x.yaml"
		}
		f := newFiles(name, Options{})
		src := &docSource{name: name, data: []byte(doc), files: f, json: name == "x.json"}
		_, _, err := resolvedDoc(context.Background(), src)
		f.close()
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: err = %v, want prefix %s", doc, err, want)
		}
	}
}

// TestKindAt checks the kind of object the references pass finds at a
// JSON pointer, as kin-openapi's resolver reaches it.
func TestKindAt(t *testing.T) {
	for ptr, want := range map[string]refKind{
		"/components/schemas/A":                                   kindSchema,
		"/components/schemas":                                     kindNone,
		"/components/schemas/A/properties/b":                      kindSchema,
		"/components/schemas/A/allOf/0":                           kindSchema,
		"/components/schemas/A/allOf/x":                           kindNone,
		"/components/schemas/A/type":                              kindNone,
		"/components/schemas/A/definitions/x":                     kindAny,
		"/components/headers/H/schema":                            kindAny,
		"/components/parameters/P/schema":                         kindSchema,
		"/components/responses/R/headers/H":                       kindHeader,
		"/paths/~1a/get/responses/200":                            kindResponse,
		"/paths/~1a/get":                                          kindNone,
		"/paths/~1a/parameters/0":                                 kindParameter,
		"/paths/~1a/get/callbacks/cb/{$url}/post/requestBody":     kindRequestBody,
		"/paths/~1a/get/responses/200/content/text~1plain/schema": kindSchema,
		"/info":                                 kindNone,
		"/x-defs/S":                             kindAny,
		"/definitions/S":                        kindAny,
		"/components/links/L/operationId":       kindNone,
		"/components/examples/E/value":          kindAny,
		"/components/securitySchemes/S/x-thing": kindAny,
	} {
		if got := kindAt(jsonptr.Tokens(ptr)); got != want {
			t.Errorf("kindAt(%s) = %d, want %d", ptr, got, want)
		}
	}
}

// TestDecodeTables checks that the table of each kin-openapi type the
// decoder fills has every key of the type's JSON form (as kin-openapi's
// json tags name them), and that set decodes each field's type: every key,
// with null and with a value of a wrong kind, is decoded without a panic
// and does not land in the Extensions.
func TestDecodeTables(t *testing.T) {
	for _, x := range []any{&openapi3.T{}, &openapi3.Schema{}, &openapi3.Discriminator{}, &openapi3.XML{}, &openapi3.ExternalDocs{},
		&openapi3.Parameter{}, &openapi3.RequestBody{}, &openapi3.Response{}, &openapi3.MediaType{},
		&openapi3.Encoding{}, &openapi3.Example{}, &openapi3.Link{}, &openapi3.PathItem{}, &openapi3.Server{},
		&openapi3.ServerVariable{}, &openapi3.Operation{}, &openapi3.SecurityScheme{}, &openapi3.OAuthFlows{},
		&openapi3.OAuthFlow{}, &openapi3.Components{}, &openapi3.Info{}, &openapi3.Contact{}, &openapi3.License{},
		&openapi3.Tag{}} {
		ty := reflect.TypeOf(x).Elem()
		for i := range ty.NumField() {
			key, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
			if key == "" || key == "-" {
				continue
			}
			for _, v := range []any{nil, json.Number("1"), "s"} {
				d := &decoder{}
				y := reflect.New(ty).Interface()
				if doc, ok := y.(*openapi3.T); ok {
					d.member(doc, key, v)
				} else {
					d.fill(y, map[string]any{key: v})
				}
				if ext := reflect.ValueOf(y).Elem().FieldByName("Extensions"); ext.Len() != 0 {
					t.Errorf("%s: %q is not in its table", ty.Name(), key)
				}
			}
		}
	}
}

// TestDecodeErrorDeterministic: of several bad values in one object
// (decoded in Go's map order), the error always names the least pointer.
func TestDecodeErrorDeterministic(t *testing.T) {
	doc := []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{` +
		`"tags":"x","operationId":1,"parameters":{},"responses":{"200":{"description":"ok"}}}}}}`)
	for range 20 {
		_, _, err := LoadData(t.Context(), doc, "d.json", Options{})
		if err == nil || !strings.Contains(err.Error(), `(#/paths/~1a/get/operationId)`) {
			t.Fatalf("error %v, want the one at /paths/~1a/get/operationId", err)
		}
	}
}

// resolvedDoc loads src as an OpenAPI 3 document and waits for its
// resolution.
func resolvedDoc(ctx context.Context, src *docSource) (*openapi3.T, diag.List, error) {
	doc, warnings, resolved, err := src.openapi3(ctx, Options{})
	if err == nil {
		err = resolved()
	}
	if err != nil {
		return nil, nil, err
	}
	return doc, warnings, nil
}
