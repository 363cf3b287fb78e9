// Package petstore is one consumer per generator of the project's petstore
// (testdata/specs/openapi/petstore.json: an API key, a query enum, a
// date-time, a declared 404, a create body with a nullable tag), each doing
// the same things against one httptest server: list the available pets,
// read a date-time, handle a declared 404, create a pet with a null tag.
package petstore

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

const (
	apiKey  = "k3y"
	missing = "6f1c2c8e-0000-4000-8000-000000000000"
)

// server answers the list (checking the key and the query), a 404 for
// the missing pet, and the create by recording its body.
func server(t *testing.T, created *string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/pets":
			if r.Header.Get("X-API-Key") != apiKey || r.URL.RawQuery != "limit=2&status=available" {
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"code":400,"message":"key or query"}`)
				return
			}
			io.WriteString(w, `[{"id":1,"name":"Rex","born":"2020-02-29T10:00:00Z","status":"available"},{"id":2,"name":"Tom"}]`)
		case r.Method == http.MethodGet && r.URL.Path == "/pets/"+missing:
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"code":404,"message":"no such pet"}`)
		case r.Method == http.MethodPost && r.URL.Path == "/pets":
			b, _ := io.ReadAll(r.Body)
			*created = string(b)
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, `{"id":3,"name":"Kit"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var born = time.Date(2020, time.February, 29, 10, 0, 0, 0, time.UTC)
