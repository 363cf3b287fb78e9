// Package devto is one consumer per generator of the dev.to (Forem) API
// v1 (spec.json, from the APIs.guru directory: 33 paths, 17 schemas), each
// doing the same things against one httptest server answering with the
// spec's own examples: list articles by tag, read a date-time and a
// nullable field, handle a declared 404.
package devto

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// server answers GET /api/articles?per_page=2&tag=go with the spec's
// example (its cover image made null) and 404s for any organization.
func server(t *testing.T) string {
	raw, err := os.ReadFile("spec.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Paths map[string]map[string]struct {
			Responses map[string]struct {
				Content map[string]struct{ Example json.RawMessage }
			}
		}
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	var articles []map[string]any
	if err := json.Unmarshal(spec.Paths["/api/articles"]["get"].Responses["200"].Content["application/json"].Example, &articles); err != nil {
		t.Fatal(err)
	}
	articles[0]["cover_image"] = nil
	body, _ := json.Marshal(articles)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/api/articles" && r.URL.RawQuery == "per_page=2&tag=go":
			w.Write(body)
		default:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"not found","status":404}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var published = time.Date(2025, time.October, 15, 13, 51, 2, 784e6, time.UTC)
