package httpclient

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// rgb is the spec's object example, {"R":100,"G":200,"B":150}, in
// declaration order.
type rgb struct {
	R int `json:"R"`
	G int `json:"G"`
	B int `json:"B"`
}

var (
	exEmpty  = ""
	exString = "blue"
	exArray  = []string{"blue", "black", "brown"}
	exObject = rgb{100, 200, 150}
)

// styleCase is one cell of the OpenAPI 3.0.4/3.1.1 "Style Examples" table.
type styleCase struct {
	style   Style
	explode bool
	value   any
	want    string
}

func testURL(t *testing.T, r *Request) string {
	t.Helper()
	base, err := parseBaseURL("http://h")
	if err != nil {
		t.Fatal(err)
	}
	if r.err != nil {
		t.Fatalf("request error: %v", r.err)
	}
	u, err := r.buildURL(base)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u, "http://h")
}

func TestStyleExamplesPath(t *testing.T) {
	cases := []styleCase{
		{StyleMatrix, false, exEmpty, ";color"},
		{StyleMatrix, false, exString, ";color=blue"},
		{StyleMatrix, false, exArray, ";color=blue,black,brown"},
		{StyleMatrix, false, exObject, ";color=R,100,G,200,B,150"},
		{StyleMatrix, true, exEmpty, ";color"},
		{StyleMatrix, true, exString, ";color=blue"},
		{StyleMatrix, true, exArray, ";color=blue;color=black;color=brown"},
		{StyleMatrix, true, exObject, ";R=100;G=200;B=150"},
		{StyleLabel, false, exEmpty, "."},
		{StyleLabel, false, exString, ".blue"},
		{StyleLabel, false, exArray, ".blue,black,brown"},
		{StyleLabel, false, exObject, ".R,100,G,200,B,150"},
		{StyleLabel, true, exEmpty, "."},
		{StyleLabel, true, exString, ".blue"},
		{StyleLabel, true, exArray, ".blue.black.brown"},
		{StyleLabel, true, exObject, ".R=100.G=200.B=150"},
		{StyleSimple, false, exEmpty, ""},
		{StyleSimple, false, exString, "blue"},
		{StyleSimple, false, exArray, "blue,black,brown"},
		{StyleSimple, false, exObject, "R,100,G,200,B,150"},
		{StyleSimple, true, exEmpty, ""},
		{StyleSimple, true, exString, "blue"},
		{StyleSimple, true, exArray, "blue,black,brown"},
		{StyleSimple, true, exObject, "R=100,G=200,B=150"},
	}
	c := New("http://h", nil)
	for _, tc := range cases {
		r := c.NewRequest("op", "GET", "/p/{color}/x")
		r.PathParam("color", tc.style, tc.explode, tc.value)
		if got, want := testURL(t, r), "/p/"+tc.want+"/x"; got != want {
			t.Errorf("path %s explode=%v %v: got %q, want %q", tc.style, tc.explode, tc.value, got, want)
		}
	}
}

func TestStyleExamplesQuery(t *testing.T) {
	cases := []styleCase{
		{StyleForm, false, exEmpty, "color="},
		{StyleForm, false, exString, "color=blue"},
		{StyleForm, false, exArray, "color=blue,black,brown"},
		{StyleForm, false, exObject, "color=R,100,G,200,B,150"},
		{StyleForm, true, exEmpty, "color="},
		{StyleForm, true, exString, "color=blue"},
		{StyleForm, true, exArray, "color=blue&color=black&color=brown"},
		{StyleForm, true, exObject, "R=100&G=200&B=150"},
		{StyleSpaceDelimited, false, exArray, "color=blue%20black%20brown"},
		{StyleSpaceDelimited, false, exObject, "color=R%20100%20G%20200%20B%20150"},
		{StylePipeDelimited, false, exArray, "color=blue%7Cblack%7Cbrown"},
		{StylePipeDelimited, false, exObject, "color=R%7C100%7CG%7C200%7CB%7C150"},
		{StyleDeepObject, true, exObject, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
		// Cells the table leaves n/a: serialized as form (and deepObject
		// without explode as with it), documented on appendStyled.
		{StyleSpaceDelimited, true, exArray, "color=blue&color=black&color=brown"},
		{StylePipeDelimited, true, exObject, "R=100&G=200&B=150"},
		{StyleSpaceDelimited, false, exString, "color=blue"},
		{StyleDeepObject, false, exObject, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"},
	}
	c := New("http://h", nil)
	for _, tc := range cases {
		r := c.NewRequest("op", "GET", "/q")
		r.QueryParam("color", tc.style, tc.explode, false, tc.value)
		if got, want := testURL(t, r), "/q?"+tc.want; got != want {
			t.Errorf("query %s explode=%v %v: got %q, want %q", tc.style, tc.explode, tc.value, got, want)
		}
	}
}

func TestStyleExamplesHeaderAndCookie(t *testing.T) {
	c := New("http://h", nil)
	header := []styleCase{
		{StyleSimple, false, exString, "blue"},
		{StyleSimple, false, exArray, "blue,black,brown"},
		{StyleSimple, false, exObject, "R,100,G,200,B,150"},
		{StyleSimple, true, exString, "blue"},
		{StyleSimple, true, exArray, "blue,black,brown"},
		{StyleSimple, true, exObject, "R=100,G=200,B=150"},
	}
	for _, tc := range header {
		r := c.NewRequest("op", "GET", "/")
		r.HeaderParam("X-Color", tc.explode, tc.value)
		if got := r.header.Get("X-Color"); got != tc.want || r.err != nil {
			t.Errorf("header explode=%v %v: got %q (err %v), want %q", tc.explode, tc.value, got, r.err, tc.want)
		}
	}
	cookie := []styleCase{
		{StyleForm, false, exEmpty, "color="},
		{StyleForm, false, exString, "color=blue"},
		{StyleForm, false, exArray, "color=blue,black,brown"},
		{StyleForm, false, exObject, "color=R,100,G,200,B,150"},
		{StyleForm, true, exString, "color=blue"},
		{StyleForm, true, exArray, "color=blue; color=black; color=brown"},
		{StyleForm, true, exObject, "R=100; G=200; B=150"},
	}
	for _, tc := range cookie {
		r := c.NewRequest("op", "GET", "/")
		r.CookieParam("color", tc.explode, tc.value)
		if got := string(r.cookies); got != tc.want || r.err != nil {
			t.Errorf("cookie explode=%v %v: got %q (err %v), want %q", tc.explode, tc.value, got, r.err, tc.want)
		}
	}
}

type color string

type level int

type point struct{ X, Y int }

func (p point) MarshalText() ([]byte, error) {
	return []byte(strings.Repeat("*", p.X) + "|" + strings.Repeat("*", p.Y)), nil
}

// ptrText implements encoding.TextMarshaler on its pointer only.
type ptrText struct{ n int }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte("n" + strings.Repeat("i", p.n)), nil }

type embedded struct {
	Inner  string `json:"inner"`
	Shadow string `json:"shadow"`
}

type filter struct {
	embedded
	Shadow  string    `json:"shadow"`
	Name    string    `json:"name,omitempty"`
	Limit   *int      `json:"limit"`
	Zero    int       `json:"zero"`
	Skip    string    `json:"-"`
	When    time.Time `json:"when,omitzero"`
	Tags    []string  `json:"tags,omitempty"`
	private string
	Ptr     *embedded `json:"ptr,omitempty"`
}

func TestScalarValues(t *testing.T) {
	seven := 7
	i64, b, f64, str := int64(-9), true, 2.5, "s t"
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	var nilPtr *int
	cases := []struct {
		v    any
		want string
	}{
		{"a b", "a%20b"},
		{true, "true"},
		{int8(-8), "-8"},
		{int16(16), "16"},
		{int32(32), "32"},
		{int64(-64), "-64"},
		{uint(1), "1"},
		{uint8(8), "8"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{float32(1.5), "1.5"},
		{3.0, "3"},
		{1e21, "1000000000000000000000"},
		{0.1, "0.1"},
		{1e-7, "1e-07"},
		{&seven, "7"},
		{&i64, "-9"},
		{&b, "true"},
		{&f64, "2.5"},
		{&str, "s%20t"},
		{color("red"), "red"},
		{level(3), "3"},
		{when, "2024-05-06T07%3A08%3A09Z"},
		{&when, "2024-05-06T07%3A08%3A09Z"},
		{time.Date(2024, 5, 6, 7, 8, 9, 500, time.FixedZone("", 3600)), "2024-05-06T07%3A08%3A09.0000005%2B01%3A00"},
		{point{2, 1}, "%2A%2A%7C%2A"},
		{ptrText{2}, "nii"},
		{&ptrText{1}, "ni"},
		{[]ptrText{{1}, {3}}, "ni,niii"},
		{json.RawMessage(`{"a":1}`), "a,1"}, // untyped: serialized by the style, as a typed object is
		{[]byte("hi"), "aGk%3D"},
		{"ü/é?", "%C3%BC%2F%C3%A9%3F"},
		{[]any{1, "x", nil, true}, "1,x,true"},
		{[]*int{&seven, nil}, "7"},
		{[2]level{1, 2}, "1,2"},
	}
	c := New("http://h", nil)
	for _, tc := range cases {
		r := c.NewRequest("op", "GET", "/")
		r.QueryParam("v", StyleForm, false, false, tc.v)
		if got, want := testURL(t, r), "/?v="+tc.want; got != want {
			t.Errorf("%T %v: got %q, want %q", tc.v, tc.v, got, want)
		}
	}
	for _, absent := range []any{nil, nilPtr, []string(nil), map[string]int(nil), (*time.Time)(nil), (*point)(nil),
		(*string)(nil), (*int64)(nil), (*bool)(nil), (*float64)(nil), (*any)(nil), []any(nil)} {
		r := c.NewRequest("op", "GET", "/")
		r.QueryParam("v", StyleForm, true, false, absent)
		r.HeaderParam("X-V", false, absent)
		r.CookieParam("v", false, absent)
		if got := testURL(t, r); got != "/" || len(r.header) != 0 || len(r.cookies) != 0 {
			t.Errorf("%T nil: got %q, header %v, cookies %q; want it omitted", absent, got, r.header, r.cookies)
		}
	}
}

func TestObjectValues(t *testing.T) {
	c := New("http://h", nil)
	limit := 5
	f := filter{embedded: embedded{Inner: "in", Shadow: "deep"}, Shadow: "top", Limit: &limit, Skip: "no", private: "no"}
	r := c.NewRequest("op", "GET", "/")
	r.QueryParam("f", StyleForm, true, false, f)
	if got, want := testURL(t, r), "/?inner=in&shadow=top&limit=5&zero=0"; got != want {
		t.Errorf("struct: got %q, want %q", got, want)
	}
	f.Limit, f.Name, f.Tags = nil, "n", nil
	f.When = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	r = c.NewRequest("op", "GET", "/")
	r.QueryParam("f", StyleForm, false, false, &f)
	if got, want := testURL(t, r), "/?f=inner,in,shadow,top,name,n,zero,0,when,2020-01-02T03%3A04%3A05Z"; got != want {
		t.Errorf("struct pointer: got %q, want %q", got, want)
	}
	// Maps serialize with sorted keys.
	r = c.NewRequest("op", "GET", "/")
	r.QueryParam("m", StyleForm, true, false, map[color]any{"z": 1, "a": "x y", "m": nil})
	if got, want := testURL(t, r), "/?a=x%20y&z=1"; got != want {
		t.Errorf("map: got %q, want %q", got, want)
	}
	// deepObject nests objects and repeats array members.
	r = c.NewRequest("op", "GET", "/")
	r.QueryParam("q", StyleDeepObject, true, false, map[string]any{
		"a": map[string]any{"b": 1, "c": []int{2, 3}},
		"d": "e",
	})
	if got, want := testURL(t, r), "/?q%5Ba%5D%5Bb%5D=1&q%5Ba%5D%5Bc%5D=2&q%5Ba%5D%5Bc%5D=3&q%5Bd%5D=e"; got != want {
		t.Errorf("deepObject nested: got %q, want %q", got, want)
	}
	// deepObjectComma joins an array member's items, each escaped, by a
	// bare comma (PandaScore's filter[id]=1,2).
	r = c.NewRequest("op", "GET", "/")
	r.QueryParam("filter", StyleDeepObjectComma, true, false, map[string]any{
		"id": []int{1, 2}, "name": []string{"a,b", "c"}, "one": []int{7}, "none": []int{}, "s": "x",
	})
	if got, want := testURL(t, r), "/?filter%5Bid%5D=1,2&filter%5Bname%5D=a%2Cb,c&filter%5Bone%5D=7&filter%5Bs%5D=x"; got != want {
		t.Errorf("deepObjectComma: got %q, want %q", got, want)
	}
}

// TestReservedPathParam: {+name} keeps reserved characters, "/" among
// them, and %XX triplets; '?', '#' and what is not reserved are encoded.
func TestReservedPathParam(t *testing.T) {
	c := New("http://h", nil)
	r := c.NewRequest("op", "GET", "/v1/{name}:publish")
	r.ReservedPathParam("name", false, "projects/p 1/topics/t?x#y%2F:z")
	if got, want := testURL(t, r), "/v1/projects/p%201/topics/t%3Fx%23y%2F:z:publish"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	r = c.NewRequest("op", "GET", "/v1/{name}")
	r.ReservedPathParam("name", false, []string{"a/b", "c"})
	if got, want := testURL(t, r), "/v1/a/b,c"; got != want {
		t.Errorf("list: got %q, want %q", got, want)
	}
}

func TestEscaping(t *testing.T) {
	c := New("http://h", nil)
	const v = "a/b?c#d&e=f g%2Fh[i]~j"
	r := c.NewRequest("op", "GET", "/files/{name}")
	r.PathParam("name", StyleSimple, false, v)
	r.QueryParam("plain", StyleForm, false, false, v)
	r.QueryParam("reserved", StyleForm, false, true, v)
	got := testURL(t, r)
	want := "/files/a%2Fb%3Fc%23d%26e%3Df%20g%252Fh%5Bi%5D~j" +
		"?plain=a%2Fb%3Fc%23d%26e%3Df%20g%252Fh%5Bi%5D~j" +
		"&reserved=a/b?c%23d&e=f%20g%2Fh[i]~j"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The path survives net/http's URL parsing with its escapes intact.
	u, err := url.Parse("http://h" + got)
	if err != nil || u.EscapedPath() != "/files/a%2Fb%3Fc%23d%26e%3Df%20g%252Fh%5Bi%5D~j" {
		t.Errorf("parsed path %q (err %v)", u.EscapedPath(), err)
	}
}

func TestParamErrors(t *testing.T) {
	c := New("http://h", nil)
	cases := []struct {
		name  string
		build func(r *Request)
		want  string
	}{
		{"nil path", func(r *Request) { r.PathParam("id", StyleSimple, false, (*int)(nil)) }, `path parameter "id" is required`},
		{"path style", func(r *Request) { r.PathParam("id", StyleForm, false, 1) }, `path parameter "id": style "form" is not allowed`},
		{"query style", func(r *Request) { r.QueryParam("q", StyleMatrix, false, false, 1) }, `query parameter "q": style "matrix" is not allowed`},
		{"nested array", func(r *Request) { r.QueryParam("q", StyleForm, false, false, [][]int{{1}}) }, `query parameter "q": item 0: []int is not a primitive`},
		{"nested object", func(r *Request) { r.QueryParam("q", StyleForm, true, false, map[string]any{"a": map[string]int{}}) }, `query parameter "q": property "a": map[string]int is not a primitive`},
		{"unsupported", func(r *Request) { r.HeaderParam("X-Ch", false, make(chan int)) }, `header parameter "X-Ch": unsupported type chan int`},
		{"map key", func(r *Request) { r.CookieParam("c", false, map[int]int{1: 2}) }, `cookie parameter "c": unsupported map key type int`},
		{"deepObject scalar", func(r *Request) { r.QueryParam("q", StyleDeepObject, true, false, 3) }, `query parameter "q": style deepObject needs an object, not int`},
		{"header newline", func(r *Request) { r.HeaderParam("X-A", false, "a\r\nX-Evil: 1") }, `header parameter "X-A": value contains control character`},
		{"unset path", func(r *Request) {}, `path parameter "id" is not set`},
		{"extra path", func(r *Request) { r.PathParam("id", "", false, 1); r.PathParam("other", "", false, 2) }, `path parameter "other" is not in the path template`},
		{"content location", func(r *Request) { r.ContentParam("body", "x", "application/json", 1) }, `parameter "x": location "body" is not path`},
		{"json body", func(r *Request) { r.JSONBody("", math.Inf(1)) }, `request body: json: unsupported value`},
		{"form body", func(r *Request) { r.FormBody([]int{1}) }, `form body: need an object (a struct, a map, or a union holding an object), not []int`},
	}
	for _, tc := range cases {
		r := c.NewRequest("getThing", "GET", "/things/{id}")
		tc.build(r)
		err := r.err
		if err == nil {
			base, _ := parseBaseURL("http://h")
			_, err = r.buildURL(base)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
			continue
		}
		if r.err != nil && (!errors.Is(r.err, runtime.ErrValidation) || !strings.Contains(r.err.Error(), "getThing")) {
			t.Errorf("%s: %v is not a VALIDATION_ERROR naming the operation", tc.name, r.err)
		}
	}
}

func TestContentParam(t *testing.T) {
	c := New("http://h", nil)
	r := c.NewRequest("op", "GET", "/x/{p}")
	r.ContentParam("path", "p", "application/json", map[string]int{"a": 1})
	r.ContentParam("query", "q", "application/json", []string{"x", "y"})
	r.ContentParam("query", "t", "text/plain", "a b")
	r.ContentParam("query", "absent", "application/json", (*int)(nil))
	r.ContentParam("header", "X-Filter", "application/json", rgb{1, 2, 3})
	r.ContentParam("cookie", "c", "application/json", true)
	if got, want := testURL(t, r), `/x/%7B%22a%22%3A1%7D?q=%5B%22x%22%2C%22y%22%5D&t=a%20b`; got != want {
		t.Errorf("url: got %q, want %q", got, want)
	}
	if got, want := r.header.Get("X-Filter"), `{"R":1,"G":2,"B":3}`; got != want {
		t.Errorf("header: got %q, want %q", got, want)
	}
	if got, want := string(r.cookies), "c=true"; got != want {
		t.Errorf("cookie: got %q, want %q", got, want)
	}
}

func TestBaseURLJoin(t *testing.T) {
	cases := []struct{ base, path, want string }{
		{"http://h", "/pets", "http://h/pets?a=b"},
		{"http://h/", "/pets", "http://h/pets?a=b"},
		{"http://h/api/v1/", "/pets", "http://h/api/v1/pets?a=b"},
		{"http://h/api", "pets", "http://h/api/pets?a=b"},
		{"http://h/api?key=1", "/pets", "http://h/api/pets?key=1&a=b"},
		{"http://h/api#frag", "/", "http://h/api/?a=b"},
	}
	for _, tc := range cases {
		base, err := parseBaseURL(tc.base)
		if err != nil {
			t.Fatal(err)
		}
		r := New(tc.base, nil).NewRequest("op", "GET", tc.path)
		r.QueryParam("a", StyleForm, false, false, "b")
		got, err := r.buildURL(base)
		if err != nil || got != tc.want {
			t.Errorf("%q + %q: got %q (err %v), want %q", tc.base, tc.path, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "/relative", "http://[::1", "host-only"} {
		if _, err := parseBaseURL(bad); err == nil {
			t.Errorf("base URL %q: no error", bad)
		}
	}
	// Do reports a bad base URL.
	_, err := Do[any](t.Context(), New("/v1", nil), New("/v1", nil).NewRequest("op", http.MethodGet, "/"), nil)
	if !errors.Is(err, runtime.ErrValidation) || !strings.Contains(err.Error(), "not absolute") {
		t.Errorf("relative base URL: got %v", err)
	}
}

// TestUndefinedOmitted: an empty array and an object without members are
// undefined in RFC 6570, so query, header and cookie parameters leave them
// out (an empty string is defined and is sent).
func TestUndefinedOmitted(t *testing.T) {
	c := New("http://h", nil)
	for _, v := range []any{[]string{}, map[string]int{}, struct {
		A *int `json:"a,omitempty"`
	}{}} {
		r := c.NewRequest("op", "GET", "/q")
		r.QueryParam("x", StyleForm, true, false, v)
		r.QueryParam("y", StyleForm, false, false, v)
		r.QueryParam("z", StylePipeDelimited, false, false, v)
		r.HeaderParam("X-V", false, v)
		r.CookieParam("c", false, v)
		if got := testURL(t, r); got != "/q" {
			t.Errorf("query of %#v: got %q, want /q", v, got)
		}
		if _, ok := r.header["X-V"]; ok || len(r.cookies) != 0 {
			t.Errorf("%#v: header %q, cookies %q; want neither", v, r.header, r.cookies)
		}
	}
	r := c.NewRequest("op", "GET", "/q")
	r.QueryParam("x", StyleForm, true, false, "")
	r.HeaderParam("X-V", false, "")
	if got := testURL(t, r); got != "/q?x=" {
		t.Errorf("empty string: got %q, want /q?x=", got)
	}
	if v, ok := r.header["X-V"]; !ok || v[0] != "" {
		t.Errorf("empty string header: %q", v)
	}
}
