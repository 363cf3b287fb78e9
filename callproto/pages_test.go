package callproto_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/golden/openapi/paging"
	rt "github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// A generated client's <Op>Pages methods run through the call protocol
// (WithRemote): each page is a call the hub makes over HTTP with its own
// credentials, and the next page's Link URL, cursor or page number travels
// back in the parameters. The API server sees only the hub.
func TestPagesAcrossTheWire(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+" "+r.URL.RequestURI())
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		q := r.URL.Query()
		switch r.URL.Path {
		case "/repos/ann/pets/issues":
			page, _ := strconv.Atoi(q.Get("page"))
			page = max(page, 1)
			if page < 3 {
				w.Header().Set("Link", fmt.Sprintf(`<%s/repos/ann/pets/issues?page=%d&per_page=1&state=open>; rel="next"`, "http://"+r.Host, page+1))
			}
			fmt.Fprintf(w, `[{"number":%d,"title":"issue %d"}]`, page, page)
		case "/events":
			switch q.Get("after") {
			case "":
				fmt.Fprint(w, `{"data":["a","b"],"next":"c/2"}`)
			case "c/2":
				fmt.Fprint(w, `{"data":["c"],"next":null}`)
			}
		case "/search":
			page, _ := strconv.Atoi(q.Get("page"))
			if page <= 2 {
				fmt.Fprintf(w, `{"items":[{"number":%d,"title":"found"}]}`, page)
			} else {
				fmt.Fprint(w, `{"items":[]}`)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer api.Close()

	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer hubBus.Close()
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer spokeBus.Close()
	reg := rt.NewRegistry(nil)
	if err := paging.NewClient(paging.WithBaseURL(api.URL), paging.WithToken("hub-token")).Register(reg); err != nil {
		t.Fatal(err)
	}
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer spoke.Close()
	// The spoke's client has no server URL and no token: only the hub's.
	c := paging.NewClient(paging.WithBaseURL("http://127.0.0.1:1"), paging.WithRemote(spoke))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	one := int64(1)
	var titles []string
	for issue, err := range httpclient.Items(c.IssuesListForRepoPages(ctx, paging.IssuesListForRepoParams{Owner: "ann", Repo: "pets", PerPage: &one})) {
		if err != nil {
			t.Fatal(err)
		}
		titles = append(titles, issue.Title)
	}
	if !slices.Equal(titles, []string{"issue 1", "issue 2", "issue 3"}) {
		t.Fatalf("Link pages: %q", titles)
	}

	var events []string
	for env, err := range c.ListEventsPages(ctx, paging.ListEventsParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		if rt.HTTPMetaOf(env.Meta) == nil {
			t.Fatalf("page meta %+v: not the hub's HTTP meta", env.Meta)
		}
		events = append(events, env.Data.Data...)
	}
	if !slices.Equal(events, []string{"a", "b", "c"}) {
		t.Fatalf("cursor pages: %q", events)
	}

	var found []int64
	for env, err := range c.SearchPages(ctx, paging.SearchParams{Q: "x", Page: &one}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range env.Data.Items {
			found = append(found, it.Number)
		}
	}
	if !slices.Equal(found, []int64{1, 2}) {
		t.Fatalf("numbered pages: %v", found)
	}

	want := []string{
		"Bearer hub-token /repos/ann/pets/issues?per_page=1",
		"Bearer hub-token /repos/ann/pets/issues?page=2&per_page=1&state=open",
		"Bearer hub-token /repos/ann/pets/issues?page=3&per_page=1&state=open",
		"Bearer hub-token /events",
		"Bearer hub-token /events?after=c%2F2",
		"Bearer hub-token /search?page=1&q=x",
		"Bearer hub-token /search?page=2&q=x",
		"Bearer hub-token /search?page=3&q=x",
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(seen, want) {
		t.Fatalf("the API saw\n%q\nwant\n%q", seen, want)
	}
}
