package openapi

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// stdTree decodes data as decodeTree did before parseTree: json.Decoder
// with UseNumber, nothing after the value.
func stdTree(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil || err.Error() != "EOF" {
		return nil, false
	}
	return v, true
}

// FuzzParseTree checks parseTree against encoding/json: whatever it
// accepts, encoding/json accepts and decodes to the same tree.
func FuzzParseTree(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":[1,-0.5e+3,true,false,null,"x"]}`, `"\u00e9\ud83d\ude00\n\t\"\\\/"`, ` {"a" : {"b":{}} } `,
		`{"a":1,"a":2}`, `-0`, `01`, `1.`, `.5`, `1e`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", "\"\x01\"", `[1,]`, `{"a":1,}`,
		`nul`, `truex`, `{"k":"v"} x`, "\"é日本\"", `1E+2`, `[[[[]]]]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := parseTree(data)
		want, ok := stdTree(data)
		if err != nil {
			if len(data) < 64 && ok && json.Valid(data) && !bytes.Contains(data, []byte(`\u`)) && bytes.Equal(bytes.ToValidUTF8(data, nil), data) {
				t.Errorf("parseTree refused %q, valid for encoding/json", data)
			}
			return
		}
		if !ok {
			t.Fatalf("parseTree accepted %q, encoding/json refuses it", data)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("parseTree(%q) = %#v, encoding/json: %#v", data, got, want)
		}
	})
}

// TestParseTreeSpecs checks parseTree on the JSON specs of testdata: it
// must accept each, with encoding/json's tree.
func TestParseTreeSpecs(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/specs/openapi", "../../testdata/corpus"} {
		m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d JSON specs found", len(files))
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := stdTree(data)
		got, err := parseTree(data)
		switch {
		case !ok:
			if err == nil {
				t.Errorf("%s: parseTree accepted a document encoding/json refuses", file)
			}
		case err != nil:
			if strings.Contains(filepath.Base(file), "broken") {
				continue
			}
			t.Errorf("%s: %v", file, err)
		case !reflect.DeepEqual(got, want):
			t.Errorf("%s: the trees differ", file)
		}
	}
}
