package openapi_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/generator/openapi"
	"github.com/opsgen/opsgen/internal/testdeps"
)

// githubSpecPath is GitHub's REST description (version 1.1.4, 3.7 MB of
// JSON) in the shared specs beside the repository; t is skipped without it.
func githubSpecPath(t testing.TB) string {
	t.Helper()
	return testdeps.Shared(t, "specs/github-v1.1.4.json")
}

// TestLoadStopsOnDeadline checks that a deadline reaches the loader: on
// GitHub's description, a load whose deadline passes early returns the
// context's error well before a full load would have finished, and an
// already cancelled context stops it before anything is read.
func TestLoadStopsOnDeadline(t *testing.T) {
	githubSpec := githubSpecPath(t)
	start := time.Now()
	if _, _, err := openapi.Load(context.Background(), githubSpec, openapi.Options{}); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)

	// On a busy machine one attempt can be slowed down: the load must stop
	// early in one of three.
	var took time.Duration
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), full/10)
		start = time.Now()
		svc, _, err := openapi.Load(ctx, githubSpec, openapi.Options{})
		took = time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || svc != nil {
			t.Fatalf("Load with a deadline of %v: err = %v, want context.DeadlineExceeded", full/10, err)
		}
		if !strings.Contains(err.Error(), githubSpec+": loading stopped") {
			t.Errorf("err = %v, want it to name the document", err)
		}
		if took <= full*3/4 {
			break
		}
	}
	if took > full*3/4 {
		t.Errorf("Load took %v after a deadline of %v; a full load takes %v", took, full/10, full)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	read := 0
	if _, _, err := openapi.Load(ctx, githubSpec, openapi.Options{Read: func(string) { read++ }}); !errors.Is(err, context.Canceled) || read != 0 {
		t.Errorf("Load with a cancelled context: err = %v after reading %d files", err, read)
	}
}

// TestLoadStopsBetweenDocuments cancels the load when its second document
// is read: the load must stop with the context's error, not finish.
func TestLoadStopsBetweenDocuments(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"spec.yaml": strings.Replace(refSpec, "REF", "defs.yaml#/Secret", 1),
		"defs.yaml": secretFile,
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var read []string
	svc, _, err := openapi.Load(ctx, filepath.Join(dir, "spec.yaml"), openapi.Options{Read: func(f string) {
		read = append(read, filepath.Base(f))
		if strings.HasSuffix(f, "defs.yaml") {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || svc != nil {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	equalSlice(t, "files read", read, []string{"spec.yaml", "defs.yaml"})
}
