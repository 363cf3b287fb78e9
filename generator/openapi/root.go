package openapi

import (
	"cmp"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/rootfs"
)

// Local files are read inside a root directory (Options.Root) by
// generator/rootfs.

// RootError says that a local file the loader was asked to read lies
// outside the allowed root directory.
type RootError = rootfs.RootError

// files reads the local files of one load inside the root and records the
// files read, for Options.Read. Its methods are safe for concurrent use.
type files struct {
	dir    *rootfs.Dir
	onRead func(string)

	mu   sync.Mutex
	seen map[string]bool

	// failed is the first file that could not be read, and why.
	failed   string
	failure  error
	warned   map[string]bool
	warnings diag.List
}

// newFiles returns the reader of a load of the document at source (a slash
// path) with opts.
func newFiles(source string, opts Options) *files {
	dir := cmp.Or(opts.Root, filepath.Dir(filepath.FromSlash(source)))
	return &files{dir: rootfs.New(dir, opts.maxBytes()), onRead: opts.Read, seen: map[string]bool{}, warned: map[string]bool{}}
}

// close releases the root.
func (f *files) close() { f.dir.Close() }

// read reads the local file name (a slash path) inside the root.
func (f *files) read(name string) ([]byte, error) {
	data, err := f.dir.ReadFile(name) // nil on error
	if err == nil {
		f.record(name)
	}
	return data, err
}

// lenient returns the data of the file name, read for kin-openapi, with the
// annotations of the wrong JSON type disabled (lenient.go), and records
// their warnings once per file.
func (f *files) lenient(name string, data []byte, swagger bool) []byte {
	patched, ws, ok := dropAnnotations(data, name, swagger, true)
	if !ok {
		return data
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.warned[name] {
		f.warned[name] = true
		f.warnings = append(f.warnings, ws...)
	}
	return patched
}

// failRead records a file that could not be read (the first one).
func (f *files) failRead(name string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed == "" {
		f.failed, f.failure = name, err
	}
}

// failedRead returns the first file that could not be read and why, or "".
func (f *files) failedRead() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed, f.failure
}

// takeWarnings returns the warnings of the lenient reads so far, once.
func (f *files) takeWarnings() diag.List {
	f.mu.Lock()
	defer f.mu.Unlock()
	ws := f.warnings
	f.warnings = nil
	return ws
}

// record notes that name (a local path or a URL) was read.
func (f *files) record(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.seen[name] {
		return
	}
	f.seen[name] = true
	if f.onRead != nil {
		f.onRead(name)
	}
}

// readFiles returns the local files read so far, sorted.
func (f *files) readFiles() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, 0, len(f.seen))
	for name := range f.seen {
		if !strings.Contains(name, "://") {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
