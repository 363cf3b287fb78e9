package emit

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// commentTexts are spec descriptions that go/doc/comment reformats, or
// could: lists, code blocks, headings, link definitions, and look-alikes.
var commentTexts = []string{
	"Plain text.",
	"Returns the items.\n\nOverview\n\nMore text follows the old-style heading.",
	"First.\n\n# Heading\n\nBody.",
	"First.\n\n#/components/schemas/Pet\n\n#hashtag #\n\n##",
	"A list:\n\n- one\n- two\n\n  - indented one\n  - indented two\n\n  * star\n  1. numbered\n  2) numbered",
	"Code:\n\n    if x {\n        y()\n    }\n\nAfter.",
	"See [Go] and [the spec](https://spec.openapis.org).\n\n[Go]: https://go.dev\n[Other]: https://example.com",
	"[link]: https://example.com",
	"Example:\n\t{\"a\": 1}\n\ttabbed",
	"Trailing spaces   \n   \n\n\n  lead\nUnicode: héllo wörld \u00a0nbsp, 日本語",
	strings.Repeat("word ", 60),
	"Deprecated: use something else.",
	"Ends without punctuation\n\nSecond paragraph without punctuation\n\nThird",
	"Mixed\n  - item\nback to text\n    code\n- dash at start",
	"// looks like a comment\n/* block */ */",
	"go:generate rm -rf /\n//go:build ignore",
	"Use ''CreateThing'' or ``quoted`` text, not ```code```.",
	"Styles:\n\n- `original`: The original file provided. May not be available, depending on permissions\n  and file type.\n- `stripped`: The original file with all metadata (EXIF, XMP, PNG metadata, etc.) removed.\n  This should be used for any application needing the original, uncropped, image.\n- `regular`: If the image has cropping defined, this is the cropped image.\n  If not, this is a square version of the original.\n- `thumb`: A square thumbnail.",
	"3. Receive the callback.\n  The request has a signature.\n  Example:\n  {\"a\":1}\n4. Sort the parameters.\n5. Convert them with\n   [JSON.stringify](https://example.com) or the like.",
	hostile,
}

// TestCommentsAsGofmt checks that comments written as text come out as
// gofmt prints them from plain "//" lines, and that gofmt leaves them so:
// gofmt reformats every comment that abuts a declaration or a field, at
// the top level and inside structs, and one pass is not always a fixed
// point.
func TestCommentsAsGofmt(t *testing.T) {
	for _, text := range commentTexts {
		d := newDoc("Name is a thing.")
		d.para(text)
		d.raw(text)
		lines := d.lines()
		var plain bytes.Buffer // plain "//" lines, not indented
		for _, l := range lines {
			if l == "" {
				plain.WriteString("//\n")
			} else {
				plain.WriteString("// " + l + "\n")
			}
		}
		top, field := &textWriter{}, &textWriter{}
		top.doc(lines)
		field.comment("\t", lines)
		cases := []struct{ unformatted, got string }{
			{"package p\n\n" + plain.String() + "type Name int\n", "package p\n\n" + top.b.String() + "type Name int\n"},
			{"package p\n\ntype S struct {\n" + plain.String() + "F int\n}\n", "package p\n\ntype S struct {\n" + field.b.String() + "\tF int\n}\n"},
		}
		for _, c := range cases {
			want := []byte(c.unformatted)
			for range 5 { // gofmt until it changes nothing
				next, err := format.Source(want)
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				if bytes.Equal(next, want) {
					break
				}
				want = next
			}
			if string(want) != c.got {
				t.Errorf("%q:\ngot:\n%s\nwant (gofmt):\n%s", text, c.got, want)
			}
		}
	}
}

// TestStructAlignment checks the columns of struct fields: aligned over
// each run of fields without comments, with names and types of several
// widths (in runes, not bytes).
func TestStructAlignment(t *testing.T) {
	str, i64 := named("string"), named("int64")
	fields := []field{
		{name: "A", typ: str, tag: "a"},
		{name: "Bbbbbb", typ: qual("time", "Time").ptr(), tag: "b,omitempty"},
		{doc: []string{"Ééé is accented."}, name: "Ééé", typ: i64.under("[]"), tag: "ééé"},
		{name: "D", typ: str.under("map[string]"), tag: "d`quote\"d"},
		{doc: []string{"E alone.", "", "Two paragraphs."}, name: "E", typ: rawMessageType, tag: "-"},
	}
	w := &textWriter{f: newGeneratedFile("p")}
	w.structDecl("T", fields)
	w.structDecl("Empty", nil)
	src := "package p\n\n" + w.b.String()
	got, err := format.Source([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != src {
		t.Errorf("got:\n%s\nwant (gofmt):\n%s", src, got)
	}
	if !strings.HasPrefix(w.b.String(), "type T struct {\n\t_ opsgenimpl.NotComparable\n\n\tA ") {
		t.Errorf("the struct does not start with its NotComparable marker:\n%s", w.b.String())
	}
	if w.f.imports["time"].name != "time" || w.f.imports["encoding/json"].name != "json" || w.f.imports[pkgImpl].name != "opsgenimpl" {
		t.Errorf("imports not recorded: %v", w.f.imports)
	}
}

// TestEdgeOperationsAsGofmt checks the text of operations with shapes the
// golden packages lack: no responses, an optional multipart body of an
// object without properties, an unknown parameter style and location, a
// stream, and an unnamed object (json.RawMessage, with a warning).
func TestEdgeOperationsAsGofmt(t *testing.T) {
	empty := &ir.Type{Name: "Empty", Kind: ir.Struct}
	str := &ir.Type{Kind: ir.String}
	unnamed := &ir.Type{Kind: ir.Struct, Fields: []*ir.Field{{Name: "A", JSONName: "a", Type: str}}}
	events := &ir.Response{Status: "200", MediaType: "text/event-stream", Kind: ir.BodyEventStream, Type: str}
	svc := &ir.Service{
		Kind: ir.OpenAPI, Source: "edge.yaml", Types: []*ir.Type{empty},
		Operations: []*ir.Operation{
			{ID: "upload", GoName: "Upload", Method: "post", Path: "/u", ParamsName: "UploadParams",
				Params: []*ir.Param{
					{Name: "q", GoName: "Q", In: ir.InQuery, Style: "odd", Type: str},
					{Name: "w", GoName: "W", In: "weird", Type: str},
				},
				Body: &ir.Body{MediaType: "multipart/form-data", Kind: ir.BodyMultipart, Type: empty}},
			{ID: "watch", GoName: "Watch", Method: "get", Path: "/w", Stream: true, Responses: []*ir.Response{events}, Result: events},
			{ID: "raw", GoName: "Raw", Method: "put", Path: "/r", Body: &ir.Body{MediaType: "application/json", Kind: ir.BodyJSON, Type: unnamed, Required: true}},
		},
	}
	files, diags := emit(t, svc, Options{Package: "edge"})
	for _, f := range files {
		if src, err := format.Source(f.Content); err != nil || !bytes.Equal(src, f.Content) {
			t.Errorf("%s is not gofmt'd (err %v):\n%s", f.Name, err, f.Content)
		}
	}
	var ops string
	for _, f := range files {
		if f.Name == "operations.go" {
			ops = string(f.Content)
		}
	}
	for _, want := range []string{
		"var responsesUpload = []httpclient.Response{}",
		"r.MultipartBody([]httpclient.Part{})",
		"r.QueryParam(\"q\", httpclient.StyleForm, false, false, params.Q)",
		"body json.RawMessage",
		") iter.Seq2[runtime.ResponseEnvelope[string], error] {",
	} {
		if !strings.Contains(ops, want) {
			t.Errorf("operations.go lacks %q:\n%s", want, ops)
		}
	}
	for _, want := range []string{"unknown style", "unknown location", "unnamed object schema"} {
		if !strings.Contains(fmt.Sprint(diags), want) {
			t.Errorf("no warning about %s: %v", want, diags)
		}
	}
	root, rel := writePackage(t, files, nil)
	goCmd(t, root, "vet", "./"+rel)
}

// FuzzWrapSimple checks that the fast wrapping of plain ASCII lines
// matches the general one.
func FuzzWrapSimple(f *testing.F) {
	f.Add("a b c")
	f.Add(strings.Repeat("word ", 40) + "end")
	f.Add(strings.Repeat("x", 100) + " y " + strings.Repeat("z", 79) + " " + strings.Repeat("q", 80))
	f.Fuzz(func(t *testing.T, s string) {
		// Make a line of the shape wrapSimple takes: printable ASCII words
		// separated by single spaces.
		line := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
			if r < 0x20 || r > 0x7e {
				return ' '
			}
			return r
		}, s)), " ")
		if got, want := wrapSimple(nil, line), wrapWords(nil, line); !slices.Equal(got, want) {
			t.Errorf("wrapSimple(%q) = %q, wrapWords: %q", line, got, want)
		}
	})
}
