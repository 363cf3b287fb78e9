package mcptools

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/jsonschema"
	"github.com/opsgen/opsgen/generator/naming"
)

// Each tool schema is a JSON Schema document of its own, with its own
// definitions ($defs, or draft-07 definitions) and local references. The
// decoder reads it into generator/jsonschema's model: the root, every
// definition and every other place a reference points at is a component,
// a named type <Tool><Key>; references become reference nodes whose Target
// is the component, and whose Ref is the component's pointer in the
// listing.

// decoder decodes the schemas of a listing.
type decoder struct {
	diags *diag.List
	// types holds the components' Go names.
	types *naming.Namespace
	// comps are the components by Go name.
	comps map[string]*component
	// places holds the documents by file and pointer.
	places map[place]*schemaDoc
}

// place is a pointer in a file.
type place struct{ file, ptr string }

// component is a schema with a name of its own.
type component struct {
	name string
	node *jsonschema.Schema
	// ref is the component's pointer in its file, as a reference ("#/tools/0/inputSchema/$defs/Node").
	ref string
	doc *schemaDoc
	// rel is the component's pointer inside its schema document.
	rel string
}

func newDecoder(diags *diag.List, types *naming.Namespace) *decoder {
	return &decoder{diags: diags, types: types, comps: map[string]*component{}, places: map[place]*schemaDoc{}}
}

// schemaDoc is one tool schema (an input or output schema) being decoded.
type schemaDoc struct {
	d    *decoder
	root any
	pos  *positions
	// ptr is the pointer of root in pos's document.
	ptr string
	// prefix starts the names of the components made from this schema.
	prefix, label string
	// legacy is set for drafts before 2019-09, where keywords next to $ref
	// are ignored and an array "items" means a tuple.
	legacy bool
	// comps maps local pointers ("" for the root, "/$defs/Node") to components.
	comps map[string]*component
	queue []string
}

// docOrigin describes the place rel (a pointer inside the schema) for doc
// comments: `MCP tool "x" inputSchema #/$defs/Node`.
func (d *schemaDoc) docOrigin(rel string) string {
	if rel != "" {
		return d.label + " #" + rel
	}
	return d.label
}

// decode reads root as the component called name, and its definitions as
// components named starting with prefix; label names root in doc comments.
// Definitions identical to those of shared (the tool's other schema, or
// nil) are not declared again: the output schema of a tool often repeats
// the definitions of its input schema.
func (dec *decoder) decode(root any, pos *positions, ptr, name, prefix, label string, shared *schemaDoc) *schemaDoc {
	d := &schemaDoc{d: dec, root: root, pos: pos, ptr: ptr, prefix: prefix, label: label, comps: map[string]*component{}}
	dec.places[place{pos.file, ptr}] = d
	var defs []string
	if m, ok := root.(map[string]any); ok {
		if s, ok := m["$schema"].(string); ok {
			d.legacy = strings.Contains(s, "draft-0") // draft-04, -06, -07
		}
		for _, key := range []string{"$defs", "definitions"} {
			m, _ := m[key].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				defs = append(defs, "/"+key+"/"+jsonptr.Escape(k))
			}
		}
	}
	for p := range sameDefs(d, shared, defs) {
		d.comps[p] = shared.comps[p]
	}
	d.add("", name)
	// Definitions are named in sorted order so that names do not depend on
	// the order of the source.
	for _, p := range defs {
		if _, ok := d.comps[p]; !ok {
			d.add(p, dec.types.Alloc(defName(prefix, jsonptr.Unescape(p[strings.LastIndexByte(p, '/')+1:]))))
		}
	}
	for len(d.queue) > 0 {
		p := d.queue[0]
		d.queue = d.queue[1:]
		target, _ := jsonptr.Lookup(root, p)
		c := d.comps[p]
		*c.node = *d.schema(target, p)
		c.node.GoName = c.name
	}
	return d
}

// add makes the place p of the document a component called name, to be
// decoded.
func (d *schemaDoc) add(p, name string) *component {
	c := &component{name: name, node: &jsonschema.Schema{GoName: name}, ref: "#" + d.ptr + p, doc: d, rel: p}
	d.comps[p] = c
	d.d.comps[name] = c
	d.queue = append(d.queue, p)
	return c
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
		mine, _ := jsonptr.Lookup(d.root, p)
		theirs, ok := jsonptr.Lookup(shared.root, p)
		if _, named := shared.comps[p]; ok && named && reflect.DeepEqual(mine, theirs) {
			same[p] = true
		}
	}
	// Drop those that refer to anything else, until none does.
	for changed := true; changed; {
		changed = false
		for p := range same {
			v, _ := jsonptr.Lookup(d.root, p)
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

// breakAliasCycles empties the components that only refer to each other
// in a cycle (A is {"$ref": B} and B is {"$ref": A}): they constrain
// nothing.
func (dec *decoder) breakAliasCycles() {
	var cyclic []string
	for _, name := range slices.Sorted(maps.Keys(dec.comps)) {
		n := dec.comps[name].node
		for range len(dec.comps) {
			if n.Ref == "" || n.Target == nil || n.Target == dec.comps[name].node {
				break
			}
			n = n.Target
		}
		if n.Ref != "" && n.Target == dec.comps[name].node {
			cyclic = append(cyclic, name)
		}
	}
	for _, name := range cyclic {
		c := dec.comps[name]
		dec.diags.Warn(diag.UntypedRef, c.doc.at(c.rel), "schema only refers to itself through $ref; any value is accepted")
		*c.node = jsonschema.Schema{GoName: name}
	}
}

// at returns the source position of a pointer inside the schema.
func (d *schemaDoc) at(p string) diag.Pos { return d.pos.pos(d.ptr + p) }

// schema decodes the schema node at local pointer p.
func (d *schemaDoc) schema(node any, p string) *jsonschema.Schema {
	switch v := node.(type) {
	case bool:
		if v {
			return &jsonschema.Schema{}
		}
		return &jsonschema.Schema{Always: &v}
	case map[string]any:
		return d.object(v, p)
	default:
		d.d.diags.Warn(diag.RawJSON, d.at(p), "a schema must be an object or a boolean, found %s; any value is accepted", jsonKind(node))
		return &jsonschema.Schema{}
	}
}

// ignored are the keywords whose subschemas the model does not keep; they
// are still decoded, so that references inside them are reported.
var ignored = map[string]bool{
	"patternProperties": true, "dependentSchemas": true, "then": true, "else": true,
	"contains": true, "propertyNames": true, "contentSchema": true,
}

// Keywords read as numbers: bounds and counts.
var (
	floatKeywords = map[string]bool{"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true}
	countKeywords = map[string]bool{"minLength": true, "maxLength": true, "minItems": true, "maxItems": true, "minProperties": true, "maxProperties": true}
)

// annotations are the keywords that may sit next to $ref without changing
// what it accepts.
var annotations = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "$comment": true,
}

// dropped are keywords of identity and dialect, and definitions (decoded
// as components of their own).
var dropped = map[string]bool{
	"$schema": true, "$id": true, "id": true, "$anchor": true, "$dynamicAnchor": true,
	"$vocabulary": true, "$comment": true, "$defs": true, "definitions": true,
}

func (d *schemaDoc) object(m map[string]any, p string) *jsonschema.Schema {
	if _, ok := m["$ref"]; ok {
		return d.ref(m, p)
	}
	s := &jsonschema.Schema{}
	var b bounds
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		kp := p + "/" + jsonptr.Escape(k)
		switch {
		case dropped[k]:
		case k == "$recursiveRef" || k == "$dynamicRef":
			if v == "#" {
				root := d.comps[""]
				s.Ref, s.Target = root.ref, root.node
			} else {
				d.d.diags.Warn(diag.LeftOut, d.at(kp), "%s %v is not supported; ignored", k, v)
			}
		case k == "properties":
			s.Properties = d.schemaMap(v, kp)
		case ignored[k]:
			if k == "patternProperties" || k == "dependentSchemas" {
				d.schemaMap(v, kp)
			} else {
				d.schema(v, kp)
			}
		case k == "allOf":
			s.AllOf = d.schemaList(v, kp)
		case k == "anyOf":
			s.AnyOf = d.schemaList(v, kp)
		case k == "oneOf":
			s.OneOf = d.schemaList(v, kp)
		case k == "prefixItems":
			s.PrefixItems = d.schemaList(v, kp)
		case k == "items":
			if list, ok := v.([]any); ok {
				// Before 2020-12, an array of items is a tuple, and
				// additionalItems the schema of the rest; false closes it.
				s.PrefixItems = d.schemaList(list, kp)
				if rest, ok := m["additionalItems"]; ok && rest != false {
					s.Items = d.schema(rest, p+"/additionalItems")
				}
			} else {
				s.Items = d.schema(v, kp)
			}
		case k == "additionalItems":
			// Handled with items; without an items array it has no effect.
		case k == "additionalProperties":
			if b, ok := v.(bool); ok {
				s.AdditionalProperties = &jsonschema.Schema{Always: &b}
			} else {
				s.AdditionalProperties = d.schema(v, kp)
			}
		case k == "unevaluatedProperties" || k == "unevaluatedItems":
			if _, ok := v.(bool); !ok {
				d.schema(v, kp)
			}
		case k == "not" || k == "if":
			d.schema(v, kp)
			s.NotIf = true
		case k == "dependencies":
			// Draft-07: a property's dependency is a list of required
			// properties or a schema.
			deps, _ := v.(map[string]any)
			for _, name := range slices.Sorted(maps.Keys(deps)) {
				if _, ok := deps[name].([]any); !ok {
					d.schema(deps[name], kp+"/"+jsonptr.Escape(name))
				}
			}
		default:
			if why := d.keyword(s, &b, k, v); why != "" {
				d.d.diags.Warn(diag.LeftOut, d.at(kp), "%s %s; ignored", k, why)
			}
		}
	}
	s.Keywords = b.appendTo(s.Keywords)
	return s
}

// bounds collects the numeric bounds of a schema, which
// jsonschema.AppendBound writes in their 2020-12 form once all its
// keywords are read (draft-04's exclusiveMinimum is a boolean modifier of
// minimum).
type bounds struct {
	min, max, exclMin, exclMax *float64
	exclMinFlag, exclMaxFlag   *bool
}

func (b *bounds) appendTo(kw []jsonschema.Keyword) []jsonschema.Keyword {
	kw = jsonschema.AppendBound(kw, "minimum", "exclusiveMinimum", b.min, b.exclMinFlag, b.exclMin)
	return jsonschema.AppendBound(kw, "maximum", "exclusiveMaximum", b.max, b.exclMaxFlag, b.exclMax)
}

// keyword sets the keyword k of s (or of its bounds b) to v, or says why
// it cannot: valid JSON Schema may hold numbers beyond float64 and uint64
// (1e400), and OpenAPI keywords (nullable, discriminator) of another shape
// than OpenAPI's. Keywords the model does not keep are skipped.
func (d *schemaDoc) keyword(s *jsonschema.Schema, b *bounds, k string, v any) string {
	n, isNum := v.(json.Number)
	switch {
	case floatKeywords[k] && isNum:
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return fmt.Sprintf("%s is out of range", n)
		}
		switch k {
		case "minimum":
			b.min = &f
		case "maximum":
			b.max = &f
		case "exclusiveMinimum":
			b.exclMin = &f
		case "exclusiveMaximum":
			b.exclMax = &f
		default:
			s.Keywords = append(s.Keywords, jsonschema.Keyword{Name: k, Value: f})
		}
	case k == "exclusiveMinimum" || k == "exclusiveMaximum":
		if flag, ok := v.(bool); ok && k == "exclusiveMinimum" {
			b.exclMinFlag = &flag
		} else if ok {
			b.exclMaxFlag = &flag
		}
	case countKeywords[k] && isNum:
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil {
			// An integer written 1e3 or 2.0.
			f, err := strconv.ParseFloat(string(n), 64)
			if err != nil || f < 0 || f != math.Trunc(f) || f >= 1<<63 {
				return fmt.Sprintf("%s is out of range", n)
			}
			u = uint64(f)
		}
		if u > 0 || strings.HasPrefix(k, "max") {
			s.Keywords = append(s.Keywords, jsonschema.Keyword{Name: k, Value: u})
		}
	case k == "pattern" || k == "uniqueItems":
		if v != "" && v != false {
			s.Keywords = append(s.Keywords, jsonschema.Keyword{Name: k, Value: v})
		}
	case k == "nullable":
		b, ok := v.(bool)
		if !ok {
			return "must be a boolean, found " + jsonKind(v)
		}
		s.Nullable = b
	case k == "discriminator":
		m, _ := v.(map[string]any)
		name, named := m["propertyName"].(string)
		mapping, isMap := m["mapping"].(map[string]any)
		ok := named && (m["mapping"] == nil || isMap)
		disc := &jsonschema.Discriminator{PropertyName: name}
		for tag, target := range mapping {
			ref, isString := target.(string)
			ok = ok && isString
			if disc.Mapping == nil {
				disc.Mapping = map[string]string{}
			}
			disc.Mapping[tag] = d.mappingRef(ref)
		}
		if !ok {
			return `must be an object with a string "propertyName" and a "mapping" of strings`
		}
		s.Discriminator = disc
	case k == "type":
		switch t := v.(type) {
		case string:
			s.Types = []string{t}
		case []any:
			s.Types = []string{}
			for _, e := range t {
				if e, ok := e.(string); ok {
					s.Types = append(s.Types, e)
				}
			}
		}
	case k == "required":
		list, _ := v.([]any)
		for _, e := range list {
			if e, ok := e.(string); ok {
				s.Required = append(s.Required, e)
			}
		}
	case k == "enum" || k == "const" || k == "default":
		x, ok := plain(v)
		if !ok {
			return "holds a number out of range"
		}
		switch k {
		case "enum":
			s.Enum, _ = x.([]any)
		case "const":
			s.Const = x
		default:
			s.Default = x
		}
	default:
		str, _ := v.(string)
		flag, _ := v.(bool)
		switch k {
		case "format":
			s.Format = str
		case "title":
			s.Title = str
		case "description":
			s.Description = str
		case "x-go-name":
			s.GoName = str
		case "x-go-type":
			s.GoType = str
		case "deprecated":
			s.Deprecated = flag
		case "readOnly":
			s.ReadOnly = flag
		case "writeOnly":
			s.WriteOnly = flag
		}
	}
	return ""
}

// mappingRef returns a discriminator mapping value as the reference the
// variants use: a local pointer becomes the pointer in the listing.
func (d *schemaDoc) mappingRef(ref string) string {
	if frag, ok := strings.CutPrefix(ref, "#"); ok {
		if p, err := url.PathUnescape(frag); err == nil {
			frag = p
		}
		if c := d.comps[frag]; c != nil {
			return c.ref
		}
	}
	return ref
}

// plain converts the numbers of a decoded JSON value to float64, as the
// model holds them; ok is false when one is out of range.
func plain(v any) (_ any, ok bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			if out[i], ok = plain(e); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if out[k], ok = plain(e); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return v, true
}

func (d *schemaDoc) schemaMap(v any, p string) map[string]*jsonschema.Schema {
	m, ok := v.(map[string]any)
	if !ok {
		d.d.diags.Warn(diag.LeftOut, d.at(p), "expected an object of schemas, found %s; ignored", jsonKind(v))
		return nil
	}
	out := make(map[string]*jsonschema.Schema, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out[k] = d.schema(m[k], p+"/"+jsonptr.Escape(k))
	}
	return out
}

func (d *schemaDoc) schemaList(v any, p string) []*jsonschema.Schema {
	list, ok := v.([]any)
	if !ok {
		d.d.diags.Warn(diag.LeftOut, d.at(p), "expected an array of schemas, found %s; ignored", jsonKind(v))
		return nil
	}
	out := make([]*jsonschema.Schema, len(list))
	for i, s := range list {
		out[i] = d.schema(s, p+"/"+strconv.Itoa(i))
	}
	return out
}

// ref decodes a schema with $ref. Keywords next to $ref apply as well from
// 2019-09 on; they are kept with allOf unless they are only annotations.
func (d *schemaDoc) ref(m map[string]any, p string) *jsonschema.Schema {
	ref := &jsonschema.Schema{}
	rp := p + "/$ref"
	if s, ok := m["$ref"].(string); !ok {
		d.d.diags.Warn(diag.UntypedRef, d.at(rp), "$ref must be a string, found %s; any value is accepted", jsonKind(m["$ref"]))
	} else if c := d.target(s, rp); c != nil {
		ref.Ref, ref.Target = c.ref, c.node
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
		// Annotations apply to the use of the reference.
		a := d.object(rest, p)
		ref.Title, ref.Description, ref.Default = a.Title, a.Description, a.Default
		ref.Deprecated, ref.ReadOnly, ref.WriteOnly = a.Deprecated, a.ReadOnly, a.WriteOnly
		return ref
	}
	return &jsonschema.Schema{AllOf: []*jsonschema.Schema{ref, d.object(rest, p)}}
}

// target returns the component a $ref leads to, making the place it points
// at a component when it is not one already. Only references inside the
// same schema document can be followed.
func (d *schemaDoc) target(ref, at string) *component {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || (frag != "" && !strings.HasPrefix(frag, "/")) {
		d.d.diags.Warn(diag.UntypedRef, d.at(at), "$ref %q is not a local JSON pointer and is not supported; any value is accepted", ref)
		return nil
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		p = frag
	}
	if c, ok := d.comps[p]; ok {
		return c
	}
	if _, ok := jsonptr.Lookup(d.root, p); !ok {
		d.d.diags.Warn(diag.UntypedRef, d.at(at), "$ref %q does not resolve in this schema; any value is accepted", ref)
		return nil
	}
	last := p[strings.LastIndexByte(p, '/')+1:]
	return d.add(p, d.d.types.Alloc(defName(d.prefix, jsonptr.Unescape(last))))
}

// defName is the Go name of a tool's definition key: the tool's Go name
// followed by the key's words ("search_items", "node" -> SearchItemsNode).
func defName(prefix, key string) string { return prefix + cmp.Or(naming.Suffix(key), "Def") }

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

// noArgumentsSchema is the JSON Schema of a tool without arguments: its
// input schema without identity, dialect and definitions.
func noArgumentsSchema(schema any) *ir.Schema {
	m, _ := schema.(map[string]any)
	out := make([]ir.Member, 0, len(m))
	for k, v := range m {
		if !dropped[k] {
			out = append(out, ir.Member{Key: k, Value: v})
		}
	}
	return ir.NewSchema(out...)
}
