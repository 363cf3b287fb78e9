package openapi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// yamlTree converts a YAML document to the tree parseTree gives for JSON
// (map[string]any, []any, string, json.Number, bool, nil), so that one
// decoder (decode.go) builds both. Keys are their text, merge keys ("<<")
// are applied, aliases followed; scalars keep their text unless YAML
// types them as numbers, booleans or null.
func yamlTree(data []byte) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	c := &yamlConv{}
	return c.value(doc.Content[0], doc.Content[0], 0)
}

// yamlConv converts a YAML tree, counting the nodes made and those made by
// following aliases, to refuse what yaml.v3 refuses when it decodes: a
// "billion laughs" document, whose aliases multiply into an endless tree.
type yamlConv struct {
	nodes, aliased, aliasDepth int
}

// count counts a node made, and fails as yaml.v3 does (its ratio of
// aliased nodes allowed, by document size).
func (c *yamlConv) count(n *yaml.Node) error {
	c.nodes++
	if c.aliasDepth > 0 {
		c.aliased++
	}
	allowed := 0.99
	switch {
	case c.nodes >= 4000000:
		allowed = 0.10
	case c.nodes > 400000:
		allowed = 0.99 - 0.89*float64(c.nodes-400000)/3600000
	}
	if c.aliased > 100 && c.nodes > 1000 && float64(c.aliased)/float64(c.nodes) > allowed {
		return fmt.Errorf("yaml: line %d: document contains excessive aliasing", n.Line)
	}
	return nil
}

// originKey holds, in each mapping of a YAML tree, the position of the
// key the mapping is the value of (of the mapping itself in a sequence or
// at the top): what kin-openapi's Origin.Key records, and what the
// decoder copies into the Origin of the objects that have one. The
// decoder never takes it for a member.
const originKey = "__origin__"

// yamlPos is a line and column (in characters) in a YAML text.
type yamlPos struct{ line, col int }

// origin returns the Origin of the tree value v (an originKey member).
func origin(v any) *openapi3.Origin {
	p, ok := v.(yamlPos)
	if !ok {
		return nil
	}
	return &openapi3.Origin{Key: &openapi3.Location{Line: p.line, Column: p.col}}
}

// maxYAMLDepth bounds nesting, aliases included (a "billion laughs"
// document expands without end).
const maxYAMLDepth = 10000

// value converts n, the value of key (or n itself).
func (c *yamlConv) value(n, key *yaml.Node, depth int) (any, error) {
	if err := c.count(n); err != nil {
		return nil, err
	}
	if depth > maxYAMLDepth {
		return nil, fmt.Errorf("line %d: nested too deeply", n.Line)
	}
	switch n.Kind {
	case yaml.AliasNode:
		c.aliasDepth++
		defer func() { c.aliasDepth-- }()
		return c.value(n.Alias, key, depth+1)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, e := range n.Content {
			v, err := c.value(e, e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2+1)
		out[originKey] = yamlPos{key.Line, key.Column}
		if err := c.merge(out, n, depth); err != nil {
			return nil, err
		}
		return out, nil
	}
	return yamlScalar(n), nil
}

// merge adds the members of mapping n to out; merged mappings ("<<")
// do not override the keys written in n.
func (c *yamlConv) merge(out map[string]any, n *yaml.Node, depth int) error {
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		val, err := c.value(v, k, depth+1)
		if err != nil {
			return err
		}
		out[k.Value] = val
	}
	for _, m := range merges {
		for m.Kind == yaml.AliasNode {
			m = m.Alias
		}
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			for src.Kind == yaml.AliasNode {
				src = src.Alias
			}
			if src.Kind != yaml.MappingNode {
				return fmt.Errorf("line %d: a merge key needs a mapping", m.Line)
			}
			extra := map[string]any{}
			c.aliasDepth++ // merged content counts as aliased
			err := c.merge(extra, src, depth+1)
			c.aliasDepth--
			if err != nil {
				return err
			}
			for k, v := range extra {
				if _, ok := out[k]; !ok && k != originKey {
					out[k] = v
				}
			}
		}
	}
	return nil
}

// yamlScalar converts a scalar by its resolved tag.
func yamlScalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		var u uint64
		if n.Decode(&u) == nil {
			return json.Number(strconv.FormatUint(u, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return n.Value
}
