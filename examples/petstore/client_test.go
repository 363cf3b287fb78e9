package petstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sync"
	"testing"

	"github.com/opsgen/opsgen/runtime"

	"example.com/petstore/api"
	"example.com/petstore/server"
)

const apiKey = "test-key"

// recorder remembers the last request the server saw, to check what the
// generated client put on the wire.
type recorder struct {
	mu   sync.Mutex
	last *http.Request
	next http.Handler
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.last = req.Clone(context.Background())
	r.mu.Unlock()
	r.next.ServeHTTP(w, req)
}

func (r *recorder) lastRequest() *http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// newClient starts a fresh petstore and returns a client of it that sends key.
func newClient(t *testing.T, key string) (*api.Client, *recorder) {
	t.Helper()
	rec := &recorder{next: server.New(apiKey)}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return api.NewClient(api.WithBaseURL(ts.URL), api.WithAPIKey(key)), rec
}

func TestListPets(t *testing.T) {
	c, rec := newClient(t, apiKey)
	limit, status := int32(5), api.PetStatusAvailable
	env, err := c.ListPets(context.Background(), api.ListPetsParams{Limit: &limit, Status: &status, Tags: []string{"dog", "good"}})
	if err != nil {
		t.Fatal(err)
	}

	req := rec.lastRequest()
	if req.Method != http.MethodGet || req.URL.Path != "/pets" {
		t.Errorf("request: %s %s, want GET /pets", req.Method, req.URL.Path)
	}
	wantQuery := url.Values{"limit": {"5"}, "status": {"available"}, "tags": {"dog", "good"}} // tags: form, exploded
	if got := req.URL.Query(); !reflect.DeepEqual(got, wantQuery) {
		t.Errorf("query %q = %v, want %v", req.URL.RawQuery, got, wantQuery)
	}
	if got := req.Header.Get("X-API-Key"); got != apiKey {
		t.Errorf("X-API-Key = %q, want %q", got, apiKey)
	}

	want := []api.Pet{{ID: 1, Name: "Rex", Status: api.PetStatusAvailable, Tags: []string{"dog", "good"}}}
	if !reflect.DeepEqual(env.Data, want) {
		t.Errorf("data = %+v, want %+v", env.Data, want)
	}
	m := runtime.HTTPMetaOf(env.Meta)
	if m == nil {
		t.Fatalf("meta = %#v, want *runtime.HTTPMeta", env.Meta)
	}
	if m.StatusCode != http.StatusOK || m.ContentType != "application/json" || m.Headers["x-total-count"] != "1" {
		t.Errorf("meta: status %d, content type %q, x-total-count %q; want 200, application/json, 1", m.StatusCode, m.ContentType, m.Headers["x-total-count"])
	}
	if len(env.Warnings) != 0 {
		t.Errorf("warnings: %v", env.Warnings)
	}
}

func TestPetLifecycle(t *testing.T) {
	ctx := context.Background()
	c, rec := newClient(t, apiKey)

	created, err := c.CreatePet(ctx, api.NewPet{Name: "Nibbles", Tags: []string{"hamster"}})
	if err != nil {
		t.Fatal(err)
	}
	want := api.Pet{ID: 4, Name: "Nibbles", Status: api.PetStatusAvailable, Tags: []string{"hamster"}}
	if !reflect.DeepEqual(created.Data, want) {
		t.Errorf("CreatePet data = %+v, want %+v", created.Data, want)
	}
	if m := runtime.HTTPMetaOf(created.Meta); m == nil || m.StatusCode != http.StatusCreated || m.Headers["location"] != "/pets/4" {
		t.Errorf("CreatePet meta = %+v, want status 201 and location /pets/4", m)
	}
	if req := rec.lastRequest(); req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		t.Errorf("CreatePet request: %s with Content-Type %q, want POST application/json", req.Method, req.Header.Get("Content-Type"))
	}

	got, err := c.GetPet(ctx, api.GetPetParams{PetID: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Data, want) {
		t.Errorf("GetPet data = %+v, want %+v", got.Data, want)
	}
	if req := rec.lastRequest(); req.URL.Path != "/pets/4" {
		t.Errorf("GetPet path = %q, want /pets/4", req.URL.Path)
	}

	deleted, err := c.DeletePet(ctx, api.DeletePetParams{PetID: 4})
	if err != nil {
		t.Fatal(err)
	}
	if m := runtime.HTTPMetaOf(deleted.Meta); m == nil || m.StatusCode != http.StatusNoContent {
		t.Errorf("DeletePet meta = %+v, want status 204", m)
	}
	if req := rec.lastRequest(); req.Method != http.MethodDelete || req.URL.Path != "/pets/4" {
		t.Errorf("DeletePet request: %s %s, want DELETE /pets/4", req.Method, req.URL.Path)
	}

	_, err = c.GetPet(ctx, api.GetPetParams{PetID: 4})
	if !errors.Is(err, runtime.ErrExecution) {
		t.Fatalf("GetPet of a deleted pet: err = %v, want EXECUTION_ERROR", err)
	}
	if got := runtime.StatusCode(err); got != http.StatusNotFound {
		t.Errorf("status = %d, want 404", got)
	}
	body, ok := runtime.ErrorBody[api.Error](err)
	if wantBody := (api.Error{Code: 404, Message: "pet 4 not found"}); !ok || !reflect.DeepEqual(body, wantBody) {
		t.Errorf("typed error body = %+v, %v; want %+v", body, ok, wantBody)
	}
}

func TestWrongAPIKey(t *testing.T) {
	c, _ := newClient(t, "wrong-key")
	_, err := c.GetPet(context.Background(), api.GetPetParams{PetID: 1})
	if !errors.Is(err, runtime.ErrAccessDenied) {
		t.Fatalf("err = %v, want ACCESS_DENIED", err)
	}
	// 401 is not declared: the body is typed by the default response.
	body, ok := runtime.ErrorBody[api.Error](err)
	if !ok || body.Code != http.StatusUnauthorized {
		t.Errorf("typed error body = %+v, %v; want code 401", body, ok)
	}
}

func TestRegistry(t *testing.T) {
	ctx := context.Background()
	c, _ := newClient(t, apiKey)
	reg := runtime.NewRegistry(nil)
	if err := c.Register(reg); err != nil {
		t.Fatal(err)
	}

	env, err := runtime.ExecuteAs[api.Pet](ctx, reg, "petstore.getPet", json.RawMessage(`{"params": {"petId": 2}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := api.Pet{ID: 2, Name: "Felix", Status: api.PetStatusAvailable, Tags: []string{"cat"}}
	if !reflect.DeepEqual(env.Data, want) {
		t.Errorf("data = %+v, want %+v", env.Data, want)
	}
	if m := runtime.HTTPMetaOf(env.Meta); m == nil || m.StatusCode != http.StatusOK {
		t.Errorf("meta = %+v, want HTTP 200", env.Meta)
	}

	// The input is checked against the operation's input schema before any request.
	_, err = reg.Execute(ctx, "petstore.getPet", json.RawMessage(`{"params": {"petId": "two"}}`))
	if !errors.Is(err, runtime.ErrValidation) {
		t.Errorf("petId \"two\": err = %v, want VALIDATION_ERROR", err)
	}
}
