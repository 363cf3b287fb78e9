package emit

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// linkSpec has three operations, each with its own body type (Gamma's
// recursive) and its own error type, and one type they all use.
const linkSpec = `openapi: 3.0.3
info: {title: link, version: "1"}
paths:
  /alpha:
    get:
      operationId: getAlpha
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Alpha"}}}
        "404":
          description: missing
          content: {application/json: {schema: {$ref: "#/components/schemas/AlphaProblem"}}}
  /beta:
    get:
      operationId: getBeta
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {$ref: "#/components/schemas/Beta"}}}
        "404":
          description: missing
          content: {application/json: {schema: {$ref: "#/components/schemas/BetaProblem"}}}
  /gamma:
    get:
      operationId: getGamma
      responses:
        "200":
          description: ok
          content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Gamma"}}}}
        "500":
          description: broken
          content: {application/json: {schema: {$ref: "#/components/schemas/GammaProblem"}}}
components:
  schemas:
    Shared:
      type: object
      properties: {sharedMarker: {type: string}}
    Alpha:
      type: object
      properties:
        alphaMarker: {type: string}
        part: {$ref: "#/components/schemas/AlphaPart"}
        shared: {$ref: "#/components/schemas/Shared"}
    AlphaPart:
      type: object
      properties: {alphaPartMarker: {type: integer}}
    AlphaProblem:
      type: object
      properties: {alphaProblemMarker: {type: string}}
    Beta:
      type: object
      properties:
        betaMarker: {type: string}
        shared: {$ref: "#/components/schemas/Shared"}
    BetaProblem:
      type: object
      properties: {betaProblemMarker: {type: string}}
    Gamma:
      type: object
      properties:
        gammaMarker: {type: string}
        children: {type: array, items: {$ref: "#/components/schemas/Gamma"}}
    GammaProblem:
      type: object
      properties: {gammaProblemMarker: {type: string}}
`

// linkMain calls GetAlpha only.
const linkMain = `package main

import (
	"context"
	"fmt"

	link "MODULE/PKG"
)

func main() {
	c := link.NewClient(link.WithBaseURL("http://127.0.0.1:1"))
	_, err := c.GetAlpha(context.Background())
	fmt.Println(err)
}
`

// TestLinkOneOperation: a program that calls one operation of a generated
// package links that operation's schemas, body and error types, and none
// of the other operations': schemas and response tables are static data
// the linker drops when nothing reachable refers to them.
func TestLinkOneOperation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	svc, _, err := openapi.LoadData(context.Background(), []byte(linkSpec), "link.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, diags := emit(t, svc, Options{Package: "link", Version: "v0.1.0"})
	for _, d := range diags {
		t.Errorf("warning: %s", d)
	}
	root, rel := writePackage(t, files, nil)
	main := strings.NewReplacer("MODULE", "github.com/opsgen/opsgen", "PKG", strings.TrimPrefix(rel, "./")).Replace(linkMain)
	mainDir := filepath.Join(root, rel, "linkmain")
	if err := os.MkdirAll(mainDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mainDir, "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	// Everything the package declares is static data: its initialisation
	// does nothing (a bare RET), else the linker would keep what it sets.
	pkgPath := "github.com/opsgen/opsgen/" + strings.TrimPrefix(rel, "./")
	asm := exec.Command("go", "build", "-gcflags="+pkgPath+"=-S", rel)
	asm.Dir = root
	out, err := asm.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -S: %v\n%s", err, out)
	}
	switch m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(pkgPath) + `\.init STEXT.* size=(\d+)`).FindSubmatch(out); {
	case m == nil:
		t.Error("no init function in the package's assembly")
	case string(m[1]) != "1":
		t.Errorf("the package's init is %s bytes of code, want none", m[1])
	}
	bin := filepath.Join(t.TempDir(), "linkmain")
	goCmd(t, root, "build", "-o", bin, rel+"/linkmain")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	// A type's name as its descriptor holds it ("link.Alpha"), or a
	// symbol of its methods ("link.(*GetAlphaNotFound).Error").
	typeSym := func(name string) bool {
		return regexp.MustCompile(`link\.(\(\*)?` + name + `[^A-Za-z0-9_]`).Match(data)
	}
	// The schema text of a def: its property as JSON Schema writes it.
	schemaText := func(prop string) bool { return bytes.Contains(data, []byte(`"`+prop+`":{`)) }
	for _, name := range []string{"Alpha", "AlphaPart", "GetAlphaNotFound"} {
		if !typeSym(name) {
			t.Errorf("type %s of the called operation is not linked", name)
		}
	}
	for _, prop := range []string{"alphaMarker", "alphaPartMarker", "alphaProblemMarker", "sharedMarker"} {
		if !schemaText(prop) {
			t.Errorf("the schema of %q, used by the called operation, is not linked", prop)
		}
	}
	var src bytes.Buffer
	for _, f := range files {
		src.Write(f.Content)
	}
	for _, name := range []string{"Beta", "BetaProblem", "GetBetaNotFound", "Gamma", "GammaProblem", "GetGammaInternalServerError"} {
		if !bytes.Contains(src.Bytes(), []byte("type "+name+" struct")) {
			t.Errorf("the package declares no type %s", name)
		}
		if typeSym(name) {
			t.Errorf("type %s of an operation the program does not call is linked", name)
		}
	}
	for _, prop := range []string{"betaMarker", "betaProblemMarker", "gammaMarker", "gammaProblemMarker"} {
		if schemaText(prop) {
			t.Errorf("the schema of %q, used by no called operation, is linked", prop)
		}
	}
	if t.Failed() {
		cmd := exec.Command("go", "tool", "nm", bin)
		cmd.Dir = root
		nm, _ := cmd.Output()
		t.Logf("symbols of the package:\n%s", grepLines(nm, strings.TrimPrefix(rel, "./")))
	}
}

// grepLines returns the lines of b that contain s.
func grepLines(b []byte, s string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// linkRaceTest runs in the generated package: many goroutines make the
// first calls of two operations at once, whose schemas share the def
// Shared, compile on first use and normalize each body.
const linkRaceTest = `package link

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

func TestFirstUseConcurrent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/alpha":
			w.Write([]byte(` + "`" + `{"alphaMarker":"a","part":{"alphaPartMarker":"not an integer"},"shared":{"sharedMarker":"s"}}` + "`" + `))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(` + "`" + `{"betaProblemMarker":"gone"}` + "`" + `))
		}
	}))
	defer srv.Close()
	c := NewClient(WithBaseURL(srv.URL))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			env, err := c.GetAlpha(context.Background())
			if err != nil {
				t.Errorf("GetAlpha: %v", err)
				return
			}
			if env.Data.AlphaMarker == nil || *env.Data.AlphaMarker != "a" || env.Data.Part == nil || env.Data.Part.AlphaPartMarker != nil || len(env.Warnings) != 1 {
				t.Errorf("GetAlpha: %+v, warnings %v; want the string part's integer dropped with a warning", env.Data, env.Warnings)
			}
		})
		wg.Go(func() {
			_, err := c.GetBeta(context.Background())
			var nf *GetBetaNotFound
			if !errors.As(err, &nf) || nf.Body.BetaProblemMarker == nil || *nf.Body.BetaProblemMarker != "gone" {
				t.Errorf("GetBeta: %v, want GetBetaNotFound with its body", err)
			}
		})
	}
	wg.Wait()
}
`

// TestFirstUseConcurrent: the first calls of a generated client, made from
// many goroutines at once, compile its static schemas once and safely
// (run with -race).
func TestFirstUseConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with -race")
	}
	svc, _, err := openapi.LoadData(context.Background(), []byte(linkSpec), "link.yaml", openapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := emit(t, svc, Options{Package: "link", Version: "v0.1.0"})
	root, rel := writePackage(t, files, map[string]string{"race_test.go": linkRaceTest})
	goCmd(t, root, "test", "-race", "-count=1", rel)
}
