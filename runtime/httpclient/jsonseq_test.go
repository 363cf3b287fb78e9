package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

func readItems(t *testing.T, r io.Reader, sep byte, maxItem int) ([]string, []string) {
	t.Helper()
	var warnings, items []string
	ir := newItemReader(r, sep, maxItem, func(m string) { warnings = append(warnings, m) })
	for {
		item, err := ir.next()
		if err == io.EOF {
			return items, warnings
		}
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, string(item))
	}
}

func TestItemReader(t *testing.T) {
	rs := "\x1e"
	cases := []struct {
		name     string
		sep      byte
		input    string
		want     []string
		warnings int
	}{
		{"lines", '\n', "{\"a\":1}\n{\"a\":2}\n", []string{`{"a":1}`, `{"a":2}`}, 0},
		{"CRLF and blank lines", '\n', "1\r\n\r\n  \n2\r\n", []string{"1", "2"}, 0},
		{"no final line feed", '\n', "1\n2", []string{"1", "2"}, 0},
		{"long line skipped", '\n', "1\n" + strings.Repeat("9", 40) + "\n3\n", []string{"1", "3"}, 1},
		{"long last line", '\n', "1\n" + strings.Repeat("9", 40), []string{"1"}, 1},
		{"json-seq", recordSeparator, rs + "{\"a\":1}\n" + rs + "{\n \"a\": 2\n}\n", []string{`{"a":1}`, "{\n \"a\": 2\n}"}, 0},
		{"json-seq empty records", recordSeparator, rs + rs + "1\n" + rs + "\n", []string{"1"}, 0},
		{"json-seq long record", recordSeparator, rs + strings.Repeat("7", 40) + "\n" + rs + "2\n", []string{"2"}, 1},
	}
	for _, tc := range cases {
		for _, split := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.input)
			if split {
				r = &oneByteReader{s: tc.input}
			}
			got, warnings := readItems(t, r, tc.sep, 32)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(warnings) != tc.warnings {
				t.Errorf("%s (byte by byte %v): got %q, warnings %q; want %q, %d warnings", tc.name, split, got, warnings, tc.want, tc.warnings)
			}
		}
	}
}

// sequenceServer serves body with the media type mt, flushing after each
// chunk.
func sequenceServer(t *testing.T, mt string, chunks ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != mt {
			http.Error(w, "want Accept: "+mt, http.StatusNotAcceptable)
			return
		}
		w.Header().Set("Content-Type", mt+"; charset=utf-8")
		for _, c := range chunks {
			io.WriteString(w, c)
			w.(http.Flusher).Flush()
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

var tickSchema = opsgenimpl.NewSchema(`{"type":"object","required":["seq"],"properties":{"seq":{"type":"integer"},"msg":{"type":"string"}}}`)

// TestStreamJSONSequences streams each sequence media type with a drifted
// item (kept, with a warning on its envelope) and a malformed one (skipped
// with a warning).
func TestStreamJSONSequences(t *testing.T) {
	for _, mt := range []string{"application/jsonl", "application/x-ndjson", "application/json-seq"} {
		t.Run(strings.ReplaceAll(mt, "/", "_"), func(t *testing.T) {
			items := []string{`{"seq":1,"msg":"one"}`, `{"seq":"two","msg":"drift"}`, `{"seq":3,`, `{"seq":4,"msg":"after bad","extra":true}`}
			var chunks []string
			for _, it := range items {
				if mt == "application/json-seq" {
					chunks = append(chunks, "\x1e"+it+"\n")
				} else {
					chunks = append(chunks, it+"\r\n")
				}
			}
			srv := sequenceServer(t, mt, chunks...)
			hook, warnings := collectWarnings()
			c := New(srv.URL, nil, hook)
			r := c.NewRequest("tail", "GET", "/logs")
			r.Accept(mt)
			var got []runtime.ResponseEnvelope[tick]
			for env, err := range Stream[tick](t.Context(), c, r, []Response{{Status: "200", Kind: BodyJSONSeq, Schema: tickSchema}}) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, env)
			}
			want := []tick{{1, "one"}, {0, "drift"}, {4, "after bad"}}
			if len(got) != len(want) {
				t.Fatalf("got %d items, want %d: %+v", len(got), len(want), got)
			}
			for i, w := range want {
				m := runtime.HTTPMetaOf(got[i].Meta)
				if got[i].Data != w || m.StatusCode != 200 || m.ContentType != mt {
					t.Errorf("item %d: %+v %+v", i, got[i].Data, m)
				}
			}
			if len(got[0].Warnings) != 0 || len(got[2].Warnings) != 0 {
				t.Errorf("warnings on good items: %+v %+v", got[0].Warnings, got[2].Warnings)
			}
			if len(got[1].Warnings) == 0 || got[1].Warnings[0].Pointer != "/seq" {
				t.Errorf("drift not reported on its item: %+v", got[1].Warnings)
			}
			var skipped int
			for _, w := range warnings() {
				if strings.Contains(w.Message, "stream item 3 skipped") {
					skipped++
				}
			}
			if skipped != 1 {
				t.Errorf("warnings %+v", warnings())
			}
		})
	}
}

// TestStreamJSONSequenceNoContentType: the declared kind decides when the
// response has no Content-Type.
func TestStreamJSONSequenceNoContentType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // no sniffing
		io.WriteString(w, "{\"seq\":1}\n{\"seq\":2}\n")
	}))
	defer srv.Close()
	c := New(srv.URL, nil)
	var seqs []int
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), []Response{{Status: "200", Kind: BodyJSONSeq}}) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, env.Data.Seq)
	}
	if fmt.Sprint(seqs) != "[1 2]" {
		t.Errorf("seqs %v", seqs)
	}
}

// TestStreamJSONLinesBounded reads a JSON Lines stream that never ends:
// the heap does not grow with the items read, and cancelling the context
// ends the stream with one CANCELED error and closes the connection.
func TestStreamJSONLinesBounded(t *testing.T) {
	gone := make(chan struct{}, 1)
	line := fmt.Sprintf("{\"seq\":1,\"msg\":%q}\n", strings.Repeat("m", 1000))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		defer func() { gone <- struct{}{} }()
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, strings.Repeat(line, 16)); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := New(srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	heap := func() uint64 {
		goruntime.GC()
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	const total = 30000 // about 30 MB of items
	var n int
	var start uint64
	var errs []error
	for env, err := range Stream[tick](ctx, c, c.NewRequest("op", "GET", "/"), []Response{{Status: "200", Kind: BodyJSONSeq, Schema: tickSchema}}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if env.Data.Seq != 1 || len(env.Data.Msg) != 1000 {
			t.Fatalf("item %d: %+v", n, env.Data)
		}
		n++
		switch n {
		case 1000:
			start = heap()
		case total:
			if grown := int64(heap()) - int64(start); grown > 4<<20 {
				t.Errorf("heap grew by %d bytes over %d items", grown, total-1000)
			}
			cancel()
		}
	}
	if n != total || len(errs) != 1 || !errors.Is(errs[0], runtime.ErrCanceled) {
		t.Errorf("%d items, errors %v", n, errs)
	}
	<-gone
}

// TestStreamJSONSequenceBrokenConnection: a connection that dies
// mid-stream ends it with a TRANSPORT_ERROR after the items that arrived.
func TestStreamJSONSequenceBrokenConnection(t *testing.T) {
	srv := brokenServer(t, "application/jsonl", "{\"seq\":1}\n{\"seq\":2")
	c := New(srv.URL, nil)
	var seqs []int
	var errs []error
	for env, err := range Stream[tick](t.Context(), c, c.NewRequest("op", "GET", "/"), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		seqs = append(seqs, env.Data.Seq)
	}
	if fmt.Sprint(seqs) != "[1]" || len(errs) != 1 || !errors.Is(errs[0], runtime.ErrTransport) {
		t.Errorf("items %v, errors %v", seqs, errs)
	}
}

// TestQueryMethod sends a QUERY request with its body, and retries it by
// default as the idempotent method it is.
func TestQueryMethod(t *testing.T) {
	var methods, bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		methods, bodies = append(methods, r.Method), append(bodies, string(b))
		if len(methods) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"seq":7}]`)
	}))
	defer srv.Close()
	c := New(srv.URL, nil, WithRetry(RetryPolicy{MaxAttempts: 2, InitialBackoff: 1}))
	r := c.NewRequest("search", "QUERY", "/search")
	r.JSONBody("application/json", map[string]string{"q": "x"})
	env, err := Do[[]tick](t.Context(), c, r, []Response{{Status: "200", Kind: BodyJSON}})
	if err != nil || len(env.Data) != 1 || env.Data[0].Seq != 7 {
		t.Fatalf("%+v %v", env, err)
	}
	if fmt.Sprint(methods) != "[QUERY QUERY]" || bodies[0] != `{"q":"x"}` || bodies[1] != bodies[0] {
		t.Errorf("methods %v, bodies %q", methods, bodies)
	}
}

// seqTransport answers every request with the same JSON Lines body, in
// memory.
type seqTransport struct{ body []byte }

func (m seqTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/x-ndjson"}}, Body: io.NopCloser(bytes.NewReader(m.body)),
		ContentLength: -1, Request: r,
	}, nil
}

// BenchmarkStreamJSONLines reads a JSON Lines stream of 1000 pets from
// memory, each through the pipeline (warn mode, with the schema), and
// reports the time and allocations per item.
func BenchmarkStreamJSONLines(b *testing.B) {
	const items = 1000
	var body bytes.Buffer
	for i := range items {
		line, _ := json.Marshal(benchPet{ID: int64(i), Name: "pet", Status: "available", Price: 9.5, Tags: []string{"a", "b"}, Owner: benchOwner{ID: 1, Email: "o@x.org"}})
		body.Write(line)
		body.WriteByte('\n')
	}
	schema := opsgenimpl.NewSchema(`{"type":"object","required":["id","name"],"properties":{"id":{"type":"integer"},"name":{"type":"string"},"status":{"type":"string"},"price":{"type":"number"},"tags":{"type":"array","items":{"type":"string"}},"owner":{"type":"object","properties":{"id":{"type":"integer"},"email":{"type":"string"}}}}}`)
	c := New("http://h", nil, WithHTTPClient(&http.Client{Transport: seqTransport{body.Bytes()}}))
	responses := []Response{{Status: "200", Kind: BodyJSONSeq, Schema: schema}}
	ctx := context.Background()
	b.SetBytes(int64(body.Len()))
	b.ReportAllocs()
	var ms0, ms1 goruntime.MemStats
	goruntime.ReadMemStats(&ms0)
	for b.Loop() {
		n := 0
		for _, err := range Stream[benchPet](ctx, c, c.NewRequest("pets", http.MethodGet, "/pets"), responses) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != items {
			b.Fatalf("%d items", n)
		}
	}
	goruntime.ReadMemStats(&ms1)
	per := float64(b.N * items)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/item")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/per, "allocs/item")
}
