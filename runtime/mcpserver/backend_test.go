package mcpserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
)

// pet is a pet as the backend stores and sends it.
type pet struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Status string   `json:"status"`
	Tags   []string `json:"tags,omitempty"`
	Owner  *owner   `json:"owner,omitempty"`
}

type owner struct {
	Name  string  `json:"name"`
	Email *string `json:"email"`
}

// backend is a hand-written implementation of testdata/pets.yaml, sharing
// no code with the generated clients.
type backend struct {
	mu     sync.Mutex
	pets   []pet
	nextID int64
}

// newBackend starts the backend on an httptest server; wrap, if not nil,
// wraps its handler.
func newBackend(t *testing.T, wrap func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	email := "ann@example.com"
	b := &backend{pets: []pet{
		{ID: 1, Name: "Rex", Status: "available", Tags: []string{"dog"}, Owner: &owner{Name: "Ann", Email: &email}},
		{ID: 2, Name: "Felix", Status: "sold", Owner: &owner{Name: "Bob"}},
	}, nextID: 3}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pets", b.list)
	mux.HandleFunc("POST /pets", b.create)
	mux.HandleFunc("GET /pets/{petId}", b.get)
	mux.HandleFunc("PUT /pets/{petId}", b.update)
	mux.HandleFunc("DELETE /pets/{petId}", b.remove)
	mux.HandleFunc("GET /stats", b.stats)
	var h http.Handler = mux
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func notFound(w http.ResponseWriter, id string) {
	reply(w, 404, map[string]any{"code": 404, "message": fmt.Sprintf("no pet %s", id)})
}

func (b *backend) list(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := []pet{}
	for _, p := range b.pets {
		if s := r.URL.Query().Get("status"); s == "" || s == p.Status {
			out = append(out, p)
		}
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(len(out)))
	if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l < len(out) {
		out = out[:l]
	}
	reply(w, 200, out)
}

func (b *backend) decode(w http.ResponseWriter, r *http.Request) (pet, bool) {
	var p pet
	if err := json.NewDecoder(r.Body).Decode(&p); err != nil || p.Name == "" {
		reply(w, 400, map[string]any{"code": 400, "message": "bad pet"})
		return p, false
	}
	if p.Status == "" {
		p.Status = "available"
	}
	return p, true
}

func (b *backend) create(w http.ResponseWriter, r *http.Request) {
	p, ok := b.decode(w, r)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p.ID = b.nextID
	b.nextID++
	b.pets = append(b.pets, p)
	reply(w, 201, p)
}

// find returns the index of the pet of the request's petId, or -1.
func (b *backend) find(r *http.Request) int {
	id, _ := strconv.ParseInt(r.PathValue("petId"), 10, 64)
	for i, p := range b.pets {
		if p.ID == id {
			return i
		}
	}
	return -1
}

func (b *backend) get(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.find(r)
	if i < 0 {
		notFound(w, r.PathValue("petId"))
		return
	}
	reply(w, 200, b.pets[i])
}

func (b *backend) update(w http.ResponseWriter, r *http.Request) {
	p, ok := b.decode(w, r)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.find(r)
	if i < 0 {
		notFound(w, r.PathValue("petId"))
		return
	}
	p.ID = b.pets[i].ID
	b.pets[i] = p
	reply(w, 200, p)
}

func (b *backend) remove(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	i := b.find(r)
	if i < 0 {
		notFound(w, r.PathValue("petId"))
		return
	}
	b.pets = append(b.pets[:i], b.pets[i+1:]...)
	w.WriteHeader(204)
}

func (b *backend) stats(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	defer b.mu.Unlock()
	by := map[string]int{}
	for _, p := range b.pets {
		by[p.Status]++
	}
	reply(w, 200, map[string]any{"byStatus": by, "oldest": "2020-01-02T03:04:05Z", "ratio": 0.5})
}
