package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// fastJSONCases are small documents with the constructs whose decoding has
// special cases in kin-openapi.
var fastJSONCases = map[string]string{
	"extensions": `{"openapi":"3.0.3","info":{"title":"t","version":"1","x-logo":{"n":1.5}},"x-top":[1,2,{"a":null}],
		"paths":{"x-paths-ext":true,"/a":{"x-item":1,"get":{"operationId":"a","x-op":"y","responses":{"x-r":1,"200":{"description":"ok","x-resp":{}}}}}}}`,
	"schemas": `{"openapi":"3.1.0","info":{"title":"t","version":"1"},"paths":{},
		"components":{"schemas":{
			"A":{"type":["string","null"],"maxLength":18446744073709551615,"minimum":-1e300,"exclusiveMinimum":3,"x-go-name":"Alpha","default":"d","example":12345678901234567890},
			"B":{"type":"object","additionalProperties":false,"properties":{"t":true,"f":false,"r":{"$ref":"#/components/schemas/A","description":"sib"}}},
			"C":{"type":"object","additionalProperties":{"type":"integer"},"required":["a"],"nullable":true,"discriminator":{"propertyName":"k","mapping":{"a":"#/components/schemas/A"},"x-d":1}},
			"D":{"oneOf":[{"$ref":"#/components/schemas/A"},{"type":"null"}],"const":null,"enum":[1,"a",null,{"b":[]}],"unknownKeyword":{"n":2}},
			"E":{"allOf":[],"anyOf":null,"items":{"type":"string"},"prefixItems":[{"type":"integer"}],"$defs":{"X":{"type":"string"}},"exclusiveMaximum":true},
			"F":{"$ref":"#/components/schemas/B","x-ext":1},
			"G":{"type":[]},"H":{"type":null},"I":{"type":["string",null]},"J":{"type":["integer"]}
		},
		"parameters":{"P":{"name":"p","in":"query","schema":{"type":"array","items":{"type":"string"}},"style":"form","explode":false,"x-p":1}},
		"responses":{"R":{"description":"r","headers":{"H":{"schema":{"type":"integer"},"x-h":2}}}},
		"securitySchemes":{"S":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://x","scopes":{"a":"b"}}}}}}}`,
	"case variant key": `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"Components":{}}`,
	"null response":    `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"responses":null}}}}`,
	"wrong type":       `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"operationId":5}}}}`,
	"trailing data":    `{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{}} x`,
}

// TestFastJSONMatchesKin checks that the fast JSON path builds exactly the
// document kin-openapi's loader builds, references resolved, for every spec
// of testdata (YAML ones converted to JSON) and the cases above.
func TestFastJSONMatchesKin(t *testing.T) {
	docs := map[string][]byte{}
	for name, text := range fastJSONCases {
		docs[filepath.Join(t.TempDir(), strings.ReplaceAll(name, " ", "-")+".json")] = []byte(text)
	}
	files, err := filepath.Glob("../../testdata/specs/openapi/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(f, ".json") {
			var v any
			if yaml.Unmarshal(data, &v) != nil {
				continue
			}
			if data, err = json.Marshal(v); err != nil {
				continue
			}
		}
		docs[f] = data
	}
	fast := 0
	for path, data := range docs {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if v, _ := sniff(data, path); v.swagger {
				t.Skip("Swagger 2.0 takes the conversion path")
			}
			loc := &url.URL{Path: filepath.ToSlash(path)}
			ctx := context.Background()
			files := newFiles(loc.Path, Options{})
			defer files.close()
			want, wantErr := newKinLoader(ctx, Options{}, files).LoadFromDataWithPath(data, loc)
			got, gotErr := loadJSONFast(ctx, newKinLoader(ctx, Options{}, files), data, loc)
			if errors.Is(gotErr, errSlowPath) {
				t.Logf("slow path")
				return
			}
			fast++
			if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
				t.Fatalf("error: fast %v, kin %v", gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("documents differ\nfast: %.2000s\nkin:  %.2000s", g, w)
			}
		})
	}
	if fast < len(docs)/2 {
		t.Errorf("the fast path was taken for %d of %d documents", fast, len(docs))
	}
}

// TestFastJSONFallsBack checks the constructs that must take kin-openapi's
// own path.
func TestFastJSONFallsBack(t *testing.T) {
	for _, name := range []string{"case variant key", "null response", "wrong type", "trailing data"} {
		if _, err := decodeJSONDoc([]byte(fastJSONCases[name])); !errors.Is(err, errSlowPath) {
			t.Errorf("%s: got %v, want the slow path", name, err)
		}
	}
}
