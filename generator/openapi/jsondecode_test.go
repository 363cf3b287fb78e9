package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// TestDecodeJSONParts checks that decoding a JSON document in parts
// (decodeJSON) builds what decoding its whole tree does (decodeTree, after
// encoding/json): the same document, tree, warnings, $refs and error. The
// runs are made small, so that every object of entries is split, at
// several sizes, on the decoder's cases, the JSON specs of testdata and
// the corpus's, and documents made to split in every place it can.
func TestDecodeJSONParts(t *testing.T) {
	docs := map[string][]byte{}
	for name, text := range decodeCases {
		if filepath.Ext(name) == ".json" {
			docs[name] = []byte(text)
		}
	}
	for _, glob := range []string{"../../testdata/specs/openapi/*.json", "../../testdata/corpus/*.json", "../../testdata/hostile/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			docs[filepath.Base(f)] = data
		}
	}
	docs["split.json"] = []byte(`{"openapi":"3.1.0","info":{"title":"t","version":"1"},"x-top":{"a":1,"b":2},
		"paths":{"/a":{"get":{"operationId":"a","responses":{"200":{"$ref":"#/components/responses/R"}}}},"x-p":1,
			"/b":{"post":{"requestBody":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}},"responses":{"204":{"description":"n"}}}},
			"/c":{"$ref":"#/paths/~1a"},"/d":null},
		"webhooks":{"w":{"post":{"responses":{"200":{"description":"w"}}}}},
		"components":{"x-c":[1],"unknown":{"a":1},
			"schemas":{"A":{"type":"object","properties":{"b":{"$ref":"#/components/schemas/B"}}},"B":{"type":"string","description":5},
				"C":{"$ref":"#/components/schemas/A","description":"sib"},"D":true,"E":null},
			"examples":{"E1":{"value":1},"E2":null,"E3":{"$ref":"#/components/examples/E1"}},
			"responses":{"R":{"description":"r"},"S":{"$ref":"#/components/responses/R"}},
			"parameters":{"P":{"name":"p","in":"query"},"Q":{"name":"q","in":"query","schema":{"type":"integer"}}},
			"headers":{"H":{"schema":{"type":"integer"}},"I":{"$ref":"#/components/headers/H"}},
			"requestBodies":{"B1":{"content":{}},"B2":{"$ref":"#/components/requestBodies/B1"}},
			"securitySchemes":{"S1":{"type":"http","scheme":"basic"},"S2":{"type":"apiKey","in":"header","name":"k"}},
			"links":{"L1":{"operationId":"a"},"L2":{"operationId":"b"}},
			"callbacks":{"C1":{"{$url}":{"post":{"responses":{"200":{"description":"c"}}}}},"C2":{}}}}`)
	// Examples that are not all objects are one wrong-kind annotation, and
	// an error in two runs of one member names the least pointer.
	docs["examples-wrong.json"] = []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},
		"components":{"examples":{"E1":{"value":1},"E2":"text","E3":{"value":3}}}}`)
	docs["two-errors.json"] = []byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{
		"/z":{"get":{"operationId":1}},"/a":{"get":{"operationId":2}},"/m":{"get":{"operationId":"m"}}}}`)
	defer func(n int) { partBytes = n }(partBytes)
	split := 0
	refused := map[string]bool{}
	for name, data := range docs {
		for _, size := range []int{1, 64, 4096} {
			partBytes = size
			s := &docSource{name: name, data: data, json: true}
			doc, tree, decs, ok := s.decodeJSON()
			if !ok {
				refused[name] = true
				continue
			}
			split++
			var whole map[string]any
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			if err := dec.Decode(&whole); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			wantDoc, wantTree, wantDecs, wantErr := s.decodeTree(whole)
			err := decodeError(data, name, decs)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s, runs of %d bytes: error %v, want %v", name, size, err, wantErr)
				continue
			}
			if err != nil {
				continue
			}
			if !reflect.DeepEqual(tree, wantTree) {
				t.Errorf("%s, runs of %d bytes: the trees differ", name, size)
			}
			if !reflect.DeepEqual(doc, wantDoc) {
				g, _ := json.Marshal(doc)
				w, _ := json.Marshal(wantDoc)
				t.Errorf("%s, runs of %d bytes: the documents differ\nparts: %.400s\nwhole: %.400s", name, size, g, w)
			}
			if got, want := findings(decs), findings(wantDecs); !slices.Equal(got, want) {
				t.Errorf("%s, runs of %d bytes: warnings and $refs\n%q\nwant\n%q", name, size, got, want)
			}
		}
	}
	// Only the one with paths twice, and the one that is not JSON.
	if want := map[string]bool{"duplicates.json": true, "broken.json": true}; !maps.Equal(refused, want) {
		t.Errorf("decodeJSON refused %v, want %v", refused, want)
	}
}

// findings lists the decoders' warnings and $refs, sorted.
func findings(decs []*decoder) []string {
	var out []string
	for _, d := range decs {
		for _, w := range d.diags {
			out = append(out, w.Pos.Pointer+": "+w.Message)
		}
		for _, u := range d.refs {
			out = append(out, fmt.Sprintf("%s: $ref %s (%d) %T", u.ptr(), u.ref, u.kind, u.slot))
		}
	}
	slices.Sort(out)
	return out
}

// TestDecodeJSONDuplicates checks that the last of keys given twice wins:
// in the members of the document or of the components, decodeJSON leaves
// the document to the other route; in the entries of an object it would
// split, it parses that object whole.
func TestDecodeJSONDuplicates(t *testing.T) {
	defer func(n int) { partBytes = n }(partBytes)
	partBytes = 1
	for text, refused := range map[string]bool{
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"paths":{"/a":{"get":{"operationId":"last","responses":{}}}}}`:                                          true,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"S":{"title":"first"}},"schemas":{"S":{"title":"last"}}}}`:                     true,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"operationId":"first","responses":{}}},"/a":{"get":{"operationId":"last","responses":{}}}}}`: false,
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{},"components":{"schemas":{"S":{"title":"first"},"T":{},"S":{"title":"last"}}}}`:                          false,
	} {
		s := &docSource{name: "d.json", data: []byte(text), json: true}
		if _, _, _, ok := s.decodeJSON(); ok == refused {
			t.Errorf("decodeJSON took it: %v, want %v: %s", ok, !refused, text)
		}
		doc, _, _, err := s.decode()
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if item := doc.Paths.Find("/a"); item != nil {
			got = item.Get.OperationID
		} else {
			got = doc.Components.Schemas["S"].Value.Title
		}
		if got != "last" {
			t.Errorf("%s: decoded %q, want the last", text, got)
		}
	}
}
