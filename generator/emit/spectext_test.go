package emit

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// adversarial are spec texts that would become code if pasted into it:
// they close a comment, a block or a string, break a line (U+2028 is a
// line break in JavaScript, not in Go; it must not be in a comment line
// either) or are not UTF-8.
var adversarial = []string{
	"*/ func init() { panic(1) } /*",
	"\n}\nfunc X(){}",
	"`) }\nfunc X() { panic(`",
	"a\u2028func X() {}\u2029b\r\nfunc X() {}",
	"bad \xff\xfe utf8 \x00 \"}\nfunc X() {}",
	"// +build ignore\n//go:generate panic\n/* */ */",
}

// adversarialService puts each adversarial text on every path of an
// OpenAPI service that writes spec text: type docs (struct, enum, union,
// tuple, array), field docs and property names (struct tags), defaults,
// enum values and their docs, union discriminators and tags, operation
// ids, paths, tags and docs, parameter names, styles and docs, media
// types, error docs, servers, security schemes, schema descriptions and
// the service's title, version, description and source.
func adversarialService() *ir.Service {
	str := &ir.Type{Kind: ir.String}
	all := strings.Join(adversarial, " ")
	svc := &ir.Service{
		Kind: ir.OpenAPI, Source: all, Title: all, Version: all, Description: all,
		Servers: []ir.Server{{URL: "https://x/{v}/" + all, Description: all, Variables: map[string]string{"v": all, all: all}}},
	}
	for i, s := range adversarial {
		d := ir.Doc{Summary: s, Description: s + " more", Deprecated: true, Origin: s}
		n := strconv.Itoa(i)
		enum := &ir.Type{Name: "Enum" + n, Kind: ir.Enum, Base: ir.String, Doc: d, Default: s, Values: []*ir.EnumValue{
			{Name: "Enum" + n + "A", Value: s, Doc: s},
		}}
		obj := &ir.Type{Name: "Obj" + n, Kind: ir.Struct, Doc: d, AdditionalProperties: str, Fields: []*ir.Field{
			{Name: "A", JSONName: s, Type: str, Doc: d, Default: s},
			{Name: "B", JSONName: "b" + s, Type: enum, Required: true, Deprecated: true},
			{Name: "Kind", JSONName: s + "kind", Type: str, Required: true},
		}}
		union := &ir.Type{Name: "Union" + n, Kind: ir.Union, Doc: d, Discriminator: s + "kind", Variants: []*ir.Variant{
			{Name: "Obj", Const: "ObjUnion" + n, Type: obj, Tags: []string{s}, JSONKind: "object", Required: []string{s}},
		}}
		tuple := &ir.Type{Name: "Tuple" + n, Kind: ir.Tuple, Doc: d, Items: []*ir.Type{str}, Elem: str}
		list := &ir.Type{Name: "List" + n, Kind: ir.Array, Doc: d, Elem: obj}
		svc.Types = append(svc.Types, enum, obj, union, tuple, list)
		svc.Defs = append(svc.Defs, &ir.Def{Name: s + n, Schema: describe(s)})
		resp := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: obj, Schema: describe(s), Doc: d}
		notFound := &ir.Response{Status: "404", MediaType: "application/json", Kind: ir.BodyJSON, Type: union, ErrorName: "Op" + n + "NotFound", Doc: d}
		svc.Operations = append(svc.Operations, &ir.Operation{
			ID: s + n, GoName: "Op" + n, Method: "POST", Path: "/x/{" + s + "}", Tags: []string{s}, ParamsName: "Op" + n + "Params", Doc: d,
			Params: []*ir.Param{
				{Name: s, GoName: "P", In: ir.InPath, Required: true, Type: str, Doc: d},
				{Name: s + "q", GoName: "Q", In: ir.InQuery, Style: s, Type: enum, Doc: d},
				{Name: s + "h", GoName: "H", In: ir.InHeader, Type: str},
				{Name: s + "c", GoName: "C", In: ir.InCookie, Type: str, ContentType: s},
			},
			Body:        &ir.Body{MediaType: s, Kind: ir.BodyJSON, Type: obj, Required: true},
			Responses:   []*ir.Response{resp, notFound},
			Result:      resp,
			InputSchema: describe(s), OutputSchema: describe(s),
		})
		// A webhook and a callback: names, callback expressions, media
		// types and schemas from the spec.
		svc.Webhooks = append(svc.Webhooks,
			&ir.Operation{ID: s + n, GoName: "Hook" + n, Method: "POST", Doc: d, Webhook: &ir.Webhook{Name: s},
				Body: &ir.Body{MediaType: s, Kind: ir.BodyJSON, Type: obj}, OutputSchema: describe(s)},
			&ir.Operation{ID: s + n + "cb", GoName: "Callback" + n, Method: "PUT", Doc: d, Webhook: &ir.Webhook{Name: s + "/" + s, Expression: s},
				Body: &ir.Body{MediaType: s, Kind: ir.BodyText, Type: str}})
		svc.SecuritySchemes = append(svc.SecuritySchemes, &ir.SecurityScheme{Name: s + n, GoName: "Key" + n, Type: "apiKey", In: "header", ParamName: s, Doc: d})
		svc.Security = append(svc.Security, []string{s + n})
	}
	return svc
}

// adversarialTools is an MCP listing with the adversarial texts in tool
// names, titles, descriptions, conventions, the input and output types'
// docs and property names, and the server's name, title and version.
func adversarialTools() *ir.Service {
	str := &ir.Type{Kind: ir.String}
	all := strings.Join(adversarial, " ")
	svc := &ir.Service{Kind: ir.MCP, Source: all, ServerName: all, Title: all, Version: all}
	for i, s := range adversarial {
		d := ir.Doc{Summary: s, Description: s + " more", Origin: s}
		n := strconv.Itoa(i)
		out := &ir.Type{Name: "Out" + n, Kind: ir.Struct, Doc: d, Fields: []*ir.Field{{Name: "A", JSONName: s, Type: str, Doc: d, Required: true}}}
		in := &ir.Type{Kind: ir.Struct, Doc: d, Fields: []*ir.Field{{Name: "B", JSONName: s, Type: str, Doc: d}}}
		svc.Types = append(svc.Types, out)
		svc.Operations = append(svc.Operations, &ir.Operation{
			Kind: ir.MCPTool, ID: s + n, GoName: "Tool" + n, ParamsName: "Tool" + n + "Params", Doc: d,
			Tool:        &ir.Tool{Name: s + n, Title: s, Convention: s, TaskSupport: s, ReadOnly: ptrBool(true), InputType: in, OutputType: out},
			InputSchema: describe(s), OutputSchema: describe(s),
		})
	}
	return svc
}

// TestSpecTextNeverCode checks that spec text reaches the generated code
// only as comments and quoted literals: with adversarial text on every
// path, each file is gofmt'd, has no block comment, no identifier from the
// text (init, X, panic), no build constraint or directive, and the text is
// there (as a literal, or sanitized in a comment); the packages compile
// and vet.
func TestSpecTextNeverCode(t *testing.T) {
	openapi, _ := emit(t, adversarialService(), Options{Package: "evil", Version: strings.Join(adversarial, " "), Registry: true})
	mcp, _ := emit(t, adversarialTools(), Options{Package: "evil", Version: adversarial[0], Registry: true})
	if !slices.ContainsFunc(openapi, func(f File) bool { return f.Name == "webhooks.go" }) {
		t.Fatal("no webhooks.go: the webhook writer is not checked")
	}
	for _, files := range [][]File{openapi, mcp} {
		var lits, comments strings.Builder
		for _, f := range files {
			if src, err := format.Source(f.Content); err != nil || string(src) != string(f.Content) {
				t.Errorf("%s is not gofmt'd (%v)", f.Name, err)
			}
			topLevelNames(t, f) // fails on block comments
			af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Content, parser.ParseComments)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if n.Name == "init" || n.Name == "X" || n.Name == "panic" {
						t.Errorf("%s: identifier %s from spec text", f.Name, n.Name)
					}
				case *ast.BasicLit:
					if n.Kind == token.STRING {
						s, err := strconv.Unquote(n.Value)
						if err != nil {
							t.Errorf("%s: literal %s: %v", f.Name, n.Value, err)
						}
						lits.WriteString(s + "\n")
					}
				}
				return true
			})
			for _, cg := range af.Comments {
				for _, c := range cg.List {
					comments.WriteString(c.Text + "\n")
					if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "// +build") || strings.HasPrefix(c.Text, "//line") {
						t.Errorf("%s: directive from spec text: %q", f.Name, c.Text)
					}
					if strings.ContainsAny(c.Text, "\r\u2028\u2029\x00") || !utf8Valid(c.Text) {
						t.Errorf("%s: comment with a line break or invalid text: %q", f.Name, c.Text)
					}
				}
			}
		}
		// The texts are there: exactly in literals (names on the wire,
		// enum values, ids, descriptions), sanitized in comments.
		for _, s := range adversarial {
			if !strings.Contains(lits.String(), s) {
				t.Errorf("no literal holds %q", s)
			}
			if c := sanitize(strings.Fields(s)[len(strings.Fields(s))-1]); !strings.Contains(comments.String(), c) {
				t.Errorf("no comment holds %q (from %q)", c, s)
			}
		}
	}
	root, a := writePackage(t, openapi, nil)
	_, b := writePackage(t, mcp, nil)
	goCmd(t, root, "vet", a, b)
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "") == s }

// TestCommentLine checks the one function that turns text into comments:
// whatever the text, the result is one "//" line.
func TestCommentLine(t *testing.T) {
	for _, s := range append(adversarial, "", "\tcode\tline", "plain", "é\u202e") {
		got := commentLine(s)
		if !strings.HasPrefix(got, "//") || strings.ContainsAny(got, "\n\r\u2028\u2029\u202e\x00") || !utf8Valid(got) {
			t.Errorf("commentLine(%q) = %q", s, got)
		}
		src := fmt.Sprintf("package p\n\n%s\nvar V int\n", got)
		af, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.ParseComments)
		if err != nil || len(af.Decls) != 1 || len(af.Comments) != 1 {
			t.Errorf("commentLine(%q) = %q is not one comment before the declaration (%v)", s, got, err)
		}
	}
}

// describe is a schema that only has a description.
func describe(s string) *ir.Schema { return ir.NewSchema(ir.Member{Key: "description", Value: s}) }
