package e2e_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/opsgen/opsgen/golden/openapi/e2ehttp"
	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

// A generated client's POST gets one Idempotency-Key per logical call; it
// crosses two call protocol hops (spoke, hub 1, whose client is itself a
// spoke of hub 2, which makes the HTTP call) unchanged, and the first hub
// answers the same call again from its record, without a second request.
func TestIdempotencyKeyAcrossTwoHops(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		n := len(keys)
		mu.Unlock()
		io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		io.WriteString(w, `{"id":`+strconv.Itoa(n)+`,"name":"box"}`)
	}))
	defer srv.Close()
	sent := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), keys...)
	}

	// Hub 2 calls the API; hub 1 calls hub 2; the caller calls hub 1.
	reg2 := runtime.NewRegistry(nil)
	if err := e2ehttp.NewClient(e2ehttp.WithBaseURL(srv.URL), e2ehttp.WithBearer("tok"), quietHTTP).Register(reg2); err != nil {
		t.Fatal(err)
	}
	reg1 := runtime.NewRegistry(nil)
	if err := e2ehttp.NewClient(e2ehttp.WithRemote(remoteSpoke(t, reg2)), quietHTTP).Register(reg1); err != nil {
		t.Fatal(err)
	}
	caller := e2ehttp.NewClient(e2ehttp.WithRemote(remoteSpoke(t, reg1)), httpclient.WithIdempotencyKeys(), quietHTTP)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	first, err := caller.CreateItem(ctx, e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "box"})
	if err != nil {
		t.Fatal(err)
	}
	got := sent()
	if len(got) != 1 || !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(got[0]) {
		t.Fatalf("the API got keys %q, want one generated key", got)
	}
	// The caller tries the same logical call again (say its first answer
	// was lost): hub 1 answers from its record; the API is not called.
	again, err := caller.CreateItem(runtime.WithIdempotencyKey(ctx, got[0]), e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "box"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sent()); n != 1 || again.Data.ID != first.Data.ID {
		t.Fatalf("the repeated call reached the API (%d requests) or got item %d, not %d", n, again.Data.ID, first.Data.ID)
	}
	// A new logical call has a new key.
	if _, err := caller.CreateItem(ctx, e2ehttp.CreateItemParams{}, e2ehttp.NewItem{Name: "box"}); err != nil {
		t.Fatal(err)
	}
	if got := sent(); len(got) != 2 || got[1] == got[0] || got[1] == "" {
		t.Fatalf("keys %q: want a second, different key", got)
	}
}
