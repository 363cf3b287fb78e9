package config

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"
)

var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const url = "opsgen.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
})

// errDepth guards the YAML to JSON conversion against alias cycles.
var errDepth = errors.New("YAML nested too deeply")

var printer = message.NewPrinter(language.English)

// validateSchema checks the YAML document against Schema and returns one
// error per failed keyword, placed at the YAML node it is about.
func validateSchema(file string, doc *yaml.Node) diag.List {
	var errs diag.List
	sch, err := compiledSchema()
	if err != nil {
		// The schema is embedded and covered by tests; this is a build defect.
		errs.Errorf(diag.Pos{File: file}, "compiling the config schema: %v", err)
		return errs
	}
	root := doc.Content[0]
	v, err := nodeValue(root, 0)
	if err != nil {
		errs.Errorf(diag.Pos{File: file, Line: root.Line, Col: root.Column}, "%v", err)
		return errs
	}
	err = sch.Validate(v)
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		if err != nil {
			errs.Errorf(diag.Pos{File: file}, "%v", err)
		}
		return errs
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		n, _ := locate(root, e.InstanceLocation)
		if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
			for _, p := range ap.Properties {
				at := n
				if k, _ := lookup(n, p); k != nil {
					at = k
				}
				errs.Errorf(pos(file, at, append(e.InstanceLocation, p)), "unknown key %q%s", p, whereItBelongs(e.InstanceLocation, p))
			}
			return
		}
		errs.Errorf(pos(file, n, e.InstanceLocation), "%s", e.ErrorKind.LocalizedString(printer))
	}
	walk(verr)
	errs.Sort()
	return errs
}

func pos(file string, n *yaml.Node, loc []string) diag.Pos {
	p := diag.Pos{File: file, Pointer: pointer(loc)}
	if n != nil {
		p.Line, p.Col = n.Line, n.Column
	}
	return p
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, t := range loc {
		b.WriteByte('/')
		b.WriteString(jsonptr.Escape(t))
	}
	return b.String()
}

// locate returns the node at the instance location, or the deepest node on
// the way when the location does not exist (a missing property).
func locate(n *yaml.Node, loc []string) (*yaml.Node, bool) {
	for _, t := range loc {
		n = deref(n)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			_, next = lookup(n, t)
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(t); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
		}
		if next == nil {
			return n, false
		}
		n = next
	}
	return n, true
}

// lookup returns the key and value nodes of key in a mapping node, or nils.
func lookup(n *yaml.Node, key string) (k, v *yaml.Node) {
	if n = deref(n); n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// nodeValue converts a YAML node to the JSON data model (map[string]any,
// []any, string, bool, int, float64, nil).
func nodeValue(n *yaml.Node, depth int) (any, error) {
	if depth > 100 {
		return nil, errDepth
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return nodeValue(n.Content[0], depth+1)
	case yaml.AliasNode:
		return nodeValue(n.Alias, depth+1)
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := nodeValue(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := nodeValue(c, depth+1)
			if err != nil {
				return nil, err
			}
			s[i] = v
		}
		return s, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool", "!!int", "!!float":
			var v any
			if err := n.Decode(&v); err != nil {
				return nil, fmt.Errorf("line %d: %v", n.Line, err)
			}
			return v, nil
		}
		// Strings, timestamps and custom tags stay text, as in JSON.
		return n.Value, nil
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

// whereItBelongs returns, for an unknown key at loc that is a key of the
// config elsewhere (a source's key at the top level, a top-level key in a
// source), where it belongs: ": types belongs to a source (sources[0].types)".
// It returns "" for a key that is nowhere in the config.
func whereItBelongs(loc []string, key string) string {
	switch {
	case len(loc) == 0 && slices.Contains(yamlKeys(reflect.TypeFor[Source]()), key):
		return fmt.Sprintf(": %s belongs to a source (sources[0].%s)", key, key)
	case len(loc) == 2 && loc[0] == "sources" && slices.Contains(yamlKeys(reflect.TypeFor[Config]()), key):
		return fmt.Sprintf(": %s belongs at the top level, not in a source", key)
	}
	return ""
}

// yamlKeys returns the keys of struct type t in a config file.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}
