package generator

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/ir"
)

// Inputs lists the local files a generation from cfg reads, slash-separated
// and relative to dir (the config's directory), sorted and without
// duplicates: the source document and the files its $refs reach, which
// loaded lists as the OpenAPI loader read them (openapi.Options.Read: paths
// relative to the working directory or absolute, and URLs), the MCP
// listing, and the output schema files. remote reports that the loader read
// URLs, whose content cannot be hashed.
func Inputs(cfg *config.Config, dir string, loaded []string) (files []string, remote bool) {
	for _, f := range loaded {
		if strings.Contains(f, "://") {
			remote = true
			continue
		}
		files = append(files, relTo(dir, f))
	}
	for i := range cfg.Sources {
		src := &cfg.Sources[i]
		if src.Kind() == ir.MCP {
			files = append(files, rel(dir, src.Path()))
		}
		for _, s := range src.OutputSchemas {
			if s.File != "" {
				files = append(files, rel(dir, s.File))
			}
		}
	}
	slices.Sort(files)
	return slices.Compact(files), remote
}

// relTo returns p (a path relative to the working directory, or absolute)
// as a clean slash path relative to dir when it can be.
func relTo(dir, p string) string {
	absDir, err1 := filepath.Abs(dir)
	absP, err2 := filepath.Abs(filepath.FromSlash(p))
	if err1 == nil && err2 == nil {
		if r, err := filepath.Rel(absDir, absP); err == nil {
			return filepath.ToSlash(r)
		}
	}
	return path.Clean(filepath.ToSlash(p))
}

// rel returns p (relative to dir, or absolute) as a clean slash path
// relative to dir when it can be.
func rel(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		if absDir, err := filepath.Abs(dir); err == nil {
			if r, err := filepath.Rel(absDir, p); err == nil {
				p = r
			}
		}
	}
	return path.Clean(filepath.ToSlash(p))
}
