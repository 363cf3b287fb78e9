package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// importPath returns the Go import path of the output directory dir: the
// module path of the go.mod in dir or above it, joined with dir's path
// below the module's directory. The error says why there is none.
func importPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		switch {
		case err == nil:
			mod := modulePathOf(data)
			if mod == "" {
				return "", fmt.Errorf("%s names no module", filepath.Join(d, "go.mod"))
			}
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", err
			}
			return path.Join(mod, filepath.ToSlash(rel)), nil
		case !errors.Is(err, os.ErrNotExist):
			return "", err
		case filepath.Dir(d) == d:
			return "", fmt.Errorf("no go.mod in %s or above it", abs)
		}
	}
}

// modulePathOf returns the module path a go.mod declares ("" for none):
// its module directive, the path possibly quoted.
func modulePathOf(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		fields := strings.Fields(line)
		if len(fields) != 2 || fields[0] != "module" {
			continue
		}
		if p, err := strconv.Unquote(fields[1]); err == nil {
			return p
		}
		return fields[1]
	}
	return ""
}
