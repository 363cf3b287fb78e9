package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
// positions do not move: kin-openapi's origins in a YAML file place later
// diagnostics (a text re-encoded from the tree would have none).

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
// none. file names data in the warnings. The annotations are found in the
// tree the decoder parses (jsontree.go, yamltree.go), then their keys in
// the text by their JSON pointers.
//
// A document (other than the one loaded) that is not an OpenAPI document
// holds fragments of unknown kinds: there, an object that looks like a
// schema (guess) is taken for one.
func dropAnnotations(data []byte, file string, swagger, guess bool) (patched []byte, warnings diag.List, ok bool) {
	tree, err := parseTree(data)
	if err != nil && isJSON(data) { // text left to encoding/json
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		err = dec.Decode(&tree)
	}
	if err != nil {
		if tree, err = yamlTree(data); err != nil {
			return nil, nil, false
		}
	}
	root, _ := tree.(map[string]any)
	_, openapi := root["openapi"]
	_, swaggerKey := root["swagger"]
	w := &annotationWalker{found: map[string]diag.Diagnostic{}, file: file, swagger: swagger, guess: guess && !openapi && !swaggerKey}
	w.object(root, "", false)
	if len(w.found) == 0 {
		return nil, nil, false
	}
	ptrs := slices.Sorted(maps.Keys(w.found))
	offs, ok := jsonptr.Offsets(data, ptrs)
	if !ok || !isJSON(data) {
		offs = textOffsets(data, positions(data, ptrs))
	}
	patched = append([]byte(nil), data...)
	var keyOffs []int
	for _, ptr := range ptrs {
		// The key is renamed where it is written as it is: not with
		// escapes, nor through a YAML alias already renamed.
		off, found := offs[ptr]
		if !found || off >= len(data) || slices.Contains(keyOffs, off) {
			continue
		}
		start := off
		if c := data[off]; c == '"' || c == '\'' {
			start++
		}
		key := jsonptr.Unescape(ptr[strings.LastIndexByte(ptr, '/')+1:])
		if !bytes.HasPrefix(data[start:], []byte(key)) {
			continue
		}
		copy(patched[start:], "x-"+key[:len(key)-2])
		keyOffs = append(keyOffs, off)
		warnings = append(warnings, w.found[ptr])
	}
	lc := jsonptr.LineCols(data, keyOffs)
	for i, off := range keyOffs {
		warnings[i].Pos.Line, warnings[i].Pos.Col = lc[off][0], lc[off][1]
	}
	return patched, warnings, len(warnings) > 0
}

// textOffsets converts the lines and columns of pos to byte offsets in
// data, leaving out those not in it.
func textOffsets(data []byte, pos map[string][2]int) map[string]int {
	lines := []int{0}
	for i, c := range data {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	offs := make(map[string]int, len(pos))
	for p, lc := range pos {
		if lc[0] < 1 || lc[0] > len(lines) {
			continue
		}
		off := lines[lc[0]-1]
		for range lc[1] - 1 { // columns count characters
			if off < len(data) {
				_, size := utf8.DecodeRune(data[off:])
				off += size
			}
		}
		offs[p] = off
	}
	return offs
}

// annotationWalker finds the annotations of the wrong type in a tree:
// their warnings, without line and column.
type annotationWalker struct {
	file           string
	swagger, guess bool
	found          map[string]diag.Diagnostic // by JSON pointer
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

// object walks an object (v, at ptr): a schema or another OpenAPI object.
func (w *annotationWalker) object(v any, ptr string, inSchema bool) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	if w.guess && !inSchema && looksLikeSchema(obj) {
		inSchema = true
	}
	for key, v := range obj {
		if strings.HasPrefix(key, "x-") {
			continue
		}
		kptr := ptr + "/" + jsonptr.Escape(key)
		if want := annotationKind(key, inSchema, w.swagger); want != 0 && !hasKind(v, want) {
			if _, taken := obj["x-"+key[:len(key)-2]]; !taken {
				w.found[kptr] = diag.Diagnostic{
					Severity: diag.Warning, Kind: diag.LeftOut, Pos: diag.Pos{File: w.file, Pointer: kptr},
					Message: fmt.Sprintf("%q is %s where %s belongs; it only annotates or documents, and is ignored", key, kindNames[kindOf(v)], kindNames[want]),
				}
			}
			continue
		}
		m, _ := v.(map[string]any)
		l, _ := v.([]any)
		switch {
		case inSchema && subSchemaMapKeys[key], !inSchema && schemaMapKeys[key]:
			w.each(m, nil, kptr, true)
		case inSchema && (subSchemaKeys[key] || subSchemaListKeys[key]):
			w.object(v, kptr, true)
			w.each(nil, l, kptr, true)
		case inSchema, dataKeys[key], key == "examples":
			// Data, or another keyword of a schema.
		case key == "schema" || key == "itemSchema":
			w.object(v, kptr, true)
		case nameMapKeys[key] && m != nil:
			w.each(m, nil, kptr, false)
		default:
			w.object(v, kptr, false)
			w.each(nil, l, kptr, false)
		}
	}
}

// each walks the members of m and the elements of l, objects at ptr.
func (w *annotationWalker) each(m map[string]any, l []any, ptr string, inSchema bool) {
	for k, v := range m {
		w.object(v, ptr+"/"+jsonptr.Escape(k), inSchema)
	}
	for i, v := range l {
		w.object(v, ptr+"/"+strconv.Itoa(i), inSchema)
	}
}

// hasKind reports whether v is of kind want (or null, which every field
// accepts).
func hasKind(v any, want byte) bool {
	switch k := kindOf(v); {
	case k == 0 || k == 'z':
		return true
	case want != 'e' || k != 'o':
		return k == want
	}
	for _, e := range v.(map[string]any) {
		if !hasKind(e, 'o') {
			return false
		}
	}
	return true
}

// looksLikeSchema reports whether an object of unknown kind has a keyword
// only schemas have.
func looksLikeSchema(m map[string]any) bool {
	return slices.ContainsFunc([]string{"type", "properties", "items", "allOf", "anyOf", "oneOf", "enum", "format", "additionalProperties", "$ref"},
		func(k string) bool { _, ok := m[k]; return ok })
}
