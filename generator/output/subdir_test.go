package output

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// splitFiles are the files of a split API: a root package and two
// operation packages, one nested.
func splitFiles() []File {
	return []File{
		gofile("client.go", "var A = 1"),
		gofile("users/operations.go", "var U = 1"),
		gofile("users/calendar/operations.go", "var C = 1"),
	}
}

func manifestOf(t *testing.T, base string, files []File) *Manifest {
	t.Helper()
	m, err := NewManifest(Inputs{Version: "v1", Config: "c1", BaseDir: base}, files)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWriteSubdirectories: files of operation packages are written in
// subdirectories, recorded in the manifest, checked by Fresh and Compare;
// a regeneration without a package removes its files and its directory,
// but not a file the manifest does not record.
func TestWriteSubdirectories(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	files := splitFiles()
	m := manifestOf(t, base, files)
	w, err := Write(dir, files, m)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"client.go", "users/calendar/operations.go", "users/operations.go"}; !slices.Equal(sorted(w.Changed), want) {
		t.Errorf("changed %v, want %v", w.Changed, want)
	}
	if got := readFile(t, filepath.Join(dir, "users", "calendar", "operations.go")); got != string(files[2].Content) {
		t.Errorf("users/calendar/operations.go = %q", got)
	}
	if m.Outputs["users/calendar/operations.go"] == "" {
		t.Errorf("manifest outputs %v", m.Outputs)
	}
	if !Fresh(dir, "v1", "c1", base) {
		t.Error("not fresh after write")
	}
	if r, err := Compare(dir, files, m); err != nil || !r.Current() {
		t.Errorf("compare after write: %+v, %v", r, err)
	}
	// No temporary file is left in a subdirectory.
	if got := listDir(t, filepath.Join(dir, "users")); !slices.Equal(got, []string{"calendar", "operations.go"}) {
		t.Errorf("users holds %v", got)
	}

	// A subdirectory file edited: Fresh says no, Compare names it.
	writeFile(t, filepath.Join(dir, "users", "operations.go"), "package users // edited\n")
	if Fresh(dir, "v1", "c1", base) {
		t.Error("fresh with an edited subdirectory file")
	}
	r, err := Compare(dir, files, m)
	if err != nil || len(r.Problems) != 1 || r.Problems[0].Name != "users/operations.go" || r.Problems[0].Kind != HandEdited {
		t.Errorf("compare with an edited file: %+v, %v", r, err)
	}
	// Missing: reported as such, the directory too.
	if err := os.RemoveAll(filepath.Join(dir, "users")); err != nil {
		t.Fatal(err)
	}
	r, err = Compare(dir, files, m)
	if err != nil || len(r.Problems) != 2 || r.Problems[0].Kind != Missing || r.Problems[1].Kind != Missing {
		t.Errorf("compare without users/: %+v, %v", r, err)
	}
	if _, err := Write(dir, files, m); err != nil {
		t.Fatal(err)
	}

	// users/calendar is no longer produced: Compare calls its file a
	// leftover, Write removes it and the directory, keeps a hand-written
	// file of users/ (and users/ with it) and a file with opsgen's
	// header that the manifest does not record.
	writeFile(t, filepath.Join(dir, "users", "mine.go"), "package users\n")
	writeFile(t, filepath.Join(dir, "users", "copied.go"), Header+" elsewhere\n")
	fewer := files[:2]
	m2 := manifestOf(t, base, fewer)
	r, err = Compare(dir, fewer, m2)
	if err != nil || len(r.Problems) != 1 || r.Problems[0].Name != "users/calendar/operations.go" || r.Problems[0].Kind != Leftover {
		t.Errorf("compare with a package gone: %+v, %v", r, err)
	}
	w, err = Write(dir, fewer, m2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.Removed, []string{"users/calendar/operations.go"}) {
		t.Errorf("removed %v", w.Removed)
	}
	if got := listDir(t, filepath.Join(dir, "users")); !slices.Equal(got, []string{"copied.go", "mine.go", "operations.go"}) {
		t.Errorf("users holds %v", got)
	}
	// Every package gone: users/operations.go goes, users/ stays for the
	// user's files.
	w, err = Write(dir, files[:1], manifestOf(t, base, files[:1]))
	if err != nil || !slices.Equal(w.Removed, []string{"users/operations.go"}) {
		t.Fatalf("removed %v, %v", w, err)
	}
	if got := listDir(t, filepath.Join(dir, "users")); !slices.Equal(got, []string{"copied.go", "mine.go"}) {
		t.Errorf("users holds %v", got)
	}
	// Without user files, the emptied directories are removed.
	base2 := t.TempDir()
	if _, err := Write(base2, files, manifestOf(t, base2, files)); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(base2, files[:1], manifestOf(t, base2, files[:1])); err != nil {
		t.Fatal(err)
	}
	if got := listDir(t, base2); !slices.Equal(got, []string{ManifestName, "client.go"}) {
		t.Errorf("dir holds %v", got)
	}
}

// TestWriteSubdirectoryNotADirectory: a subdirectory on an output file's
// path that is a link (to a directory inside or outside the output
// directory) or a file makes Write and Compare fail naming it, and Write
// writes nothing, through the link or elsewhere.
func TestWriteSubdirectoryNotADirectory(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		make       func(t *testing.T, base, dir string)
	}{
		{"link outside", "a symbolic link", func(t *testing.T, base, dir string) {
			if err := os.Mkdir(filepath.Join(base, "elsewhere"), 0o755); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join("..", "elsewhere"), filepath.Join(dir, "users"))
		}},
		{"link inside", "a symbolic link", func(t *testing.T, _, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
				t.Fatal(err)
			}
			symlink(t, "real", filepath.Join(dir, "users"))
		}},
		{"file", "a regular file", func(t *testing.T, _, dir string) {
			writeFile(t, filepath.Join(dir, "users"), "not a directory\n")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "out")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.make(t, base, dir)
			before := snapshot(t, base)
			files := splitFiles()
			_, err := Write(dir, files, manifestOf(t, base, files))
			want := filepath.Join(dir, "users") + ": is " + tc.want + ", not a directory"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("write: %v, want %q", err, want)
			}
			if after := snapshot(t, base); !mapsEqual(before, after) {
				t.Errorf("write changed the tree:\nbefore %v\nafter  %v", before, after)
			}
			if _, err := Compare(dir, files, nil); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("compare: %v, want %q", err, want)
			}
		})
	}
}

// TestWriteRemovesMadeDirectoriesOnError: when Write refuses a file, the
// directories it made for the files before it are removed again.
func TestWriteRemovesMadeDirectoriesOnError(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "z.go"), "package p // mine\n")
	files := []File{gofile("a/b/c.go", ""), gofile("z.go", "")}
	if _, err := Write(dir, files, nil); err == nil || !strings.Contains(err.Error(), "not generated by opsgen") {
		t.Fatalf("err = %v", err)
	}
	if got := listDir(t, dir); !slices.Equal(got, []string{"z.go"}) {
		t.Errorf("dir holds %v", got)
	}
}

// TestLeftoversIgnoreBadManifestNames: a manifest on disk naming paths
// outside the output directory makes nothing outside it removed.
func TestLeftoversIgnoreBadManifestNames(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	outside := filepath.Join(base, "victim.go")
	writeFile(t, outside, Header+" victim\n")
	files := []File{gofile("a.go", "")}
	if _, err := Write(dir, files, manifestOf(t, base, files)); err != nil {
		t.Fatal(err)
	}
	m := manifestOf(t, base, files)
	m.Outputs["sub/../../victim.go"] = hash([]byte(Header + " victim\n"))
	writeFile(t, filepath.Join(dir, ManifestName), string(m.Marshal()))
	if _, err := Write(dir, files, manifestOf(t, base, files)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("the file outside: %v", err)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
