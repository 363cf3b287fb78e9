// Package contentgroove is one consumer per generator of the ContentGroove
// API v1 (spec.json, from the APIs.guru directory: 7 paths, 15 operations,
// 14 schemas; one of the two real APIs of the issue), each doing the same
// things against one httptest server answering with the spec's own
// example: read a media (its description null, which the example leaves
// set) with an API key, and handle a declared 404.
package contentgroove

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

const (
	key   = "k3y"
	media = "f98fae60-8086-41d5-8966-36698bf13de0"
)

// server answers GET /medias/{media} with the spec's example (description
// null), and any other path with the spec's 404 example.
func server(t *testing.T) string {
	raw, err := os.ReadFile("spec.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Paths map[string]map[string]json.RawMessage
	}
	var op struct {
		Responses map[string]struct {
			Content map[string]struct{ Example map[string]any }
		}
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(spec.Paths["/medias/{id}"]["get"], &op); err != nil {
		t.Fatal(err)
	}
	get := op.Responses
	ok := get["200"].Content["application/json"].Example
	ok["data"].(map[string]any)["attributes"].(map[string]any)["description"] = nil
	okBody, _ := json.Marshal(ok)
	notFound, _ := json.Marshal(get["404"].Content["application/json"].Example)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Header.Get("Authorization") != key:
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/medias/"+media:
			w.Write(okBody)
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write(notFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
