package e2e_test

import (
	"bytes"
	"context"
	"io"
	"mime"
	"mime/multipart"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/bodies"
)

// TestHTTPBodies sends each request body kind of
// testdata/specs/openapi/bodies.yaml and checks it on the wire.
func TestHTTPBodies(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := bodies.NewClient(bodies.WithBaseURL(srv.URL))

	tests := []struct {
		name        string
		call        func() error
		method, uri string
		contentType string // "" for none
		body        string
	}{
		{"json with +json media type", func() error {
			_, err := c.PostJSON(ctx, &bodies.PostJSONBody{A: ptrTo("x<y")})
			return err
		}, "POST", "/json", "application/vnd.api+json", `{"a":"x\u003cy"}`}, // encoding/json's HTML-safe escaping
		{"optional json body left out", func() error {
			_, err := c.PostJSON(ctx, nil)
			return err
		}, "POST", "/json", "", ""},
		{"json from a $ref request body", func() error {
			_, err := c.PutRef(ctx, bodies.Thing{ID: ptrTo("t1")})
			return err
		}, "PUT", "/ref", "application/json", `{"id":"t1"}`},
		{"form", func() error {
			_, err := c.PostForm(ctx, bodies.PostFormBody{Name: ptrTo("a b&c")})
			return err
		}, "POST", "/form", "application/x-www-form-urlencoded", "name=a+b%26c"},
		{"form without fields", func() error {
			_, err := c.PostForm(ctx, bodies.PostFormBody{})
			return err
		}, "POST", "/form", "application/x-www-form-urlencoded", ""},
		{"text", func() error {
			_, err := c.PostText(ctx, ptrTo("héllo\nworld"))
			return err
		}, "POST", "/text", "text/plain", "héllo\nworld"},
		{"octet-stream", func() error {
			_, err := c.PostRaw(ctx, bytes.NewReader([]byte{0, 1, 2, 0xff}))
			return err
		}, "POST", "/raw", "application/octet-stream", "\x00\x01\x02\xff"},
		{"no content", func() error {
			_, err := c.PostEmpty(ctx)
			return err
		}, "POST", "/empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.reset()
			if err := tt.call(); err != nil {
				t.Fatal(err)
			}
			r := srv.only(t)
			checkWireLine(t, r, tt.method, tt.uri)
			if tt.contentType == "" {
				checkWireHeader(t, r, "Content-Type")
			} else {
				checkWireHeader(t, r, "Content-Type", tt.contentType)
			}
			if string(r.Body) != tt.body {
				t.Errorf("body = %q, want %q", r.Body, tt.body)
			}
		})
	}
}

// TestHTTPMultipart sends the multipart/form-data body of upload: a file
// part and a JSON part, each with the content type of the spec's encoding.
func TestHTTPMultipart(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, nil)
	c := bodies.NewClient(bodies.WithBaseURL(srv.URL))
	png := "\x89PNG\r\n\x1a\n..."
	_, err := c.Upload(ctx, &bodies.UploadBody{File: strings.NewReader(png), Meta: &bodies.UploadBodyMeta{K: ptrTo("v")}})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/upload")
	want := []formPart{
		{"file", "file", "image/png", png},
		{"meta", "", "application/json", `{"k":"v"}`},
	}
	if got := readParts(t, r); !slices.Equal(got, want) {
		t.Errorf("parts\n got %q\nwant %q", got, want)
	}

	// A part whose value is nil is left out.
	srv.reset()
	if _, err := c.Upload(ctx, &bodies.UploadBody{Meta: &bodies.UploadBodyMeta{}}); err != nil {
		t.Fatal(err)
	}
	want = []formPart{{"meta", "", "application/json", `{}`}}
	if got := readParts(t, srv.only(t)); !slices.Equal(got, want) {
		t.Errorf("parts\n got %q\nwant %q", got, want)
	}
}

// formPart is one part of a multipart/form-data body.
type formPart struct{ name, fileName, contentType, body string }

// readParts parses the multipart/form-data body of r.
func readParts(t *testing.T, r wireRequest) []formPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		t.Fatalf("Content-Type %q: %v", r.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	var parts []formPart
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, formPart{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(body)})
	}
}
