package emit

import (
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// TestRegistryFileBodies: operations with binary bodies and multipart file
// fields are registered, with base64 input; a multipart body whose fields
// include names that cannot be struct tags (or appear twice) still makes a
// handler that compiles, and a union multipart body is sent by
// MultipartObject.
func TestRegistryFileBodies(t *testing.T) {
	str := &ir.Type{Kind: ir.String}
	bin := &ir.Type{Kind: ir.Binary}
	form := &ir.Type{Name: "Form", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "File", JSONName: "file", Type: bin, Required: true},
		{Name: "Bad", JSONName: "a\"b", Type: bin},     // not a struct tag: left out of JSON
		{Name: "Twice", JSONName: "twice", Type: str},  // the first "twice"
		{Name: "Twice2", JSONName: "twice", Type: bin}, // the second: left out
		{Name: "Files", JSONName: "files", Type: &ir.Type{Kind: ir.Array, Elem: bin}},
	}}
	text := &ir.Type{Name: "Text", Kind: ir.Struct, Fields: []*ir.Field{{Name: "Text", JSONName: "text", Type: str, Required: true}}}
	note := &ir.Type{Name: "Note", Kind: ir.Union, Variants: []*ir.Variant{{Name: "Text", Type: text, JSONKind: "object"}}}
	noContent := &ir.Response{Status: "204"}
	defs := testDefs{}
	defs.declare(form)
	form.Def.Schema = defs.schema(`{"type":"object","properties":{"file":{"type":"string","format":"binary"}},"required":["file"]}`)
	svc := &ir.Service{
		Kind: ir.OpenAPI, Source: "specs/files.yaml", Title: "Files", Version: "1",
		Types: []*ir.Type{form, text, note},
		Defs:  defs.list(),
		Operations: []*ir.Operation{
			{ID: "upload", GoName: "Upload", Method: "POST", Path: "/upload", Doc: ir.Doc{Origin: "POST /upload"},
				Body:        &ir.Body{MediaType: "multipart/form-data", Kind: ir.BodyMultipart, Type: form, Required: true},
				Responses:   []*ir.Response{noContent},
				InputSchema: defs.schema(`{"type":"object","properties":{"body":{"$ref":"#/$defs/Form"}},"required":["body"]}`)},
			{ID: "put", GoName: "Put", Method: "PUT", Path: "/raw", Doc: ir.Doc{Origin: "PUT /raw"},
				Body:        &ir.Body{MediaType: "*/*", Kind: ir.BodyBinary, Type: bin},
				Responses:   []*ir.Response{noContent},
				InputSchema: defs.schema(`{"type":"object","properties":{"body":{}}}`)},
			{ID: "note", GoName: "PostNote", Method: "POST", Path: "/note", Doc: ir.Doc{Origin: "POST /note"},
				Body:      &ir.Body{MediaType: "multipart/form-data", Kind: ir.BodyMultipart, Type: note, Required: true, Encoding: map[string]string{"text": "text/plain"}},
				Responses: []*ir.Response{noContent}},
		},
	}
	files, diags := emit(t, svc, Options{Package: "files", Version: "v0.1.0", Registry: true})
	for _, d := range diags {
		if strings.Contains(d.Message, "not registered") || strings.Contains(d.Message, "sent as raw bytes") {
			t.Errorf("unexpected warning: %s", d)
		}
	}
	src := map[string]string{}
	for _, f := range files {
		src[f.Name] = string(f.Content)
	}
	for _, want := range []string{
		`"files.upload"`, `"files.put"`, `"files.note"`,
		`{"properties":{"body":{"contentEncoding":"base64","contentMediaType":"*/*","type":"string"}},"type":"object"}`,
		`"file":{"contentEncoding":"base64","format":"binary","type":"string"}`,
	} {
		if !strings.Contains(src["registry.go"], want) {
			t.Errorf("registry.go lacks %s", want)
		}
	}
	for _, want := range []string{
		`r.MultipartObject(body, map[string]string{"text": "text/plain"})`,
		`{Name: "files", FileName: "files", Value: body.Files}`,
	} {
		if !strings.Contains(src["operations.go"], want) {
			t.Errorf("operations.go lacks %s", want)
		}
	}
	root, rel := writePackage(t, files, nil)
	goCmd(t, root, "vet", rel)
}
