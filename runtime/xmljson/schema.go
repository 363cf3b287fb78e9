package xmljson

import (
	"maps"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
)

// Schema is a JSON Schema as decoded JSON (map[string]any, []any and
// scalars) and the document its "$ref"s ("#/$defs/Pet") resolve against.
// Doc may be nil when the schema has no references.
type Schema struct {
	Value any
	Doc   any
}

// maxRefs bounds the references and allOf members followed to resolve one
// schema (a cycle of references ends there).
const maxRefs = 64

// xmlInfo is a schema's OpenAPI xml object.
type xmlInfo struct {
	name, namespace, prefix string
	attribute, wrapped      bool
	text                    bool // OpenAPI 3.2 nodeType text or cdata
	none                    bool // nodeType none: no element of its own
}

// kind is what a schema says a value is.
type kind int

const (
	kindAny kind = iota
	kindObject
	kindArray
	kindString
	kindNumber
	kindInteger
	kindBoolean
	kindNull
)

// shape is a schema resolved for conversion: its kind, its xml object and,
// for objects, the properties of the schema, its allOf members and its
// oneOf/anyOf variants together (a union's variants are read by the names
// they declare).
type shape struct {
	kind     kind
	nullable bool
	xml      xmlInfo
	props    map[string]map[string]any
	order    []string // property names, as first met
	extra    map[string]any
	items    map[string]any
	refName  string // the last token of the first $ref followed
}

// resolver follows references within one document.
type resolver struct{ doc any }

// deref follows $ref from s; nil when it does not resolve.
func (r resolver) deref(s map[string]any, seen *int) (map[string]any, string) {
	name := ""
	for s != nil && *seen < maxRefs {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s, name
		}
		*seen++
		if name == "" {
			name = ref[strings.LastIndexByte(ref, '/')+1:]
		}
		ptr, ok := strings.CutPrefix(ref, "#")
		if !ok || r.doc == nil {
			return nil, name
		}
		v, err := jsonptr.Lookup(r.doc, ptr)
		if err != nil {
			return nil, name
		}
		s, _ = v.(map[string]any)
	}
	if *seen >= maxRefs {
		return nil, name
	}
	return s, name
}

// shapeOf resolves schema v.
func (r resolver) shapeOf(v any) *shape {
	sh := &shape{}
	seen := 0
	r.collect(sh, v, &seen)
	if sh.kind == kindAny {
		switch {
		case sh.props != nil || sh.extra != nil:
			sh.kind = kindObject
		case sh.items != nil:
			sh.kind = kindArray
		}
	}
	return sh
}

// collect adds what schema v says to sh. Each field of the xml object
// comes from the first schema that sets it: the schema itself, then the
// allOf members that are not references (AWS writes a property's xml name
// beside its $ref in an allOf), then its reference's target and the other
// members and variants.
func (r resolver) collect(sh *shape, v any, seen *int) {
	m, _ := v.(map[string]any)
	if m == nil {
		return
	}
	// A $ref's siblings (OpenAPI 3.1) come first: they describe this use.
	sh.mergeXML(m)
	m, name := r.deref(m, seen)
	if m == nil {
		return
	}
	if sh.refName == "" {
		sh.refName = name
	}
	sh.mergeXML(m)
	allOf, _ := m["allOf"].([]any)
	for _, sub := range allOf {
		if sm, ok := sub.(map[string]any); ok && sm["$ref"] == nil {
			sh.mergeXML(sm)
		}
	}
	if k, nullable := kindOf(m["type"]); k != kindAny && sh.kind == kindAny {
		sh.kind = k
		sh.nullable = sh.nullable || nullable
	} else if nullable {
		sh.nullable = true
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if sh.props == nil {
			sh.props = map[string]map[string]any{}
		}
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			if _, dup := sh.props[name]; !dup {
				sh.props[name] = p
				sh.order = append(sh.order, name)
			}
		}
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok && sh.extra == nil {
		sh.extra = ap
	}
	if it, ok := m["items"].(map[string]any); ok && sh.items == nil {
		sh.items = it
	}
	for _, key := range [...]string{"allOf", "oneOf", "anyOf"} {
		list, _ := m[key].([]any)
		for _, sub := range list {
			if *seen >= maxRefs {
				return
			}
			*seen++
			r.collect(sh, sub, seen)
		}
	}
}

// mergeXML fills in the fields of sh's xml object that m's sets and sh's
// does not yet.
func (sh *shape) mergeXML(m map[string]any) {
	x, ok := m["xml"].(map[string]any)
	if !ok {
		return
	}
	xi := xmlOf(x)
	sh.xml.name = cmpOr(sh.xml.name, xi.name)
	sh.xml.namespace = cmpOr(sh.xml.namespace, xi.namespace)
	sh.xml.prefix = cmpOr(sh.xml.prefix, xi.prefix)
	sh.xml.attribute = sh.xml.attribute || xi.attribute
	sh.xml.wrapped = sh.xml.wrapped || xi.wrapped
	sh.xml.text = sh.xml.text || xi.text
	sh.xml.none = sh.xml.none || xi.none
}

// kindOf reads "type": a name, or a list whose first name other than
// "null" counts; nullable says "null" is listed.
func kindOf(t any) (k kind, nullable bool) {
	switch t := t.(type) {
	case string:
		return kindByName(t), t == "null"
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			if s == "null" {
				nullable = true
			} else if k == kindAny {
				k = kindByName(s)
			}
		}
	}
	return k, nullable
}

func kindByName(s string) kind {
	switch s {
	case "object":
		return kindObject
	case "array":
		return kindArray
	case "string":
		return kindString
	case "number":
		return kindNumber
	case "integer":
		return kindInteger
	case "boolean":
		return kindBoolean
	case "null":
		return kindNull
	}
	return kindAny
}

// xmlOf reads an OpenAPI xml object (3.0 to 3.2: nodeType replaces
// attribute and wrapped).
func xmlOf(x map[string]any) xmlInfo {
	var xi xmlInfo
	xi.name, _ = x["name"].(string)
	xi.namespace, _ = x["namespace"].(string)
	xi.prefix, _ = x["prefix"].(string)
	xi.attribute, _ = x["attribute"].(bool)
	xi.wrapped, _ = x["wrapped"].(bool)
	switch nt, _ := x["nodeType"].(string); nt {
	case "attribute":
		xi.attribute = true
	case "text", "cdata":
		xi.text = true
	case "element":
		xi.wrapped = true // on an array: the array has an element of its own
	case "none":
		xi.none = true
	}
	return xi
}
