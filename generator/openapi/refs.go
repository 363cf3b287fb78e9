package openapi

import (
	"cmp"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

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
	at := place{kind: placeRoot}
	for _, tok := range tokens {
		switch {
		case at.mapOf:
			at.mapOf = false
			continue
		case at.listOf:
			if _, err := strconv.Atoi(tok); err != nil {
				return kindNone
			}
			at.listOf = false
			continue
		}
		m := placeMembers[at.kind]
		next, ok := m.fields[tok]
		switch {
		case ok:
		case strings.HasPrefix(tok, "x-"):
			next = place{kind: kindAny}
		default:
			next = m.other
		}
		if next.kind == kindNone {
			return kindNone
		}
		at = next
	}
	if at.mapOf || at.listOf || at.kind >= placeRoot {
		return kindNone // a map or a list of objects, or not a target
	}
	return at.kind
}

// place is a kind of place in a document: a refKind, or one of the place
// kinds below, which no $ref stands for; or a map of named such places, or
// a list of them.
type place struct {
	kind          refKind
	mapOf, listOf bool
}

// The places that are not reference targets themselves.
const (
	placeRoot refKind = 100 + iota
	placeComponents
	placeOperation
	placeMediaType
	placeEncoding
)

// members are the members of a kind of place, as kin-openapi's type has
// them: fields, and other (the place of any other member: data kept in
// Extensions, or nothing a $ref can point at; an x- member is always data).
type members struct {
	fields map[string]place
	other  place
}

// placeMembers are the members of each kind of place.
var placeMembers = func() map[refKind]members {
	var (
		none    = place{}
		data    = place{kind: kindAny}
		schema  = place{kind: kindSchema}
		schemas = place{kind: kindSchema, mapOf: true}
		op      = place{kind: placeOperation}
		list    = func(k refKind) place { return place{kind: k, listOf: true} }
		mapOf   = func(k refKind) place { return place{kind: k, mapOf: true} }
	)
	// of returns fields: the places given, then the names mapped to none.
	of := func(places map[string]place, nones ...string) map[string]place {
		for _, n := range nones {
			places[n] = none
		}
		return places
	}
	return map[refKind]members{
		placeRoot: {of(map[string]place{"components": {kind: placeComponents},
			"paths": mapOf(kindPathItem), "webhooks": mapOf(kindPathItem)},
			"openapi", "info", "servers", "security", "tags", "externalDocs", "jsonSchemaDialect"), data},
		placeComponents: {map[string]place{"schemas": schemas, "parameters": mapOf(kindParameter),
			"headers": mapOf(kindHeader), "requestBodies": mapOf(kindRequestBody),
			"responses": mapOf(kindResponse), "securitySchemes": mapOf(kindSecurityScheme),
			"examples": mapOf(kindExample), "links": mapOf(kindLink), "callbacks": mapOf(kindCallback)}, data},
		kindPathItem: {of(map[string]place{"parameters": list(kindParameter), "get": op, "put": op, "post": op,
			"delete": op, "options": op, "head": op, "patch": op, "trace": op, "connect": op, "query": op},
			"$ref", "summary", "description", "servers", "additionalOperations"), data},
		placeOperation: {of(map[string]place{"parameters": list(kindParameter), "requestBody": {kind: kindRequestBody},
			"responses": mapOf(kindResponse), "callbacks": mapOf(kindCallback)},
			"tags", "summary", "description", "operationId", "deprecated", "security", "servers", "externalDocs"), data},
		kindCallback: {nil, place{kind: kindPathItem}},
		kindParameter: {of(map[string]place{"schema": schema, "content": mapOf(placeMediaType), "examples": mapOf(kindExample)},
			"name", "in", "description", "style", "explode", "allowEmptyValue", "allowReserved", "deprecated", "required"), data},
		placeMediaType: {map[string]place{"schema": schema, "itemSchema": schema, "examples": mapOf(kindExample),
			"encoding": mapOf(placeEncoding)}, data},
		placeEncoding: {of(map[string]place{"headers": mapOf(kindHeader)}, "contentType", "style", "explode", "allowReserved"), data},
		kindResponse: {of(map[string]place{"headers": mapOf(kindHeader), "content": mapOf(placeMediaType),
			"links": mapOf(kindLink)}, "description"), data},
		kindRequestBody: {of(map[string]place{"content": mapOf(placeMediaType)}, "description", "required"), data},
		// Unknown keywords are data ("definitions"), in Extensions.
		kindSchema: {of(map[string]place{"properties": schemas, "patternProperties": schemas,
			"dependentSchemas": schemas, "$defs": schemas, "allOf": list(kindSchema), "anyOf": list(kindSchema),
			"oneOf": list(kindSchema), "prefixItems": list(kindSchema), "items": schema, "not": schema,
			"additionalProperties": schema, "contains": schema, "propertyNames": schema, "if": schema, "then": schema,
			"else": schema, "contentSchema": schema, "unevaluatedItems": schema, "unevaluatedProperties": schema},
			"type", "title", "format", "description", "required", "nullable", "readOnly", "writeOnly",
			"allowEmptyValue", "deprecated", "xml", "minimum", "maximum", "multipleOf", "minLength",
			"maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "exclusiveMinimum",
			"exclusiveMaximum", "minProperties", "maxProperties", "discriminator", "externalDocs",
			"minContains", "maxContains", "dependentRequired", "$schema", "$comment", "$id", "$anchor",
			"$dynamicRef", "$dynamicAnchor", "contentMediaType", "contentEncoding"), data},
		kindExample: {map[string]place{"value": data}, none},
		// kin-openapi cannot look into a header: it reads the document
		// again untyped.
		kindHeader: {nil, data},
		kindAny:    {nil, data},
		// A link, a security scheme: nothing inside is a target.
	}
}()

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

// unescape is s percent-decoded, or s when it is not valid percent-encoding.
func unescape(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// references runs the references pass over the document's tree and the
// $refs its decoders recorded (disabling a $ref may record more: the
// objects are decoded again). It returns the warnings, or the error for a
// $ref to nowhere.
func (s *docSource) references(tree any, decs []*decoder) (diag.List, error) {
	var missing []refUse
	bad := map[string][]refUse{} // by $ref
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
			frag, local := strings.CutPrefix(u.ref, "#") // "#/a/b", percent-encoded or not
			if !local {
				continue
			}
			vd, seen := verdicts[key{u.ref, u.kind}]
			if !seen {
				toks := jsonptr.Tokens(unescape(frag))
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
				missing = append(missing, u)
			case !vd.fits:
				bad[u.ref] = append(bad[u.ref], u)
				d.disable(u)
			}
		}
	}
	if len(missing) > 0 {
		first, pos := s.firstUse(missing)
		return nil, fmt.Errorf("%s: cannot resolve $ref %q: the document has nothing at that place", pos, first.ref)
	}
	var ws diag.List
	for _, ref := range slices.Sorted(maps.Keys(bad)) {
		_, pos := s.firstUse(bad[ref])
		ws = append(ws, diag.Diagnostic{Severity: diag.Warning, Kind: diag.UntypedRef, Pos: pos,
			Message: "$ref " + strconv.Quote(ref) + " points at the wrong kind of object or where it cannot be followed; " +
				"it is left out, and what it stood for is untyped (raw JSON), in " + strconv.Itoa(len(bad[ref])) + " place(s)"})
	}
	return ws, nil
}

// firstUse returns the use whose $ref comes first in the source text, and
// its position: the "$ref" key's line and column (in JSON, of its first
// character after the quote), the pointer of the object holding it.
func (s *docSource) firstUse(uses []refUse) (refUse, diag.Pos) {
	ptrs := make([]string, len(uses))
	for i, u := range uses {
		ptrs[i] = u.ptr() + "/$ref"
	}
	pos := positions(s.data, ptrs)
	at := func(i int) diag.Pos {
		lc := pos[ptrs[i]]
		if s.json { // after the quote
			lc[1]++
		}
		return diag.Pos{File: s.name, Line: lc[0], Col: lc[1], Pointer: uses[i].ptr()}
	}
	first := 0
	for i := range uses {
		a, b := at(i), at(first)
		if cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Pointer, b.Pointer)) < 0 {
			first = i
		}
	}
	return uses[first], at(first)
}
