package httpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

type issue struct {
	Number int `json:"number"`
}

// githubPages serves 3 pages of issues as GitHub does: per_page and page
// query parameters, and a Link header with rel="next" (and "last") on all
// but the last page.
func githubPages(t *testing.T) (*httptest.Server, *[]string) {
	var uris []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris = append(uris, r.RequestURI)
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(401)
			return
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page < 3 {
			w.Header().Set("Link", fmt.Sprintf(`<%s/repos/o/r/issues?state=open&per_page=2&page=%d>; rel="next", <%s/repos/o/r/issues?state=open&per_page=2&page=3>; rel="last"`, srv.URL, page+1, srv.URL))
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `[{"number":%d},{"number":%d}]`, 2*page-1, 2*page)
	}))
	t.Cleanup(srv.Close)
	return srv, &uris
}

func TestPagesLink(t *testing.T) {
	srv, uris := githubPages(t)
	c := New(srv.URL, []SecurityScheme{{Name: "bearer", Type: "http", Scheme: "bearer"}}, WithCredential("bearer", BearerToken("tok")))
	newReq := func() *Request {
		r := c.NewRequest("issues/list-for-repo", "GET", "/repos/{owner}/{repo}/issues")
		r.PathParam("owner", StyleSimple, false, "o")
		r.PathParam("repo", StyleSimple, false, "r")
		r.QueryParam("state", StyleForm, true, false, "open")
		r.QueryParam("per_page", StyleForm, true, false, 2)
		r.Security([][]string{{"bearer"}})
		return r
	}
	var pages [][]issue
	for env, err := range Pages[[]issue](context.Background(), c, newReq(), okJSON, Paging{Link: true}) {
		if err != nil {
			t.Fatal(err)
		}
		if runtime.HTTPMetaOf(env.Meta).StatusCode != 200 {
			t.Errorf("meta: %+v", env.Meta)
		}
		pages = append(pages, env.Data)
	}
	if fmt.Sprint(pages) != "[[{1} {2}] [{3} {4}] [{5} {6}]]" {
		t.Errorf("pages = %v", pages)
	}
	want := []string{"/repos/o/r/issues?state=open&per_page=2", "/repos/o/r/issues?state=open&per_page=2&page=2", "/repos/o/r/issues?state=open&per_page=2&page=3"}
	if !slices.Equal(*uris, want) {
		t.Errorf("requests = %q", *uris)
	}
	// Items flattens; stopping early fetches no more pages.
	*uris = nil
	var nums []int
	for it, err := range Items(Pages[[]issue](context.Background(), c, newReq(), okJSON, Paging{Link: true})) {
		if err != nil {
			t.Fatal(err)
		}
		nums = append(nums, it.Number)
		if it.Number == 3 {
			break
		}
	}
	if !slices.Equal(nums, []int{1, 2, 3}) || len(*uris) != 2 {
		t.Errorf("items = %v after %d requests", nums, len(*uris))
	}
}

func TestPagesLinkOtherHost(t *testing.T) {
	srv := newRecorder(t, reply(200, "application/json", `[]`, "Link", `<https://evil.example/steal?page=2>; rel="next"`))
	c := New(srv.URL, nil)
	var errs []error
	n := 0
	for _, err := range Pages[[]issue](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON, Paging{Link: true}) {
		n++
		if err != nil {
			errs = append(errs, err)
		}
	}
	if n != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "not followed") || srv.count() != 1 {
		t.Errorf("%d elements, errors %v, %d requests", n, errs, srv.count())
	}
}

func TestPagesCursorAndPage(t *testing.T) {
	// Cursor: the next cursor is at /meta/next; the last page has null.
	var uris []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris = append(uris, r.RequestURI)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("after") {
		case "":
			io.WriteString(w, `{"items":[1,2],"meta":{"next":"c/2"}}`)
		case "c/2":
			io.WriteString(w, `{"items":[3],"meta":{"next":7}}`)
		case "7":
			io.WriteString(w, `{"items":[4],"meta":{"next":null}}`)
		}
	}))
	defer srv.Close()
	c := New(srv.URL, nil)
	type page struct{ Items []int }
	var got []int
	r := c.NewRequest("op", "GET", "/things")
	r.QueryParam("limit", StyleForm, true, false, 2)
	for env, err := range Pages[page](context.Background(), c, r, okJSON, Paging{Cursor: "after", Next: "/meta/next"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data.Items...)
	}
	if !slices.Equal(got, []int{1, 2, 3, 4}) || !slices.Equal(uris, []string{"/things?limit=2", "/things?limit=2&after=c%2F2", "/things?limit=2&after=7"}) {
		t.Errorf("items %v, requests %q", got, uris)
	}

	// Page numbers: until a page has no items.
	uris = nil
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris = append(uris, r.RequestURI)
		w.Header().Set("Content-Type", "application/json")
		p, _ := strconv.Atoi(r.URL.Query().Get("p"))
		if p <= 3 {
			fmt.Fprintf(w, `{"data":[%d]}`, p)
		} else {
			io.WriteString(w, `{"data":[]}`)
		}
	}))
	defer srv2.Close()
	c = New(srv2.URL, nil)
	type dpage struct{ Data []int }
	got = nil
	r = c.NewRequest("op", "GET", "/things")
	r.QueryParam("p", StyleForm, true, false, 2)
	for env, err := range Pages[dpage](context.Background(), c, r, okJSON, Paging{Page: "p", Items: "/data"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data.Data...)
	}
	if !slices.Equal(got, []int{2, 3}) || len(uris) != 3 {
		t.Errorf("items %v, requests %q", got, uris)
	}

	// A cursor that repeats is an error, not an endless loop.
	srv3 := newRecorder(t, reply(200, "application/json", `{"next":"same"}`))
	c = New(srv3.URL, nil)
	var last error
	for _, err := range Pages[map[string]any](context.Background(), c, c.NewRequest("op", "GET", "/"), okJSON, Paging{Cursor: "c", Next: "/next"}) {
		last = err
	}
	var ce *runtime.CallError
	if !errors.As(last, &ce) || !strings.Contains(ce.Message, "repeats") || srv3.count() != 2 {
		t.Errorf("repeat: %v after %d requests", last, srv3.count())
	}
}

func TestNextLink(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{[]string{`<https://a/x?page=2>; rel="next", <https://a/x?page=5>; rel="last"`}, "https://a/x?page=2"},
		{[]string{`<https://a/prev>; rel="prev"`, `<https://a/n,1>; title="a, b; c"; rel="last next"`}, "https://a/n,1"},
		{[]string{`<https://a/1>; rel=next`}, "https://a/1"},
		{[]string{`<https://a/1>; rel="nextpage"`}, ""},
		{[]string{`garbage`, ``}, ""},
		{[]string{`<https://a/1>; foo; rel="NEXT"`}, "https://a/1"},
	} {
		if got := nextLink(tc.in); got != tc.want {
			t.Errorf("nextLink(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
