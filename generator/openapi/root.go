package openapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/generator/diag"
)

// Local files are read inside a root directory (Options.Root), through an
// os.Root: a document cannot pull a file from elsewhere into the generated
// code with a $ref such as "../secret.yaml" or "/etc/passwd", nor through a
// symbolic link that points outside the root.

// RootError says that a local file the loader was asked to read lies
// outside the allowed root directory.
type RootError struct {
	// Path is the file as the loader resolved it.
	Path string
	// Root is the allowed root directory.
	Root string
	// Link is set when Path is inside the root but a symbolic link on the
	// way leads outside it.
	Link bool
}

func (e *RootError) Error() string {
	how := "is outside"
	if e.Link {
		how = "leads through a symbolic link outside"
	}
	return fmt.Sprintf("local file %q %s the root directory %q that local files must stay inside "+
		"(widen it with openapi.Options.Root; in opsgen, the source's root key or the -root flag)", e.Path, how, e.Root)
}

// files reads the local files of one load inside the root and records the
// files read, for Options.Read. Its methods are safe for concurrent use.
type files struct {
	dir      string // the root as given, for messages
	abs      string // the root, absolute
	maxBytes int64
	onRead   func(string)

	mu   sync.Mutex
	root *os.Root // opened on first use
	err  error    // from opening the root
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
	dir := opts.Root
	if dir == "" {
		dir = filepath.Dir(filepath.FromSlash(source))
	}
	f := &files{dir: filepath.ToSlash(dir), maxBytes: opts.maxBytes(), onRead: opts.Read, seen: map[string]bool{}}
	f.abs, f.err = filepath.Abs(dir)
	return f
}

// open opens the root; f.mu is held.
func (f *files) open() (*os.Root, error) {
	if f.root == nil && f.err == nil {
		f.root, f.err = os.OpenRoot(f.abs)
		if f.err != nil {
			f.err = fmt.Errorf("opening the root directory %q: %w", f.dir, f.err)
		}
	}
	return f.root, f.err
}

// close releases the root.
func (f *files) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root != nil {
		f.root.Close()
		f.root = nil
		f.err = errors.New("files: closed")
	}
}

// rel returns name (a slash path, relative to the working directory or
// absolute) relative to the root, or a *RootError.
func (f *files) rel(name string) (string, error) {
	abs, err := filepath.Abs(filepath.FromSlash(name))
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(f.abs, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &RootError{Path: name, Root: f.dir}
	}
	return rel, nil
}

// read reads the local file name (a slash path) inside the root.
func (f *files) read(name string) ([]byte, error) {
	rel, err := f.rel(name)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	root, err := f.open()
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	fh, err := openRegular(root, rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotRegular) {
		// os.Root refuses absolute symbolic links even when they lead
		// inside the root: such a file is opened by its real path, again
		// through the root (which would refuse a link swapped in since).
		real, lerr := f.realRel(name)
		if lerr != nil {
			return nil, lerr
		}
		if real != "" {
			fh, err = openRegular(root, real)
		}
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if f.maxBytes > 0 && fi.Size() > f.maxBytes {
		return nil, tooLarge(name, fi.Size(), f.maxBytes)
	}
	var r io.Reader = fh
	if f.maxBytes > 0 {
		r = io.LimitReader(fh, f.maxBytes+1) // a file that grows meanwhile
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if f.maxBytes > 0 && int64(len(data)) > f.maxBytes {
		return nil, tooLarge(name, int64(len(data)), f.maxBytes)
	}
	f.record(name)
	return data, nil
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
		if f.warned == nil {
			f.warned = map[string]bool{}
		}
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

// errNotRegular refuses a device, a pipe or a directory: opening or
// reading one could block or never end.
var errNotRegular = errors.New("not a regular file")

// openRegular opens rel inside root if it is a regular file.
func openRegular(root *os.Root, rel string) (*os.File, error) {
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	fh, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() { // replaced meanwhile
		fh.Close()
		return nil, errNotRegular
	}
	return fh, nil
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

// realRel resolves the symbolic links of name and returns its real path
// relative to the root's real path, or a *RootError when that is outside
// the root; "" when the links cannot be resolved.
func (f *files) realRel(name string) (string, error) {
	real, err := filepath.EvalSymlinks(filepath.FromSlash(name))
	if err != nil {
		return "", nil
	}
	realRoot, err := filepath.EvalSymlinks(f.abs)
	if err != nil {
		return "", nil
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return "", nil
	}
	rel, err := filepath.Rel(realRoot, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", &RootError{Path: name, Root: f.dir, Link: true}
	}
	return rel, nil
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
