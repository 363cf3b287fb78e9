package openapi

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// The references pass.
//
// Before kin-openapi resolves the document, every local $ref the decoder
// met in a reference slot is checked against the document's tree: a $ref
// to nowhere is an error naming its place; one that points at the wrong
// kind of object (a response where a schema belongs, a parameter used as
// a schema), or at a place kin-openapi cannot follow (into a header, at a
// map of schemas), is disabled: the object is decoded without it, so every
// use degrades (an empty schema, raw JSON), with one warning per $ref.

// kindAt returns the kind of object at the JSON pointer tokens of an
// OpenAPI 3 document, as kin-openapi's resolver reaches it: kindAny for
// data (extensions, examples: any object fits), kindNone where no object a
// $ref can stand for is (a map of schemas, an operation, the info...).
// Where kin-openapi cannot follow the pointer through its types (into a
// header, through a $ref with siblings), it reads the document again
// untyped (Loader.ReadFromURIFunc serves it, see source.openapi3) and any
// object fits there too.
func kindAt(tokens []string) refKind {
	// Kinds of the places that are not reference targets themselves.
	const (
		root = 100 + iota
		components
		operation
		mediaType
		encoding
	)
	kind, mapOf, listOf := int(root), false, false
	for _, tok := range tokens {
		switch {
		case mapOf:
			mapOf = false
			continue
		case listOf:
			listOf = false
			if _, err := strconv.Atoi(tok); err != nil {
				return kindNone
			}
			continue
		}
		next, m, l := int(kindNone), false, false
		switch kind {
		case root:
			switch tok {
			case "components":
				next = components
			case "paths", "webhooks":
				next, m = int(kindPathItem), true
			case "openapi", "info", "servers", "security", "tags", "externalDocs", "jsonSchemaDialect":
			default:
				next = int(kindAny)
			}
		case components:
			m = true
			switch tok {
			case "schemas":
				next = int(kindSchema)
			case "parameters":
				next = int(kindParameter)
			case "headers":
				next = int(kindHeader)
			case "requestBodies":
				next = int(kindRequestBody)
			case "responses":
				next = int(kindResponse)
			case "securitySchemes":
				next = int(kindSecurityScheme)
			case "examples":
				next = int(kindExample)
			case "links":
				next = int(kindLink)
			case "callbacks":
				next = int(kindCallback)
			default:
				next, m = int(kindAny), false
			}
		case int(kindPathItem):
			switch tok {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace", "connect", "query":
				next = operation
			case "parameters":
				next, l = int(kindParameter), true
			case "$ref", "summary", "description", "servers", "additionalOperations":
			default:
				next = int(kindAny)
			}
		case operation:
			switch tok {
			case "parameters":
				next, l = int(kindParameter), true
			case "requestBody":
				next = int(kindRequestBody)
			case "responses":
				next, m = int(kindResponse), true
			case "callbacks":
				next, m = int(kindCallback), true
			case "tags", "summary", "description", "operationId", "deprecated", "security", "servers", "externalDocs":
			default:
				next = int(kindAny)
			}
		case int(kindCallback):
			next = int(kindPathItem)
		case int(kindParameter):
			switch tok {
			case "schema":
				next = int(kindSchema)
			case "content":
				next, m = mediaType, true
			case "examples":
				next, m = int(kindExample), true
			case "name", "in", "description", "style", "explode", "allowEmptyValue", "allowReserved", "deprecated", "required":
			default:
				next = int(kindAny)
			}
		case mediaType:
			switch tok {
			case "schema", "itemSchema":
				next = int(kindSchema)
			case "examples":
				next, m = int(kindExample), true
			case "encoding":
				next, m = encoding, true
			default:
				next = int(kindAny)
			}
		case encoding:
			switch tok {
			case "headers":
				next, m = int(kindHeader), true
			case "contentType", "style", "explode", "allowReserved":
			default:
				next = int(kindAny)
			}
		case int(kindResponse):
			switch tok {
			case "headers":
				next, m = int(kindHeader), true
			case "content":
				next, m = mediaType, true
			case "links":
				next, m = int(kindLink), true
			case "description":
			default:
				next = int(kindAny)
			}
		case int(kindRequestBody):
			switch tok {
			case "content":
				next, m = mediaType, true
			case "description", "required":
			default:
				next = int(kindAny)
			}
		case int(kindSchema):
			switch tok {
			case "properties", "patternProperties", "dependentSchemas", "$defs":
				next, m = int(kindSchema), true
			case "allOf", "anyOf", "oneOf", "prefixItems":
				next, l = int(kindSchema), true
			case "items", "not", "additionalProperties", "contains", "propertyNames", "if", "then", "else",
				"contentSchema", "unevaluatedItems", "unevaluatedProperties":
				next = int(kindSchema)
			case "type", "title", "format", "description", "required", "nullable", "readOnly", "writeOnly",
				"allowEmptyValue", "deprecated", "xml", "minimum", "maximum", "multipleOf", "minLength",
				"maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "exclusiveMinimum",
				"exclusiveMaximum", "minProperties", "maxProperties", "discriminator", "externalDocs",
				"minContains", "maxContains", "dependentRequired", "$schema", "$comment", "$id", "$anchor",
				"$dynamicRef", "$dynamicAnchor", "contentMediaType", "contentEncoding":
			default:
				// Data (example, default, enum...) or an unknown keyword
				// (kin-openapi keeps it in Extensions: "definitions").
				next = int(kindAny)
			}
		case int(kindExample):
			if tok == "value" || strings.HasPrefix(tok, "x-") {
				next = int(kindAny)
			}
		case int(kindAny):
			next = int(kindAny)
		case int(kindHeader):
			// kin-openapi cannot look into a header: it reads the
			// document again untyped (see kindAt's doc).
			next = int(kindAny)
		default:
			// A link, a security scheme: nothing inside is a target.
			if strings.HasPrefix(tok, "x-") {
				next = int(kindAny)
			}
		}
		if next == int(kindNone) {
			return kindNone
		}
		kind, mapOf, listOf = next, m, l
	}
	if mapOf || listOf || kind >= root {
		return kindNone // a map or a list of objects, or not a target
	}
	return refKind(kind)
}

// fits reports whether the value v at a place of kind at can stand where
// a $ref of kind want is: data must decode as that kind of object.
func fits(want, at refKind, v any) bool {
	m, obj := v.(map[string]any)
	switch {
	case v == nil:
		return false
	case at == want:
		_, b := v.(bool)
		return obj || b && want == kindSchema
	case at == kindAny:
		return obj && decodes(want, m)
	}
	return false
}

// lookup returns the value at the JSON pointer tokens of tree, and whether
// the way there goes through a reference object (kin-openapi cannot
// follow a pointer through its types into an object that is a $ref with
// siblings, whose value is only known once resolved).
func lookup(tree any, toks []string) (v any, found, through bool) {
	v = tree
	for _, tok := range toks {
		switch x := v.(type) {
		case map[string]any:
			if _, ok := x["$ref"].(string); ok {
				through = true
			}
			if v, found = x[tok]; !found {
				return nil, false, through
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || tok != strconv.Itoa(i) {
				return nil, false, through
			}
			v = x[i]
		default:
			return nil, false, through
		}
	}
	return v, true, through
}

// localTarget returns the JSON pointer of a local $ref ("#/a/b",
// percent-encoded or not); ok is false for a $ref to another document.
func localTarget(ref string) (ptr string, ok bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	return frag, true
}

// references runs the references pass over the document's tree and the
// $refs its decoders recorded (disabling a $ref may record more: the
// objects are decoded again). It returns the warnings, or the error for a
// $ref to nowhere.
func (s *docSource) references(tree any, decs []*decoder) (diag.List, error) {
	type group struct {
		ref  string
		uses []refUse
	}
	missing, bad := map[string]*group{}, map[string]*group{}
	var badOrder []*group
	// A document uses the same $refs many times: each is looked up once
	// per kind of slot.
	type key struct {
		ref  string
		kind refKind
	}
	type verdict struct{ found, fits bool }
	verdicts := map[key]verdict{}
	for _, d := range decs {
		for i := 0; i < len(d.refs); i++ {
			u := d.refs[i]
			ptr, ok := localTarget(u.ref)
			if !ok {
				continue
			}
			vd, seen := verdicts[key{u.ref, u.kind}]
			if !seen {
				toks := jsonptr.Tokens(ptr)
				v, found, through := lookup(tree, toks)
				at := kindAny
				if !through {
					at = kindAt(toks)
				}
				vd = verdict{found, found && fits(u.kind, at, v)}
				verdicts[key{u.ref, u.kind}] = vd
			}
			switch {
			case !vd.found:
				g := missing[u.ref]
				if g == nil {
					g = &group{ref: u.ref}
					missing[u.ref] = g
				}
				g.uses = append(g.uses, u)
			case !vd.fits:
				g := bad[u.ref]
				if g == nil {
					g = &group{ref: u.ref}
					bad[u.ref] = g
					badOrder = append(badOrder, g)
				}
				g.uses = append(g.uses, u)
				d.disable(u)
			}
		}
	}
	if len(missing) > 0 {
		var uses []refUse
		for _, g := range missing {
			uses = append(uses, g.uses...)
		}
		first, pos := s.firstUse(uses)
		return nil, fmt.Errorf("%s: cannot resolve $ref %q: the document has nothing at that place", pos, first.ref)
	}
	var ws diag.List
	for _, g := range badOrder {
		_, pos := s.firstUse(g.uses)
		ws = append(ws, diag.Diagnostic{Severity: diag.Warning, Kind: diag.UntypedRef, Pos: pos,
			Message: "$ref " + strconv.Quote(g.ref) + " points at the wrong kind of object or where it cannot be followed; " +
				"it is left out, and what it stood for is untyped (raw JSON), in " + strconv.Itoa(len(g.uses)) + " place(s)"})
	}
	return ws, nil
}

// firstUse returns the use whose $ref comes first in the source text, and
// its position: the "$ref" key's line and column (in JSON, of its first
// character after the quote), the pointer of the object holding it.
func (s *docSource) firstUse(uses []refUse) (refUse, diag.Pos) {
	type placed struct {
		u         refUse
		line, col int
	}
	ps := make([]placed, len(uses))
	ptrs := make([]string, len(uses))
	for i, u := range uses {
		ps[i].u, ptrs[i] = u, u.ptr()+"/$ref"
	}
	if pos, ok := jsonPositions(s.data, ptrs); ok && s.json {
		for i := range ps {
			p := pos[ptrs[i]]
			ps[i].line, ps[i].col = p[0], p[1]+1
		}
	} else {
		var n yaml.Node
		if yaml.Unmarshal(s.data, &n) == nil && len(n.Content) > 0 {
			for i := range ps {
				ps[i].line, ps[i].col = lookupPointer(n.Content[0], ptrs[i])
			}
		}
	}
	first := slices.MinFunc(ps, func(a, b placed) int {
		return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col), cmp.Compare(a.u.ptr(), b.u.ptr()))
	})
	return first.u, diag.Pos{File: s.name, Line: first.line, Col: first.col, Pointer: first.u.ptr()}
}
