package generator

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// deepCommaSpec is PandaScore's shape: a deepObject filter with array
// members, on a server under pandascore.co, whose description documents
// "filter[name]=Brand,Twitch".
const deepCommaSpec = `openapi: 3.0.0
info: {title: deep comma, version: "1"}
servers: [{url: "https://api.pandascore.co"}]
paths:
  /leagues:
    get:
      operationId: getLeagues
      parameters:
        - name: filter
          in: query
          style: deepObject
          explode: true
          schema:
            type: object
            properties:
              id: {type: array, items: {type: integer}}
              name: {type: array, items: {type: string}}
      responses:
        "204": {description: done}
`

const deepCommaClientTest = `package pets

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestDeepComma(t *testing.T) {
	var query string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	f := GetLeaguesFilter{ID: []int64{1, 2}, Name: []string{"Brand", "Twitch"}}
	if _, err := NewClient(WithBaseURL(srv.URL)).GetLeagues(context.Background(), GetLeaguesParams{Filter: &f}); err != nil {
		t.Fatal(err)
	}
	if want := "filter%5Bid%5D=1,2&filter%5Bname%5D=Brand,Twitch"; query != want {
		t.Errorf("query %s, want %s", query, want)
	}
}
`

// TestDeepComma: PandaScore's deepObject arrays are one comma-separated
// value, as its description documents; elsewhere the key repeats.
func TestDeepComma(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "pets.yaml"), deepCommaSpec)
	res, err := Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	goInModule(t, map[string]map[string][]byte{"pets": filesOf(res, map[string]string{"pets_test.go": deepCommaClientTest})},
		[]string{"test", "-count=1", "./pets"})

	writeFile(t, filepath.Join(dir, "pets.yaml"), strings.Replace(deepCommaSpec, "api.pandascore.co", "api.example.com", 1))
	res, err = Generate(context.Background(), Options{ConfigDir: dir, Config: &config.Config{
		Package: "pets", Output: "out", Sources: []config.Source{{OpenAPI: "pets.yaml"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Files {
		if strings.Contains(string(f.Content), "StyleDeepObjectComma") {
			t.Errorf("%s: another API's deepObject is sent comma-separated", f.Name)
		}
	}
}
