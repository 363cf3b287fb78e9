// Package rootfs reads the generator's local input files inside a root
// directory, through an os.Root: a document cannot pull a file from
// elsewhere into the generated code with a $ref such as "../secret.yaml"
// or "/etc/passwd", nor through a symbolic link that points outside the
// root; and a device, a pipe or a directory is never opened (reading one
// could block or never end).
package rootfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// RootError says that a local file lies outside the allowed root directory.
type RootError struct {
	// Path is the file as it was asked for.
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
		"(widen it with the source's root key or the -root flag; in Go, openapi.Options.Root)", e.Path, how, e.Root)
}

// ErrNotRegular refuses a device, a pipe, a socket or a directory.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError says that a file is over the size limit.
type TooLargeError struct {
	Path        string
	Size, Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: the document is %d bytes, over the limit of %d bytes (openapi.Options.MaxBytes)", e.Path, e.Size, e.Limit)
}

// Dir reads files inside one root directory. Its methods are safe for
// concurrent use; Close releases it.
type Dir struct {
	dir      string // the root as given, for messages
	abs      string // the root, absolute
	maxBytes int64

	mu   sync.Mutex
	root *os.Root // opened on first use
	err  error    // from opening the root
}

// New returns a reader of the files inside dir; files larger than maxBytes
// are refused (0 or less: no limit). The directory is opened on first use.
func New(dir string, maxBytes int64) *Dir {
	d := &Dir{dir: filepath.ToSlash(dir), maxBytes: maxBytes}
	d.abs, d.err = filepath.Abs(dir)
	return d
}

// Close releases the root; later reads fail.
func (d *Dir) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root != nil {
		d.root.Close()
		d.root = nil
	}
	d.err = errors.New("rootfs: closed")
}

// open opens the root; d.mu is held.
func (d *Dir) open() (*os.Root, error) {
	if d.root == nil && d.err == nil {
		d.root, d.err = os.OpenRoot(d.abs)
		if d.err != nil {
			d.err = fmt.Errorf("opening the root directory %q: %w", d.dir, d.err)
		}
	}
	return d.root, d.err
}

// rel returns name (relative to the working directory, or absolute)
// relative to the root, or a *RootError.
func (d *Dir) rel(name string) (string, error) {
	abs, err := filepath.Abs(filepath.FromSlash(name))
	if err != nil {
		return "", err
	}
	return d.inside(name, abs, d.abs, false)
}

// inside returns abs relative to root, or a *RootError naming name.
func (d *Dir) inside(name, abs, root string, link bool) (string, error) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", &RootError{Path: name, Root: d.dir, Link: link}
	}
	return rel, nil
}

// ReadFile reads the regular file name (a slash or OS path, relative to the
// working directory or absolute) if it is inside the root.
func (d *Dir) ReadFile(name string) ([]byte, error) {
	rel, err := d.rel(name)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	root, err := d.open()
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	fh, err := openRegular(root, rel)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrNotRegular) {
		// os.Root refuses absolute symbolic links even when they lead
		// inside the root: such a file is opened by its real path, again
		// through the root (which would refuse a link swapped in since).
		real, lerr := d.realRel(name)
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
	if d.maxBytes > 0 && fi.Size() > d.maxBytes {
		return nil, &TooLargeError{Path: name, Size: fi.Size(), Limit: d.maxBytes}
	}
	var r io.Reader = fh
	if d.maxBytes > 0 {
		r = io.LimitReader(fh, d.maxBytes+1) // a file that grows meanwhile
	}
	data, err := readAll(r, fi.Size())
	if err != nil {
		return nil, err
	}
	if d.maxBytes > 0 && int64(len(data)) > d.maxBytes {
		return nil, &TooLargeError{Path: name, Size: int64(len(data)), Limit: d.maxBytes}
	}
	return data, nil
}

// readAll reads r to the end into a buffer of size bytes and a little
// more, grown only if the file grew since it was measured: io.ReadAll's
// doubling allocates and copies about twice a large description's size.
func readAll(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, max(size, 0)+512)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// openRegular opens rel inside root if it is a regular file.
func openRegular(root *os.Root, rel string) (*os.File, error) {
	fi, err := root.Stat(rel)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	fh, err := root.Open(rel)
	if err != nil {
		return nil, err
	}
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() { // replaced meanwhile
		fh.Close()
		return nil, ErrNotRegular
	}
	return fh, nil
}

// realRel resolves the symbolic links of name and returns its real path
// relative to the root's real path, or a *RootError when that is outside
// the root; "" when the links cannot be resolved.
func (d *Dir) realRel(name string) (string, error) {
	real, err := filepath.EvalSymlinks(filepath.FromSlash(name))
	if err != nil {
		return "", nil
	}
	realRoot, err := filepath.EvalSymlinks(d.abs)
	if err != nil {
		return "", nil
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return "", nil
	}
	return d.inside(name, abs, realRoot, true)
}
