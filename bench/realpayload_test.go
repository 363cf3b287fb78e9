package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/opsgen/opsgen/bench/internal/payload"
	ghclient "github.com/opsgen/opsgen/bench/opsgen/github"
	graphclient "github.com/opsgen/opsgen/bench/opsgen/graph"
	stripeclient "github.com/opsgen/opsgen/bench/opsgen/stripe"
	oapigithub "github.com/opsgen/opsgen/bench/peers/oapi/github"
	oapigraph "github.com/opsgen/opsgen/bench/peers/oapi/graph"
	oapistripe "github.com/opsgen/opsgen/bench/peers/oapi/stripe"
	ogengithub "github.com/opsgen/opsgen/bench/peers/ogen/github"
	"github.com/opsgen/opsgen/runtime"
)

// A real shape: a list response of one of the trimmed real descriptions
// in spec/, its items generated from the description's own item schema
// (see internal/payload).
type realShape struct {
	name string
	spec string // under spec/
	item string // the item schema's JSON pointer
	// omit: optional members the operation's responses leave out.
	omit []string
	// wrap makes the response body of the items (a JSON array).
	wrap func(items []byte) []byte
	// clients returns a call function per client (see realClients).
	clients func(b testing.TB, hc *http.Client, url string, n int) map[string]func(context.Context) error
}

// The body sizes: a small call, and the sizes of issue 24's GitHub issue
// lists (206 KB and 5.2 MB).
var realSizes = []struct {
	name string
	size int
}{{"small", 2 << 10}, {"206KB", 206 << 10}, {"5MB", 5200 << 10}}

var realShapes = []realShape{
	{
		name: "github-issues", spec: "github-issues.json", item: "#/components/schemas/issue",
		// A repository's issue list has neither the repository nor who
		// closed an issue, and seldom an app that made it.
		omit:    []string{"repository", "closed_by", "performed_via_github_app"},
		wrap:    func(items []byte) []byte { return items },
		clients: githubClients,
	},
	{
		name: "stripe-payouts", spec: "stripe-payouts.json", item: "#/components/schemas/payout",
		wrap: func(items []byte) []byte {
			return slices.Concat([]byte(`{"object":"list","data":`), items, []byte(`,"has_more":true,"url":"/v1/payouts"}`))
		},
		clients: stripeClients,
	},
	{
		name: "graph-users", spec: "graph-users.json", item: "#/components/schemas/microsoft.graph.user",
		// @odata.context is in every Graph response and in no schema.
		wrap: func(items []byte) []byte {
			return slices.Concat([]byte(`{"@odata.context":"https://graph.microsoft.com/v1.0/$metadata#users","@odata.nextLink":"https://graph.microsoft.com/v1.0/users?$skiptoken=RFNwdAIAAQAAAB86dXNlcnM","value":`), items, []byte(`}`))
		},
		clients: graphClients,
	},
}

type realKey struct {
	shape string
	size  int
}

type realPayload struct {
	body []byte
	n    int
}

// realBodies caches the bodies realBody made (generating 5 MB takes a
// while).
var realBodies = map[realKey]realPayload{}

// realBody returns the body of shape s of about size bytes and its number
// of items. The seed is fixed: the same bytes every run.
func realBody(tb testing.TB, s realShape, size int) ([]byte, int) {
	k := realKey{s.name, size}
	if p, ok := realBodies[k]; ok {
		return p.body, p.n
	}
	body, n := makeRealBody(tb, s, size)
	realBodies[k] = realPayload{body, n}
	return body, n
}

func makeRealBody(tb testing.TB, s realShape, size int) ([]byte, int) {
	doc, err := os.ReadFile("spec/" + s.spec)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := payload.New(doc, 24)
	if err != nil {
		tb.Fatal(err)
	}
	g.Omit = map[string]bool{}
	for _, o := range s.omit {
		g.Omit[o] = true
	}
	item, err := g.Schema(s.item)
	if err != nil {
		tb.Fatal(err)
	}
	items := g.List(item, size)
	var n []json.RawMessage
	if err := json.Unmarshal(items, &n); err != nil {
		tb.Fatal(err)
	}
	return s.wrap(items), len(n)
}

// realOrder is the order of the clients in a report; a shape lacks those
// whose generator cannot generate it (ogen: see generate.go).
var realOrder = []string{"handwritten", "opsgen-off", "opsgen-warn", "opsgen-strict", "oapi-codegen", "ogen"}

// handDecode is the hand-written client: net/http and encoding/json
// decoding as it reads, into out (the Go types a person would write: here
// opsgen's, which are plain structs with JSON tags).
func handDecode(ctx context.Context, hc *http.Client, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	err = json.NewDecoder(resp.Body).Decode(out)
	io.Copy(io.Discard, resp.Body)
	return err
}

func checkCount(got, want int) error {
	if got != want {
		return fmt.Errorf("got %d items, want %d", got, want)
	}
	return nil
}

// opsgenModes adds opsgen's client in each validation mode: call makes the
// call of a client with the mode and returns its warnings and item count.
func opsgenModes(fs map[string]func(context.Context) error, n int, call func(mode runtime.ValidationMode) func(context.Context) ([]runtime.Warning, int, error)) {
	for _, mode := range []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn, runtime.ValidateStrict} {
		c := call(mode)
		fs["opsgen-"+mode.String()] = func(ctx context.Context) error {
			warnings, got, err := c(ctx)
			if err != nil {
				return err
			}
			if len(warnings) != 0 {
				return fmt.Errorf("warnings: %v", warnings)
			}
			return checkCount(got, n)
		}
	}
}

func githubClients(tb testing.TB, hc *http.Client, url string, n int) map[string]func(context.Context) error {
	fs := map[string]func(context.Context) error{
		"handwritten": func(ctx context.Context) error {
			var out []ghclient.Issue
			if err := handDecode(ctx, hc, url+"/repos/octo/hello/issues", &out); err != nil {
				return err
			}
			return checkCount(len(out), n)
		},
	}
	opsgenModes(fs, n, func(mode runtime.ValidationMode) func(context.Context) ([]runtime.Warning, int, error) {
		c := ghclient.NewClient(ghclient.WithBaseURL(url), ghclient.WithHTTPClient(hc), ghclient.WithValidation(mode))
		return func(ctx context.Context) ([]runtime.Warning, int, error) {
			env, err := c.IssuesListForRepo(ctx, ghclient.IssuesListForRepoParams{Owner: "octo", Repo: "hello"})
			return env.Warnings, len(env.Data), err
		}
	})
	oc, err := oapigithub.NewClientWithResponses(url, oapigithub.WithHTTPClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	fs["oapi-codegen"] = func(ctx context.Context) error {
		r, err := oc.IssueslistForRepoWithResponse(ctx, "octo", "hello", &oapigithub.IssueslistForRepoParams{})
		if err != nil {
			return err
		}
		if r.JSON200 == nil {
			return fmt.Errorf("status %d", r.StatusCode())
		}
		return checkCount(len(*r.JSON200), n)
	}
	gc, err := ogengithub.NewClient(url, ogengithub.WithClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	fs["ogen"] = func(ctx context.Context) error {
		r, err := gc.IssuesListForRepo(ctx, ogengithub.IssuesListForRepoParams{Owner: "octo", Repo: "hello"})
		if err != nil {
			return err
		}
		return checkCount(len(r.Response), n)
	}
	return fs
}

func stripeClients(tb testing.TB, hc *http.Client, url string, n int) map[string]func(context.Context) error {
	fs := map[string]func(context.Context) error{
		"handwritten": func(ctx context.Context) error {
			var out stripeclient.GetPayoutsResponse
			if err := handDecode(ctx, hc, url+"/v1/payouts", &out); err != nil {
				return err
			}
			return checkCount(len(out.Data), n)
		},
	}
	opsgenModes(fs, n, func(mode runtime.ValidationMode) func(context.Context) ([]runtime.Warning, int, error) {
		c := stripeclient.NewClient(stripeclient.WithBaseURL(url), stripeclient.WithHTTPClient(hc), stripeclient.WithValidation(mode))
		return func(ctx context.Context) ([]runtime.Warning, int, error) {
			env, err := c.GetPayouts(ctx, stripeclient.GetPayoutsParams{})
			return env.Warnings, len(env.Data.Data), err
		}
	})
	oc, err := oapistripe.NewClientWithResponses(url, oapistripe.WithHTTPClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	fs["oapi-codegen"] = func(ctx context.Context) error {
		r, err := oc.GetPayoutsWithResponse(ctx, &oapistripe.GetPayoutsParams{})
		if err != nil {
			return err
		}
		if r.JSON200 == nil {
			return fmt.Errorf("status %d", r.StatusCode())
		}
		return checkCount(len(r.JSON200.Data), n)
	}
	return fs
}

func graphClients(tb testing.TB, hc *http.Client, url string, n int) map[string]func(context.Context) error {
	fs := map[string]func(context.Context) error{
		"handwritten": func(ctx context.Context) error {
			var out graphclient.MicrosoftGraphUserCollectionResponse
			if err := handDecode(ctx, hc, url+"/users", &out); err != nil {
				return err
			}
			return checkCount(len(out.Value), n)
		},
	}
	opsgenModes(fs, n, func(mode runtime.ValidationMode) func(context.Context) ([]runtime.Warning, int, error) {
		c := graphclient.NewClient(graphclient.WithBaseURL(url), graphclient.WithHTTPClient(hc), graphclient.WithValidation(mode))
		return func(ctx context.Context) ([]runtime.Warning, int, error) {
			env, err := c.UsersUserListUser(ctx, graphclient.UsersUserListUserParams{})
			return env.Warnings, len(env.Data.Value), err
		}
	})
	oc, err := oapigraph.NewClientWithResponses(url, oapigraph.WithHTTPClient(hc))
	if err != nil {
		tb.Fatal(err)
	}
	fs["oapi-codegen"] = func(ctx context.Context) error {
		r, err := oc.UsersUserListUserWithResponse(ctx, &oapigraph.UsersUserListUserParams{})
		if err != nil {
			return err
		}
		if r.JSON2XX == nil {
			return fmt.Errorf("status %d", r.StatusCode())
		}
		if r.JSON2XX.Value == nil {
			return checkCount(0, n)
		}
		return checkCount(len(*r.JSON2XX.Value), n)
	}
	return fs
}

// TestRealPayloads checks that every client decodes every real payload
// (the right number of items, no warnings from opsgen in any mode, no
// error from ogen's validating decoders), and logs the payloads' sizes.
func TestRealPayloads(t *testing.T) {
	for _, s := range realShapes {
		for _, size := range realSizes {
			data, n := realBody(t, s, size.size)
			t.Logf("%s/%s: %d bytes, %d items", s.name, size.name, len(data), n)
			fs := s.clients(t, &http.Client{Transport: memTransport{data}}, "http://mem.invalid", n)
			for _, name := range realOrder {
				if f, ok := fs[name]; ok {
					if err := f(context.Background()); err != nil {
						t.Errorf("%s/%s: %s: %v", s.name, size.name, name, err)
					}
				}
			}
		}
	}
}

// BenchmarkReal compares the clients on the real payloads, interleaved
// call by call as BenchmarkVsOgen does: each iteration calls every client
// once (the order rotating), and it reports each client's median time per
// call (<client>-us) and its ratios to ogen's (<client>/ogen, where ogen
// generates the shape) and to the hand-written client's (<client>/hand).
func BenchmarkReal(b *testing.B) {
	for _, s := range realShapes {
		for _, size := range realSizes {
			b.Run(s.name+"/"+size.name, func(b *testing.B) {
				data, n := realBody(b, s, size.size)
				fs := s.clients(b, &http.Client{Transport: memTransport{data}}, "http://mem.invalid", n)
				var order []string
				for _, name := range realOrder {
					if fs[name] != nil {
						order = append(order, name)
					}
				}
				ctx := context.Background()
				b.SetBytes(int64(len(data)))
				times := interleave(b, ctx, order, fs)
				hand := median(times["handwritten"])
				og := -1.0
				if times["ogen"] != nil {
					og = median(times["ogen"])
				}
				for _, name := range order {
					m := median(times[name])
					b.ReportMetric(m, name+"-us")
					if og > 0 && name != "ogen" {
						b.ReportMetric(m/og, name+"/ogen")
					}
					if name != "handwritten" {
						b.ReportMetric(m/hand, name+"/hand")
					}
				}
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkRealAllocs is BenchmarkReal one client at a time, for the
// allocations (B/op, allocs/op) per call; use BenchmarkReal's ratios.
func BenchmarkRealAllocs(b *testing.B) {
	for _, s := range realShapes {
		for _, size := range realSizes {
			b.Run(s.name+"/"+size.name, func(b *testing.B) {
				data, n := realBody(b, s, size.size)
				fs := s.clients(b, &http.Client{Transport: memTransport{data}}, "http://mem.invalid", n)
				ctx := context.Background()
				for _, name := range realOrder {
					f := fs[name]
					if f == nil {
						continue
					}
					b.Run(name, func(b *testing.B) {
						b.ReportAllocs()
						b.SetBytes(int64(len(data)))
						for b.Loop() {
							if err := f(ctx); err != nil {
								b.Fatal(err)
							}
						}
					})
				}
			})
		}
	}
}

// TestRealPayloadsDecodeAsEncodingJSON checks that what opsgen's client
// decodes from each real payload, in every validation mode, is what
// encoding/json decodes from the same bytes into the same Go types (the
// hand-written client's): a one-pass decoder that is fast because it
// skips or mangles values fails here, not only one that miscounts items.
func TestRealPayloadsDecodeAsEncodingJSON(t *testing.T) {
	ctx := context.Background()
	modes := []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn, runtime.ValidateStrict}
	for _, s := range realShapes {
		for _, size := range realSizes {
			data, _ := realBody(t, s, size.size)
			hc := &http.Client{Transport: memTransport{data}}
			const url = "http://mem.invalid"
			for _, mode := range modes {
				name := s.name + "/" + size.name + "/" + mode.String()
				var got, want any
				var err error
				switch s.name {
				case "github-issues":
					var w []ghclient.Issue
					err = json.Unmarshal(data, &w)
					env, cerr := ghclient.NewClient(ghclient.WithBaseURL(url), ghclient.WithHTTPClient(hc), ghclient.WithValidation(mode)).
						IssuesListForRepo(ctx, ghclient.IssuesListForRepoParams{Owner: "octo", Repo: "hello"})
					got, want, err = env.Data, w, errors.Join(err, cerr)
				case "stripe-payouts":
					var w stripeclient.GetPayoutsResponse
					err = json.Unmarshal(data, &w)
					env, cerr := stripeclient.NewClient(stripeclient.WithBaseURL(url), stripeclient.WithHTTPClient(hc), stripeclient.WithValidation(mode)).
						GetPayouts(ctx, stripeclient.GetPayoutsParams{})
					got, want, err = env.Data, w, errors.Join(err, cerr)
				case "graph-users":
					var w graphclient.MicrosoftGraphUserCollectionResponse
					err = json.Unmarshal(data, &w)
					env, cerr := graphclient.NewClient(graphclient.WithBaseURL(url), graphclient.WithHTTPClient(hc), graphclient.WithValidation(mode)).
						UsersUserListUser(ctx, graphclient.UsersUserListUserParams{})
					got, want, err = env.Data, w, errors.Join(err, cerr)
				default:
					t.Fatalf("%s: no decoding check for this shape", s.name)
				}
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if !reflect.DeepEqual(got, want) {
					g, _ := json.Marshal(got)
					w, _ := json.Marshal(want)
					i := 0
					for i < len(g) && i < len(w) && g[i] == w[i] {
						i++
					}
					t.Errorf("%s: opsgen's data differs from encoding/json's; re-encoded, they first differ at byte %d: %.80q vs %.80q",
						name, i, g[min(i, len(g)):], w[min(i, len(w)):])
				}
			}
		}
	}
}
