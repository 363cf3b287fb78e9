package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/callproto"
	"github.com/opsgen/opsgen/callproto/natsbus"
	"github.com/opsgen/opsgen/golden/openapi/bodies"
	"github.com/opsgen/opsgen/golden/openapi/realcalls"
	"github.com/opsgen/opsgen/internal/e2e/mcpgen"
	"github.com/opsgen/opsgen/internal/mcptest"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
	"github.com/opsgen/opsgen/runtime/mcpclient"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// A spoke is what generated clients' WithRemote takes.
var _ opsgenimpl.Remote = (*callproto.PendingRequestMap)(nil)

// remoteSpoke serves reg from a hub on an embedded NATS server and returns
// a spoke connected to it; all are closed when the test ends.
func remoteSpoke(t *testing.T, reg *runtime.Registry) *callproto.PendingRequestMap {
	t.Helper()
	hubBus, err := natsbus.Connect(natsbus.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hubBus.Close() })
	hub, err := callproto.NewCallHandler(reg, hubBus, callproto.HandlerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	spokeBus, err := natsbus.Connect(natsbus.Options{URL: hubBus.URL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spokeBus.Close() })
	spoke, err := callproto.NewPendingRequestMap(spokeBus, callproto.SpokeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { spoke.Close() })
	return spoke
}

// closeReader is a reader that records that it was closed.
type closeReader struct {
	io.Reader
	closed bool
}

func (r *closeReader) Close() error { r.closed = true; return nil }

// A spoke's calls of operations with binary content (a raw body, the files
// of a multipart body) reach the API server through the hub with the same
// bytes as a direct call: the generated methods read the readers and send
// them as base64, the registry's input form, and the hub's client makes the
// HTTP request.
func TestGeneratedClientRemoteBinary(t *testing.T) {
	// Every byte value, so that base64 and the wire are exercised.
	blob := make([]byte, 1000)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	type received struct {
		path, query, contentType string
		body                     []byte
		parts                    map[string][]string // field name: contents, in order
		files                    map[string]string   // field name: file name
	}
	var mu sync.Mutex
	var got []received
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := received{path: r.URL.Path, query: r.URL.RawQuery, contentType: r.Header.Get("Content-Type")}
		if mt, params, _ := mime.ParseMediaType(rec.contentType); mt == "multipart/form-data" {
			rec.parts, rec.files = map[string][]string{}, map[string]string{}
			mr := multipart.NewReader(r.Body, params["boundary"])
			for {
				p, err := mr.NextPart()
				if err != nil {
					break
				}
				b, _ := io.ReadAll(p)
				rec.parts[p.FormName()] = append(rec.parts[p.FormName()], string(b))
				if p.FileName() != "" {
					rec.files[p.FormName()] = p.FileName()
				}
			}
		} else {
			rec.body, _ = io.ReadAll(r.Body)
		}
		mu.Lock()
		got = append(got, rec)
		mu.Unlock()
		w.WriteHeader(204)
	}))
	defer api.Close()
	last := func() received {
		mu.Lock()
		defer mu.Unlock()
		if len(got) == 0 {
			t.Fatal("the API server got no request")
		}
		return got[len(got)-1]
	}
	calls := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}

	reg := runtime.NewRegistry(nil)
	if err := realcalls.NewClient(realcalls.WithBaseURL(api.URL), realcalls.WithAPIKey("hub-key")).Register(reg); err != nil {
		t.Fatal(err)
	}
	if err := bodies.NewClient(bodies.WithBaseURL(api.URL)).Register(reg); err != nil {
		t.Fatal(err)
	}
	spoke := remoteSpoke(t, reg)
	// No server and no key: only the hub can make these calls.
	c := realcalls.NewClient(realcalls.WithBaseURL("http://127.0.0.1:1"), realcalls.WithRemote(spoke))
	rb := bodies.NewClient(bodies.WithBaseURL("http://127.0.0.1:1"), bodies.WithRemote(spoke))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	// A required binary body, closed after reading as an HTTP body is.
	rd := &closeReader{Reader: bytes.NewReader(blob)}
	env, err := c.PutPdf(ctx, rd)
	if err != nil {
		t.Fatal(err)
	}
	if m := runtime.HTTPMetaOf(env.Meta); m == nil || m.StatusCode != 204 {
		t.Fatalf("meta %#v: not the hub's HTTP call", env.Meta)
	}
	r := last()
	if r.path != "/files/pdf" || r.contentType != "application/pdf" || !bytes.Equal(r.body, blob) || r.query != "api_key=hub-key" {
		t.Fatalf("PutPdf: %s?%s %s, %d bytes (want %d)", r.path, r.query, r.contentType, len(r.body), len(blob))
	}
	if !rd.closed {
		t.Fatal("the body reader was not closed")
	}

	// An optional binary body with parameters, not a seekable reader.
	if _, err := c.PutRaw(ctx, realcalls.PutRawParams{Name: "a b"}, io.MultiReader(strings.NewReader("\x89PNG"), bytes.NewReader(blob))); err != nil {
		t.Fatal(err)
	}
	r = last()
	if r.path != "/files/raw" || !strings.Contains(r.query, "name=a%20b") || !bytes.Equal(r.body, append([]byte("\x89PNG"), blob...)) {
		t.Fatalf("PutRaw: %s?%s, %d bytes", r.path, r.query, len(r.body))
	}
	// ... and absent: no body at all.
	if _, err := c.PutRaw(ctx, realcalls.PutRawParams{Name: "none"}, nil); err != nil {
		t.Fatal(err)
	}
	if r = last(); len(r.body) != 0 || !strings.Contains(r.query, "name=none") {
		t.Fatalf("PutRaw without body: %q?%s", r.body, r.query)
	}

	// A multipart body: files (one absent), an array of files, a value.
	title := "holiday"
	body := realcalls.UploadFileBody{
		File:        bytes.NewReader(blob),
		Attachments: [][]byte{[]byte("one"), {0, 1, 2}},
		Title:       &title,
	}
	if _, err := c.UploadFile(ctx, body); err != nil {
		t.Fatal(err)
	}
	r = last()
	want := map[string][]string{"file": {string(blob)}, "attachments": {"one", "\x00\x01\x02"}, "title": {"holiday"}}
	if r.path != "/files" || !reflect.DeepEqual(r.parts, want) || r.files["file"] != "file" || r.files["attachments"] != "attachments" {
		t.Fatalf("UploadFile: %s parts %q files %q", r.path, r.parts, r.files)
	}

	// A file whose media type is sniffed (image/*) from a reader that
	// cannot seek: the sniffed bytes are sent too.
	png := append([]byte("\x89PNG\r\n\x1a\n"), blob...)
	if _, err := c.UploadFile(ctx, realcalls.UploadFileBody{File: bytes.NewReader(blob), Thumbnail: io.MultiReader(bytes.NewReader(png))}); err != nil {
		t.Fatal(err)
	}
	if r = last(); len(r.parts["thumbnail"]) != 1 || r.parts["thumbnail"][0] != string(png) || r.parts["file"][0] != string(blob) {
		t.Fatalf("UploadFile with a thumbnail: parts %q", r.parts)
	}

	// A multipart body that is a union (MultipartObject), as it marshals.
	if _, err := c.PostNote(ctx, realcalls.PostNoteBodyFromTextNote(realcalls.TextNote{Text: "hi"})); err != nil {
		t.Fatal(err)
	}
	if r = last(); r.path != "/notes" || !reflect.DeepEqual(r.parts, map[string][]string{"text": {"hi"}}) {
		t.Fatalf("PostNote: %s parts %q", r.path, r.parts)
	}

	// An optional multipart body (a pointer), with a JSON part.
	k := "v"
	if _, err := rb.Upload(ctx, &bodies.UploadBody{File: strings.NewReader("file content"), Meta: &bodies.UploadBodyMeta{K: &k}}); err != nil {
		t.Fatal(err)
	}
	if r = last(); r.path != "/upload" || !reflect.DeepEqual(r.parts, map[string][]string{"file": {"file content"}, "meta": {`{"k":"v"}`}}) {
		t.Fatalf("Upload: %s parts %q", r.path, r.parts)
	}
	// A raw body given as a File.
	if _, err := rb.PostRaw(ctx, httpclient.File{Name: "x.bin", Body: bytes.NewReader(blob)}); err != nil {
		t.Fatal(err)
	}
	if r = last(); r.path != "/raw" || !bytes.Equal(r.body, blob) {
		t.Fatalf("PostRaw: %s %d bytes", r.path, len(r.body))
	}

	// Binary content larger than the spoke's WithMaxBodyBytes is refused
	// before anything is sent.
	small := realcalls.NewClient(realcalls.WithRemote(spoke), realcalls.WithMaxBodyBytes(100))
	before := calls()
	_, err = small.UploadFile(ctx, realcalls.UploadFileBody{File: bytes.NewReader(blob)})
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || !strings.Contains(ce.Message, "100 bytes") {
		t.Fatalf("too large a file: %v", err)
	}
	if _, err := small.PutPdf(ctx, bytes.NewReader(blob[:60])); err != nil {
		t.Fatalf("a body within the bound: %v", err)
	}
	if calls() != before+1 {
		t.Fatalf("%d HTTP calls, want 1 (the small body's)", calls()-before)
	}
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d", spoke.Pending())
	}
}

// A generated MCP client calls the tools of a hub that registered the same
// client over its own session (WithRemote, no session on the spoke): the
// typed data, the MCP meta (isError, content, structuredContent) and the
// drift warnings are those of a direct call.
func TestGeneratedMCPClientRemote(t *testing.T) {
	direct := mcpgen.NewClient(mcptest.InMemory(t), quietMCP)
	reg := runtime.NewRegistry(nil)
	if err := direct.Register(reg); err != nil {
		t.Fatal(err)
	}
	spoke := remoteSpoke(t, reg)
	remote := mcpgen.NewClient(nil, mcpgen.WithRemote(spoke), quietMCP)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	city := "Paris"
	dw, err := direct.GetWeather(ctx, mcpgen.GetWeatherInput{City: &city})
	if err != nil {
		t.Fatal(err)
	}
	rw, err := remote.GetWeather(ctx, mcpgen.GetWeatherInput{City: &city})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rw.Data, dw.Data) || rw.Data.Conditions != mcptest.TheWeather.Conditions {
		t.Fatalf("remote data %+v, direct %+v", rw.Data, dw.Data)
	}
	rm, dm := runtime.MCPMetaOf(rw.Meta), runtime.MCPMetaOf(dw.Meta)
	if rm == nil || rm.IsError || string(rm.StructuredContent) != string(dm.StructuredContent) || !reflect.DeepEqual(rm.Content, dm.Content) || rm.Tool != mcptest.ToolWeather {
		t.Fatalf("remote meta %#v, direct %#v", rw.Meta, dw.Meta)
	}

	// Arguments travel: echo returns its text as a block.
	echo, err := remote.Echo(ctx, mcpgen.EchoInput{Text: "hello over NATS"})
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := runtime.FirstText(echo.Data); text != "hello over NATS" {
		t.Fatalf("echo data %#v", echo.Data)
	}

	// A tool error is a response with isError, not a Go error.
	fail, err := remote.AlwaysFail(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ferr := mcpclient.AsError(fail); ferr == nil || !strings.Contains(ferr.Error(), mcptest.FailText) {
		t.Fatalf("AlwaysFail: %v (meta %#v)", ferr, fail.Meta)
	}

	// Drift: the hub drops what its type cannot hold (warnings are not on
	// the wire), and the spoke gets the same data as a direct call.
	ddrift, err := direct.WeatherDrift(ctx)
	if err != nil {
		t.Fatal(err)
	}
	drift, err := remote.WeatherDrift(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(drift.Data, ddrift.Data) || drift.Data.Conditions != "Sunny" || len(ddrift.Warnings) == 0 {
		t.Fatalf("drift: remote data %+v, direct %+v (warnings %v)", drift.Data, ddrift.Data, ddrift.Warnings)
	}

	// The hub's errors are the spoke's: a call past its deadline.
	_, err = remote.Slow(ctx, mcpgen.SlowInput{}, mcpgen.WithCallTimeout(200*time.Millisecond))
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeTimeout {
		t.Fatalf("slow call: %v", err)
	}
	if spoke.Pending() != 0 {
		t.Fatalf("pending = %d", spoke.Pending())
	}
}

// quietMCP keeps the pipeline's warnings out of the test log.
var quietMCP = mcpgen.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
