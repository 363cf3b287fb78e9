package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// Annotations of the wrong JSON type.
//
// A keyword that only annotates or documents, written with the wrong JSON
// type (a schema "pattern" that is a number, an "examples" that is an
// object where a list belongs, a "description" that is a list...), does not
// change the generated code's types, so it does not cost the document: it
// is ignored with a warning naming its place. In the document, the decoder
// does so (decode.go's wrong); in the files its $refs reach, which
// kin-openapi decodes, and in Swagger 2.0 documents (openapi2conv), the
// text is patched before it is decoded (dropAnnotations). The keywords
// (see annotationKind):
//
//   - description, summary, title, $comment, termsOfService: text;
//   - pattern: text (a regular expression; nothing else can be one);
//   - deprecated: a boolean;
//   - externalDocs: an object;
//   - examples: a list in a schema, an object of Example objects elsewhere
//     (Swagger 2.0's examples are free-form and never checked).
//
// example, default values and x- extensions take any JSON value and never
// fail. A keyword is disabled by renaming its key, in place, to an x-
// extension of the same length ("pattern" becomes "x-patte"), so that
// positions do not move.

// annotationKind is the JSON kind an annotation keyword must have in a
// schema (inSchema) or in another object, 0 when it is not checked there.
func annotationKind(key string, inSchema, swagger bool) byte {
	switch key {
	case "description", "title", "$comment":
		return 's'
	case "summary", "termsOfService":
		if !inSchema {
			return 's'
		}
	case "pattern":
		if inSchema || swagger {
			return 's'
		}
	case "deprecated":
		return 'b'
	case "externalDocs":
		return 'o'
	case "examples":
		switch {
		case inSchema && !swagger:
			return 'a'
		case !inSchema && !swagger:
			return 'e' // an object of objects
		}
	}
	return 0
}

// kindNames names the JSON kinds in warnings.
var kindNames = map[byte]string{'s': "a string", 'n': "a number", 'b': "a boolean", 'o': "an object", 'a': "a list", 'e': "an object of Example objects", 'z': "null"}

// dropAnnotations returns data with the annotation keywords of the wrong
// JSON type disabled, and a warning for each; ok is false when there are
// none. file names data in the warnings.
//
// A document (other than the one loaded) that is not an OpenAPI document
// holds fragments of unknown kinds: there, an object that looks like a
// schema (guess) is taken for one.
func dropAnnotations(data []byte, file string, swagger, guess bool) (patched []byte, warnings diag.List, ok bool) {
	root := parseAnnotated(data)
	if root == nil {
		return nil, nil, false
	}
	if guess {
		for _, k := range root.keys {
			if k.name == "openapi" || k.name == "swagger" {
				guess = false
			}
		}
	}
	w := &annotationWalker{data: data, file: file, swagger: swagger, guess: guess}
	w.object(root, "", false, 0)
	if len(w.patches) == 0 {
		return nil, nil, false
	}
	patched = append([]byte(nil), data...)
	offs := make([]int, len(w.patches))
	for i, p := range w.patches {
		copy(patched[p.off:], p.name)
		offs[i] = p.keyOff
	}
	lc := jsonptr.LineCols(data, offs)
	for _, p := range w.patches {
		p.warning.Pos.Line, p.warning.Pos.Col = lc[p.keyOff][0], lc[p.keyOff][1]
		warnings = append(warnings, p.warning)
	}
	return patched, warnings, true
}

// anode is a JSON value with the byte offsets of its object keys.
type anode struct {
	kind  byte // 'o', 'a', 's', 'n', 'b', 'z' (null), 0 (not looked into)
	keys  []akey
	items []*anode
}

type akey struct {
	name string
	off  int // of the key's first byte (its quote, when quoted)
	val  *anode
}

// parseAnnotated parses a JSON or YAML document into anodes; nil when it
// does not parse.
func parseAnnotated(data []byte) *anode {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		s := &jsonptr.Scanner{Data: data}
		s.Space()
		if n, ok := jsonNode(s, 0); ok {
			return n
		}
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	lines := []int{0}
	for i, c := range data {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return yamlNode(doc.Content[0], data, lines, 0)
}

// maxAnnotatedDepth bounds the nesting looked into.
const maxAnnotatedDepth = 10000

// jsonNode parses the JSON value at s.Off.
func jsonNode(s *jsonptr.Scanner, depth int) (*anode, bool) {
	if s.Off >= len(s.Data) || depth > maxAnnotatedDepth {
		return nil, false
	}
	switch c := s.Data[s.Off]; c {
	case '{':
		n := &anode{kind: 'o'}
		s.Off++
		s.Space()
		if s.Off < len(s.Data) && s.Data[s.Off] == '}' {
			s.Off++
			return n, true
		}
		for {
			s.Space()
			off := s.Off
			raw, ok := s.Str()
			if !ok {
				return nil, false
			}
			key := string(raw[1 : len(raw)-1])
			if bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &key) != nil {
				return nil, false
			}
			s.Space()
			if s.Off >= len(s.Data) || s.Data[s.Off] != ':' {
				return nil, false
			}
			s.Off++
			s.Space()
			v, ok := jsonNode(s, depth+1)
			if !ok {
				return nil, false
			}
			n.keys = append(n.keys, akey{key, off, v})
			if more, ok := s.Next('}'); !ok || !more {
				return n, ok
			}
		}
	case '[':
		n := &anode{kind: 'a'}
		s.Off++
		s.Space()
		if s.Off < len(s.Data) && s.Data[s.Off] == ']' {
			s.Off++
			return n, true
		}
		for {
			s.Space()
			v, ok := jsonNode(s, depth+1)
			if !ok {
				return nil, false
			}
			n.items = append(n.items, v)
			if more, ok := s.Next(']'); !ok || !more {
				return n, ok
			}
		}
	case '"':
		_, ok := s.Str()
		return &anode{kind: 's'}, ok
	case 't', 'f':
		return &anode{kind: 'b'}, s.Skip()
	case 'n':
		return &anode{kind: 'z'}, s.Skip()
	}
	return &anode{kind: 'n'}, s.Skip()
}

// yamlNode converts a YAML node; lines holds the offset of each line.
func yamlNode(n *yaml.Node, data []byte, lines []int, depth int) *anode {
	if depth > maxAnnotatedDepth {
		return &anode{}
	}
	switch n.Kind {
	case yaml.MappingNode:
		out := &anode{kind: 'o'}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Value == "<<" {
				continue
			}
			out.keys = append(out.keys, akey{k.Value, yamlOffset(data, lines, k.Line, k.Column), yamlNode(n.Content[i+1], data, lines, depth+1)})
		}
		return out
	case yaml.SequenceNode:
		out := &anode{kind: 'a'}
		for _, c := range n.Content {
			out.items = append(out.items, yamlNode(c, data, lines, depth+1))
		}
		return out
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!int", "!!float":
			return &anode{kind: 'n'}
		case "!!bool":
			return &anode{kind: 'b'}
		case "!!null":
			return &anode{kind: 'z'}
		}
		return &anode{kind: 's'}
	}
	return &anode{} // an alias: not looked into
}

// yamlOffset converts YAML's line and column (in characters) to a byte
// offset, -1 when out of range.
func yamlOffset(data []byte, lines []int, line, col int) int {
	if line < 1 || line > len(lines) {
		return -1
	}
	off := lines[line-1]
	for range col - 1 {
		if off >= len(data) {
			return -1
		}
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off
}

// annotationWalker finds the annotations of the wrong type.
type annotationWalker struct {
	data    []byte
	file    string
	swagger bool
	guess   bool
	patches []patch
}

// patch renames the key at off to name; warning says so (its line and
// column are those of keyOff, the key with its quote).
type patch struct {
	off, keyOff int
	name        string
	warning     diag.Diagnostic
}

// Keys whose value is a map of names (not keywords) to objects, outside
// schemas; their values are objects of the kind the key says.
var (
	schemaMapKeys = map[string]bool{"schemas": true, "definitions": true}
	nameMapKeys   = map[string]bool{
		"paths": true, "webhooks": true, "responses": true, "parameters": true, "requestBodies": true,
		"headers": true, "securitySchemes": true, "securityDefinitions": true, "links": true,
		"callbacks": true, "pathItems": true, "content": true, "encoding": true, "variables": true,
	}
	// Keys whose value is data, or names mapped to data, never keywords.
	dataKeys = map[string]bool{
		"example": true, "default": true, "enum": true, "const": true, "value": true, "security": true,
		"scopes": true, "mapping": true, "required": true,
	}
	// In a schema: keys holding a schema, a list of schemas, names mapped
	// to schemas.
	subSchemaKeys = map[string]bool{
		"items": true, "additionalProperties": true, "not": true, "if": true, "then": true, "else": true,
		"contains": true, "propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true,
		"additionalItems": true, "contentSchema": true,
	}
	subSchemaListKeys = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	subSchemaMapKeys  = map[string]bool{
		"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true,
	}
)

// object walks an object: a schema or another OpenAPI object.
func (w *annotationWalker) object(n *anode, ptr string, inSchema bool, depth int) {
	if n == nil || n.kind != 'o' || depth > maxAnnotatedDepth {
		return
	}
	if w.guess && !inSchema && looksLikeSchema(n) {
		inSchema = true
	}
	for _, k := range n.keys {
		if strings.HasPrefix(k.name, "x-") {
			continue
		}
		kptr := ptr + "/" + jsonptr.Escape(k.name)
		if want := annotationKind(k.name, inSchema, w.swagger); want != 0 && !hasKind(k.val, want) {
			w.disable(n, k, kptr, want)
			continue
		}
		v := k.val
		switch {
		case inSchema && subSchemaMapKeys[k.name], !inSchema && schemaMapKeys[k.name]:
			for _, c := range v.keys {
				w.object(c.val, kptr+"/"+jsonptr.Escape(c.name), true, depth+1)
			}
		case inSchema && (subSchemaKeys[k.name] || subSchemaListKeys[k.name]):
			w.object(v, kptr, true, depth+1)
			for i, c := range v.items {
				w.object(c, kptr+"/"+strconv.Itoa(i), true, depth+1)
			}
		case inSchema:
			// Another keyword of a schema: data or unknown.
		case k.name == "schema" || k.name == "itemSchema":
			w.object(v, kptr, true, depth+1)
		case dataKeys[k.name], k.name == "examples":
		case nameMapKeys[k.name] && v.kind == 'o':
			for _, c := range v.keys {
				w.object(c.val, kptr+"/"+jsonptr.Escape(c.name), false, depth+1)
			}
		default:
			w.object(v, kptr, false, depth+1)
			for i, c := range v.items {
				w.object(c, kptr+"/"+strconv.Itoa(i), false, depth+1)
			}
		}
	}
}

// hasKind reports whether n is of kind want (or null, which every field
// accepts).
func hasKind(n *anode, want byte) bool {
	switch {
	case n == nil || n.kind == 0 || n.kind == 'z':
		return true
	case want == 'e':
		if n.kind != 'o' {
			return false
		}
		for _, c := range n.keys {
			if c.val.kind != 'o' && c.val.kind != 0 && c.val.kind != 'z' {
				return false
			}
		}
		return true
	}
	return n.kind == want
}

// disable renames key k of object n to an x- extension of the same length
// and records a warning; a key that cannot be renamed in place is left.
func (w *annotationWalker) disable(n *anode, k akey, ptr string, want byte) {
	off := k.off
	if off < 0 || off >= len(w.data) || len(k.name) < 3 {
		return
	}
	if c := w.data[off]; c == '"' || c == '\'' {
		off++
	}
	if !bytes.HasPrefix(w.data[off:], []byte(k.name)) {
		return // written with escapes
	}
	name := "x-" + k.name[:len(k.name)-2]
	if slices.ContainsFunc(n.keys, func(o akey) bool { return o.name == name }) {
		return
	}
	w.patches = append(w.patches, patch{off: off, name: name, keyOff: k.off, warning: diag.Diagnostic{
		Severity: diag.Warning, Kind: diag.LeftOut, Pos: diag.Pos{File: w.file, Pointer: ptr},
		Message: fmt.Sprintf("%q is %s where %s belongs; it only annotates or documents, and is ignored", k.name, kindNames[k.val.kind], kindNames[want]),
	}})
}

// looksLikeSchema reports whether an object of unknown kind has a keyword
// only schemas have.
func looksLikeSchema(n *anode) bool {
	for _, k := range n.keys {
		switch k.name {
		case "type", "properties", "items", "allOf", "anyOf", "oneOf", "enum", "format", "additionalProperties", "$ref":
			return true
		}
	}
	return false
}
