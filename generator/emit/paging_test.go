package emit

import (
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// pagingService has a GET list whose result declares a Link header, a GET
// list without one, and an operation whose name collides with a pages
// method.
func pagingService() *ir.Service {
	str := &ir.Type{Kind: ir.String}
	list := &ir.Type{Kind: ir.Array, Elem: str}
	op := func(id, goName string, headers ...string) *ir.Operation {
		ok := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: list, Headers: headers}
		return &ir.Operation{ID: id, GoName: goName, Method: "GET", Path: "/" + id, ParamsName: goName + "Params",
			Params:    []*ir.Param{{Name: "cursor", GoName: "Cursor", In: ir.InQuery, Explode: true, Type: str}, {Name: "X-Page", GoName: "XPage", In: ir.InHeader, Type: str}},
			Responses: []*ir.Response{ok}, Result: ok}
	}
	return &ir.Service{Kind: ir.OpenAPI, Source: "paging.yaml", Servers: []ir.Server{{URL: "https://x.example"}},
		Operations: []*ir.Operation{op("linked", "Linked", "Link", "X-Rate-Limit"), op("plain", "Plain"), op("other", "Other")}}
}

func TestEmitPaging(t *testing.T) {
	files, _ := emit(t, pagingService(), Options{Package: "p", Timeout: 90 * time.Second, Operations: map[string]OperationOptions{
		"plain": {Paging: &Paging{Cursor: "cursor", Next: "/next"}, Timeout: 1500 * time.Millisecond},
		"other": {Timeout: time.Minute},
	}})
	var ops, client string
	for _, f := range files {
		switch f.Name {
		case "operations.go":
			ops = string(f.Content)
		case "client.go":
			client = string(f.Content)
		}
	}
	for _, want := range []string{
		"func (c *Client) LinkedPages(ctx context.Context, params LinkedParams, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[[]string], error] {",
		"httpclient.Paging{Link: true}",
		`httpclient.Paging{Cursor: "cursor", Next: "/next"}`,
		"func (c *Client) plainRequest(params PlainParams) *httpclient.Request {",
		"meta, warnings, err := c.c.Call(ctx, c.linkedRequest(params), responsesLinked, &env.Data, opts...)",
		"c.c.EachPage(ctx, r, responsesLinked, httpclient.Paging{Link: true}, &env.Data, func(",
	} {
		if !strings.Contains(ops, want) {
			t.Errorf("operations.go lacks %q", want)
		}
	}
	if strings.Contains(ops, "OtherPages") {
		t.Error("an operation without a Link header or a declared pagination has a pages method")
	}
	for _, want := range []string{"WithTimeout(90 * time.Second)", `WithOperationTimeout("other", 1*time.Minute)`, `WithOperationTimeout("plain", 1500*time.Millisecond)`} {
		if !strings.Contains(client, want) {
			t.Errorf("client.go lacks %q", want)
		}
	}
	// Disabled: no pages method for the Link header.
	files, _ = emit(t, pagingService(), Options{Package: "p", Operations: map[string]OperationOptions{"linked": {Paging: &Paging{Disabled: true}}}})
	for _, f := range files {
		if strings.Contains(string(f.Content), "LinkedPages") {
			t.Errorf("%s: disabled pagination still has LinkedPages", f.Name)
		}
	}
}

func TestEmitPagingErrors(t *testing.T) {
	at := diag.Pos{File: "opsgen.yaml", Line: 7, Col: 3}
	for _, tc := range []struct {
		ops  map[string]OperationOptions
		want string
	}{
		{map[string]OperationOptions{"nope": {Pos: at}}, `opsgen.yaml:7:3: error: operations: "nope" is not an HTTP operation of paging.yaml`},
		{map[string]OperationOptions{"plain": {Pos: at, Paging: &Paging{Cursor: "X-Page", Next: "/n"}}}, `pagination parameter "X-Page" is not a query parameter`},
		{map[string]OperationOptions{"plain": {Pos: at, Paging: &Paging{Page: "page"}}}, `pagination parameter "page" is not a query parameter`},
	} {
		_, diags, err := Emit(pagingService(), Options{Package: "p", Operations: tc.ops})
		if err == nil || !strings.Contains(diags.Err().Error(), tc.want) {
			t.Errorf("%v: err %v, want %q", tc.ops, err, tc.want)
		}
	}
	// A pages method that collides with an operation's method.
	svc := pagingService()
	svc.Operations[2].GoName = "LinkedPages"
	svc.Operations[2].ParamsName = "LinkedPagesParams"
	_, diags, err := Emit(svc, Options{Package: "p"})
	if err == nil || !strings.Contains(diags.Err().Error(), "its pages method LinkedPages collides") {
		t.Errorf("collision: %v", err)
	}
}

// TestEmitPagingMissingMember checks that a declared pagination whose
// pointers name members the response schema does not declare is reported
// at the config's place, naming the operation, and that pointers the
// schema declares (or cannot rule out) are not.
func TestEmitPagingMissingMember(t *testing.T) {
	at := diag.Pos{File: "opsgen.yaml", Line: 9, Col: 5}
	str := &ir.Type{Kind: ir.String}
	meta := &ir.Type{Name: "Meta", Kind: ir.Struct, Fields: []*ir.Field{{Name: "Next", JSONName: "next~/", Type: str}}}
	page := &ir.Type{Name: "Page", Kind: ir.Struct, Fields: []*ir.Field{
		{Name: "Items", JSONName: "items", Type: &ir.Type{Kind: ir.Array, Elem: str}, Required: true},
		{Name: "Meta", JSONName: "meta", Type: meta},
		{Name: "Extra", JSONName: "extra", Type: &ir.Type{Kind: ir.Any}},
	}}
	for _, tc := range []struct {
		paging Paging
		want   string // "" for no warning
	}{
		{Paging{Cursor: "cursor", Next: "/meta/next~0~1", Items: "/items"}, ""},
		{Paging{Cursor: "cursor", Next: "/extra/anything"}, ""},
		{Paging{Cursor: "cursor", Next: "/meta/nextCursor"}, `opsgen.yaml:9:5: warning: operations: "plain": pagination next "/meta/nextCursor" names a response member the schema does not declare (member "nextCursor" of /meta)`},
		{Paging{Cursor: "cursor", Next: "/cursor"}, `pagination next "/cursor" names a response member the schema does not declare (member "cursor" of the body)`},
		{Paging{Page: "cursor", Items: "/items/first"}, `pagination items "/items/first" names a response member the schema does not declare (member "first" of /items, an array)`},
		{Paging{Cursor: "cursor", Next: "/items/0/x"}, `(member "x" of /items/0, which is not an object)`},
	} {
		svc := pagingService()
		for _, r := range svc.Operations[1].Responses {
			r.Type = page
		}
		svc.Types = []*ir.Type{page, meta}
		paging := tc.paging
		files, diags, err := Emit(svc, Options{Package: "p", Operations: map[string]OperationOptions{"plain": {Pos: at, Paging: &paging}}})
		if err != nil {
			t.Fatalf("%+v: %v", tc.paging, err)
		}
		var got []string
		for _, d := range diags {
			if strings.Contains(d.Message, "pagination") {
				got = append(got, d.String())
			}
		}
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%+v: warnings %q, want none", tc.paging, got)
		case tc.want != "" && (len(got) != 1 || !strings.Contains(got[0], tc.want)):
			t.Errorf("%+v: warnings %q, want one containing %q", tc.paging, got, tc.want)
		}
		if len(files) == 0 {
			t.Errorf("%+v: no files", tc.paging)
		}
	}
}
