package tooldirective

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// consumerMain uses the generated package, so that building the consumer
// type-checks the client's API and not only its declarations.
const consumerMain = `package main

import (
	"context"
	"fmt"

	"example.com/consumer/petstore"
	"github.com/opsgen/opsgen/runtime"
)

func main() {
	c := petstore.NewClient(petstore.WithBaseURL("http://127.0.0.1:1"))
	env, err := c.ListPets(context.Background(), petstore.ListPetsParams{})
	fmt.Println(len(runtime.Unwrap(env)), err != nil)
}
`

// TestToolDirective walks through the workflow of cmd/opsgen's manual in a
// temporary consumer module whose go.mod replaces opsgen with this
// repository: go get -tool, go tool opsgen version, go tool opsgen init,
// go generate ./..., go build and go vet of the result, go tool opsgen
// check (exit 0), and check again after a hand edit (exit 1).
//
// It runs the go command many times (building opsgen for the consumer), so
// -short skips it; make test runs it.
//
// The consumer resolves modules from the module cache only (GOPROXY=off):
// go get asks whether github.com/opsgen/opsgen/cmd/opsgen is a module of its
// own, which a proxy answers with an error for an unpublished module path,
// whereas the cache's answer is "no such module". The cache is filled first
// by listing cmd/opsgen's dependencies in this repository (the ordinary
// proxy) and loading its whole module graph, and the repository's go.sum is
// copied into the consumer.
func TestToolDirective(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped under -short: builds opsgen and a consumer module with the go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	goflags := strings.TrimSpace(run(t, root, nil, "go", "env", "GOFLAGS"))
	// The consumer's go get loads the whole module graph (go.mod files of
	// modules no package comes from, such as test-only requirements of older
	// modules) and builds cmd/opsgen (their sources): fetch both.
	run(t, root, nil, "go", "list", "-m", "all")
	run(t, root, nil, "go", "list", "-deps", "./cmd/opsgen")

	dir := t.TempDir()
	env := []string{
		"GOFLAGS=" + strings.TrimSpace(goflags+" -mod=mod"),
		"GOPROXY=off",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	}
	goMod := "module example.com/consumer\n\ngo 1.25.0\n\n" +
		"require github.com/opsgen/opsgen v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/opsgen/opsgen => " + filepath.ToSlash(root) + "\n"
	write(t, filepath.Join(dir, "go.mod"), goMod)
	write(t, filepath.Join(dir, "go.sum"), read(t, filepath.Join(root, "go.sum")))

	run(t, dir, env, "go", "get", "-tool", "github.com/opsgen/opsgen/cmd/opsgen")
	if mod := read(t, filepath.Join(dir, "go.mod")); !strings.Contains(mod, "\ntool github.com/opsgen/opsgen/cmd/opsgen\n") {
		t.Fatalf("go.mod has no tool directive:\n%s", mod)
	}
	if out := run(t, dir, env, "go", "tool", "opsgen", "version"); out != "opsgen devel\n" {
		t.Errorf("go tool opsgen version = %q, want the replacement directory's version, devel", out)
	}

	pkg := filepath.Join(dir, "petstore")
	for _, name := range []string{"petstore.yaml", "pet.yaml"} {
		write(t, filepath.Join(pkg, name), read(t, filepath.Join(root, "testdata", "specs", "cli", name)))
	}
	run(t, dir, env, "go", "tool", "opsgen", "init", "-dir", "petstore", "-openapi", "petstore.yaml")
	write(t, filepath.Join(dir, "main.go"), consumerMain)
	run(t, dir, env, "go", "generate", "./...")
	for _, name := range []string{"client.go", "operations.go", "types.go", ".opsgen.json", "opsgen.schema.json"} {
		if _, err := os.Stat(filepath.Join(pkg, name)); err != nil {
			t.Errorf("after go generate: %v", err)
		}
	}
	run(t, dir, env, "go", "build", "./...")
	run(t, dir, env, "go", "vet", "./...")

	check := exec.Command("go", "tool", "opsgen", "check", "-config", "petstore/opsgen.yaml")
	if out, code := exitCode(t, dir, env, check); code != 0 {
		t.Fatalf("check after go generate: exit %d\n%s", code, out)
	}

	types := filepath.Join(pkg, "types.go")
	write(t, types, strings.Replace(read(t, types), "package petstore", "package petstore // edited", 1))
	check = exec.Command("go", "tool", "opsgen", "check", "-config", "petstore/opsgen.yaml")
	out, code := exitCode(t, dir, env, check)
	if code != 1 || !strings.Contains(out, "types.go: hand-edited") || !strings.Contains(out, "run: opsgen generate -config petstore/opsgen.yaml") {
		t.Errorf("check after a hand edit: exit %d, want 1 naming types.go and the fix\n%s", code, out)
	}
}

// run runs a command in dir with env added to the environment and returns
// its standard output; a failure fails the test.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// exitCode runs cmd in dir and returns its combined output and exit code.
func exitCode(t *testing.T, dir string, env []string, cmd *exec.Cmd) (string, int) {
	t.Helper()
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s: %v", strings.Join(cmd.Args, " "), err)
		}
	}
	return string(out), cmd.ProcessState.ExitCode()
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
