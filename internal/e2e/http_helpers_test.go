package e2e_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// wireRequest is a request as the server received it.
type wireRequest struct {
	Method string
	// URI is the request target exactly as sent: escaped path and raw query.
	URI    string
	Header http.Header
	Body   []byte
}

// wireServer is an httptest server that records every request and answers
// with reply.
type wireServer struct {
	*httptest.Server
	mu    sync.Mutex
	reqs  []wireRequest
	reply http.HandlerFunc
}

// newWireServer starts a server answering with reply (nil: 204 No Content),
// closed when the test ends.
func newWireServer(t *testing.T, reply http.HandlerFunc) *wireServer {
	t.Helper()
	s := &wireServer{reply: reply}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, wireRequest{Method: r.Method, URI: r.RequestURI, Header: r.Header.Clone(), Body: body})
		reply := s.reply
		s.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if reply == nil {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		reply(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// requests returns the requests received so far.
func (s *wireServer) requests() []wireRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// only returns the one request the server received, failing the test when
// it received another number.
func (s *wireServer) only(t *testing.T) wireRequest {
	t.Helper()
	reqs := s.requests()
	if len(reqs) != 1 {
		t.Fatalf("server received %d requests, want 1: %+v", len(reqs), reqs)
	}
	return reqs[0]
}

// setReply changes the server's answer.
func (s *wireServer) setReply(reply http.HandlerFunc) {
	s.mu.Lock()
	s.reply = reply
	s.mu.Unlock()
}

// reset forgets the requests received so far.
func (s *wireServer) reset() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

// checkWireLine checks the method and request target of r.
func checkWireLine(t *testing.T, r wireRequest, method, uri string) {
	t.Helper()
	if r.Method != method || r.URI != uri {
		t.Errorf("request line\n got %s %s\nwant %s %s", r.Method, r.URI, method, uri)
	}
}

// checkWireHeader checks the values of the header key in r (none for want nil).
func checkWireHeader(t *testing.T, r wireRequest, key string, want ...string) {
	t.Helper()
	if got := r.Header.Values(key); !slices.Equal(got, want) {
		t.Errorf("header %s = %q, want %q", key, got, want)
	}
}

// replyJSON returns a handler answering status with the JSON body and the
// given content type ("" for application/json) and extra header pairs (a
// key given twice is sent twice).
func replyJSON(status int, body, contentType string, header ...string) http.HandlerFunc {
	if contentType == "" {
		contentType = "application/json"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Add(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// httpMeta returns the HTTP meta of env, failing the test when it has none.
func httpMeta[T any](t *testing.T, env runtime.ResponseEnvelope[T]) *runtime.HTTPMeta {
	t.Helper()
	m, ok := env.Meta.(*runtime.HTTPMeta)
	if !ok {
		t.Fatalf("envelope meta is %T, want *runtime.HTTPMeta", env.Meta)
	}
	return m
}

// wantCallError returns err as a *runtime.CallError with the given code,
// failing the test otherwise.
func wantCallError(t *testing.T, err error, code runtime.ErrorCode) *runtime.CallError {
	t.Helper()
	var ce *runtime.CallError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want a *runtime.CallError %s", err, err, code)
	}
	if ce.Code != code {
		t.Fatalf("err code = %s (%v), want %s", ce.Code, err, code)
	}
	return ce
}

// hostTransport sends every request to the server at target, whatever
// host the request names, and records the URLs it was asked for.
type hostTransport struct {
	target *url.URL
	mu     sync.Mutex
	asked  []string
}

// take returns the URLs asked for since the last take.
func (h *hostTransport) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	asked := h.asked
	h.asked = nil
	return asked
}

func (h *hostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.asked = append(h.asked, r.URL.String())
	h.mu.Unlock()
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = h.target.Scheme, h.target.Host
	r.Host = ""
	return http.DefaultTransport.RoundTrip(r)
}

// ptrTo returns a pointer to v.
func ptrTo[T any](v T) *T { return &v }
