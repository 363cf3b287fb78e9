package openapi

import (
	"strings"
	"testing"
)

// TestPlanPath: what a path template sends, and the templates no request
// can carry as the description means them (a generation diagnostic).
func TestPlanPath(t *testing.T) {
	set := func(names ...string) map[string]bool {
		m := map[string]bool{}
		for _, n := range names {
			m[n] = true
		}
		return m
	}
	cases := []struct {
		tmpl        string
		path, query map[string]bool
		want        string
		fixes       map[string]paramFix
		err         string
	}{
		{tmpl: "/pets/{id}", path: set("id"), want: "/pets/{id}"},
		// AWS and Box: the "#..." suffix tells operations apart, never sent.
		{tmpl: "/v1/tags/{resourceArn}#tagKeys", path: set("resourceArn"), want: "/v1/tags/{resourceArn}"},
		{tmpl: "/#Action=AssumeRole", want: "/"},
		{tmpl: "/files/{file_id}#add_shared_link", path: set("file_id"), want: "/files/{file_id}"},
		// A "?..." part is a literal query; "name={var}" parts are sent by the parameter.
		{tmpl: "/{Bucket}?uploads", path: set("Bucket"), want: "/{Bucket}?uploads"},
		{tmpl: "/{Bucket}?list-type=2#ListObjectsV2", path: set("Bucket"), want: "/{Bucket}?list-type=2"},
		{tmpl: "/alerts?lat={lat}&lon={lon}", query: set("lat", "lon"), want: "/alerts"},
		{tmpl: "/alerts?lat={lat}&units=m", path: set("lat"), want: "/alerts?units=m",
			fixes: map[string]paramFix{"lat": {name: "lat", style: "form", explode: true, query: true}}},
		// RFC 6570 operators, expanded as OpenAPI's styles do.
		{tmpl: "/files/{name}{.format}", path: set("name", ".format"), want: "/files/{name}{.format}",
			fixes: map[string]paramFix{".format": {name: ".format", style: "label"}}},
		{tmpl: "/api/projects/{id}{.format}", path: set("id", "format"), want: "/api/projects/{id}{format}",
			fixes: map[string]paramFix{"format": {name: "format", style: "label"}}},
		{tmpl: "/map{;point*}", path: set("point"), want: "/map{point}",
			fixes: map[string]paramFix{"point": {name: "point", style: "matrix", explode: true}}},
		{tmpl: "/a{/b}", path: set("b"), want: "/a/{b}"},
		{tmpl: "/search{?q}", query: set("q"), want: "/search"},
		{tmpl: "/search{?q}", path: set("q"), want: "/search",
			fixes: map[string]paramFix{"q": {name: "q", style: "form", query: true}}},
		{tmpl: "/doc{#section}", path: set("section"), want: "/doc"},
		{tmpl: "/v1/{+name}:publish", path: set("name"), want: "/v1/{name}:publish",
			fixes: map[string]paramFix{"name": {name: "name", style: "simple", reserved: true}}},
		// A name that is not an RFC 6570 varname, declared as it is written.
		{tmpl: "/insights/{insight_id:}", path: set("insight_id:"), want: "/insights/{insight_id:}"},
		// What no request can carry as the description means it.
		{tmpl: "/docs{.format}", query: set("format"), err: `variable "format" of {.format} is declared by no path parameter`},
		{tmpl: "/items/{id}", err: `variable "id" of {id} is declared by no path parameter`},
		{tmpl: "/a{/b*}", path: set("b"), err: `joins an array's items with "/"`},
		{tmpl: "/a/{x,y}", path: set("x", "y"), err: "several variables"},
		{tmpl: "/a/{x:3}", path: set("x"), err: "prefix modifier"},
		{tmpl: "/alerts?lat={lat}", err: `variable "lat" of query part "lat={lat}" is declared by no parameter`},
		{tmpl: "/a?{k}=v", path: set("k"), err: "neither literal nor name={variable}"},
		{tmpl: "/a/{x", path: set("x"), err: "unclosed {"},
	}
	for _, tc := range cases {
		got, err := planPath(tc.tmpl, tc.path, tc.query)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.tmpl) {
				t.Errorf("%s: error %v, want one naming the template and saying %q", tc.tmpl, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.tmpl, err)
			continue
		}
		if got.path != tc.want {
			t.Errorf("%s: sends %q, want %q", tc.tmpl, got.path, tc.want)
		}
		if len(got.fixes) != len(tc.fixes) {
			t.Errorf("%s: fixes %v, want %v", tc.tmpl, got.fixes, tc.fixes)
		}
		for k, f := range tc.fixes {
			if got.fixes[k] != f {
				t.Errorf("%s: fix of %q is %+v, want %+v", tc.tmpl, k, got.fixes[k], f)
			}
		}
	}
}
