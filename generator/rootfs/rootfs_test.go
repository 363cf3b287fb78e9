package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

// TestReadFile builds a root with files, links and a FIFO in a temporary
// directory and checks what ReadFile reads and refuses.
func TestReadFile(t *testing.T) {
	tmp := t.TempDir()
	root := filepath.Join(tmp, "root")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "sub", "in.json"), "inside")
	write(filepath.Join(tmp, "secret.json"), "secret")
	write(filepath.Join(root, "big.json"), strings.Repeat("x", 100))
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	link("../secret.json", "out-relative.json")
	link(filepath.Join(tmp, "secret.json"), "out-absolute.json")
	link(filepath.Join(root, "sub", "in.json"), "in-absolute.json")
	link("sub/in.json", "in-relative.json")
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.json"), 0o600); err != nil {
		t.Fatal(err)
	}

	d := New(root, 64)
	defer d.Close()
	for _, name := range []string{"sub/in.json", "in-absolute.json", "in-relative.json"} {
		if got, err := d.ReadFile(filepath.Join(root, name)); err != nil || string(got) != "inside" {
			t.Errorf("%s: %q, %v; want the file inside the root", name, got, err)
		}
	}
	for name, link := range map[string]bool{
		filepath.Join(root, "..", "secret.json"):              false,
		filepath.Join(tmp, "secret.json"):                     false,
		filepath.Join(root, "out-relative.json"):              true,
		filepath.Join(root, "out-absolute.json"):              true,
		filepath.Join(root, "sub", "..", "..", "secret.json"): false,
	} {
		var re *RootError
		if got, err := d.ReadFile(name); !errors.As(err, &re) || re.Link != link {
			t.Errorf("%s: %q, %v; want a *RootError with Link %v", name, got, err, link)
		} else if !strings.Contains(err.Error(), "outside the root directory") {
			t.Errorf("%s: message %q", name, err)
		}
	}
	if _, err := d.ReadFile(filepath.Join(root, "fifo.json")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
	}
	if _, err := d.ReadFile(root); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
	var tl *TooLargeError
	if _, err := d.ReadFile(filepath.Join(root, "big.json")); !errors.As(err, &tl) || tl.Size != 100 || tl.Limit != 64 {
		t.Errorf("over the limit: %v, want a *TooLargeError", err)
	}
	if _, err := d.ReadFile(filepath.Join(root, "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want fs.ErrNotExist", err)
	}
	d.Close()
	if _, err := d.ReadFile(filepath.Join(root, "sub", "in.json")); err == nil {
		t.Error("read after Close succeeded")
	}
}

// TestReadAllSize checks that readAll returns the whole text whatever the
// size it was told (a file that grew or shrank since it was measured).
func TestReadAllSize(t *testing.T) {
	text := strings.Repeat("0123456789", 1000)
	for _, size := range []int64{0, 3, 511, 512, 513, 9999, 10000, 10001, 50000} {
		got, err := readAll(iotest.OneByteReader(strings.NewReader(text)), size)
		if err != nil || string(got) != text {
			t.Errorf("size %d: %d bytes, %v; want the %d bytes", size, len(got), err, len(text))
		}
	}
}
