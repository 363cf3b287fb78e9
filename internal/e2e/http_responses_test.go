package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/golden/openapi/responses"
	"github.com/opsgen/opsgen/runtime"
)

// TestHTTPJSONResult checks a whole call of a JSON operation: the request
// (query, body, security, Accept) and the envelope (data with the schema's
// default filled in, status, headers, content type).
func TestHTTPJSONResult(t *testing.T) {
	ctx := context.Background()
	srv := newWireServer(t, replyJSON(201, `{"id":7,"name":"box","extra":true}`, "application/json; charset=utf-8", "Location", "/items/7", "X-Multi", "a", "X-Multi", "b"))
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"))

	env, err := c.CreateItem(ctx, e2ehttp.CreateItemParams{DryRun: ptrTo(true)}, e2ehttp.NewItem{Name: "box"})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.only(t)
	checkWireLine(t, r, "POST", "/items?dry_run=true")
	checkWireHeader(t, r, "Authorization", "Bearer tok")
	checkWireHeader(t, r, "Content-Type", "application/json")
	checkWireHeader(t, r, "Accept", "application/json")
	if string(r.Body) != `{"name":"box"}` {
		t.Errorf("body = %s", r.Body)
	}

	want := e2ehttp.Item{ID: 7, Name: "box", Size: ptrTo("M")} // size: the schema's default
	if !reflect.DeepEqual(env.Data, want) {
		t.Errorf("data = %+v, want %+v", env.Data, want)
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings: %v", env.Warnings)
	}
	m := httpMeta(t, env)
	if m.StatusCode != 201 || m.ContentType != "application/json; charset=utf-8" {
		t.Errorf("meta = %+v", m)
	}
	for k, v := range map[string]string{"location": "/items/7", "x-multi": "a, b", "content-type": "application/json; charset=utf-8"} {
		if m.Headers[k] != v {
			t.Errorf("meta header %s = %q, want %q (headers %v)", k, m.Headers[k], v, m.Headers)
		}
	}
	// The envelope's wire form is the seeds': data and meta with source "http".
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Data map[string]any `json:"data"`
		Meta map[string]any `json:"meta"`
	}
	if err := json.Unmarshal(b, &wire); err != nil || wire.Meta["source"] != "http" || wire.Meta["statusCode"] != 201.0 || wire.Data["size"] != "M" {
		t.Errorf("envelope JSON %s (err %v)", b, err)
	}
}

// TestHTTPMaxBodyBytes: a body over the client's cap fails with
// DECODE_ERROR instead of being read into memory.
func TestHTTPMaxBodyBytes(t *testing.T) {
	srv := newWireServer(t, replyJSON(200, strings.Repeat("x", 100), "text/plain"))
	c := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithMaxBodyBytes(99))
	_, err := c.GetNote(context.Background())
	wantCallError(t, err, runtime.CodeDecode)
	c = e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithMaxBodyBytes(100))
	if env, err := c.GetNote(context.Background()); err != nil || len(env.Data) != 100 {
		t.Errorf("GetNote at the cap = %d bytes, %v", len(env.Data), err)
	}
}

// TestHTTPResultKinds covers text, binary, no-content, range and
// several-status results.
func TestHTTPResultKinds(t *testing.T) {
	ctx := context.Background()
	t.Run("text", func(t *testing.T) {
		srv := newWireServer(t, replyJSON(200, "a note\n", "text/plain"))
		env, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL)).GetNote(ctx)
		if err != nil || env.Data != "a note\n" || httpMeta(t, env).ContentType != "text/plain" {
			t.Errorf("GetNote = %+v, %v", env, err)
		}
		checkWireHeader(t, srv.only(t), "Accept", "text/plain")
	})
	t.Run("binary", func(t *testing.T) {
		pdf := "%PDF-1.7\x00\xff"
		srv := newWireServer(t, replyJSON(200, pdf, "application/pdf"))
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).Download(ctx)
		if err != nil || string(env.Data) != pdf || httpMeta(t, env).ContentType != "application/pdf" {
			t.Errorf("Download = %+v, %v", env, err)
		}
	})
	t.Run("json without Content-Type", func(t *testing.T) {
		srv := newWireServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no sniffing: send none
			io.WriteString(w, `{"id":1,"name":"a"}`)
		})
		env, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("t")).GetItem(ctx, e2ehttp.GetItemParams{ID: 1})
		if err != nil || env.Data.Name != "a" || httpMeta(t, env).ContentType != "" {
			t.Errorf("GetItem = %+v, %v", env, err)
		}
	})
	t.Run("no content", func(t *testing.T) {
		srv := newWireServer(t, nil)
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).NoBody(ctx)
		if err != nil || httpMeta(t, env).StatusCode != 204 {
			t.Errorf("NoBody = %+v, %v", env, err)
		}
		checkWireLine(t, srv.only(t), "GET", "/c")
	})
	t.Run("2XX range", func(t *testing.T) {
		srv := newWireServer(t, replyJSON(206, `["a","b"]`, ""))
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).RangeOnly(ctx)
		if err != nil || !reflect.DeepEqual(env.Data, []string{"a", "b"}) || httpMeta(t, env).StatusCode != 206 {
			t.Errorf("RangeOnly = %+v, %v", env, err)
		}
	})
	t.Run("204 beside 2XX", func(t *testing.T) {
		srv := newWireServer(t, nil)
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).RangeOnly(ctx)
		if err != nil || env.Data != nil || httpMeta(t, env).StatusCode != 204 {
			t.Errorf("RangeOnly = %+v, %v", env, err)
		}
	})
	t.Run("same type for two statuses", func(t *testing.T) {
		srv := newWireServer(t, replyJSON(201, `{"id":"e1"}`, ""))
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).SameTypes(ctx)
		if err != nil || env.Data.ID == nil || *env.Data.ID != "e1" || httpMeta(t, env).StatusCode != 201 {
			t.Errorf("SameTypes = %+v, %v", env, err)
		}
	})
	t.Run("different types: raw JSON", func(t *testing.T) {
		srv := newWireServer(t, replyJSON(202, `{"title":"queued"}`, ""))
		env, err := responses.NewClient(responses.WithBaseURL(srv.URL)).Statuses(ctx)
		if err != nil || string(env.Data) != `{"title":"queued"}` || httpMeta(t, env).StatusCode != 202 {
			t.Errorf("Statuses = %+v (%s), %v", env, env.Data, err)
		}
		// Accept names the error bodies' media types too.
		checkWireHeader(t, srv.only(t), "Accept", "application/json, text/plain, application/problem+json")
	})
}

// TestHTTPErrors checks that statuses outside 2xx are CallErrors with the
// status, headers and body, typed where the spec declares a schema for the
// status or default.
func TestHTTPErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		reply  http.HandlerFunc
		call   func(url string) error
		code   runtime.ErrorCode
		status int
		check  func(t *testing.T, err error)
	}{
		{"401 typed, ACCESS_DENIED", replyJSON(401, `{"title":"no token","code":41}`, "", "WWW-Authenticate", "Bearer"),
			func(url string) error {
				_, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(url), e2ehttp.WithBearer("bad")).CreateItem(ctx, e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "x"})
				return err
			}, runtime.CodeAccessDenied, 401, func(t *testing.T, err error) {
				p, ok := runtime.ErrorBody[e2ehttp.Problem](err)
				if !ok || p.Title == nil || *p.Title != "no token" || p.Code == nil || *p.Code != 41 {
					t.Errorf("typed body = %+v, %v", p, ok)
				}
				if ce := wantCallError(t, err, runtime.CodeAccessDenied); ce.HTTP.Headers.Get("WWW-Authenticate") != "Bearer" {
					t.Errorf("headers = %v", ce.HTTP.Headers)
				}
			}},
		{"409 typed by status", replyJSON(409, `{"existing":3}`, ""),
			func(url string) error {
				_, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(url), e2ehttp.WithBearer("t")).CreateItem(ctx, e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "x"})
				return err
			}, runtime.CodeExecution, 409, func(t *testing.T, err error) {
				body, ok := runtime.ErrorBody[e2ehttp.CreateItemResponse409](err)
				if !ok || body.Existing == nil || *body.Existing != 3 {
					t.Errorf("typed body = %+v, %v", body, ok)
				}
				if _, ok := runtime.ErrorBody[e2ehttp.Problem](err); ok {
					t.Error("a 409 body is also typed as the default response's Problem")
				}
			}},
		{"500 typed by default", replyJSON(500, `{"title":"boom"}`, "application/problem+json"),
			func(url string) error {
				_, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(url), e2ehttp.WithBearer("t")).CreateItem(ctx, e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "x"})
				return err
			}, runtime.CodeExecution, 500, func(t *testing.T, err error) {
				p, ok := runtime.ErrorBody[e2ehttp.Problem](err)
				if !ok || p.Title == nil || *p.Title != "boom" {
					t.Errorf("typed body = %+v, %v", p, ok)
				}
			}},
		{"404 without schema", replyJSON(404, `not here`, "text/plain"),
			func(url string) error {
				_, err := e2ehttp.NewClient(e2ehttp.WithBaseURL(url), e2ehttp.WithBearer("t")).GetItem(ctx, e2ehttp.GetItemParams{ID: 9})
				return err
			}, runtime.CodeExecution, 404, func(t *testing.T, err error) {
				if ce := wantCallError(t, err, runtime.CodeExecution); ce.HTTP.Typed != nil || ce.HTTP.ContentType != "text/plain" {
					t.Errorf("HTTP = %+v", ce.HTTP)
				}
			}},
		{"404 typed by status beside default", replyJSON(404, `{"reason":"gone"}`, ""),
			func(url string) error {
				_, err := responses.NewClient(responses.WithBaseURL(url)).Statuses(ctx)
				return err
			}, runtime.CodeExecution, 404, func(t *testing.T, err error) {
				body, ok := runtime.ErrorBody[responses.StatusesResponse404](err)
				if !ok || body.Reason == nil || *body.Reason != "gone" {
					t.Errorf("typed body = %+v, %v", body, ok)
				}
			}},
		{"5XX text", replyJSON(503, `down`, "text/plain"),
			func(url string) error {
				_, err := responses.NewClient(responses.WithBaseURL(url)).Statuses(ctx)
				return err
			}, runtime.CodeExecution, 503, func(t *testing.T, err error) {
				if ce := wantCallError(t, err, runtime.CodeExecution); ce.HTTP.Typed != nil {
					t.Errorf("typed = %v, want none for a text response", ce.HTTP.Typed)
				}
			}},
		{"default with a body that does not decode", replyJSON(418, `{"title":`, "application/json"),
			func(url string) error {
				_, err := responses.NewClient(responses.WithBaseURL(url)).Statuses(ctx)
				return err
			}, runtime.CodeExecution, 418, func(t *testing.T, err error) {
				if _, ok := runtime.ErrorBody[responses.Problem](err); ok {
					t.Error("a broken body was typed")
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newWireServer(t, tt.reply)
			err := tt.call(srv.URL)
			ce := wantCallError(t, err, tt.code)
			if ce.HTTP == nil || ce.HTTP.StatusCode != tt.status || runtime.StatusCode(err) != tt.status {
				t.Fatalf("HTTP = %+v, want status %d", ce.HTTP, tt.status)
			}
			// The raw body is kept whatever its type.
			rec := httpBody(tt.reply)
			if string(ce.HTTP.Body) != rec {
				t.Errorf("body = %q, want %q", ce.HTTP.Body, rec)
			}
			if !errors.Is(err, &runtime.CallError{Code: tt.code}) {
				t.Errorf("errors.Is(err, %s) = false", tt.code)
			}
			tt.check(t, err)
		})
	}
}

// httpBody returns the body h answers with.
func httpBody(h http.HandlerFunc) string {
	w := httptest.NewRecorder()
	h(w, httptest.NewRequest("GET", "/", nil))
	return w.Body.String()
}
