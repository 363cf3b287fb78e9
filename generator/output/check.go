package output

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// MaxDiffLines bounds the diff shown for one file.
const MaxDiffLines = 200

// ProblemKind says how a file on disk differs from what generate would write.
type ProblemKind int

const (
	// Stale: the file is as generated before, but the inputs have changed.
	Stale ProblemKind = iota
	// HandEdited: the file differs from what the manifest recorded.
	HandEdited
	// Missing: the file would be written but does not exist.
	Missing
	// Leftover: a generated file that would no longer be produced.
	Leftover
)

func (k ProblemKind) String() string {
	switch k {
	case HandEdited:
		return "hand-edited"
	case Missing:
		return "missing"
	case Leftover:
		return "leftover generated file"
	}
	return "stale"
}

// Problem is one file that differs.
type Problem struct {
	// Name is the file name in the output directory.
	Name string
	Kind ProblemKind
	// Diff is a unified diff from the file on disk to the generated one,
	// at most MaxDiffLines lines after its headers.
	Diff string
}

// Report is the result of a check.
type Report struct {
	// Problems lists the differing files, sorted by name; none means current.
	Problems []Problem
	// FastPath is set when the manifest vouched for the directory, so no
	// spec was loaded.
	FastPath bool
	// ManifestOutdated is set when the files are current but the manifest
	// is not what generate would write (the next check takes the slow path).
	ManifestOutdated bool
}

// Current reports whether the directory holds what generate would write.
func (r *Report) Current() bool { return len(r.Problems) == 0 }

// Fresh reports whether dir's manifest was made by this version from this
// config, and every input and output file it records, and no other
// generated file, is on disk with the recorded content. It reads and hashes
// files but loads no spec.
func Fresh(dir, version, config, baseDir string) bool {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return false
	}
	defer root.Close()
	m := readManifest(root)
	if m == nil || m.Remote || m.Version != version || m.Config != config || len(m.Outputs) == 0 {
		return false
	}
	// The files are read and hashed concurrently: on a large spec, hashing
	// is most of check's time.
	var (
		wg    sync.WaitGroup
		stale atomic.Bool
	)
	for p, h := range m.Inputs {
		wg.Go(func() {
			data, err := readInput(Resolve(baseDir, p))
			if err != nil || hash(data) != h {
				stale.Store(true)
			}
		})
	}
	var files []File
	for name, h := range m.Outputs {
		files = append(files, File{Name: name})
		wg.Go(func() {
			data, err := readRegular(root, name)
			if err != nil || hash(data) != h {
				stale.Store(true)
			}
		})
	}
	wg.Wait()
	if stale.Load() {
		return false
	}
	left, err := leftovers(root, files, m)
	return err == nil && len(left) == 0
}

// Compare compares dir with files (and the manifest m that would be
// written with them), file by file.
func Compare(dir string, files []File, m *Manifest) (*Report, error) {
	if err := checkNames(files); err != nil {
		return nil, err
	}
	r := &Report{}
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		for _, f := range files {
			r.Problems = append(r.Problems, Problem{Name: f.Name, Kind: Missing,
				Diff: Unified("/dev/null", f.Name+" (generated)", nil, f.Content, MaxDiffLines)})
		}
		sortProblems(r.Problems)
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if err := manifestIsRegular(root, dir); err != nil {
		return nil, err
	}
	old := readManifest(root)
	for _, f := range files {
		cur, err := readRegular(root, f.Name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r.Problems = append(r.Problems, Problem{Name: f.Name, Kind: Missing,
				Diff: Unified("/dev/null", f.Name+" (generated)", nil, f.Content, MaxDiffLines)})
			continue
		case err != nil:
			return nil, pathError(dir, f.Name, err)
		case bytes.Equal(cur, f.Content):
			continue
		}
		kind := Stale
		if h := old.output(f.Name); h != "" && h != hash(cur) {
			kind = HandEdited
		}
		r.Problems = append(r.Problems, Problem{Name: f.Name, Kind: kind,
			Diff: Unified(f.Name+" (on disk)", f.Name+" (generated)", cur, f.Content, MaxDiffLines)})
	}
	left, err := leftovers(root, files, old)
	if err != nil {
		return nil, err
	}
	for _, name := range left {
		cur, err := readRegular(root, name)
		if err != nil {
			return nil, err
		}
		r.Problems = append(r.Problems, Problem{Name: name, Kind: Leftover,
			Diff: Unified(name+" (on disk)", "/dev/null", cur, nil, MaxDiffLines)})
	}
	sortProblems(r.Problems)
	if m != nil && r.Current() {
		cur, err := readRegular(root, ManifestName)
		r.ManifestOutdated = err != nil || !bytes.Equal(cur, m.Marshal())
	}
	return r, nil
}

// readInput reads an input file that a manifest lists, following links,
// when it is a regular file: a manifest naming a pipe or a device (say
// /dev/zero) must not block or exhaust Fresh.
func readInput(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &notRegularError{fi.Mode()}
	}
	return os.ReadFile(path)
}

func sortProblems(ps []Problem) {
	slices.SortFunc(ps, func(a, b Problem) int { return strings.Compare(a.Name, b.Name) })
}
