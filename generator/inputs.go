package generator

import (
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/config"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/output"
	"gopkg.in/yaml.v3"
)

// Inputs lists the local files a generation from cfg reads, slash-separated
// and relative to dir (the config's directory), sorted: the source document,
// the files its $refs reach (transitively) and the output schema files.
// remote reports $refs to URLs, whose content cannot be hashed.
//
// The $refs are found by reading the documents as YAML (a superset of
// JSON); a document that does not parse is listed without its references
// (the loader reports the error).
func Inputs(cfg *config.Config, dir string) (files []string, remote bool, err error) {
	seen := map[string]bool{}
	var visit func(p string, follow bool) error
	visit = func(p string, follow bool) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		files = append(files, p)
		if !follow {
			return nil
		}
		data, err := os.ReadFile(output.Resolve(dir, p))
		if err != nil {
			return err
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil {
			return nil
		}
		for _, ref := range refs(&doc) {
			if strings.Contains(ref, "://") {
				remote = true
				continue
			}
			file, _, _ := strings.Cut(ref, "#")
			if file == "" {
				continue
			}
			if unescaped, err := url.PathUnescape(file); err == nil {
				file = unescaped
			}
			target := file
			if !path.IsAbs(file) {
				target = path.Join(path.Dir(p), file)
			}
			if _, err := os.Stat(output.Resolve(dir, target)); err != nil {
				continue // the loader reports the broken reference
			}
			if err := visit(target, true); err != nil {
				return err
			}
		}
		return nil
	}
	for i := range cfg.Sources {
		src := &cfg.Sources[i]
		if err := visit(rel(dir, src.Path()), src.Kind() == ir.OpenAPI); err != nil {
			return nil, false, fmt.Errorf("reading inputs: %w", err)
		}
		for _, s := range src.OutputSchemas {
			if s.File != "" {
				visit(rel(dir, s.File), false)
			}
		}
	}
	slices.Sort(files)
	return files, remote, nil
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

// refs returns the string values of every "$ref" key in the document.
func refs(n *yaml.Node) []string {
	var out []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
					out = append(out, v.Value)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}
