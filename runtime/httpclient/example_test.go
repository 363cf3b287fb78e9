package httpclient_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/httpclient"
)

type Pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// This is what a generated method does for GET /pets/{petId} with an
// api_key security scheme.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != "secret" {
			http.Error(w, "no key", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7,"name":"rex"}`)
	}))
	defer srv.Close()

	schemes := []httpclient.SecurityScheme{{Name: "api_key", Type: "apiKey", In: "header", ParamName: "X-API-Key"}}
	c := httpclient.New("https://petstore.example.com/v1", schemes,
		httpclient.WithBaseURL(srv.URL),
		httpclient.WithCredential("api_key", httpclient.APIKey("secret")),
	)

	r := c.NewRequest("getPet", http.MethodGet, "/pets/{petId}")
	r.PathParam("petId", httpclient.StyleSimple, false, 7)
	r.QueryParam("fields", httpclient.StyleForm, false, false, []string{"id", "name"})
	r.Security([][]string{{"api_key"}})
	r.Accept("application/json")
	env, err := httpclient.Do[Pet](context.Background(), c, r, []httpclient.Response{{Status: "200", Kind: httpclient.BodyJSON}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(env.Data.Name, runtime.HTTPMetaOf(env.Meta).StatusCode, runtime.HTTPMetaOf(env.Meta).ContentType)
	// Output: rex 200 application/json
}

// Stream yields one envelope per server-sent event.
func ExampleStream() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: add\nid: 1\ndata: {\"id\":1,\"name\":\"rex\"}\n\n: keep-alive\n\nevent: add\nid: 2\ndata: {\"id\":2,\"name\":\"tom\"}\n\n")
	}))
	defer srv.Close()

	c := httpclient.New(srv.URL, nil)
	r := c.NewRequest("watchPets", http.MethodGet, "/pets/events")
	for env, err := range httpclient.Stream[Pet](context.Background(), c, r, nil) {
		if err != nil {
			fmt.Println(err)
			break
		}
		m := runtime.HTTPMetaOf(env.Meta)
		fmt.Println(m.EventType, m.LastEventID, env.Data.Name)
	}
	// Output:
	// add 1 rex
	// add 2 tom
}

// A status outside 2xx is a *runtime.CallError; a declared error schema
// makes the body available typed.
func ExampleResponse_newError() {
	type Problem struct {
		Title string `json:"title"`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"title":"no such pet"}`)
	}))
	defer srv.Close()

	c := httpclient.New(srv.URL, nil)
	responses := []httpclient.Response{
		{Status: "200", Kind: httpclient.BodyJSON},
		{Status: "default", Kind: httpclient.BodyJSON, NewError: func() any { return new(Problem) }},
	}
	_, err := httpclient.Do[Pet](context.Background(), c, c.NewRequest("getPet", http.MethodGet, "/pets/9"), responses)
	p, _ := runtime.ErrorBody[Problem](err)
	fmt.Println(err)
	fmt.Println(runtime.StatusCode(err), p.Title)
	// Output:
	// EXECUTION_ERROR getPet: HTTP 404 Not Found
	// 404 no such pet
}

// A File gives a multipart file part (or a binary body) its file name and
// media type; a plain io.Reader is sent with the field name as file name
// and the type the spec's encoding declares.
func ExampleFile() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for p, err := mr.NextPart(); err == nil; p, err = mr.NextPart() {
			b, _ := io.ReadAll(p)
			fmt.Printf("%s %q %s %s\n", p.FormName(), p.FileName(), p.Header.Get("Content-Type"), b)
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	c := httpclient.New(srv.URL, nil)
	r := c.NewRequest("upload", http.MethodPost, "/files")
	r.MultipartBody([]httpclient.Part{
		{Name: "photo", FileName: "photo", ContentType: "image/png, image/jpeg",
			Reader: httpclient.File{Name: "cat.jpg", Body: strings.NewReader("JPEG...")}},
		{Name: "notes", FileName: "notes", ContentType: "text/plain", Reader: strings.NewReader("hello")},
	})
	if _, err := httpclient.Do[struct{}](context.Background(), c, r, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// photo "cat.jpg" image/jpeg JPEG...
	// notes "notes" text/plain hello
}
