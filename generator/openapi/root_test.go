package openapi_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/opsgen/opsgen/generator/openapi"
)

// writeFiles writes name -> content under dir, making directories.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// refSpec is a document whose schema Secret is the $ref REF (line 11,
// column 14).
const refSpec = `openapi: 3.0.3
info: {title: root, version: "1"}
paths:
  /s:
    get:
      operationId: getSecret
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Secret"}}}}
components:
  schemas:
    Secret: {$ref: "REF"}
`

// secretFile is the file outside the root; its description must never
// reach the generated code.
const secretFile = "Secret:\n  type: string\n  description: TOP-SECRET\n"

// TestRootEscapes checks that a $ref cannot read a file outside the root:
// by "..", by an absolute path, by a symbolic link (relative or absolute)
// that points outside, nor from a second file. Each is a *RootError, in an
// error naming the $ref and its place; a root widened to hold the file
// lets it through.
func TestRootEscapes(t *testing.T) {
	dir := t.TempDir()
	api := filepath.Join(dir, "api")
	writeFiles(t, dir, map[string]string{"secret.yaml": secretFile})
	abs := filepath.ToSlash(filepath.Join(dir, "secret.yaml"))
	if err := os.MkdirAll(api, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "secret.yaml"), filepath.Join(api, "rel-link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.yaml"), filepath.Join(api, "abs-link.yaml")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, ref string
		files     map[string]string
		link      bool
		// where the error is placed: file (relative to api) and pointer
		at string
	}{
		{name: "dotdot", ref: "../secret.yaml#/Secret", at: "spec.yaml:11:14 (#/components/schemas/Secret)"},
		{name: "absolute", ref: abs + "#/Secret", at: "spec.yaml:11:14 (#/components/schemas/Secret)"},
		{name: "relative-symlink", ref: "rel-link.yaml#/Secret", link: true, at: "spec.yaml:11:14 (#/components/schemas/Secret)"},
		{name: "absolute-symlink", ref: "abs-link.yaml#/Secret", link: true, at: "spec.yaml:11:14 (#/components/schemas/Secret)"},
		{name: "second-file", ref: "defs.yaml#/Secret",
			files: map[string]string{"defs.yaml": "Secret: {$ref: \"../secret.yaml#/Secret\"}\n"},
			at:    "defs.yaml:1:10 (#/Secret)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			writeFiles(t, api, c.files)
			spec := filepath.Join(api, "spec.yaml")
			writeFiles(t, api, map[string]string{"spec.yaml": strings.Replace(refSpec, "REF", c.ref, 1)})
			_, _, err := openapi.Load(context.Background(), spec, openapi.Options{})
			var re *openapi.RootError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v, want a *RootError", err)
			}
			if re.Link != c.link {
				t.Errorf("RootError.Link = %v, want %v", re.Link, c.link)
			}
			msg := err.Error()
			wantRef := c.ref
			if c.name == "second-file" {
				wantRef = "../secret.yaml#/Secret"
			}
			for _, want := range []string{
				filepath.ToSlash(api) + "/" + c.at + `: cannot resolve $ref "` + wantRef + `"`,
				"outside the root directory " + `"` + filepath.ToSlash(api) + `"`,
			} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q\ndoes not contain %q", msg, want)
				}
			}
			if strings.Contains(msg, "TOP-SECRET") {
				t.Errorf("the secret leaked into the error: %s", msg)
			}

			// Widened to the parent directory, the root holds the file.
			svc, _, err := openapi.Load(context.Background(), spec, openapi.Options{Root: dir})
			if err != nil {
				t.Fatalf("with Root %s: %v", dir, err)
			}
			if got := typ(t, svc, "Secret").Doc.Description; got != "TOP-SECRET" {
				t.Errorf("with the wider root, Secret's description = %q", got)
			}
		})
	}
}

// TestRootDocumentOutside checks that Load refuses a document that is
// itself outside Options.Root, and that LoadData's default root is the
// directory of its source.
func TestRootDocumentOutside(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/spec.yaml": strings.Replace(refSpec, "REF", "defs.yaml#/Secret", 1),
		"a/defs.yaml": secretFile,
		"b/keep":      "",
	})
	spec := filepath.Join(dir, "a", "spec.yaml")
	_, _, err := openapi.Load(context.Background(), spec, openapi.Options{Root: filepath.Join(dir, "b")})
	var re *openapi.RootError
	if !errors.As(err, &re) || re.Path != filepath.ToSlash(spec) {
		t.Fatalf("err = %v, want a *RootError for %s", err, spec)
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	svc, _, err := openapi.LoadData(context.Background(), data, spec, openapi.Options{Read: func(f string) { read = append(read, f) }})
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "description", typ(t, svc, "Secret").Doc.Description, "TOP-SECRET")
	equalSlice(t, "files read", read, []string{filepath.ToSlash(filepath.Join(dir, "a", "defs.yaml"))})
}

// TestRootSwaggerParameter checks the Swagger 2.0 path, which reads the
// files of external parameters itself: they stay inside the root too.
func TestRootSwaggerParameter(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"params.yaml": "limit: {name: limit, in: query, type: integer, description: TOP-SECRET}\n",
		"api/swagger.yaml": `swagger: "2.0"
info: {title: s, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      parameters: [{$ref: "../params.yaml#/limit"}]
      responses: {"204": {description: none}}
`,
	})
	spec := filepath.Join(dir, "api", "swagger.yaml")
	_, _, err := openapi.Load(context.Background(), spec, openapi.Options{})
	var re *openapi.RootError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), filepath.ToSlash(spec)+`:7:21 (#/paths/~1a/get/parameters/0): cannot resolve $ref "../params.yaml#/limit"`) {
		t.Fatalf("err = %v, want a *RootError placed at the $ref", err)
	}
	svc, _, err := openapi.Load(context.Background(), spec, openapi.Options{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	p := op(t, svc, "getA").Params
	if len(p) != 1 || ts(p[0].Type) != "int" || p[0].Doc.Description != "TOP-SECRET" {
		t.Errorf("params = %+v", p)
	}
}

// TestRootSpecialFiles checks that a $ref to something other than a
// regular file (a named pipe, which would block a read forever) is refused
// even inside the root.
func TestRootSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	writeFiles(t, dir, map[string]string{"spec.yaml": strings.Replace(refSpec, "REF", "pipe.yaml#/Secret", 1)})
	_, _, err := openapi.Load(context.Background(), filepath.Join(dir, "spec.yaml"), openapi.Options{})
	if err == nil || !strings.Contains(err.Error(), `cannot resolve $ref "pipe.yaml#/Secret"`) || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err = %v, want a refusal of the pipe", err)
	}
}
