package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

type benchOwner struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
}

type benchPet struct {
	ID     int64      `json:"id"`
	Name   string     `json:"name"`
	Status string     `json:"status"`
	Price  float64    `json:"price"`
	Tags   []string   `json:"tags"`
	Owner  benchOwner `json:"owner"`
}

type benchPage struct {
	Items []benchPet `json:"items"`
	Next  string     `json:"next"`
}

const benchSchema = `{
	"type": "object",
	"required": ["items"],
	"properties": {
		"items": {"type": "array", "items": {
			"type": "object",
			"required": ["id", "name"],
			"properties": {
				"id": {"type": "integer"},
				"name": {"type": "string"},
				"status": {"type": "string", "enum": ["available", "pending", "sold"]},
				"price": {"type": "number"},
				"tags": {"type": "array", "items": {"type": "string"}},
				"owner": {"type": "object", "properties": {"id": {"type": "integer"}, "email": {"type": "string"}}}
			}
		}},
		"next": {"type": "string"}
	}
}`

func benchBody(n int) []byte {
	page := benchPage{Next: "eyJvZmZzZXQiOjEwLCJsaW1pdCI6MTB9"}
	for i := range n {
		page.Items = append(page.Items, benchPet{
			ID: int64(i), Name: "pet-" + strconv.Itoa(i), Status: "available", Price: 12.5,
			Tags: []string{"dog", "good", "small"}, Owner: benchOwner{ID: 42, Email: "owner@example.com"},
		})
	}
	b, _ := json.Marshal(page)
	return b
}

// handWritten is what a careful person writes without opsgen: net/http and
// encoding/json, checking the status and draining the body for reuse.
func handWritten(ctx context.Context, hc *http.Client, base string) (benchPage, error) {
	var out benchPage
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/pets?limit=10", nil)
	if err != nil {
		return out, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return out, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return out, fmt.Errorf("HTTP %s", resp.Status)
	}
	err = json.NewDecoder(resp.Body).Decode(&out)
	io.Copy(io.Discard, resp.Body)
	return out, err
}

func BenchmarkDo(b *testing.B) {
	for _, size := range []struct {
		name  string
		items int
	}{{"small", 1}, {"large", 1400}} {
		body := benchBody(size.items)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		}))
		hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
		ctx := context.Background()
		b.Run(fmt.Sprintf("%s/%dB/handwritten", size.name, len(body)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if out, err := handWritten(ctx, hc, srv.URL); err != nil || len(out.Items) != size.items {
					b.Fatal(err)
				}
			}
		})
		responses := []Response{{Status: "200", Kind: BodyJSON, Schema: opsgenimpl.NewSchema(benchSchema)}}
		for _, mode := range []runtime.ValidationMode{runtime.ValidateOff, runtime.ValidateWarn} {
			c := New(srv.URL, nil, WithHTTPClient(hc), WithValidation(mode))
			b.Run(fmt.Sprintf("%s/%dB/opsgen-%s", size.name, len(body), mode), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					r := c.NewRequest("listPets", http.MethodGet, "/pets")
					r.QueryParam("limit", StyleForm, true, false, 10)
					r.Accept("application/json")
					env, err := Do[benchPage](ctx, c, r, responses)
					if err != nil || len(env.Data.Items) != size.items || len(env.Warnings) != 0 {
						b.Fatal(err, env.Warnings)
					}
				}
			})
		}
		srv.Close()
	}
}

// memTransport answers every request with the same JSON body, in memory.
type memTransport struct{ body []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	h := http.Header{
		"Content-Type":   {"application/json"},
		"Content-Length": {strconv.Itoa(len(m.body))},
		"Date":           {"Sun, 22 Nov 2026 00:00:00 GMT"},
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(m.body)), ContentLength: int64(len(m.body)), Request: r,
	}, nil
}

// BenchmarkDoInMemory is BenchmarkDo's small case without the network: a
// transport that answers from memory isolates the client-side cost of Do
// (request building, meta, pipeline) from loopback noise.
func BenchmarkDoInMemory(b *testing.B) {
	body := benchBody(1)
	hc := &http.Client{Transport: memTransport{body}}
	ctx := context.Background()
	b.Run("handwritten", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := handWritten(ctx, hc, "http://h"); err != nil {
				b.Fatal(err)
			}
		}
	})
	c := New("http://h", nil, WithHTTPClient(hc), WithValidation(runtime.ValidateOff))
	responses := []Response{{Status: "200", Kind: BodyJSON}}
	b.Run("opsgen-off", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := c.NewRequest("listPets", http.MethodGet, "/pets")
			r.QueryParam("limit", StyleForm, true, false, 10)
			r.Accept("application/json")
			if _, err := Do[benchPage](ctx, c, r, responses); err != nil {
				b.Fatal(err)
			}
		}
	})
}
