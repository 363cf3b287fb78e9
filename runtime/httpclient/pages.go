package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/runtime"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
)

// Paging says how the pages of a list operation follow each other: by the
// Link header, by a cursor, or by a page number. Generated clients declare
// it for each operation with a <Op>Pages method.
type Paging struct {
	// Link follows the target of the response's Link header (RFC 8288)
	// whose rel is "next", as GitHub's API pages its lists. Iteration ends
	// with the page that has none.
	Link bool
	// Cursor is the query parameter that carries the cursor of the next
	// page, read from the response body at Next. Iteration ends with a page
	// whose cursor is absent, null or "".
	Cursor string
	// Next is the JSON pointer (RFC 6901) of the next page's cursor in the
	// response body ("/meta/next_cursor").
	Next string
	// Page is the query parameter of a page number: 2 after the first page
	// (or one more than the number the first request had), and so on until
	// a page has no items.
	Page string
	// Items is the JSON pointer of a page's items ("": the body itself);
	// with Page, a page whose items are absent or an empty array ends
	// iteration (and is not yielded, unless it is the first).
	Items string
}

// pageState is what Do keeps of a response for Pages.
type pageState struct {
	keepBody bool
	body     bytes.Buffer
	url      *url.URL
	links    []string
}

// Pages calls the operation of r page after page, as paging says, and
// yields each page's envelope (as Do returns it). The first request is r;
// the next ones are r with the cursor or page parameter set, or the Link
// header's URL (which must have the scheme and host of the first request:
// credentials are never sent elsewhere). An error (a failed call,
// a cursor that does not advance, a Link to another server) is yielded
// once and ends iteration; so does stopping the loop.
//
// Each page is a call of its own: options, retries and timeouts apply per
// page. Use Items to range over the items of pages that are slices. With
// WithRemote, the pages are calls of the operation's registry id, the
// parameters of the next page set in its input (see WithRemote).
func Pages[T any](ctx context.Context, c *Client, r *Request, responses []Response, paging Paging, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[T], error] {
	return func(yield func(runtime.ResponseEnvelope[T], error) bool) {
		var env runtime.ResponseEnvelope[T]
		c.EachPage(ctx, r, responses, paging, &env.Data, func(meta runtime.Meta, warnings []runtime.Warning, err error) bool {
			env.Meta, env.Warnings = meta, warnings
			return yield(env, err)
		}, opts...)
	}
}

// EachPage is Pages for the data of each page's envelope stored through
// data, a non-nil pointer to the result type: it calls yield with each
// page's meta and warnings, *data holding the page's data, until yield
// returns false or an error is passed to it (with a nil meta and *data
// zero). Generated <Op>Pages methods call it from their iterator with
// &env.Data of the envelope they yield, so that nothing is compiled once
// per result type.
func (c *Client) EachPage(ctx context.Context, r *Request, responses []Response, paging Paging, data any, yield func(runtime.Meta, []runtime.Warning, error) bool, opts ...CallOption) {
	if rm := c.remote(r); rm != nil {
		c.remotePages(ctx, rm, r, responses, paging, callOptions(opts), data, yield)
		return
	}
	fail := func(err error) bool {
		zeroData(data)
		return yield(nil, nil, err)
	}
	cc := callOptions(opts)
	if cc == nil {
		cc = new(callConfig)
	}
	pg := &pageState{keepBody: paging.Cursor != "" || paging.Page != ""}
	cc.page = pg
	defer func() {
		if r.src != nil {
			r.src.close()
		}
	}()
	page := 0
	if paging.Page != "" {
		page = 1
		if v, ok := r.queryValue(paging.Page); ok {
			if n, err := strconv.Atoi(v); err == nil {
				page = n
			}
		}
	}
	seen := map[string]bool{}
	// Links are followed on the server of the first request only: not
	// where a redirect led, nor anywhere a response points.
	var origin *url.URL
	if first, err := c.requestURL(r, cc); err == nil {
		origin, _ = url.Parse(first)
	}
	for n := 0; ; n++ {
		zeroData(data) // each page decodes into a zero value
		meta, warnings, err := c.do(ctx, r, responses, cc, data)
		if err != nil {
			fail(err)
			return
		}
		yieldPage := func() bool { return yield(meta, warnings, nil) }
		next := r.clone()
		switch {
		case paging.Link:
			target := nextLink(pg.links)
			if target == "" {
				yieldPage()
				return
			}
			cur := pg.url
			if cur == nil {
				cur, _ = url.Parse(r.rawURL)
			}
			u, err := cur.Parse(target)
			if err != nil || origin == nil || u.Scheme != origin.Scheme || u.Host != origin.Host {
				if yieldPage() {
					fail(runtime.Errorf(runtime.CodeExecution, r.opID, "the Link header's next page %q is not on the server of the first page; not followed", target))
				}
				return
			}
			next.rawURL = u.String()
			if seen[next.rawURL] {
				if yieldPage() {
					fail(runtime.Errorf(runtime.CodeExecution, r.opID, "pagination does not advance: the next page %q was already fetched", target))
				}
				return
			}
			seen[next.rawURL] = true
		case paging.Cursor != "":
			cursor, ok := pointerString(pg.body.Bytes(), paging.Next)
			if !ok {
				yieldPage()
				return
			}
			if seen[cursor] {
				if yieldPage() {
					fail(runtime.Errorf(runtime.CodeExecution, r.opID, "pagination does not advance: cursor %q repeats", cursor))
				}
				return
			}
			seen[cursor] = true
			next.setQuery(paging.Cursor, cursor)
		case paging.Page != "":
			if !hasItems(pg.body.Bytes(), paging.Items) {
				if n == 0 {
					yieldPage()
				}
				return
			}
			page++
			next.setQuery(paging.Page, strconv.Itoa(page))
		default:
			yieldPage()
			return
		}
		if !yieldPage() {
			return
		}
		r = next
	}
}

// Items ranges over the items of pages whose data is a slice (as an
// operation's <Op>Pages method yields them), fetching pages as it goes. An
// error is yielded once, with a zero item, and ends iteration.
func Items[E any](pages iter.Seq2[runtime.ResponseEnvelope[[]E], error]) iter.Seq2[E, error] {
	return func(yield func(E, error) bool) {
		for env, err := range pages {
			if err != nil {
				var zero E
				yield(zero, err)
				return
			}
			for _, it := range env.Data {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}

// clone returns a copy of r for the next page: same operation, parameters
// and body.
func (r *Request) clone() *Request {
	n := &Request{}
	*n = *r
	n.srcVal = bodySource{} // the clone shares r's body source through src
	n.query = bytes.Clone(r.query)
	n.credQuery = nil
	return n
}

// setQuery replaces the query parameter name's values with value.
func (r *Request) setQuery(name, value string) {
	key := string(appendEscaped(nil, name, escapeAll))
	var q []byte
	for p := range strings.SplitSeq(string(r.query), "&") {
		if k, _, _ := strings.Cut(p, "="); p == "" || k == key {
			continue
		}
		if len(q) > 0 {
			q = append(q, '&')
		}
		q = append(q, p...)
	}
	if len(q) > 0 {
		q = append(q, '&')
	}
	q = append(q, key...)
	q = append(q, '=')
	r.query = appendEscaped(q, value, escapeAll)
	r.rawURL = ""
}

// queryValue returns the (first) value of the query parameter name.
func (r *Request) queryValue(name string) (string, bool) {
	key := string(appendEscaped(nil, name, escapeAll))
	for p := range strings.SplitSeq(string(r.query), "&") {
		if k, v, _ := strings.Cut(p, "="); k == key {
			s, err := url.QueryUnescape(v)
			return s, err == nil
		}
	}
	return "", false
}

// nextLink returns the target of the first link with relation type "next"
// in Link header values (RFC 8288: `<uri>; rel="next last"; title="..."`,
// links separated by commas); "" when there is none.
func nextLink(values []string) string {
	for _, v := range values {
		for v != "" {
			v = strings.TrimLeft(v, " \t,")
			if !strings.HasPrefix(v, "<") {
				break
			}
			end := strings.IndexByte(v, '>')
			if end < 0 {
				break
			}
			target := v[1:end]
			v = v[end+1:]
			next := false
			// Parameters up to the next comma outside a quoted string.
			for {
				v = strings.TrimLeft(v, " \t")
				if !strings.HasPrefix(v, ";") {
					break
				}
				v = strings.TrimLeft(v[1:], " \t")
				i := strings.IndexAny(v, "=;,")
				if i < 0 || v[i] != '=' {
					if i < 0 {
						v = ""
					} else {
						v = v[i:]
					}
					continue
				}
				name := strings.ToLower(strings.TrimSpace(v[:i]))
				v = strings.TrimLeft(v[i+1:], " \t")
				var val string
				if strings.HasPrefix(v, `"`) {
					var b strings.Builder
					j := 1
					for ; j < len(v) && v[j] != '"'; j++ {
						if v[j] == '\\' && j+1 < len(v) {
							j++
						}
						b.WriteByte(v[j])
					}
					val, v = b.String(), v[min(j+1, len(v)):]
				} else {
					j := strings.IndexAny(v, ";,")
					if j < 0 {
						j = len(v)
					}
					val, v = strings.TrimSpace(v[:j]), v[j:]
				}
				if name == "rel" {
					for _, rel := range strings.Fields(val) {
						if strings.EqualFold(rel, "next") {
							next = true
						}
					}
				}
			}
			if next {
				return target
			}
		}
	}
	return ""
}

// pointer returns the value at the JSON pointer ptr in the JSON document
// data.
func pointer(data []byte, ptr string) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	v, err := jsonptr.Lookup(v, ptr)
	return v, err == nil
}

// pointerString returns the string or number at ptr; false when it is
// absent, null or "".
func pointerString(data []byte, ptr string) (string, bool) {
	v, _ := pointer(data, ptr)
	switch x := v.(type) {
	case string:
		return x, x != ""
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// hasItems reports whether the array at ptr has items.
func hasItems(data []byte, ptr string) bool {
	v, _ := pointer(data, ptr)
	a, ok := v.([]any)
	return ok && len(a) > 0
}
