// Package composition is one consumer per generator of spec.yaml (allOf,
// a oneOf with a discriminator, an anyOf, nullable and date properties, a
// declared 404, a PATCH), each doing the same things against one
// httptest server: handling a declared 404, switching over a union,
// reading an anyOf, reading a date, sending an explicit null.
package composition

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

const pet = `{"id":"1","name":"Rex","born":"2020-02-29","nick":"R","kind":{"type":"cat","lives":7},"tag":"fluffy"}`

// server answers GET /pets/1 with pet, any other id with a 404 problem,
// and PATCH by recording the body.
func server(t *testing.T, patched *string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPatch {
			b, _ := io.ReadAll(r.Body)
			*patched = string(b)
		}
		if r.URL.Path != "/pets/1" {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"title":"no pet"}`)
			return
		}
		io.WriteString(w, pet)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

var leapDay = time.Date(2020, time.February, 29, 0, 0, 0, 0, time.UTC)
