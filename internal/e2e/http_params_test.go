package e2e_test

import (
	"context"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/golden/openapi/params"
)

// The expected request targets below follow the OpenAPI "Style Examples"
// table in its RFC 6570-consistent form (OpenAPI 3.0.4 and 3.1.1): values
// are percent-encoded, the delimiters a style inserts are not, except "|",
// " " and "[ ]" in query strings, which RFC 3986 does not allow unencoded.

// TestHTTPParamsSpec sends every parameter that testdata/specs/openapi/params.yaml
// declares and checks the request on the wire.
func TestHTTPParamsSpec(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := params.NewClient(params.WithBaseURL(srv.URL + "/base"))

	_, err := c.GetRepo(ctx, params.GetRepoParams{
		Org:           "my org",
		Repo:          "r/1",
		Coords:        &params.GetRepoCoords{Lat: ptrTo(1.5)},
		Filter:        &params.GetRepoFilter{Color: ptrTo("red")},
		IDs:           []int64{1, 2},
		Level:         ptrTo(params.GetRepoLevelHigh),
		Piped:         []string{"a", "b"},
		Spaced:        []string{"a", "b"},
		Verbose:       ptrTo(int64(3)),
		XTraceID:      ptrTo("t-1"),
		PathLabel:     ptrTo("a/b"),
		SessionCookie: ptrTo("s1"),
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/base/orgs/my%20org/repos/r%2F1?"+
		"coords=%7B%22lat%22%3A1.5%7D&filter%5Bcolor%5D=red&ids=1,2&level=high&piped=a%7Cb&spaced=a%20b&verbose=3")
	checkWireHeader(t, r, "X-Trace-ID", "t-1")
	checkWireHeader(t, r, "path_label", "a/b")
	checkWireHeader(t, r, "Cookie", "session=s1")
	checkWireHeader(t, r, "Content-Type")
	if len(r.Body) != 0 {
		t.Errorf("GET sent a body: %q", r.Body)
	}

	// Optional parameters left nil are not sent at all.
	srv.reset()
	if _, err := c.GetRepo(ctx, params.GetRepoParams{Org: "o", Repo: "r"}); err != nil {
		t.Fatal(err)
	}
	r = srv.only(t)
	checkWireLine(t, r, "GET", "/base/orgs/o/repos/r")
	checkWireHeader(t, r, "X-Trace-ID")
	checkWireHeader(t, r, "Cookie")

	// Matrix style with explode, and a text/plain result.
	text := newWireServer(t, replyJSON(200, "hello", "text/plain; charset=utf-8"))
	env, err := params.NewClient(params.WithBaseURL(text.URL)).GetMM(ctx, params.GetMMParams{M: "x y"})
	if err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, text.only(t), "GET", "/m/;m=x%20y")
	checkWireHeader(t, text.only(t), "Accept", "text/plain")
	if env.Data != "hello" {
		t.Errorf("data = %q, want hello", env.Data)
	}
	if m := httpMeta(t, env); m.StatusCode != 200 || m.ContentType != "text/plain; charset=utf-8" {
		t.Errorf("meta = %+v", m)
	}
}

// TestHTTPPathStyles covers simple, label and matrix path parameters, with
// and without explode, for primitives, arrays and objects.
func TestHTTPPathStyles(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL))
	color := e2ehttp.Color{R: ptrTo(int64(1)), G: ptrTo(int64(2))} // fields (and members on the wire) in name order: G, R

	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"primitive", func() error {
			_, err := c.PathPrimitive(ctx, e2ehttp.PathPrimitiveParams{S: "blue x", Sx: 5, L: "a.b", Lx: "b", M: "c;d", Mx: true})
			return err
		}, "/prim/blue%20x/5/.a.b/.b/;m=c%3Bd/;mx=true"},
		{"primitive needing escapes", func() error {
			_, err := c.PathPrimitive(ctx, e2ehttp.PathPrimitiveParams{S: "50%/x", Sx: -1, L: "é", Lx: "a,b", M: "k=v", Mx: false})
			return err
		}, "/prim/50%25%2Fx/-1/.%C3%A9/.a%2Cb/;m=k%3Dv/;mx=false"},
		{"array", func() error {
			_, err := c.PathArray(ctx, e2ehttp.PathArrayParams{
				S: []int64{1, 2}, Sx: []int64{3, 4}, L: []string{"a", "b"}, Lx: []string{"c", "d"}, M: []string{"e", "f"}, Mx: []string{"g", "h"}})
			return err
		}, "/arr/1,2/3,4/.a,b/.c.d/;m=e,f/;mx=g;mx=h"},
		{"array needing escapes", func() error {
			_, err := c.PathArray(ctx, e2ehttp.PathArrayParams{
				S: []int64{1}, Sx: []int64{2}, L: []string{"a,b", "/"}, Lx: []string{"c d"}, M: []string{"="}, Mx: []string{"?"}})
			return err
		}, "/arr/1/2/.a%2Cb,%2F/.c%20d/;m=%3D/;mx=%3F"},
		{"object", func() error {
			_, err := c.PathObject(ctx, e2ehttp.PathObjectParams{S: color, Sx: color, L: color, Lx: color, M: color, Mx: color})
			return err
		}, "/obj/G,2,R,1/G=2,R=1/.G,2,R,1/.G=2.R=1/;m=G,2,R,1/;G=2;R=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.reset()
			if err := tt.call(); err != nil {
				t.Fatal(err)
			}
			checkWireLine(t, srv.only(t), "GET", tt.want)
		})
	}

	// An empty required path parameter cannot be sent.
	srv.reset()
	_, err := c.PathArray(ctx, e2ehttp.PathArrayParams{})
	wantCallError(t, err, "VALIDATION_ERROR")
	if n := len(srv.requests()); n != 0 {
		t.Errorf("a request with a nil path parameter was sent (%d requests)", n)
	}
}

// TestHTTPQueryStyles covers form (explode or not, primitives, arrays,
// objects), spaceDelimited, pipeDelimited, deepObject and allowReserved.
func TestHTTPQueryStyles(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL))
	color := &e2ehttp.Color{R: ptrTo(int64(1)), G: ptrTo(int64(2))}

	_, err := c.QueryStyles(ctx, e2ehttp.QueryStylesParams{
		APrim:     ptrTo("a b&c=d+é"),
		BArr:      []string{"x", "y z"},
		CArrFlat:  []string{"x,1", "y"},
		DObj:      color,
		EObjFlat:  color,
		FSpace:    []string{"x", "y"},
		GPipe:     []string{"x", "y"},
		HDeep:     color,
		IReserved: ptrTo("a/b:c?d"),
	})
	if err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/query?"+
		"a_prim=a%20b%26c%3Dd%2B%C3%A9&b_arr=x&b_arr=y%20z&c_arr_flat=x%2C1,y&G=2&R=1&e_obj_flat=G,2,R,1"+
		"&f_space=x%20y&g_pipe=x%7Cy&h_deep%5BG%5D=2&h_deep%5BR%5D=1&i_reserved=a/b:c?d")

	// An object with no member set and empty arrays send nothing.
	srv.reset()
	if _, err := c.QueryStyles(ctx, e2ehttp.QueryStylesParams{BArr: []string{}, DObj: &e2ehttp.Color{}}); err != nil {
		t.Fatal(err)
	}
	checkWireLine(t, srv.only(t), "GET", "/query")
}

// TestHTTPHeaderCookieStyles covers header parameters (simple, with and
// without explode) and cookie parameters (form).
func TestHTTPHeaderCookieStyles(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL))
	color := &e2ehttp.Color{R: ptrTo(int64(1)), G: ptrTo(int64(2))}

	_, err := c.HeaderStyles(ctx, e2ehttp.HeaderStylesParams{
		XPrim:  ptrTo(int64(7)),
		XArr:   []string{"a", "b"},
		XObj:   color,
		XObjEx: color,
		Flavor: ptrTo("choc chip"),
		Crumbs: []string{"a", "b"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "GET", "/headers")
	checkWireHeader(t, r, "X-Prim", "7")
	checkWireHeader(t, r, "X-Arr", "a,b")
	checkWireHeader(t, r, "X-Obj", "G,2,R,1")
	checkWireHeader(t, r, "X-Obj-Ex", "G=2,R=1")
	checkWireHeader(t, r, "Cookie", "crumbs=a,b; flavor=choc%20chip")
}
