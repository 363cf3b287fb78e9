// Package server is a hand-written net/http implementation of petstore.yaml,
// with the pets kept in memory. The example's tests and demo call it with the
// generated client; it shares no code with that client, so they meet only on
// the wire.
package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
)

// Pet is a pet as the server stores and sends it.
type Pet struct {
	ID     int64    `json:"id"`
	Name   string   `json:"name"`
	Status string   `json:"status"`
	Tags   []string `json:"tags,omitempty"`
}

// Error is the body of every error response.
type Error struct {
	Code    int32  `json:"code"`
	Message string `json:"message"`
}

// Server is the petstore. Its zero value is not usable; call New.
type Server struct {
	apiKey string
	mux    *http.ServeMux

	mu     sync.Mutex
	pets   []Pet // oldest first
	nextID int64
}

// New returns a petstore holding three pets that answers only requests
// carrying apiKey in their X-API-Key header.
func New(apiKey string) *Server {
	s := &Server{
		apiKey: apiKey,
		mux:    http.NewServeMux(),
		pets: []Pet{
			{ID: 1, Name: "Rex", Status: "available", Tags: []string{"dog", "good"}},
			{ID: 2, Name: "Felix", Status: "available", Tags: []string{"cat"}},
			{ID: 3, Name: "Bubbles", Status: "sold", Tags: []string{"fish"}},
		},
		nextID: 4,
	}
	s.mux.HandleFunc("GET /pets", s.listPets)
	s.mux.HandleFunc("POST /pets", s.createPet)
	s.mux.HandleFunc("GET /pets/{petId}", s.getPet)
	s.mux.HandleFunc("DELETE /pets/{petId}", s.deletePet)
	return s
}

// ServeHTTP checks the API key, then serves the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-API-Key") != s.apiKey {
		writeError(w, http.StatusUnauthorized, "missing or wrong X-API-Key")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) listPets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit %q is not an integer from 1 to 100", v))
			return
		}
		limit = n
	}
	status, tags := q.Get("status"), q["tags"]

	s.mu.Lock()
	matches := []Pet{}
	for _, p := range s.pets {
		if (status == "" || p.Status == status) && containsAll(p.Tags, tags) {
			matches = append(matches, p)
		}
	}
	s.mu.Unlock()

	w.Header().Set("X-Total-Count", strconv.Itoa(len(matches)))
	writeJSON(w, http.StatusOK, matches[:min(limit, len(matches))])
}

func (s *Server) createPet(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name   string   `json:"name"`
		Status string   `json:"status"`
		Tags   []string `json:"tags"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "body: "+err.Error())
		return
	}
	if in.Name == "" {
		writeError(w, http.StatusBadRequest, "name is required")
		return
	}
	if in.Status == "" {
		in.Status = "available"
	}

	s.mu.Lock()
	p := Pet{ID: s.nextID, Name: in.Name, Status: in.Status, Tags: in.Tags}
	s.nextID++
	s.pets = append(s.pets, p)
	s.mu.Unlock()

	w.Header().Set("Location", fmt.Sprintf("/pets/%d", p.ID))
	writeJSON(w, http.StatusCreated, p)
}

func (s *Server) getPet(w http.ResponseWriter, r *http.Request) {
	id, ok := petID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(id)
	if i < 0 {
		writeError(w, http.StatusNotFound, fmt.Sprintf("pet %d not found", id))
		return
	}
	writeJSON(w, http.StatusOK, s.pets[i])
}

func (s *Server) deletePet(w http.ResponseWriter, r *http.Request) {
	id, ok := petID(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(id)
	if i < 0 {
		writeError(w, http.StatusNotFound, fmt.Sprintf("pet %d not found", id))
		return
	}
	s.pets = slices.Delete(s.pets, i, i+1)
	w.WriteHeader(http.StatusNoContent)
}

// find returns the index of the pet with the given id, or -1. s.mu must be held.
func (s *Server) find(id int64) int {
	return slices.IndexFunc(s.pets, func(p Pet) bool { return p.ID == id })
}

// petID parses the petId path parameter, answering 400 when it is not an integer.
func petID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	v := r.PathValue("petId")
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("petId %q is not an integer", v))
		return 0, false
	}
	return id, true
}

func containsAll(have, want []string) bool {
	for _, t := range want {
		if !slices.Contains(have, t) {
			return false
		}
	}
	return true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) // the status is sent; a write error has no one left to tell
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, Error{Code: int32(status), Message: msg})
}
