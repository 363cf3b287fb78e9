package generator

import (
	"bytes"
	"encoding/json"
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
		found, ok := jsonRefs(data)
		if !ok {
			var doc yaml.Node
			if yaml.Unmarshal(data, &doc) != nil {
				return nil
			}
			found = refs(&doc)
		}
		for _, ref := range found {
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

// jsonRefs is refs for a JSON document, without a YAML parse (which takes
// seconds on a large spec): in valid JSON, the text "$ref" followed by a
// quote can only be a key, so a search for it finds every one. ok is false
// when data is not valid JSON.
func jsonRefs(data []byte) (out []string, ok bool) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return nil, false
	}
	key := []byte(`"$ref"`)
	for i := bytes.Index(data, key); i >= 0; {
		rest := bytes.TrimLeft(data[i+len(key):], " \t\r\n")
		if len(rest) > 0 && rest[0] == ':' {
			rest = bytes.TrimLeft(rest[1:], " \t\r\n")
			if end := stringEnd(rest); end > 0 {
				var v string
				if json.Unmarshal(rest[:end], &v) == nil {
					out = append(out, v)
				}
			}
		}
		next := bytes.Index(data[i+len(key):], key)
		if next < 0 {
			break
		}
		i += len(key) + next
	}
	return out, true
}

// stringEnd returns the length of the JSON string at the start of b, or 0.
func stringEnd(b []byte) int {
	if len(b) == 0 || b[0] != '"' {
		return 0
	}
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return 0
}
