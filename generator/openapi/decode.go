package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// The decoder.
//
// An OpenAPI 3 document is parsed once into a tree of maps and slices
// (jsontree.go for JSON, yamltree.go for YAML: map[string]any, []any,
// string, json.Number, bool, nil), then built into kin-openapi's exported
// types by the code below, one table per type, as kin-openapi's own
// UnmarshalJSON methods would build them: the keys a type does not know go
// to its Extensions, "type" is a string or a list, exclusiveMinimum a
// boolean (3.0) or a number (3.1), a schema may be a boolean, and so on.
// kin-openapi's path takes 1.3-2.0 s on GitHub's 3.7 MB description where
// this one takes 0.3-0.5 s, as every kin-openapi type decodes its raw JSON
// twice and its children again.
//
// A type's table (fill) lists its keys and a pointer to the field each
// value goes to; how a value decodes follows from that field's Go type, in
// one place (set): a string, a list of schemas, a map of parameters... The
// reference wrappers (SchemaRef, ParameterRef...) are all filled alike
// (ref, refOr).
//
// A value of the wrong JSON type is data, not a failure: an annotation
// (lenient.go's annotationKind: description, pattern, examples...) is
// ignored with a warning, anything else is a positioned error. A $ref with
// sibling keys is the one object handed to kin-openapi's (exported)
// UnmarshalJSON, which keeps the siblings in unexported fields that its
// resolution applies; such objects are small and rare.
//
// Every $ref met in a reference slot is recorded (refUse) for the
// references pass (refs.go).

// refKind is the kind of object a $ref slot expects.
type refKind uint8

const (
	kindNone refKind = iota // not an object a $ref can stand for
	kindSchema
	kindParameter
	kindHeader
	kindRequestBody
	kindResponse
	kindExample
	kindLink
	kindCallback
	kindSecurityScheme
	kindPathItem
	kindAny // data (an extension, an example value): any object fits
)

// newSlot makes an empty reference wrapper of each kind that has one.
var newSlot = [kindAny + 1]func() any{
	kindSchema:         func() any { return new(openapi3.SchemaRef) },
	kindParameter:      func() any { return new(openapi3.ParameterRef) },
	kindHeader:         func() any { return new(openapi3.HeaderRef) },
	kindRequestBody:    func() any { return new(openapi3.RequestBodyRef) },
	kindResponse:       func() any { return new(openapi3.ResponseRef) },
	kindExample:        func() any { return new(openapi3.ExampleRef) },
	kindLink:           func() any { return new(openapi3.LinkRef) },
	kindCallback:       func() any { return new(openapi3.CallbackRef) },
	kindSecurityScheme: func() any { return new(openapi3.SecuritySchemeRef) },
}

// refUse is one $ref in a reference slot: the $ref, the kind of object
// the slot expects, the JSON pointer of the object holding it, the object
// (m) and the reference wrapper it was decoded into (slot).
type refUse struct {
	ref  string
	kind refKind
	path []string // the JSON pointer's tokens
	m    map[string]any
	slot any
}

// ptr is the JSON pointer of the object holding the $ref.
func (u refUse) ptr() string { return (&decoder{path: u.path}).ptr() }

// decoder builds the kin-openapi values of one document (or one of its
// top-level members).
type decoder struct {
	file string
	path []string // JSON pointer tokens of the value being decoded
	// diags are the warnings (annotations of the wrong type); errPtr and
	// errMsg the first value that cannot be decoded.
	diags          diag.List
	errPtr, errMsg string
	refs           []refUse
	// outward is set by a discriminator mapping to another file, which
	// kin-openapi resolves; nullRef by a null where an object a $ref could
	// stand for belongs, which may fail kin-openapi's resolution.
	outward, nullRef bool
	// strict makes an annotation of the wrong type an error too, as for
	// kin-openapi when it decodes the target of a $ref (refs.go's decodes).
	strict bool
	in     bool // the object being decoded is a schema or in one (annotations)
}

// decodes reports whether the object m decodes as an object of kind k
// without error, strictly.
func decodes(k refKind, m map[string]any) bool {
	d := &decoder{strict: true}
	if k == kindPathItem {
		d.fill(new(openapi3.PathItem), m)
	} else if f := newSlot[k]; f != nil {
		d.ref(f(), m)
	}
	return d.errMsg == ""
}

// ptr returns the JSON pointer of the current value, plus tokens.
func (d *decoder) ptr(tokens ...string) string {
	var b strings.Builder
	for _, t := range append(d.path[:len(d.path):len(d.path)], tokens...) {
		b.WriteByte('/')
		b.WriteString(jsonptr.Escape(t))
	}
	return b.String()
}

func (d *decoder) push(tok string) { d.path = append(d.path, tok) }
func (d *decoder) pop()            { d.path = d.path[:len(d.path)-1] }

// at decodes with f the value of key, under the current path.
func (d *decoder) at(key string, f func()) {
	d.push(key)
	f()
	d.pop()
}

// kindOf is the JSON kind of a tree value, in lenient.go's letters.
func kindOf(v any) byte {
	switch v.(type) {
	case string:
		return 's'
	case json.Number, float64:
		return 'n'
	case bool:
		return 'b'
	case map[string]any:
		return 'o'
	case []any:
		return 'a'
	case nil:
		return 'z'
	}
	return 0
}

// wrong records key's value v of the wrong JSON kind (want): a warning for
// an annotation, which is ignored, an error otherwise.
func (d *decoder) wrong(key string, v any, want byte) {
	if key == "" { // the current value, a member of a map of names
		d.fail(d.ptr(), fmt.Sprintf("%s where %s belongs", kindNames[kindOf(v)], kindNames[want]))
		return
	}
	if annotationKind(key, d.in, false) != 0 && !d.strict {
		d.diags = append(d.diags, diag.Diagnostic{Severity: diag.Warning, Kind: diag.LeftOut,
			Pos:     diag.Pos{File: d.file, Pointer: d.ptr(key)},
			Message: fmt.Sprintf("%q is %s where %s belongs; it only annotates or documents, and is ignored", key, kindNames[kindOf(v)], kindNames[want])})
		return
	}
	d.fail(d.ptr(key), fmt.Sprintf("%q is %s where %s belongs", key, kindNames[kindOf(v)], kindNames[want]))
}

// fail records an error at ptr. Of several, the one with the least
// pointer is kept: members of an object are decoded in Go's map order, so
// "the first met" would differ from run to run.
func (d *decoder) fail(ptr, msg string) {
	if d.errMsg == "" || ptr < d.errPtr {
		d.errPtr, d.errMsg = ptr, msg
	}
}

// str decodes a string member (null leaves it empty).
func (d *decoder) str(key string, v any) string {
	switch s := v.(type) {
	case string:
		return s
	case nil:
	default:
		d.wrong(key, v, 's')
	}
	return ""
}

// obj returns v as an object; null and the wrong kind give nil.
func (d *decoder) obj(key string, v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		d.wrong(key, v, 'o')
	}
	return m
}

// list returns v as a list; null and the wrong kind give nil.
func (d *decoder) list(key string, v any) []any {
	a, ok := v.([]any)
	if !ok && v != nil {
		d.wrong(key, v, 'a')
	}
	return a
}

// anyValue is v as encoding/json decodes a value into an interface
// (numbers as float64).
func (d *decoder) anyValue(key string, v any) any {
	p, ok := plain(v)
	if !ok {
		d.fail(d.ptr(key), fmt.Sprintf("%q holds a number out of range", key))
	}
	return p
}

// listOf decodes the list at key, each item with one (given its index).
func listOf[T any](d *decoder, key string, v any, one func(d *decoder, i string, e any) T) []T {
	a := d.list(key, v)
	if a == nil {
		return nil
	}
	out := make([]T, len(a))
	d.push(key)
	for i, e := range a {
		out[i] = one(d, strconv.Itoa(i), e)
	}
	d.pop()
	return out
}

// mapOf decodes the object of names at key, each member with one.
func mapOf[T any](d *decoder, key string, v any, one func(d *decoder, name string, e any) T) map[string]T {
	m := d.obj(key, v)
	if m == nil {
		return nil
	}
	out := make(map[string]T, len(m))
	d.push(key)
	for k, e := range m {
		if k != originKey { // a YAML mapping's position
			out[k] = one(d, k, e)
		}
	}
	d.pop()
	return out
}

// object decodes the member key: v, an object, into a new *p (under key);
// null and the wrong kind leave *p nil.
func object[T any](d *decoder, p **T, key string, v any) {
	if m := d.obj(key, v); m != nil {
		*p = new(T)
		d.at(key, func() { d.fill(*p, m) })
	}
}

// valueAt decodes the member name: e of a map of objects, under name;
// null and the wrong kind give nil.
func valueAt[T any](d *decoder, name string, e any) (x *T) {
	d.at(name, func() {
		if m := d.obj("", e); m != nil {
			x = new(T)
			d.fill(x, m)
		}
	})
	return x
}

// pathItemAt decodes the member name: e of Paths, a Callback or the
// webhooks; null and the wrong kind give an empty Path Item.
func pathItemAt(d *decoder, name string, e any) *openapi3.PathItem {
	x := &openapi3.PathItem{}
	d.at(name, func() { d.fill(x, d.obj("", e)) })
	return x
}

// refAt decodes the member key: v, a reference object or an object of
// the kind R wraps, into a new R (under key); null and the wrong kind give
// nil.
func refAt[R any](d *decoder, key string, v any) (r *R) {
	if v == nil {
		d.nullRef = true
		return nil
	}
	d.at(key, func() {
		if r = new(R); !d.ref(r, v) {
			r = nil
		}
	})
	return r
}

// useRef records a $ref of the current object m, decoded into slot.
func (d *decoder) useRef(ref string, kind refKind, m map[string]any, slot any) {
	d.refs = append(d.refs, refUse{ref: ref, kind: kind, path: slices.Clone(d.path), m: m, slot: slot})
}

// disable decodes the object of u again without its $ref, into its slot.
func (d *decoder) disable(u refUse) {
	d.path = u.path
	if p, ok := u.slot.(*openapi3.PathItem); ok {
		p.Ref = ""
		return
	}
	m := maps.Clone(u.m)
	delete(m, "$ref")
	d.ref(u.slot, m)
}

// siblings decodes a reference object with sibling keys through the
// reference type's own UnmarshalJSON (see the top of the file).
func (d *decoder) siblings(dst json.Unmarshaler, m map[string]any) {
	if p, ok := plain(m); !ok {
		d.fail(d.ptr(), "a number out of range")
	} else if b, err := json.Marshal(p); err != nil {
		d.fail(d.ptr(), err.Error())
	} else if err := dst.UnmarshalJSON(b); err != nil {
		d.fail(d.ptr(), err.Error())
	}
}

// ref decodes the current value v into slot, a reference wrapper, which it
// clears first: a reference object (recorded) or an object of the kind the
// wrapper holds, or for a schema a boolean. ok is false for null and the
// wrong kind.
func (d *decoder) ref(slot any, v any) bool {
	if r, ok := slot.(*openapi3.SchemaRef); ok && kindOf(v) != 'o' {
		*r = openapi3.SchemaRef{}
		if b, ok := v.(bool); ok {
			r.Value = &openapi3.Schema{Always: &b}
			return true
		}
		if v != nil {
			d.fail(d.ptr(), fmt.Sprintf("a schema is %s where an object or a boolean belongs", kindNames[kindOf(v)]))
		}
		return false
	}
	m := d.obj("", v)
	switch r := slot.(type) {
	case *openapi3.SchemaRef:
		return refOr(d, m, kindSchema, r, &r.Ref, &r.Value)
	case *openapi3.ParameterRef:
		return refOr(d, m, kindParameter, r, &r.Ref, &r.Value)
	case *openapi3.HeaderRef:
		return refOr(d, m, kindHeader, r, &r.Ref, &r.Value)
	case *openapi3.RequestBodyRef:
		return refOr(d, m, kindRequestBody, r, &r.Ref, &r.Value)
	case *openapi3.ResponseRef:
		return refOr(d, m, kindResponse, r, &r.Ref, &r.Value)
	case *openapi3.ExampleRef:
		return refOr(d, m, kindExample, r, &r.Ref, &r.Value)
	case *openapi3.LinkRef:
		return refOr(d, m, kindLink, r, &r.Ref, &r.Value)
	case *openapi3.CallbackRef:
		return refOr(d, m, kindCallback, r, &r.Ref, &r.Value)
	case *openapi3.SecuritySchemeRef:
		return refOr(d, m, kindSecurityScheme, r, &r.Ref, &r.Value)
	}
	panic("openapi: ref has no case for this reference type")
}

// refOr decodes the object m (nil: none) into slot, whose reference is
// *ref and whose value is *val.
func refOr[R, V any](d *decoder, m map[string]any, kind refKind, slot *R, ref *string, val **V) bool {
	*slot = *new(R)
	if m == nil {
		return false
	}
	s, isRef := m["$ref"].(string)
	switch {
	case !isRef || s == "": // not a reference object
		*val = new(V)
		d.fill(*val, m)
		return true
	case len(m) == 1:
		*ref = s
	default:
		d.siblings(any(slot).(json.Unmarshaler), m)
	}
	d.useRef(s, kind, m, slot)
	return true
}

// field is one entry of a type's table: a key, and a pointer to the field
// its value decodes into (set).
type field struct {
	key string
	dst any
}

// fields decodes the members of the object m with the table fs: position
// (originKey) into *org (nil: dropped), the keys fs does not have into
// *ext. in tells whether m is a schema (or in one), for annotations.
func (d *decoder) fields(m map[string]any, in bool, ext *map[string]any, org **openapi3.Origin, fs []field) {
	outer := d.in
	d.in = in
members:
	for k, v := range m {
		if k == originKey {
			if org != nil {
				*org = origin(v)
			}
			continue
		}
		if !strings.HasPrefix(k, "x-") {
			for _, f := range fs {
				if f.key == k {
					d.set(f.dst, k, v)
					continue members
				}
			}
		}
		if *ext == nil {
			*ext = map[string]any{}
		}
		(*ext)[k] = d.anyValue(k, v)
	}
	d.in = outer
}

// elem decodes the member k: v of a list or a map into a T, as set does.
func elem[T any](d *decoder, k string, v any) (x T) {
	d.set(&x, k, v)
	return x
}

// optional decodes the member k: v into a new T, but leaves *p nil for null.
func optional[T any](d *decoder, p **T, k string, v any) {
	if v != nil {
		*p = new(T)
		d.set(*p, k, v)
	}
}

// set decodes the member k: v into the field dst points to, as the
// field's type says.
func (d *decoder) set(dst any, k string, v any) {
	switch p := dst.(type) {
	case *string:
		*p = d.str(k, v)
	case *bool:
		switch b := v.(type) {
		case bool:
			*p = b
		case nil:
		default:
			d.wrong(k, v, 'b')
		}
	case **string: // a Response's description
		optional(d, p, k, v)
	case **bool:
		optional(d, p, k, v)
	case **float64: // null and the wrong kind leave it nil
		switch n := v.(type) {
		case float64: // made plain by an earlier pass
			*p = &n
		case json.Number:
			if f, err := strconv.ParseFloat(string(n), 64); err != nil {
				d.fail(d.ptr(k), fmt.Sprintf("%q: %v", k, err))
			} else {
				*p = &f
			}
		case nil:
		default:
			d.wrong(k, v, 'n')
		}
	case **uint64: // null and the wrong kind leave it nil
		if f, ok := v.(float64); ok {
			v = json.Number(strconv.FormatFloat(f, 'f', -1, 64))
		}
		if n, ok := v.(json.Number); ok {
			if u, err := strconv.ParseUint(string(n), 10, 64); err != nil {
				d.fail(d.ptr(k), fmt.Sprintf("%q is %s, not a non-negative integer", k, n))
			} else {
				*p = &u
			}
		} else if v != nil {
			d.wrong(k, v, 'n')
		}
	case *uint64:
		var u *uint64
		if d.set(&u, k, v); u != nil {
			*p = *u
		}
	case *any:
		*p = d.anyValue(k, v)
	case *[]any:
		if d.list(k, v) != nil {
			*p, _ = d.anyValue(k, v).([]any)
		}
	case *[]string:
		*p = listOf(d, k, v, elem[string])
	case *map[string]string:
		*p = mapOf(d, k, v, elem[string])
	case *map[string][]string:
		*p = mapOf(d, k, v, elem[[]string])
	case *map[string]any: // a Link's parameters
		if m := d.obj(k, v); m != nil {
			*p, _ = d.anyValue(k, m).(map[string]any)
		}
	case *map[string]openapi3.MappingRef:
		*p = mapOf(d, k, v, elem[openapi3.MappingRef])
	case *openapi3.MappingRef:
		p.Ref = d.str(k, v)
		if strings.Contains(p.Ref, "/") && !strings.HasPrefix(p.Ref, "#") {
			d.outward = true
		}
	case **openapi3.Types: // a string or a list of strings
		switch x := v.(type) {
		case nil:
		case string:
			*p = &openapi3.Types{x}
		case []any:
			t := make(openapi3.Types, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					d.fail(d.ptr(k, strconv.Itoa(i)), "a type that is not a string")
				}
				t[i] = s
			}
			*p = &t
		default:
			d.fail(d.ptr(k), fmt.Sprintf(`"type" is %s where a string or a list belongs`, kindNames[kindOf(v)]))
		}
	case *openapi3.ExclusiveBound: // a boolean (3.0) or a number (3.1)
		switch x := v.(type) {
		case nil:
		case bool:
			p.Bool = &x
		case json.Number:
			d.set(&p.Value, k, x)
		default:
			d.fail(d.ptr(k), fmt.Sprintf("%q is %s where a boolean or a number belongs", k, kindNames[kindOf(v)]))
		}
	case *openapi3.BoolSchema: // additionalProperties and the like
		switch x := v.(type) {
		case nil:
		case bool:
			p.Has = &x
		case map[string]any:
			p.Schema = refAt[openapi3.SchemaRef](d, k, x)
		default:
			d.fail(d.ptr(k), fmt.Sprintf("%q is %s where a boolean or a schema belongs", k, kindNames[kindOf(v)]))
		}
	case **openapi3.SchemaRef:
		*p = refAt[openapi3.SchemaRef](d, k, v)
	case *openapi3.SchemaRefs:
		*p = listOf(d, k, v, refAt[openapi3.SchemaRef])
	case *openapi3.Schemas:
		*p = mapOf(d, k, v, refAt[openapi3.SchemaRef])
	case *openapi3.ParametersMap:
		*p = mapOf(d, k, v, refAt[openapi3.ParameterRef])
	case *openapi3.Parameters:
		*p = listOf(d, k, v, refAt[openapi3.ParameterRef])
	case *openapi3.Headers:
		*p = mapOf(d, k, v, refAt[openapi3.HeaderRef])
	case **openapi3.RequestBodyRef:
		*p = refAt[openapi3.RequestBodyRef](d, k, v)
	case *openapi3.RequestBodies:
		*p = mapOf(d, k, v, refAt[openapi3.RequestBodyRef])
	case *openapi3.ResponseBodies:
		*p = mapOf(d, k, v, refAt[openapi3.ResponseRef])
	case *openapi3.Examples:
		// One that is not an object of objects is an annotation of the
		// wrong type (lenient.go).
		if m, ok := v.(map[string]any); ok {
			for name, e := range m {
				if kind := kindOf(e); kind != 'o' && kind != 'z' && name != originKey {
					d.wrong(k, v, 'e')
					return
				}
			}
		}
		*p = mapOf(d, k, v, refAt[openapi3.ExampleRef])
	case *openapi3.Links:
		*p = mapOf(d, k, v, refAt[openapi3.LinkRef])
	case *openapi3.Callbacks:
		*p = mapOf(d, k, v, refAt[openapi3.CallbackRef])
	case *openapi3.SecuritySchemes:
		*p = mapOf(d, k, v, refAt[openapi3.SecuritySchemeRef])
	case *openapi3.Content:
		*p = mapOf(d, k, v, valueAt[openapi3.MediaType])
	case *openapi3.Encodings:
		*p = mapOf(d, k, v, valueAt[openapi3.Encoding])
	case *openapi3.ServerVariables:
		*p = mapOf(d, k, v, valueAt[openapi3.ServerVariable])
	case *map[string]*openapi3.Operation:
		*p = mapOf(d, k, v, valueAt[openapi3.Operation])
	case *map[string]*openapi3.PathItem:
		*p = mapOf(d, k, v, pathItemAt)
	case *openapi3.Servers:
		*p = listOf(d, k, v, elem[*openapi3.Server])
	case **openapi3.Servers:
		optional(d, p, k, v)
	case *openapi3.SecurityRequirements:
		*p = listOf(d, k, v, elem[openapi3.SecurityRequirement])
	case *openapi3.SecurityRequirement:
		*p = mapOf(d, k, v, elem[[]string])
	case **openapi3.SecurityRequirements:
		optional(d, p, k, v)
	case *openapi3.Tags:
		*p = listOf(d, k, v, elem[*openapi3.Tag])
	case **openapi3.Components:
		object(d, p, k, v)
	case **openapi3.Info:
		object(d, p, k, v)
	case **openapi3.Contact:
		object(d, p, k, v)
	case **openapi3.License:
		object(d, p, k, v)
	case **openapi3.Paths:
		object(d, p, k, v)
	case **openapi3.Operation:
		object(d, p, k, v)
	case **openapi3.Responses:
		object(d, p, k, v)
	case **openapi3.Tag:
		object(d, p, k, v)
	case **openapi3.Server:
		object(d, p, k, v)
	case **openapi3.OAuthFlows:
		object(d, p, k, v)
	case **openapi3.OAuthFlow:
		object(d, p, k, v)
	case **openapi3.ExternalDocs:
		object(d, p, k, v)
	case **openapi3.Discriminator:
		object(d, p, k, v)
	case **openapi3.XML:
		object(d, p, k, v)
	default:
		panic("openapi: set has no case for this field type (see TestDecodeTables)")
	}
}

// fill decodes the object m into x, a kin-openapi value, by the table of
// x's type: each key, and the field its value goes to.
func (d *decoder) fill(x any, m map[string]any) {
	switch x := x.(type) {
	case *openapi3.Schema: // the most frequent keys first: tables are searched in order
		d.fields(m, true, &x.Extensions, &x.Origin, []field{
			{"type", &x.Type}, {"description", &x.Description}, {"properties", &x.Properties}, {"items", &x.Items},
			{"format", &x.Format}, {"required", &x.Required}, {"enum", &x.Enum}, {"example", &x.Example},
			{"nullable", &x.Nullable}, {"title", &x.Title}, {"default", &x.Default},
			{"allOf", &x.AllOf}, {"oneOf", &x.OneOf}, {"anyOf", &x.AnyOf}, {"not", &x.Not},
			{"additionalProperties", &x.AdditionalProperties}, {"readOnly", &x.ReadOnly}, {"writeOnly", &x.WriteOnly},
			{"deprecated", &x.Deprecated}, {"examples", &x.Examples}, {"const", &x.Const},
			{"minimum", &x.Min}, {"maximum", &x.Max}, {"exclusiveMinimum", &x.ExclusiveMin}, {"exclusiveMaximum", &x.ExclusiveMax},
			{"multipleOf", &x.MultipleOf}, {"minLength", &x.MinLength}, {"maxLength", &x.MaxLength}, {"pattern", &x.Pattern},
			{"minItems", &x.MinItems}, {"maxItems", &x.MaxItems}, {"uniqueItems", &x.UniqueItems},
			{"minProperties", &x.MinProps}, {"maxProperties", &x.MaxProps},
			{"discriminator", &x.Discriminator}, {"xml", &x.XML}, {"externalDocs", &x.ExternalDocs},
			{"allowEmptyValue", &x.AllowEmptyValue},
			{"prefixItems", &x.PrefixItems}, {"contains", &x.Contains}, {"minContains", &x.MinContains}, {"maxContains", &x.MaxContains},
			{"patternProperties", &x.PatternProperties}, {"dependentSchemas", &x.DependentSchemas},
			{"dependentRequired", &x.DependentRequired}, {"propertyNames", &x.PropertyNames},
			{"unevaluatedItems", &x.UnevaluatedItems}, {"unevaluatedProperties", &x.UnevaluatedProperties},
			{"if", &x.If}, {"then", &x.Then}, {"else", &x.Else}, {"$defs", &x.Defs},
			{"$schema", &x.SchemaDialect}, {"$comment", &x.Comment}, {"$id", &x.SchemaID}, {"$anchor", &x.Anchor},
			{"$dynamicRef", &x.DynamicRef}, {"$dynamicAnchor", &x.DynamicAnchor},
			{"contentMediaType", &x.ContentMediaType}, {"contentEncoding", &x.ContentEncoding}, {"contentSchema", &x.ContentSchema},
		})
	case *openapi3.Discriminator:
		d.fields(m, true, &x.Extensions, nil, []field{{"propertyName", &x.PropertyName}, {"mapping", &x.Mapping}})
	case *openapi3.XML:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"name", &x.Name}, {"namespace", &x.Namespace}, {"prefix", &x.Prefix},
			{"attribute", &x.Attribute}, {"wrapped", &x.Wrapped},
		})
	case *openapi3.ExternalDocs:
		d.fields(m, false, &x.Extensions, nil, []field{{"description", &x.Description}, {"url", &x.URL}})
	case *openapi3.Parameter:
		d.fields(m, false, &x.Extensions, &x.Origin, []field{
			{"name", &x.Name}, {"in", &x.In}, {"description", &x.Description}, {"required", &x.Required},
			{"schema", &x.Schema}, {"style", &x.Style}, {"explode", &x.Explode}, {"deprecated", &x.Deprecated},
			{"allowEmptyValue", &x.AllowEmptyValue}, {"allowReserved", &x.AllowReserved},
			{"example", &x.Example}, {"examples", &x.Examples}, {"content", &x.Content},
		})
	case *openapi3.Header:
		d.fill(&x.Parameter, m)
	case *openapi3.RequestBody:
		d.fields(m, false, &x.Extensions, &x.Origin, []field{
			{"description", &x.Description}, {"required", &x.Required}, {"content", &x.Content},
		})
	case *openapi3.Response:
		d.fields(m, false, &x.Extensions, &x.Origin, []field{
			{"description", &x.Description}, {"headers", &x.Headers}, {"content", &x.Content}, {"links", &x.Links},
		})
	case *openapi3.MediaType:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"schema", &x.Schema}, {"itemSchema", &x.ItemSchema}, {"example", &x.Example}, {"examples", &x.Examples},
			{"encoding", &x.Encoding},
		})
	case *openapi3.Encoding:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"contentType", &x.ContentType}, {"headers", &x.Headers}, {"style", &x.Style}, {"explode", &x.Explode},
			{"allowReserved", &x.AllowReserved},
		})
	case *openapi3.Example:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"summary", &x.Summary}, {"description", &x.Description}, {"value", &x.Value}, {"externalValue", &x.ExternalValue},
		})
	case *openapi3.Link:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"operationRef", &x.OperationRef}, {"operationId", &x.OperationID}, {"description", &x.Description},
			{"parameters", &x.Parameters}, {"server", &x.Server}, {"requestBody", &x.RequestBody},
		})
	case *openapi3.Callback:
		*x = *openapi3.NewCallbackWithCapacity(len(m))
		named(d, m, &x.Extensions, x.Set, pathItemAt)
	case *openapi3.Responses:
		*x = *openapi3.NewResponsesWithCapacity(len(m))
		named(d, m, &x.Extensions, x.Set, refAt[openapi3.ResponseRef])
	case *openapi3.Paths:
		*x = *openapi3.NewPathsWithCapacity(len(m))
		named(d, m, &x.Extensions, x.Set, pathItemAt)
	case *openapi3.PathItem: // its $ref (siblings or not) is resolved by kin-openapi
		d.fields(m, false, &x.Extensions, nil, []field{
			{"get", &x.Get}, {"post", &x.Post}, {"put", &x.Put}, {"patch", &x.Patch}, {"delete", &x.Delete},
			{"head", &x.Head}, {"options", &x.Options}, {"trace", &x.Trace}, {"connect", &x.Connect}, {"query", &x.Query},
			{"parameters", &x.Parameters}, {"$ref", &x.Ref}, {"summary", &x.Summary}, {"description", &x.Description},
			{"servers", &x.Servers}, {"additionalOperations", &x.AdditionalOperations},
		})
		if x.Ref != "" {
			d.useRef(x.Ref, kindPathItem, m, x)
		}
	case *openapi3.Server:
		d.fields(m, false, &x.Extensions, nil, []field{{"url", &x.URL}, {"description", &x.Description}, {"variables", &x.Variables}})
	case *openapi3.ServerVariable:
		d.fields(m, false, &x.Extensions, nil, []field{{"enum", &x.Enum}, {"default", &x.Default}, {"description", &x.Description}})
	case *openapi3.Operation:
		d.fields(m, false, &x.Extensions, &x.Origin, []field{
			{"operationId", &x.OperationID}, {"responses", &x.Responses}, {"parameters", &x.Parameters},
			{"summary", &x.Summary}, {"description", &x.Description}, {"tags", &x.Tags},
			{"requestBody", &x.RequestBody}, {"callbacks", &x.Callbacks}, {"deprecated", &x.Deprecated},
			{"security", &x.Security}, {"servers", &x.Servers}, {"externalDocs", &x.ExternalDocs},
		})
	case *openapi3.SecurityScheme:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"type", &x.Type}, {"description", &x.Description}, {"name", &x.Name}, {"in", &x.In},
			{"scheme", &x.Scheme}, {"bearerFormat", &x.BearerFormat}, {"openIdConnectUrl", &x.OpenIdConnectUrl},
			{"flows", &x.Flows},
		})
	case *openapi3.OAuthFlows:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"implicit", &x.Implicit}, {"password", &x.Password},
			{"clientCredentials", &x.ClientCredentials}, {"authorizationCode", &x.AuthorizationCode},
		})
	case *openapi3.OAuthFlow:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"authorizationUrl", &x.AuthorizationURL}, {"tokenUrl", &x.TokenURL}, {"refreshUrl", &x.RefreshURL},
			{"scopes", &x.Scopes},
		})
	case *openapi3.Components:
		d.fields(m, false, &x.Extensions, nil, componentsTable(x))
	case *openapi3.Info:
		d.fields(m, false, &x.Extensions, nil, []field{
			{"title", &x.Title}, {"summary", &x.Summary}, {"description", &x.Description},
			{"termsOfService", &x.TermsOfService}, {"version", &x.Version}, {"contact", &x.Contact}, {"license", &x.License},
		})
	case *openapi3.Contact:
		d.fields(m, false, &x.Extensions, nil, []field{{"name", &x.Name}, {"url", &x.URL}, {"email", &x.Email}})
	case *openapi3.License:
		d.fields(m, false, &x.Extensions, nil, []field{{"name", &x.Name}, {"url", &x.URL}, {"identifier", &x.Identifier}})
	case *openapi3.Tag:
		d.fields(m, false, &x.Extensions, nil, []field{{"name", &x.Name}, {"description", &x.Description}, {"externalDocs", &x.ExternalDocs}})
	default:
		panic("openapi: fill has no table for this type (see TestDecodeTables)")
	}
}

// named decodes an object of named values (Paths, Responses, a Callback),
// each with one, into set; its x- extensions go to *ext, never nil.
func named[V any](d *decoder, m map[string]any, ext *map[string]any, set func(string, V), one func(*decoder, string, any) V) {
	*ext = map[string]any{}
	for k, v := range m {
		switch {
		case k == originKey:
		case strings.HasPrefix(k, "x-"):
			(*ext)[k] = d.anyValue(k, v)
		default:
			set(k, one(d, k, v))
		}
	}
}

// member decodes the top-level member k: v into doc.
// componentsTable is the table of Components (fill).
func componentsTable(x *openapi3.Components) []field {
	return []field{
		{"schemas", &x.Schemas}, {"parameters", &x.Parameters}, {"headers", &x.Headers},
		{"requestBodies", &x.RequestBodies}, {"responses", &x.Responses}, {"securitySchemes", &x.SecuritySchemes},
		{"examples", &x.Examples}, {"links", &x.Links}, {"callbacks", &x.Callbacks},
	}
}

// componentMembers decodes m, the document's components, into x as member
// does: d (at the document's root) decodes the extensions and the other
// small members, and each member of the table a new decoder in its own
// goroutine (on wg), returned. They write different fields of x.
func (d *decoder) componentMembers(x *openapi3.Components, m map[string]any, wg *sync.WaitGroup) []*decoder {
	table := componentsTable(x)
	var decs []*decoder
	rest := map[string]any{}
	for k, v := range m {
		i := slices.IndexFunc(table, func(f field) bool { return f.key == k })
		if i < 0 {
			rest[k] = v
			continue
		}
		sub := &decoder{file: d.file, path: []string{"components"}}
		decs = append(decs, sub)
		wg.Go(func() { sub.fields(map[string]any{k: v}, false, &x.Extensions, nil, table[i:i+1]) })
	}
	d.at("components", func() { d.fields(rest, false, &x.Extensions, nil, table[:0]) })
	return decs
}

func (d *decoder) member(doc *openapi3.T, k string, v any) {
	d.fields(map[string]any{k: v}, false, &doc.Extensions, nil, []field{
		{"openapi", &doc.OpenAPI}, {"info", &doc.Info}, {"paths", &doc.Paths}, {"components", &doc.Components},
		{"security", &doc.Security}, {"servers", &doc.Servers}, {"tags", &doc.Tags}, {"externalDocs", &doc.ExternalDocs},
		{"webhooks", &doc.Webhooks}, {"jsonSchemaDialect", &doc.JSONSchemaDialect},
	})
}
