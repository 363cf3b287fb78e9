package httpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// pagesRemote answers each call with the envelope serve returns for its
// params, as a hub running the operation over HTTP would (headers in the
// meta), and records the params of each call.
type pagesRemote struct {
	serve func(params map[string]any) (data string, link string)
	calls []string
	ids   []string
}

func (p *pagesRemote) CallJSON(_ context.Context, id string, input any) (json.RawMessage, error) {
	b, _ := json.Marshal(input)
	var in struct {
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return nil, err
	}
	pb, _ := json.Marshal(in.Params)
	p.calls = append(p.calls, string(pb))
	p.ids = append(p.ids, id)
	data, link := p.serve(in.Params)
	headers := map[string]string{}
	if link != "" {
		headers["link"] = link
	}
	h, _ := json.Marshal(headers)
	return json.RawMessage(fmt.Sprintf(`{"data":%s,"meta":{"source":"http","statusCode":200,"headers":%s,"contentType":"application/json"}}`, data, h)), nil
}

func (p *pagesRemote) SubscribeJSON(context.Context, string, any) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) { yield(nil, errors.New("not a stream")) }
}

// collect ranges over pages of []int items, returning them and the error
// that ended iteration.
func collect(pages iter.Seq2[runtime.ResponseEnvelope[[]int], error]) ([]int, error) {
	var got []int
	for it, err := range Items(pages) {
		if err != nil {
			return got, err
		}
		got = append(got, it)
	}
	return got, nil
}

func TestRemotePagesLink(t *testing.T) {
	type params struct {
		Owner   string `json:"owner"`
		Page    *int64 `json:"page,omitempty"`
		PerPage *int64 `json:"per_page,omitempty"`
		State   string `json:"state,omitempty"`
	}
	rm := &pagesRemote{serve: func(p map[string]any) (string, string) {
		page := 1
		if v, ok := p["page"].(float64); ok {
			page = int(v)
		}
		if page >= 3 {
			return fmt.Sprintf("[%d]", page), `<https://api.example/repos/ann/issues?page=1&per_page=1>; rel="first"`
		}
		// The hub's server has a path prefix of its own; the next URL keeps per_page.
		return fmt.Sprintf("[%d]", page), fmt.Sprintf(`<https://api.example/v3/repos/ann/issues?page=%d&per_page=1>; rel="next", <https://api.example/v3/repos/ann/issues?page=3&per_page=1>; rel="last"`, page+1)
	}}
	c := New("http://unused.invalid", nil, WithRemote(rm))
	newReq := func() *Request {
		r := c.NewRequest("list", "GET", "/repos/{owner}/issues")
		r.PathParam("owner", StyleSimple, false, "ann")
		one := int64(1)
		r.Remote("gh.list", params{Owner: "ann", PerPage: &one, State: "open"}, nil)
		return r
	}
	got, err := collect(Pages[[]int](context.Background(), c, newReq(), okJSON, Paging{Link: true}))
	if err != nil || !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("items %v, err %v", got, err)
	}
	want := []string{
		`{"owner":"ann","per_page":1,"state":"open"}`,
		`{"owner":"ann","page":2,"per_page":1,"state":"open"}`,
		`{"owner":"ann","page":3,"per_page":1,"state":"open"}`,
	}
	if !slices.Equal(rm.calls, want) || rm.ids[2] != "gh.list" {
		t.Fatalf("calls %q to %q", rm.calls, rm.ids)
	}

	// A next page with a parameter the struct cannot carry: the page, then an error.
	rm.calls = nil
	rm.serve = func(map[string]any) (string, string) {
		return "[1]", `<https://api.example/repos/ann/issues?since=2024>; rel="next"`
	}
	got, err = collect(Pages[[]int](context.Background(), c, newReq(), okJSON, Paging{Link: true}))
	var ce *runtime.CallError
	if !slices.Equal(got, []int{1}) || !errors.As(err, &ce) || ce.Code != runtime.CodeExecution || !strings.Contains(ce.Message, `"since"`) || len(rm.calls) != 1 {
		t.Fatalf("unknown parameter: items %v, err %v, %d calls", got, err, len(rm.calls))
	}
	// A next page on another path is not followed.
	rm.calls = nil
	rm.serve = func(map[string]any) (string, string) {
		return "[1]", `<https://api.example/repos/bob/pulls?page=2>; rel="next"`
	}
	if got, err = collect(Pages[[]int](context.Background(), c, newReq(), okJSON, Paging{Link: true})); !slices.Equal(got, []int{1}) || err == nil || !strings.Contains(err.Error(), "path") || len(rm.calls) != 1 {
		t.Fatalf("other path: items %v, err %v, %d calls", got, err, len(rm.calls))
	}
	// A Link that does not advance is an error, not an endless loop.
	rm.calls = nil
	rm.serve = func(map[string]any) (string, string) {
		return "[1]", `<https://api.example/repos/ann/issues?page=2>; rel="next"`
	}
	if _, err = collect(Pages[[]int](context.Background(), c, newReq(), okJSON, Paging{Link: true})); err == nil || !strings.Contains(err.Error(), "does not advance") || len(rm.calls) != 2 {
		t.Fatalf("repeated link: %v after %d calls", err, len(rm.calls))
	}
}

func TestRemotePagesCursorAndPage(t *testing.T) {
	type cparams struct {
		After *string `json:"after,omitempty"`
		Limit int64   `json:"limit"`
	}
	rm := &pagesRemote{serve: func(p map[string]any) (string, string) {
		switch p["after"] {
		case nil:
			return `{"items":[1,2],"meta":{"next":"c/2"}}`, ""
		case "c/2":
			return `{"items":[3],"meta":{"next":7}}`, ""
		default:
			return `{"items":[4],"meta":{"next":null}}`, ""
		}
	}}
	c := New("http://unused.invalid", nil, WithRemote(rm))
	type page struct{ Items []int }
	var got []int
	r := c.NewRequest("op", "GET", "/things")
	r.Remote("api.op", cparams{Limit: 2}, nil)
	for env, err := range Pages[page](context.Background(), c, r, okJSON, Paging{Cursor: "after", Next: "/meta/next"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data.Items...)
	}
	if !slices.Equal(got, []int{1, 2, 3, 4}) || !slices.Equal(rm.calls, []string{`{"limit":2}`, `{"after":"c/2","limit":2}`, `{"after":"7","limit":2}`}) {
		t.Fatalf("items %v, calls %q", got, rm.calls)
	}

	// Page numbers, from the one the first call had, until a page has no items.
	type pparams struct {
		P int32 `json:"p,omitempty"`
	}
	rm = &pagesRemote{serve: func(p map[string]any) (string, string) {
		n, _ := p["p"].(float64)
		if n <= 3 {
			return fmt.Sprintf(`{"data":[%d]}`, int(n)), ""
		}
		return `{"data":[]}`, ""
	}}
	c = New("http://unused.invalid", nil, WithRemote(rm))
	type dpage struct{ Data []int }
	got = nil
	r = c.NewRequest("op", "GET", "/things")
	r.Remote("api.op", &pparams{P: 2}, nil)
	for env, err := range Pages[dpage](context.Background(), c, r, okJSON, Paging{Page: "p", Items: "/data"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, env.Data.Data...)
	}
	if !slices.Equal(got, []int{2, 3}) || !slices.Equal(rm.calls, []string{`{"p":2}`, `{"p":3}`, `{"p":4}`}) {
		t.Fatalf("items %v, calls %q", got, rm.calls)
	}

	// A page parameter the struct does not have: the first page, then an
	// error instead of fetching it forever.
	rm.calls = nil
	r = c.NewRequest("op", "GET", "/things")
	r.Remote("api.op", cparams{Limit: 2}, nil)
	var last error
	n := 0
	for _, err := range Pages[dpage](context.Background(), c, r, okJSON, Paging{Page: "p", Items: "/data"}) {
		if err != nil {
			last = err
		} else {
			n++
		}
	}
	if n != 1 || last == nil || !strings.Contains(last.Error(), `"p"`) || len(rm.calls) != 1 {
		t.Fatalf("missing page parameter: %d pages, %v, %d calls", n, last, len(rm.calls))
	}

	// A cursor that repeats is an error.
	rm = &pagesRemote{serve: func(map[string]any) (string, string) { return `{"next":"same"}`, "" }}
	c = New("http://unused.invalid", nil, WithRemote(rm))
	r = c.NewRequest("op", "GET", "/")
	r.Remote("api.op", cparams{}, nil)
	last = nil
	for _, err := range Pages[map[string]any](context.Background(), c, r, okJSON, Paging{Cursor: "after", Next: "/next"}) {
		last = err
	}
	var ce *runtime.CallError
	if !errors.As(last, &ce) || !strings.Contains(ce.Message, "repeats") || len(rm.calls) != 2 {
		t.Errorf("repeat: %v after %d calls", last, len(rm.calls))
	}
}
