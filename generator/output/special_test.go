package output

import (
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests of this file put things that are not regular files (named
// pipes, sockets, directories, symbolic links) where opsgen writes, all in
// temporary directories.

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatalf("making a named pipe: %v", err)
	}
}

// mksocket makes a unix socket at path, listening until the test ends. It
// is made in a short directory and moved to path: a socket's address is
// limited to about 100 bytes, and test directories can be longer.
func mksocket(t *testing.T, path string) {
	t.Helper()
	short, err := os.MkdirTemp("", "s")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	l, err := net.Listen("unix", filepath.Join(short, "s"))
	if err != nil {
		t.Fatalf("making a unix socket: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	if err := os.Rename(filepath.Join(short, "s"), path); err != nil {
		t.Fatal(err)
	}
}

// symlink makes a symbolic link at path pointing at target.
func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// modeType returns the type bits of path, not following a link.
func modeType(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Type()
}

// within runs f and fails the test when it does not return within 10s
// (opening a named pipe blocks until the other end opens it).
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("%s blocked", what)
		panic("unreachable")
	}
}

// obstacle is something in the way of a write, made at path in dir.
type obstacle struct {
	name string
	// kind is how the error names it.
	kind string
	make func(t *testing.T, dir, path string)
}

var obstacles = []obstacle{
	{"fifo", "a named pipe", func(t *testing.T, _, path string) { mkfifo(t, path) }},
	{"socket", "a socket", func(t *testing.T, _, path string) { mksocket(t, path) }},
	{"directory", "a directory", func(t *testing.T, _, path string) {
		if err := os.Mkdir(path, 0o755); err != nil {
			t.Fatal(err)
		}
	}},
	// A link to a generated file in the output directory itself.
	{"link inside", "a symbolic link", func(t *testing.T, dir, path string) {
		writeFile(t, filepath.Join(dir, "target.go"), Header+" inside\n")
		symlink(t, "target.go", path)
	}},
	// A link to a generated file outside the output directory.
	{"link escaping", "a symbolic link", func(t *testing.T, dir, path string) {
		writeFile(t, filepath.Join(filepath.Dir(dir), "outside.go"), Header+" outside\n")
		symlink(t, filepath.Join("..", "outside.go"), path)
	}},
	{"dangling link", "a symbolic link", func(t *testing.T, _, path string) { symlink(t, "nowhere.go", path) }},
}

// snapshot records the names, types and contents under base.
func snapshot(t *testing.T, base string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		v := d.Type().String()
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		got[rel] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestWriteRefusesWhatIsNotARegularFile: an output file's name, or the
// manifest's, taken by anything but a regular file makes Write fail with an
// error naming it and its type, and nothing changes on disk.
func TestWriteRefusesWhatIsNotARegularFile(t *testing.T) {
	for _, o := range obstacles {
		for _, at := range []string{"b.go", ManifestName} {
			t.Run(o.name+" at "+at, func(t *testing.T) {
				base := t.TempDir()
				dir := filepath.Join(base, "out")
				old := []File{gofile("a.go", "var A = 1"), gofile("b.go", "var B = 1")}
				if _, err := Write(dir, old, nil); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, at)
				os.Remove(path)
				o.make(t, dir, path)
				before := snapshot(t, base)
				files := []File{gofile("a.go", "var A = 2"), gofile("b.go", "var B = 2")}
				m, _ := NewManifest(Inputs{Version: "v1"}, files)
				werr := within(t, "Write", func() error { _, err := Write(dir, files, m); return err })
				want := path + " is " + o.kind + ", not a regular file"
				if werr == nil || !strings.Contains(werr.Error(), want) {
					t.Fatalf("err = %v, want it to contain %q", werr, want)
				}
				if after := snapshot(t, base); !mapsEqual(before, after) {
					t.Errorf("the directory changed:\nbefore %q\nafter  %q", before, after)
				}

				// check reports the same error, and neither it nor Fresh blocks.
				cerr := within(t, "Compare", func() error { _, err := Compare(dir, files, m); return err })
				if cerr == nil || !strings.Contains(cerr.Error(), want) {
					t.Errorf("Compare: err = %v, want it to contain %q", cerr, want)
				}
				if within(t, "Fresh", func() bool { return Fresh(dir, "v1", "", base) }) {
					t.Error("Fresh")
				}
			})
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestWriteLeavesIrregularLeftovers: only regular files are removed as
// leftovers, and a named pipe among them is never opened.
func TestWriteLeavesIrregularLeftovers(t *testing.T) {
	dir := t.TempDir()
	m, _ := NewManifest(Inputs{Version: "v1"}, []File{gofile("old.go", "")})
	// The manifest lists old.go, which is now a named pipe: reading it to
	// compare its hash would block.
	mkfifo(t, filepath.Join(dir, "old.go"))
	mksocket(t, filepath.Join(dir, "old.sock"))
	writeFile(t, filepath.Join(dir, ManifestName), string(m.Marshal()))
	files := []File{gofile("a.go", "")}
	m2, _ := NewManifest(Inputs{Version: "v1"}, files)
	w := within(t, "Write", func() *Written {
		w, err := Write(dir, files, m2)
		if err != nil {
			t.Error(err)
		}
		return w
	})
	if w == nil || len(w.Removed) != 0 {
		t.Errorf("written: %+v", w)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{ManifestName, "a.go", "old.go", "old.sock"}) {
		t.Errorf("dir holds %v", got)
	}
}

// TestFreshIgnoresIrregularInputs: a manifest whose inputs name a named
// pipe makes Fresh answer false rather than block.
func TestFreshIgnoresIrregularInputs(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	mkfifo(t, filepath.Join(base, "spec.yaml"))
	files := []File{gofile("a.go", "")}
	m := &Manifest{Version: "v1", Config: "c1", Inputs: map[string]string{"spec.yaml": hash(nil)},
		Outputs: map[string]string{"a.go": hash(files[0].Content)}}
	if _, err := Write(dir, files, m); err != nil {
		t.Fatal(err)
	}
	if within(t, "Fresh", func() bool { return Fresh(dir, "v1", "c1", base) }) {
		t.Error("fresh with a named pipe as input")
	}
}

// TestWriteFileThroughNamedPipe: mcp snapshot -o PIPE writes into the pipe
// (its reader gets the data) and leaves the pipe in place.
func TestWriteFileThroughNamedPipe(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "tools.json")
	mkfifo(t, pipe)
	got := make(chan string, 1)
	// read reads the pipe once and closes its end before it reports: a read
	// end still open when the next WriteFile opens the pipe would take that
	// write (the open does not wait), and the next reader would wait forever.
	read := func() {
		f, err := os.Open(pipe) // blocks until WriteFile opens the other end
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(b)
	}
	go read()
	const data = `{"tools": []}` + "\n"
	if err := within(t, "WriteFile", func() error { return WriteFile(pipe, []byte(data)) }); err != nil {
		t.Fatal(err)
	}
	if s := within(t, "reading the pipe", func() string { return <-got }); s != data {
		t.Errorf("the reader got %q, want %q", s, data)
	}
	if typ := modeType(t, pipe); typ != fs.ModeNamedPipe {
		t.Errorf("the pipe is now %v", typ)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"tools.json"}) {
		t.Errorf("dir holds %v", got)
	}

	// Through a link to the pipe, too.
	link := filepath.Join(dir, "link.json")
	symlink(t, "tools.json", link)
	go read()
	if err := within(t, "WriteFile", func() error { return WriteFile(link, []byte(data)) }); err != nil {
		t.Fatal(err)
	}
	if s := within(t, "reading the pipe", func() string { return <-got }); s != data {
		t.Errorf("through the link, the reader got %q", s)
	}
	if typ := modeType(t, link); typ != fs.ModeSymlink {
		t.Errorf("the link is now %v", typ)
	}
}

// TestWriteFileFollowsLinks: a link to a regular file is followed; the
// target is replaced, the link stays, and the permissions are kept.
func TestWriteFileFollowsLinks(t *testing.T) {
	base := t.TempDir()
	sub := filepath.Join(base, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(base, "real.json")
	writeFile(t, target, "old\n")
	if err := os.Chmod(target, 0o600); err != nil {
		t.Fatal(err)
	}
	// A relative link in another directory: resolved from the link's directory.
	link := filepath.Join(sub, "tools.json")
	symlink(t, filepath.Join("..", "real.json"), link)
	if err := WriteFile(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, target); got != "new\n" {
		t.Errorf("target = %q", got)
	}
	if typ := modeType(t, link); typ != fs.ModeSymlink {
		t.Errorf("the link is now %v", typ)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("target's mode: %v, %v", fi.Mode(), err)
	}
	if got := listDir(t, sub); !slices.Equal(got, []string{"tools.json"}) {
		t.Errorf("link's dir holds %v", got)
	}
	if got := listDir(t, base); !slices.Equal(got, []string{"real.json", "sub"}) {
		t.Errorf("target's dir holds %v (temporary files left?)", got)
	}
}

// TestWriteFileRefuses: a directory, a socket and a link to nothing are
// refused with an error saying what they are, and left as they were.
func TestWriteFileRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		make       func(t *testing.T, path string)
	}{
		{"directory", "is a directory; not writing to it", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"socket", "is a socket; not writing to it", func(t *testing.T, path string) { mksocket(t, path) }},
		{"dangling link", "is a symbolic link to a missing file", func(t *testing.T, path string) { symlink(t, "nowhere.json", path) }},
		{"link to a directory", "is a directory; not writing to it", func(t *testing.T, path string) {
			symlink(t, filepath.Dir(path), path)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			path := filepath.Join(base, "tools.json")
			tc.make(t, path)
			before := snapshot(t, base)
			err := WriteFile(path, []byte("{}\n"))
			if err == nil || !strings.Contains(err.Error(), path+" "+tc.want) {
				t.Fatalf("err = %v, want %q", err, path+" "+tc.want)
			}
			if after := snapshot(t, base); !mapsEqual(before, after) {
				t.Errorf("changed:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}
