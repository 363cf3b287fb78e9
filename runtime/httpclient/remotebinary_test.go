package httpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/opsgen/opsgen/runtime"
)

// closeCounter counts its Close calls.
type closeCounter struct {
	io.Reader
	n int
}

func (c *closeCounter) Close() error { c.n++; return nil }

// Binary content goes through a Remote as base64 strings under the names
// the registry decodes them from: a raw body as the body, the io.Reader
// fields of a multipart body under their JSON names; what sniffing a media
// type read comes along, and the bound holds for all readers together.
func TestRemoteBinaryInput(t *testing.T) {
	fr := &fakeRemote{out: json.RawMessage(`{"data":null,"meta":{"source":"http","statusCode":204,"headers":{},"contentType":""}}`)}
	c := New("http://127.0.0.1:1", nil, WithRemote(fr), WithMaxBodyBytes(1000))
	ctx := context.Background()
	input := func() map[string]json.RawMessage {
		t.Helper()
		var in map[string]json.RawMessage
		if err := json.Unmarshal(fr.input, &in); err != nil {
			t.Fatalf("input %s: %v", fr.input, err)
		}
		return in
	}
	b64 := func(b []byte) string { s, _ := json.Marshal(b); return string(s) }

	// A raw body whose media type is sniffed (image/*) from a reader that
	// cannot seek: all of it is sent, and it is closed.
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0, 255}, 300)...)
	body := &closeCounter{Reader: iotest.HalfReader(bytes.NewReader(png))}
	r := c.NewRequest("put", "PUT", "/raw")
	r.RawBody("image/*", body)
	r.Remote("ns.put", struct {
		Name string `json:"name"`
	}{"x"}, body)
	if _, err := Do[struct{}](ctx, c, r, nil); err != nil {
		t.Fatal(err)
	}
	if in := input(); string(in["body"]) != b64(png) || string(in["params"]) != `{"name":"x"}` || fr.id != "ns.put" {
		t.Fatalf("raw body input %s", fr.input)
	}
	if body.n != 1 {
		t.Fatalf("body closed %d times, want 1", body.n)
	}

	// A file on disk as a File.
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.7 content"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r = c.NewRequest("put", "PUT", "/raw")
	r.RawBody("application/pdf", File{Name: "doc.pdf", Body: f})
	r.Remote("ns.put", nil, File{Name: "doc.pdf", Body: f})
	if _, err := Do[struct{}](ctx, c, r, nil); err != nil {
		t.Fatal(err)
	}
	if in := input(); string(in["body"]) != b64([]byte("%PDF-1.7 content")) {
		t.Fatalf("File input %s", fr.input)
	}
	f.Close()

	// A multipart body struct (by pointer): readers by JSON name, a typed
	// nil reader absent, other fields as they marshal.
	type upload struct {
		File  io.Reader `json:"file"`
		Thumb io.Reader `json:"thumbnail,omitempty"`
		Extra io.Reader `json:"-"`
		Many  [][]byte  `json:"attachments,omitempty"`
		Title *string   `json:"title,omitempty"`
	}
	title := "t"
	var nilFile *os.File
	up := &upload{File: iotest.OneByteReader(strings.NewReader("file bytes")), Thumb: nilFile, Extra: strings.NewReader("never"), Many: [][]byte{{1}}, Title: &title}
	r = c.NewRequest("upload", "POST", "/upload")
	r.MultipartBody([]Part{
		{Name: "file", FileName: "file", Reader: up.File, ContentType: "image/*"},
		{Name: "attachments", FileName: "attachments", Value: up.Many},
		{Name: "title", Value: up.Title},
	})
	r.Remote("ns.upload", nil, up)
	if _, err := Do[struct{}](ctx, c, r, nil); err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(input()["body"], &got); err != nil {
		t.Fatal(err)
	}
	if string(got["file"]) != b64([]byte("file bytes")) || string(got["attachments"]) != `["AQ=="]` || string(got["title"]) != `"t"` || len(got) != 3 {
		t.Fatalf("multipart input %s", fr.input)
	}
	if up.Extra.(*strings.Reader).Len() != len("never") {
		t.Fatal("a field not in JSON was read")
	}

	// Over the bound, in all: nothing is sent.
	fr.id = ""
	r = c.NewRequest("upload", "POST", "/upload")
	big := &upload{File: strings.NewReader(strings.Repeat("a", 600)), Thumb: strings.NewReader(strings.Repeat("b", 600))}
	r.Remote("ns.upload", nil, big)
	_, err = Do[struct{}](ctx, c, r, nil)
	var ce *runtime.CallError
	if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || ce.OperationID != "upload" || !strings.Contains(ce.Message, "1000 bytes") || fr.id != "" {
		t.Fatalf("too large: %v (sent to %q)", err, fr.id)
	}

	// A failing reader fails the call, in a stream too.
	r = c.NewRequest("put", "PUT", "/raw")
	r.Remote("ns.put", nil, iotest.ErrReader(errors.New("disk gone")))
	for _, err := range Stream[struct{}](ctx, c, r, nil) {
		if !errors.As(err, &ce) || ce.Code != runtime.CodeValidation || !strings.Contains(err.Error(), "disk gone") || fr.id != "" {
			t.Fatalf("failing reader: %v", err)
		}
	}
}
