package e2e_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/golden/openapi/githubissues"
	"github.com/opsgen/opsgen/golden/openapi/paging"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// TestHTTPPagesGitHub: the client generated from GitHub's description of
// GET /repos/{owner}/{repo}/issues (whose 200 response declares a Link
// header) has IssuesListForRepoPages, which follows rel="next" through 3
// pages served as GitHub serves them.
func TestHTTPPagesGitHub(t *testing.T) {
	var mu sync.Mutex
	var uris []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		uris = append(uris, r.RequestURI)
		mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer gh-token" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		link := fmt.Sprintf(`<%s/repositories/42/issues?state=all&per_page=2&page=3>; rel="last"`, srv.URL)
		if page < 3 {
			link = fmt.Sprintf(`<%s/repositories/42/issues?state=all&per_page=2&page=%d>; rel="next", `, srv.URL, page+1) + link
		}
		w.Header().Set("Link", link)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, `[{"number":%d,"title":"issue %d"},{"number":%d,"title":"issue %d"}]`, 2*page-1, 2*page-1, 2*page, 2*page)
	}))
	defer srv.Close()

	c := githubissues.NewClient(githubissues.WithBaseURL(srv.URL), githubissues.WithValidation(runtime.ValidateOff),
		githubissues.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
			return httpclient.RoundTripperFunc(func(req *http.Request) (*http.Response, error) {
				req.Header.Set("Authorization", "Bearer gh-token")
				return next.RoundTrip(req)
			})
		}))
	state, perPage := githubissues.IssuesListForRepoState("all"), int64(2)
	params := githubissues.IssuesListForRepoParams{Owner: "octo", Repo: "hello", State: &state, PerPage: &perPage}
	var titles []string
	pages := 0
	for env, err := range c.IssuesListForRepoPages(context.Background(), params) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if runtime.HTTPMetaOf(env.Meta).Headers["link"] == "" {
			t.Errorf("page %d: no Link header in the meta", pages)
		}
		for _, is := range env.Data {
			titles = append(titles, is.Title)
		}
	}
	if pages != 3 || !slices.Equal(titles, []string{"issue 1", "issue 2", "issue 3", "issue 4", "issue 5", "issue 6"}) {
		t.Errorf("%d pages, titles %q", pages, titles)
	}
	want := []string{"/repos/octo/hello/issues?per_page=2&state=all", "/repositories/42/issues?state=all&per_page=2&page=2", "/repositories/42/issues?state=all&per_page=2&page=3"}
	if !slices.Equal(uris, want) {
		t.Errorf("requests:\n%q\nwant\n%q", uris, want)
	}
	// Items flattens pages; the plain method still returns one page.
	var numbers []int64
	for is, err := range httpclient.Items(c.IssuesListForRepoPages(context.Background(), params)) {
		if err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, is.Number)
	}
	env, err := c.IssuesListForRepo(context.Background(), params)
	if err != nil || len(env.Data) != 2 || !slices.Equal(numbers, []int64{1, 2, 3, 4, 5, 6}) {
		t.Errorf("items %v; single page %v, %v", numbers, env.Data, err)
	}
}

// TestHTTPPagesDeclared: pagination declared in opsgen.yaml (a cursor for
// listEvents, page numbers for search), and the configured timeouts.
func TestHTTPPagesDeclared(t *testing.T) {
	srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		q := r.URL.Query()
		switch r.URL.Path {
		case "/events":
			switch q.Get("after") {
			case "":
				io.WriteString(w, `{"data":["a","b"],"next":"tok-1"}`)
			case "tok-1":
				io.WriteString(w, `{"data":["c"],"next":"tok-2"}`)
			default:
				io.WriteString(w, `{"data":["d"],"next":null}`)
			}
		case "/search":
			if p, _ := strconv.Atoi(q.Get("page")); p <= 2 {
				fmt.Fprintf(w, `{"items":[{"number":%d,"title":"t"}]}`, max(p, 1))
			} else {
				io.WriteString(w, `{"items":[]}`)
			}
		case "/slow":
		}
	})
	c := paging.NewClient(paging.WithBaseURL(srv.URL), paging.WithToken("t"))
	var events []string
	for env, err := range c.ListEventsPages(context.Background(), paging.ListEventsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, env.Data.Data...)
	}
	if !slices.Equal(events, []string{"a", "b", "c", "d"}) {
		t.Errorf("events %v", events)
	}
	var numbers []int64
	for env, err := range c.SearchPages(context.Background(), paging.SearchParams{Q: "x"}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range env.Data.Items {
			numbers = append(numbers, it.Number)
		}
	}
	if !slices.Equal(numbers, []int64{1, 2}) {
		t.Errorf("search items %v", numbers)
	}
	var uris []string
	for _, r := range srv.requests() {
		uris = append(uris, r.URI)
	}
	want := []string{"/events", "/events?after=tok-1", "/events?after=tok-2", "/search?q=x", "/search?q=x&page=2", "/search?q=x&page=3"}
	if !slices.Equal(uris, want) {
		t.Errorf("requests %q, want %q", uris, want)
	}
}

// TestHTTPOperationTimeout: opsgen.yaml gives listEvents a timeout of its
// own (5s); WithOperationTimeout overrides it, and a hanging server ends in
// TIMEOUT.
func TestHTTPOperationTimeout(t *testing.T) {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(done)
	c := paging.NewClient(paging.WithBaseURL(srv.URL), paging.WithToken("t"), paging.WithOperationTimeout("listEvents", 100*time.Millisecond))
	start := time.Now()
	_, err := c.ListEvents(context.Background(), paging.ListEventsParams{})
	if !errors.Is(err, runtime.ErrTimeout) || time.Since(start) > 3*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}
