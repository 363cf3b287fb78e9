package mcptools

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/naming"
)

// componentPrefix is where hoisted schemas live in the synthetic document.
const componentPrefix = "#/components/schemas/"

// hoister moves the tools' schemas into the components of one OpenAPI 3.1
// document. Each tool schema is a separate JSON Schema document with its own
// $defs (or draft-07 definitions) and local references; in the synthetic
// document every such definition becomes a component under a unique,
// tool-prefixed name, and references are rewritten to point at it.
type hoister struct {
	comps map[string]any
	// origin maps a component name to where its schema is in the source.
	origin map[string]origin
	ns     *naming.Namespace
	diags  *diag.List
}

// origin is where a component's schema is in the source.
type origin struct {
	pos *positions
	// ptr is the schema's pointer in pos's document.
	ptr string
	// label names the tool schema it is part of (`MCP tool "x" inputSchema`)
	// and rel is its pointer inside that schema ("" for the root).
	label, rel string
}

// docOrigin describes the place of rest (a pointer) inside the component
// for doc comments: `MCP tool "x" inputSchema #/$defs/Node`.
func (o origin) docOrigin(rest string) string {
	if p := o.rel + rest; p != "" {
		return o.label + " #" + p
	}
	return o.label
}

func newHoister(diags *diag.List, ns *naming.Namespace) *hoister {
	return &hoister{comps: map[string]any{}, origin: map[string]origin{}, ns: ns, diags: diags}
}

// schemaDoc is one tool schema (an input or output schema) being hoisted.
type schemaDoc struct {
	h    *hoister
	root any
	pos  *positions
	// ptr is the pointer of root in pos's document.
	ptr string
	// prefix starts the names of the components made from this schema.
	prefix, label string
	// legacy is set for drafts before 2019-09, where keywords next to $ref
	// are ignored and an array "items" means a tuple.
	legacy bool
	// refs maps local pointers ("" for the root, "/$defs/Node") to
	// component names.
	refs  map[string]string
	queue []string
}

// hoist adds root under the component name (which the caller allocated) and
// its definitions under names starting with prefix; label names root in
// doc comments. Definitions identical to those of shared (the tool's other
// schema, or nil) are not added again: the output schema of a tool often
// repeats the definitions of its input schema.
func (h *hoister) hoist(root any, pos *positions, ptr, name, prefix, label string, shared *schemaDoc) *schemaDoc {
	d := &schemaDoc{h: h, root: root, pos: pos, ptr: ptr, prefix: prefix, label: label, refs: map[string]string{"": name}}
	var defs []string
	if m, ok := root.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			d.legacy = strings.Contains(s, "draft-0") // draft-04, -06, -07
		}
		for _, key := range []string{"$defs", "definitions"} {
			m, _ := m[key].(map[string]any)
			for _, k := range sortedKeys(m) {
				defs = append(defs, "/"+key+"/"+escapePointer(k))
			}
		}
	}
	for p := range sameDefs(d, shared, defs) {
		d.refs[p] = shared.refs[p]
	}
	d.queue = []string{""}
	// Definitions are named in sorted order so that names do not depend on
	// the order of the source.
	for _, p := range defs {
		if _, ok := d.refs[p]; !ok {
			d.refs[p] = h.ns.Alloc(defName(prefix, unescapePointer(p[strings.LastIndexByte(p, '/')+1:])))
			d.queue = append(d.queue, p)
		}
	}
	for len(d.queue) > 0 {
		p := d.queue[0]
		d.queue = d.queue[1:]
		target, _ := resolvePointer(root, p)
		h.comps[d.refs[p]] = d.convert(target, p)
		h.origin[d.refs[p]] = origin{pos: pos, ptr: ptr + p, label: d.label, rel: p}
	}
	return d
}

// sameDefs returns the definitions of d (pointers among defs) that are
// identical in shared: the same JSON, referring only to definitions that
// are the same too.
func sameDefs(d, shared *schemaDoc, defs []string) map[string]bool {
	same := map[string]bool{}
	if shared == nil || shared.legacy != d.legacy {
		return same
	}
	for _, p := range defs {
		mine, _ := resolvePointer(d.root, p)
		theirs, ok := resolvePointer(shared.root, p)
		if _, named := shared.refs[p]; ok && named && reflect.DeepEqual(mine, theirs) {
			same[p] = true
		}
	}
	// Drop those that refer to anything else, until none does.
	for changed := true; changed; {
		changed = false
		for p := range same {
			v, _ := resolvePointer(d.root, p)
			for _, ref := range localRefs(v) {
				if !same[ref] {
					delete(same, p)
					changed = true
					break
				}
			}
		}
	}
	return same
}

// localRefs returns the targets of the $refs inside v as local pointers
// ("" for "#"; other references as themselves, which match no pointer).
func localRefs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if s, ok := e.(string); ok && k == "$ref" {
				if p, err := url.PathUnescape(strings.TrimPrefix(s, "#")); err == nil && strings.HasPrefix(s, "#") {
					s = p
				}
				out = append(out, s)
			} else {
				out = append(out, localRefs(e)...)
			}
		}
	case []any:
		for _, e := range v {
			out = append(out, localRefs(e)...)
		}
	}
	return out
}

// breakAliasCycles replaces the components that only refer to each other
// in a cycle (A is {"$ref": B} and B is {"$ref": A}): they constrain
// nothing, and a converter following the chain would never stop.
func (h *hoister) breakAliasCycles() {
	var cyclic []string
	for _, name := range sortedKeys(h.comps) {
		n := name
		for range len(h.comps) {
			var ok bool
			if n, ok = aliasTarget(h.comps[n]); !ok || n == name {
				break
			}
		}
		if n == name {
			cyclic = append(cyclic, name)
		}
	}
	for _, name := range cyclic {
		o := h.origin[name]
		h.diags.Warnf(o.pos.pos(o.ptr), "schema only refers to itself through $ref; any value is accepted")
		h.comps[name] = map[string]any{}
	}
}

// aliasTarget returns the component a schema is only a reference to.
func aliasTarget(schema any) (string, bool) {
	m, _ := schema.(map[string]any)
	ref, _ := m["$ref"].(string)
	name, ok := strings.CutPrefix(ref, componentPrefix)
	if !ok {
		return "", false
	}
	for k := range m {
		if k != "$ref" && !annotations[k] {
			return "", false
		}
	}
	return name, true
}

// at returns the source position of a pointer inside the schema.
func (d *schemaDoc) at(p string) diag.Pos { return d.pos.pos(d.ptr + p) }

// convert returns the OpenAPI 3.1 form of the schema node at local pointer p.
func (d *schemaDoc) convert(node any, p string) any {
	switch v := node.(type) {
	case bool:
		if v {
			return map[string]any{}
		}
		return map[string]any{"not": map[string]any{}}
	case map[string]any:
		return d.convertObject(v, p)
	default:
		d.h.diags.Warnf(d.at(p), "a schema must be an object or a boolean, found %s; any value is accepted", jsonKind(node))
		return map[string]any{}
	}
}

// dropped are the keywords left out of the synthetic document: dialect and
// identity belong to the source document, definitions are hoisted (nested
// ones only when referenced), and xml and externalDocs are OpenAPI's, with
// no meaning for a tool (and a shape kin-openapi insists on).
var dropped = map[string]bool{
	"$schema": true, "$id": true, "id": true, "$anchor": true, "$dynamicAnchor": true,
	"$vocabulary": true, "$comment": true, "$defs": true, "definitions": true,
	"xml": true, "externalDocs": true,
}

// Keywords that kin-openapi reads into float64 and uint64 fields.
var (
	floatKeywords = map[string]bool{"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true}
	countKeywords = map[string]bool{"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "minProperties": true, "maxProperties": true}
)

// readable returns the value of keyword k as kin-openapi can read it, or
// why it cannot: valid JSON Schema may hold numbers beyond float64 and
// uint64 (1e400), and OpenAPI keywords (nullable, discriminator) of
// another shape than OpenAPI's; either would fail the synthetic document
// as a whole.
func readable(k string, v any) (any, string) {
	n, isNum := v.(json.Number)
	switch {
	case floatKeywords[k] && isNum:
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return nil, fmt.Sprintf("%s is out of range", n)
		}
	case countKeywords[k] && isNum:
		if _, err := strconv.ParseUint(string(n), 10, 64); err == nil {
			return v, ""
		}
		// An integer written 1e3 or 2.0.
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil || f < 0 || f != math.Trunc(f) || f >= 1<<63 {
			return nil, fmt.Sprintf("%s is out of range", n)
		}
		return json.Number(strconv.FormatUint(uint64(f), 10)), ""
	case k == "nullable":
		if _, ok := v.(bool); !ok {
			return nil, "must be a boolean, found " + jsonKind(v)
		}
	case k == "discriminator":
		m, _ := v.(map[string]any)
		_, named := m["propertyName"].(string)
		mapping, isMap := m["mapping"].(map[string]any)
		ok := named && (m["mapping"] == nil || isMap)
		for _, target := range mapping {
			_, isString := target.(string)
			ok = ok && isString
		}
		if !ok {
			return nil, `must be an object with a string "propertyName" and a "mapping" of strings`
		}
	}
	return v, ""
}

// annotations are the keywords that may sit next to $ref without changing
// what it accepts.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

func (d *schemaDoc) convertObject(m map[string]any, p string) any {
	if _, ok := m["$ref"]; ok {
		return d.convertRef(m, p)
	}
	out := map[string]any{}
	for _, k := range sortedKeys(m) {
		v := m[k]
		kp := p + "/" + escapePointer(k)
		if dropped[k] {
			continue
		}
		switch k {
		case "$recursiveRef", "$dynamicRef":
			if v == "#" {
				out["$ref"] = componentPrefix + d.refs[""]
			} else {
				d.h.diags.Warnf(d.at(kp), "%s %v is not supported; ignored", k, v)
			}
		case "properties", "patternProperties", "dependentSchemas":
			out[k] = d.convertMap(v, kp)
		case "allOf", "anyOf", "oneOf", "prefixItems":
			out[k] = d.convertList(v, kp)
		case "items":
			if list, ok := v.([]any); ok {
				// Before 2020-12, an array of items is a tuple, and
				// additionalItems the schema of the rest.
				out["prefixItems"] = d.convertList(list, kp)
				// additionalItems: false closes the tuple: no items keyword.
				if rest, ok := m["additionalItems"]; ok && rest != false {
					out["items"] = d.convert(rest, p+"/additionalItems")
				}
			} else {
				out[k] = d.convert(v, kp)
			}
		case "additionalItems":
			// Handled with items; without an items array it has no effect.
		case "additionalProperties", "unevaluatedProperties", "unevaluatedItems":
			if b, ok := v.(bool); ok {
				out[k] = b
			} else {
				out[k] = d.convert(v, kp)
			}
		case "not", "if", "then", "else", "contains", "propertyNames", "contentSchema":
			out[k] = d.convert(v, kp)
		case "dependencies":
			// Draft-07: a property's dependency is a list of required
			// properties or a schema.
			deps, _ := v.(map[string]any)
			for _, name := range sortedKeys(deps) {
				if list, ok := deps[name].([]any); ok {
					setIn(out, "dependentRequired", name, list)
				} else {
					setIn(out, "dependentSchemas", name, d.convert(deps[name], kp+"/"+escapePointer(name)))
				}
			}
		default:
			if v, why := readable(k, v); why != "" {
				d.h.diags.Warnf(d.at(kp), "%s %s; ignored", k, why)
			} else {
				out[k] = v
			}
		}
	}
	return out
}

func setIn(m map[string]any, key, name string, v any) {
	sub, _ := m[key].(map[string]any)
	if sub == nil {
		sub = map[string]any{}
		m[key] = sub
	}
	sub[name] = v
}

func (d *schemaDoc) convertMap(v any, p string) any {
	m, ok := v.(map[string]any)
	if !ok {
		d.h.diags.Warnf(d.at(p), "expected an object of schemas, found %s; ignored", jsonKind(v))
		return map[string]any{}
	}
	out := make(map[string]any, len(m))
	for _, k := range sortedKeys(m) {
		out[k] = d.convert(m[k], p+"/"+escapePointer(k))
	}
	return out
}

func (d *schemaDoc) convertList(v any, p string) []any {
	list, ok := v.([]any)
	if !ok {
		d.h.diags.Warnf(d.at(p), "expected an array of schemas, found %s; ignored", jsonKind(v))
		return nil
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = d.convert(s, p+"/"+strconv.Itoa(i))
	}
	return out
}

// convertRef rewrites a schema with $ref. Keywords next to $ref apply as
// well from 2019-09 on; they are kept with allOf unless they are only
// annotations.
func (d *schemaDoc) convertRef(m map[string]any, p string) any {
	ref := map[string]any{}
	rp := p + "/$ref"
	if s, ok := m["$ref"].(string); !ok {
		d.h.diags.Warnf(d.at(rp), "$ref must be a string, found %s; any value is accepted", jsonKind(m["$ref"]))
	} else if name, ok := d.target(s, rp); ok {
		ref["$ref"] = componentPrefix + name
	}
	if d.legacy {
		return ref
	}
	rest := map[string]any{}
	assertions := false
	for k, v := range m {
		if k != "$ref" && !dropped[k] {
			rest[k] = v
			assertions = assertions || !annotations[k]
		}
	}
	if !assertions {
		for k, v := range rest {
			ref[k] = v
		}
		return ref
	}
	return map[string]any{"allOf": []any{ref, d.convertObject(rest, p)}}
}

// target returns the component for a $ref, hoisting the schema it points
// at when that is not a definition already. Only references inside the same
// schema document can be followed.
func (d *schemaDoc) target(ref, at string) (string, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && !strings.HasPrefix(frag, "/")) {
		d.h.diags.Warnf(d.at(at), "$ref %q is not a local JSON pointer and is not supported; any value is accepted", ref)
		return "", false
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		p = frag
	}
	if name, ok := d.refs[p]; ok {
		return name, true
	}
	if _, ok := resolvePointer(d.root, p); !ok {
		d.h.diags.Warnf(d.at(at), "$ref %q does not resolve in this schema; any value is accepted", ref)
		return "", false
	}
	last := p[strings.LastIndexByte(p, '/')+1:]
	name := d.h.ns.Alloc(defName(d.prefix, unescapePointer(last)))
	d.refs[p] = name
	d.queue = append(d.queue, p)
	return name, true
}

// defName is the Go name of a tool's definition key: the tool's Go name
// followed by the key's words ("search_items", "node" -> SearchItemsNode).
func defName(prefix, key string) string {
	if s := naming.Suffix(key); s != "" {
		return prefix + s
	}
	return prefix + "Def"
}

// resolvePointer returns the value at JSON pointer p inside v.
func resolvePointer(v any, p string) (any, bool) {
	if p == "" {
		return v, true
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = unescapePointer(tok)
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[tok]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

func unescapePointer(s string) string { return pointerUnescaper.Replace(s) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// noArguments reports whether an input schema declares no arguments at all:
// an object schema without properties or anything that could add some.
func noArguments(schema any) bool {
	switch v := schema.(type) {
	case bool:
		return true
	case map[string]any:
		for k, val := range v {
			switch k {
			case "type":
				if val != "object" {
					return false
				}
			case "additionalProperties":
				if b, ok := val.(bool); !ok || b {
					return false
				}
			case "properties", "required":
				if n, ok := val.(map[string]any); ok && len(n) > 0 {
					return false
				}
				if n, ok := val.([]any); ok && len(n) > 0 {
					return false
				}
			case "$schema", "title", "description", "$comment", "$id", "$defs", "definitions":
			default:
				return false
			}
		}
		return true
	}
	return false
}
