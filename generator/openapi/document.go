package openapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// docSource is the document being loaded: its name (a slash path), its text,
// whether the text is JSON, and the reader of the files its $refs reach.
type docSource struct {
	name  string
	data  []byte
	json  bool
	files *files
}

// openapi3 loads an OpenAPI 3 document: decode (the tree, then kin-openapi's
// types), the references pass, then kin-openapi resolves the references.
// The resolution may still be running when it returns: resolved waits for
// it and returns its error. It runs on when presolveRefs has left nothing to resolve (every
// $ref has its Value, none is a path item's, no discriminator maps to
// another file): kin-openapi's walk then only checks the document (a null
// where an object belongs, a parameter with both a schema and content...)
// and writes nothing but its own state and the examples of media types,
// which the declarations of the component schemas do not read. On
// GitHub's description they overlap the walk's 20 ms. Before anything else
// reads the document, resolved must be called.
func (s *docSource) openapi3(ctx context.Context, opts Options) (doc *openapi3.T, warnings diag.List, resolved func() error, err error) {
	doc, tree, decs, err := s.decode()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := stopped(ctx, s.name); err != nil {
		return nil, nil, nil, err
	}
	if warnings, err = s.references(tree, decs); err != nil {
		return nil, nil, nil, err
	}
	for _, d := range decs {
		warnings = append(warnings, d.diags...)
	}
	presolveRefs(doc, decs)
	kl := newKinLoader(ctx, opts, s.files, false, s.data)
	// The document is resolved at an empty location, which kin-openapi
	// takes for the root document's (it has not loaded one); relative
	// $refs are joined to the document's own path.
	base := &url.URL{Path: s.name}
	kl.JoinFunc = func(from, rel *url.URL) *url.URL {
		if from == nil || from.Path == "" && from.Host == "" {
			from = base
		}
		u := *from
		u.Path = path.Join(path.Dir(from.Path), rel.Path)
		return &u
	}
	resolve := func() error {
		if err := kl.ResolveRefsIn(doc, &url.URL{}); err != nil {
			return s.resolveError(err)
		}
		return nil
	}
	if slices.ContainsFunc(decs, (*decoder).unresolved) {
		if err := resolve(); err != nil {
			return nil, nil, nil, err
		}
		return doc, warnings, func() error { return nil }, nil
	}
	type result struct {
		err      error
		panicked any // raised again by resolved, where it would have been
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panicked: r}
			}
		}()
		done <- result{err: resolve()}
	}()
	return doc, warnings, sync.OnceValue(func() error {
		r := <-done
		if r.panicked != nil {
			panic(r.panicked)
		}
		return r.err
	}), nil
}

// decode parses the document into a tree and decodes it. JSON is parsed
// and decoded in parts, concurrently (decodeJSON); what that leaves is
// parsed by encoding/json, and YAML by yamlTree, then decoded here, the
// large top-level members (paths, components, webhooks) concurrently.
func (s *docSource) decode() (*openapi3.T, map[string]any, []*decoder, error) {
	var tree map[string]any
	if s.json {
		if doc, tree, decs, ok := s.decodeJSON(); ok {
			if err := decodeError(s.data, s.name, decs); err != nil {
				return nil, nil, nil, err
			}
			return doc, tree, decs, nil
		}
		// Invalid JSON, or text the fast parser leaves to encoding/json.
		dec := json.NewDecoder(bytes.NewReader(s.data))
		dec.UseNumber()
		err := dec.Decode(&tree)
		if err == nil && dec.More() {
			if _, err = dec.Token(); err == nil {
				err = errors.New("data after the document")
			}
		}
		if err != nil {
			return nil, nil, nil, jsonError(s.data, s.name, err)
		}
	} else {
		v, err := yamlTree(s.data)
		if err != nil {
			return nil, nil, nil, yamlError(s.name, err)
		}
		var ok bool
		if tree, ok = v.(map[string]any); !ok {
			return nil, nil, nil, fmt.Errorf("%s:1:1: not an OpenAPI document: the top level is not a mapping", s.name)
		}
	}
	return s.decodeTree(tree)
}

// decodeTree decodes the document's tree, the large top-level members
// (paths, components, webhooks) concurrently.
func (s *docSource) decodeTree(tree map[string]any) (*openapi3.T, map[string]any, []*decoder, error) {
	keys := slices.Sorted(maps.Keys(tree))
	doc := &openapi3.T{}
	decs := make([]*decoder, 0, len(keys))
	var wg sync.WaitGroup
	for _, k := range keys {
		d := &decoder{file: s.name}
		decs = append(decs, d)
		switch k {
		case "components":
			if m, ok := tree[k].(map[string]any); ok {
				// Each of its large members in its own decoder.
				doc.Components = new(openapi3.Components)
				decs = append(decs, d.componentMembers(doc.Components, m, &wg)...)
				continue
			}
			fallthrough
		case "paths", "webhooks":
			wg.Go(func() { d.member(doc, k, tree[k]) })
		default:
			d.member(doc, k, tree[k])
		}
	}
	wg.Wait()
	if err := decodeError(s.data, s.name, decs); err != nil {
		return nil, nil, nil, err
	}
	return doc, tree, decs, nil
}

// decodeError is the error of the first of decs that has one, positioned
// in the document (data, named file); nil if none has.
func decodeError(data []byte, file string, decs []*decoder) error {
	for _, d := range decs {
		if d.errMsg != "" {
			lc := positions(data, []string{d.errPtr})[d.errPtr]
			return fmt.Errorf("%s: %s", diag.Pos{File: file, Pointer: d.errPtr, Line: lc[0], Col: lc[1]}, d.errMsg)
		}
	}
	return nil
}

// resolveError names the $ref that kin-openapi could not resolve: the one
// that leads to a file that could not be read (in the document or in a
// file read for it), or else one whose fragment is not in its file. The
// result wraps err (and the reading error).
func (s *docSource) resolveError(err error) error {
	files := append([]string{s.name}, s.files.readFiles()...)
	if failed, cause := s.files.failedRead(); failed != "" {
		for _, file := range files {
			if r, ok := s.findRef(file, func(_, target, _ string) bool { return target == failed }); ok {
				return fmt.Errorf("%s: cannot resolve $ref %q: %w", r.pos, r.ref, cause)
			}
		}
		return fmt.Errorf("%s: %w", s.name, err)
	}
	// A fragment that is not in its file.
	if r, ok := s.findRef(s.name, func(_, target, frag string) bool {
		if strings.Contains(target, "://") {
			return false
		}
		data, rerr := s.files.read(target)
		v, terr := yamlTree(data) // nil for no data
		_, found := jsonptr.Lookup(v, unescape(frag))
		return rerr == nil && terr == nil && !found
	}); ok {
		return fmt.Errorf("%s: cannot resolve $ref %q: %s has nothing at #%s", r.pos, r.ref, r.target, r.frag)
	}
	return fmt.Errorf("%s: %w", s.name, err)
}

// foundRef is a $ref found in a file's text, with its position.
type foundRef struct {
	ref, target, frag string
	pos               diag.Pos
}

// findRef returns the first $ref to another file, in file's text order,
// for which match (given the $ref, the file it points at, resolved as
// kin-openapi resolves it, and its fragment) is true.
func (s *docSource) findRef(file string, match func(ref, target, frag string) bool) (foundRef, bool) {
	var doc yaml.Node
	if yaml.Unmarshal(s.readFile(file), &doc) != nil || len(doc.Content) == 0 {
		return foundRef{}, false
	}
	var found foundRef
	var walk func(n *yaml.Node, ptr string, depth int) bool
	walk = func(n *yaml.Node, ptr string, depth int) bool {
		if depth > maxYAMLDepth {
			return false
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "$ref" && v.Kind == yaml.ScalarNode && !strings.HasPrefix(v.Value, "#") {
					target, frag, _ := strings.Cut(v.Value, "#")
					if !strings.Contains(target, "://") {
						target = refFile(target, file)
					}
					if match(v.Value, target, frag) {
						col := k.Column
						if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
							col++
						}
						found = foundRef{ref: v.Value, target: target, frag: frag, pos: diag.Pos{File: file, Line: k.Line, Col: col, Pointer: ptr}}
						return true
					}
				}
				if walk(v, ptr+"/"+jsonptr.Escape(k.Value), depth+1) {
					return true
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if walk(c, ptr+"/"+strconv.Itoa(i), depth+1) {
					return true
				}
			}
		}
		return false
	}
	return found, walk(doc.Content[0], "", 0)
}

// plainName reports whether a component name is letters, digits, '.', '_'
// and '-' only: one that reads the same in a URL fragment and a JSON
// pointer.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
