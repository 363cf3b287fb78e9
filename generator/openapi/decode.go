package openapi

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// The decoder.
//
// An OpenAPI 3 document is parsed once into a tree of maps and slices
// (jsontree.go for JSON, yamltree.go for YAML: map[string]any, []any,
// string, json.Number, bool, nil), then built into kin-openapi's exported
// types by the code below, one function per type, as kin-openapi's own
// UnmarshalJSON methods would build them: the keys a type does not know go
// to its Extensions, "type" is a string or a list, exclusiveMinimum a
// boolean (3.0) or a number (3.1), a schema may be a boolean, and so on.
// kin-openapi's path takes 1.3-2.0 s on GitHub's 3.7 MB description where
// this one takes 0.3-0.5 s, as every kin-openapi type decodes its raw JSON
// twice and its children again.
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
	// strict makes an annotation of the wrong type an error too, as for
	// kin-openapi when it decodes the target of a $ref (refs.go's decodes).
	strict bool
}

// decodes reports whether the object m decodes as an object of kind k
// without error, strictly.
func decodes(k refKind, m map[string]any) bool {
	d := &decoder{strict: true}
	switch k {
	case kindSchema:
		d.schemaRef(m)
	case kindParameter:
		d.parameterRef(m)
	case kindHeader:
		d.headerRef(m)
	case kindRequestBody:
		d.requestBodyRef(m)
	case kindResponse:
		d.responseRef(m)
	case kindExample:
		d.exampleRef(m)
	case kindLink:
		d.linkRef(m)
	case kindCallback:
		d.callbackRef(m)
	case kindSecurityScheme:
		d.securitySchemeRef(m)
	case kindPathItem:
		d.pathItem(m)
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
func (d *decoder) wrong(key string, v any, want byte, inSchema bool) {
	if key == "" { // the current value, a member of a map of names
		d.fail(d.ptr(), fmt.Sprintf("%s where %s belongs", kindNames[kindOf(v)], kindNames[want]))
		return
	}
	if annotationKind(key, inSchema, false) != 0 && !d.strict {
		d.diags = append(d.diags, diag.Diagnostic{Severity: diag.Warning, Kind: diag.LeftOut,
			Pos:     diag.Pos{File: d.file, Pointer: d.ptr(key)},
			Message: fmt.Sprintf("%q is %s where %s belongs; it only annotates or documents, and is ignored", key, kindNames[kindOf(v)], kindNames[want])})
		return
	}
	d.fail(d.ptr(key), fmt.Sprintf("%q is %s where %s belongs", key, kindNames[kindOf(v)], kindNames[want]))
}

// fail records an error at ptr (the first one wins).
func (d *decoder) fail(ptr, msg string) {
	if d.errMsg == "" {
		d.errPtr, d.errMsg = ptr, msg
	}
}

// str decodes a string member (null leaves it empty).
func (d *decoder) str(key string, v any, in bool) string {
	switch s := v.(type) {
	case string:
		return s
	case nil:
	default:
		d.wrong(key, v, 's', in)
	}
	return ""
}

func (d *decoder) boolean(key string, v any, in bool) bool {
	switch b := v.(type) {
	case bool:
		return b
	case nil:
	default:
		d.wrong(key, v, 'b', in)
	}
	return false
}

func (d *decoder) boolPtr(key string, v any) *bool {
	if v == nil {
		return nil
	}
	b := d.boolean(key, v, false)
	return &b
}

// float decodes a number; ok is false for null or the wrong kind.
func (d *decoder) float(key string, v any) (float64, bool) {
	switch n := v.(type) {
	case float64: // made plain by an earlier pass
		return n, true
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			d.fail(d.ptr(key), fmt.Sprintf("%q: %v", key, err))
		}
		return f, err == nil
	case nil:
	default:
		d.wrong(key, v, 'n', true)
	}
	return 0, false
}

func (d *decoder) floatPtr(key string, v any) *float64 {
	if f, ok := d.float(key, v); ok {
		return &f
	}
	return nil
}

func (d *decoder) uintPtr(key string, v any) *uint64 {
	if f, ok := v.(float64); ok {
		v = json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	if n, ok := v.(json.Number); ok {
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil {
			d.fail(d.ptr(key), fmt.Sprintf("%q is %s, not a non-negative integer", key, n))
			return nil
		}
		return &u
	}
	if v != nil {
		d.wrong(key, v, 'n', true)
	}
	return nil
}

func (d *decoder) uint(key string, v any) uint64 {
	if p := d.uintPtr(key, v); p != nil {
		return *p
	}
	return 0
}

// obj returns v as an object; null and the wrong kind give nil.
func (d *decoder) obj(key string, v any, in bool) map[string]any {
	m, ok := v.(map[string]any)
	if !ok && v != nil {
		d.wrong(key, v, 'o', in)
	}
	return m
}

func (d *decoder) list(key string, v any, in bool) []any {
	a, ok := v.([]any)
	if !ok && v != nil {
		d.wrong(key, v, 'a', in)
	}
	return a
}

func (d *decoder) strs(key string, v any, in bool) []string {
	a := d.list(key, v, in)
	if a == nil {
		return nil
	}
	out := make([]string, len(a))
	d.push(key)
	for i, e := range a {
		out[i] = d.str(strconv.Itoa(i), e, in)
	}
	d.pop()
	return out
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

func (d *decoder) anys(key string, v any, in bool) []any {
	a := d.list(key, v, in)
	if a == nil {
		return nil
	}
	out, _ := d.anyValue(key, a).([]any)
	return out
}

// ext adds the member k: v to the extensions.
func (d *decoder) ext(m *map[string]any, k string, v any) {
	if k == originKey {
		return
	}
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[k] = d.anyValue(k, v)
}

// member is a decoded child: the callback decodes the value of key under
// the current path.
func (d *decoder) at(key string, f func()) {
	d.push(key)
	f()
	d.pop()
}

// members iterates over the members of an object of a tree, without the
// position a YAML mapping holds (originKey).
func members(m map[string]any) iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for k, v := range m {
			if k != originKey && !yield(k, v) {
				return
			}
		}
	}
}

// refObject reports whether m is a reference object, and whether it is
// only {"$ref": "..."}.
func refObject(m map[string]any) (ref string, only, ok bool) {
	ref, ok = m["$ref"].(string)
	return ref, ok && len(m) == 1, ok && ref != ""
}

// useRef records a $ref of the current object m, decoded into slot.
func (d *decoder) useRef(ref string, kind refKind, m map[string]any, slot any) {
	d.refs = append(d.refs, refUse{ref: ref, kind: kind, path: slices.Clone(d.path), m: m, slot: slot})
}

// disable decodes the object of u again without its $ref, into its slot.
func (d *decoder) disable(u refUse) {
	d.path = u.path
	m := without(u.m)
	switch r := u.slot.(type) {
	case *openapi3.SchemaRef:
		*r = openapi3.SchemaRef{Value: d.schema(m)}
	case *openapi3.ParameterRef:
		*r = openapi3.ParameterRef{Value: d.parameter(m)}
	case *openapi3.HeaderRef:
		*r = openapi3.HeaderRef{Value: d.header(m)}
	case *openapi3.RequestBodyRef:
		*r = openapi3.RequestBodyRef{Value: d.requestBody(m)}
	case *openapi3.ResponseRef:
		*r = openapi3.ResponseRef{Value: d.response(m)}
	case *openapi3.ExampleRef:
		*r = openapi3.ExampleRef{Value: d.example(m)}
	case *openapi3.LinkRef:
		*r = openapi3.LinkRef{Value: d.link(m)}
	case *openapi3.CallbackRef:
		*r = openapi3.CallbackRef{Value: d.callback(m)}
	case *openapi3.SecuritySchemeRef:
		*r = openapi3.SecuritySchemeRef{Value: d.securityScheme(m)}
	case *openapi3.PathItem:
		r.Ref = ""
	}
}

// siblings decodes a reference object with sibling keys through the
// reference type's own UnmarshalJSON (see the top of the file).
func (d *decoder) siblings(dst json.Unmarshaler, m map[string]any) {
	p, ok := plain(m)
	if !ok {
		d.fail(d.ptr(), "a number out of range")
		return
	}
	b, err := json.Marshal(p)
	if err == nil {
		err = dst.UnmarshalJSON(b)
	}
	if err != nil {
		d.fail(d.ptr(), err.Error())
	}
}

// without returns m without its $ref (a disabled reference).
func without(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != "$ref" {
			out[k] = v
		}
	}
	return out
}

// schemaRef decodes a schema or a reference to one (the current value).
func (d *decoder) schemaRef(v any) *openapi3.SchemaRef {
	m, ok := v.(map[string]any)
	if !ok {
		if b, isBool := v.(bool); isBool {
			return &openapi3.SchemaRef{Value: &openapi3.Schema{Always: &b}}
		}
		if v != nil {
			d.fail(d.ptr(), fmt.Sprintf("a schema is %s where an object or a boolean belongs", kindNames[kindOf(v)]))
		}
		return nil
	}
	r := &openapi3.SchemaRef{}
	if ref, only, isRef := refObject(m); isRef {
		if only {
			r.Ref = ref
		} else {
			d.siblings(r, m)
		}
		d.useRef(ref, kindSchema, m, r)
		return r
	}
	r.Value = d.schema(m)
	return r
}

func (d *decoder) schemaRefAt(key string, v any) (r *openapi3.SchemaRef) {
	if v == nil {
		return nil
	}
	d.at(key, func() { r = d.schemaRef(v) })
	return r
}

func (d *decoder) schemaList(key string, v any) openapi3.SchemaRefs {
	a := d.list(key, v, true)
	if a == nil {
		return nil
	}
	out := make(openapi3.SchemaRefs, len(a))
	d.push(key)
	for i, e := range a {
		d.at(strconv.Itoa(i), func() { out[i] = d.schemaRef(e) })
	}
	d.pop()
	return out
}

func (d *decoder) schemaMap(key string, v any) openapi3.Schemas {
	m := d.obj(key, v, true)
	if m == nil {
		return nil
	}
	out := make(openapi3.Schemas, len(m))
	d.push(key)
	for k, e := range members(m) {
		d.at(k, func() { out[k] = d.schemaRef(e) })
	}
	d.pop()
	return out
}

// boolSchema decodes additionalProperties and the like: a boolean or a schema.
func (d *decoder) boolSchema(key string, v any) (bs openapi3.BoolSchema) {
	switch x := v.(type) {
	case nil:
	case bool:
		bs.Has = &x
	case map[string]any:
		bs.Schema = d.schemaRefAt(key, x)
	default:
		d.fail(d.ptr(key), fmt.Sprintf("%q is %s where a boolean or a schema belongs", key, kindNames[kindOf(v)]))
	}
	return bs
}

// exclusiveBound decodes exclusiveMinimum/Maximum: a boolean (3.0) or a number (3.1).
func (d *decoder) exclusiveBound(key string, v any) (eb openapi3.ExclusiveBound) {
	switch x := v.(type) {
	case nil:
	case bool:
		eb.Bool = &x
	case json.Number:
		eb.Value = d.floatPtr(key, x)
	default:
		d.fail(d.ptr(key), fmt.Sprintf("%q is %s where a boolean or a number belongs", key, kindNames[kindOf(v)]))
	}
	return eb
}

// types decodes "type": a string or a list of strings.
func (d *decoder) types(v any) *openapi3.Types {
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		return &openapi3.Types{x}
	case []any:
		t := make(openapi3.Types, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				d.fail(d.ptr("type", strconv.Itoa(i)), "a type that is not a string")
			}
			t[i] = s
		}
		return &t
	}
	d.fail(d.ptr("type"), fmt.Sprintf(`"type" is %s where a string or a list belongs`, kindNames[kindOf(v)]))
	return nil
}

// schema decodes a Schema object (the current value).
func (d *decoder) schema(m map[string]any) *openapi3.Schema {
	s := &openapi3.Schema{}
	const in = true
	for k, v := range m {
		switch k {
		case "oneOf":
			s.OneOf = d.schemaList(k, v)
		case "anyOf":
			s.AnyOf = d.schemaList(k, v)
		case "allOf":
			s.AllOf = d.schemaList(k, v)
		case "not":
			s.Not = d.schemaRefAt(k, v)
		case "type":
			s.Type = d.types(v)
		case "title":
			s.Title = d.str(k, v, in)
		case "format":
			s.Format = d.str(k, v, in)
		case "description":
			s.Description = d.str(k, v, in)
		case "enum":
			s.Enum = d.anys(k, v, in)
		case "default":
			s.Default = d.anyValue(k, v)
		case "example":
			s.Example = d.anyValue(k, v)
		case "externalDocs":
			s.ExternalDocs = d.externalDocs(k, v, in)
		case "uniqueItems":
			s.UniqueItems = d.boolean(k, v, in)
		case "exclusiveMinimum":
			s.ExclusiveMin = d.exclusiveBound(k, v)
		case "exclusiveMaximum":
			s.ExclusiveMax = d.exclusiveBound(k, v)
		case "nullable":
			s.Nullable = d.boolean(k, v, in)
		case "readOnly":
			s.ReadOnly = d.boolean(k, v, in)
		case "writeOnly":
			s.WriteOnly = d.boolean(k, v, in)
		case "allowEmptyValue":
			s.AllowEmptyValue = d.boolean(k, v, in)
		case "deprecated":
			s.Deprecated = d.boolean(k, v, in)
		case "xml":
			s.XML = d.xml(k, v)
		case "minimum":
			s.Min = d.floatPtr(k, v)
		case "maximum":
			s.Max = d.floatPtr(k, v)
		case "multipleOf":
			s.MultipleOf = d.floatPtr(k, v)
		case "minLength":
			s.MinLength = d.uint(k, v)
		case "maxLength":
			s.MaxLength = d.uintPtr(k, v)
		case "pattern":
			s.Pattern = d.str(k, v, in)
		case "minItems":
			s.MinItems = d.uint(k, v)
		case "maxItems":
			s.MaxItems = d.uintPtr(k, v)
		case "items":
			s.Items = d.schemaRefAt(k, v)
		case "required":
			s.Required = d.strs(k, v, in)
		case "properties":
			s.Properties = d.schemaMap(k, v)
		case "minProperties":
			s.MinProps = d.uint(k, v)
		case "maxProperties":
			s.MaxProps = d.uintPtr(k, v)
		case "additionalProperties":
			s.AdditionalProperties = d.boolSchema(k, v)
		case "discriminator":
			s.Discriminator = d.discriminator(k, v)
		case "const":
			s.Const = d.anyValue(k, v)
		case "examples":
			s.Examples = d.anys(k, v, in)
		case "prefixItems":
			s.PrefixItems = d.schemaList(k, v)
		case "contains":
			s.Contains = d.schemaRefAt(k, v)
		case "minContains":
			s.MinContains = d.uintPtr(k, v)
		case "maxContains":
			s.MaxContains = d.uintPtr(k, v)
		case "patternProperties":
			s.PatternProperties = d.schemaMap(k, v)
		case "dependentSchemas":
			s.DependentSchemas = d.schemaMap(k, v)
		case "propertyNames":
			s.PropertyNames = d.schemaRefAt(k, v)
		case "unevaluatedItems":
			s.UnevaluatedItems = d.boolSchema(k, v)
		case "unevaluatedProperties":
			s.UnevaluatedProperties = d.boolSchema(k, v)
		case "if":
			s.If = d.schemaRefAt(k, v)
		case "then":
			s.Then = d.schemaRefAt(k, v)
		case "else":
			s.Else = d.schemaRefAt(k, v)
		case "dependentRequired":
			if o := d.obj(k, v, in); o != nil {
				s.DependentRequired = make(map[string][]string, len(o))
				d.at(k, func() {
					for name, e := range members(o) {
						s.DependentRequired[name] = d.strs(name, e, in)
					}
				})
			}
		case "$defs":
			s.Defs = d.schemaMap(k, v)
		case "$schema":
			s.SchemaDialect = d.str(k, v, in)
		case "$comment":
			s.Comment = d.str(k, v, in)
		case "$id":
			s.SchemaID = d.str(k, v, in)
		case "$anchor":
			s.Anchor = d.str(k, v, in)
		case "$dynamicRef":
			s.DynamicRef = d.str(k, v, in)
		case "$dynamicAnchor":
			s.DynamicAnchor = d.str(k, v, in)
		case "contentMediaType":
			s.ContentMediaType = d.str(k, v, in)
		case "contentEncoding":
			s.ContentEncoding = d.str(k, v, in)
		case "contentSchema":
			s.ContentSchema = d.schemaRefAt(k, v)
		case originKey:
			s.Origin = origin(v)
		default:
			d.ext(&s.Extensions, k, v)
		}
	}
	return s
}

func (d *decoder) discriminator(key string, v any) *openapi3.Discriminator {
	m := d.obj(key, v, true)
	if m == nil {
		return nil
	}
	x := &openapi3.Discriminator{}
	d.at(key, func() {
		for k, v := range m {
			switch k {
			case "propertyName":
				x.PropertyName = d.str(k, v, true)
			case "mapping":
				if o := d.obj(k, v, true); o != nil {
					x.Mapping = make(map[string]openapi3.MappingRef, len(o))
					d.at(k, func() {
						for name, e := range members(o) {
							x.Mapping[name] = openapi3.MappingRef{Ref: d.str(name, e, true)}
						}
					})
				}
			default:
				d.ext(&x.Extensions, k, v)
			}
		}
	})
	return x
}

func (d *decoder) xml(key string, v any) *openapi3.XML {
	m := d.obj(key, v, true)
	if m == nil {
		return nil
	}
	x := &openapi3.XML{}
	d.at(key, func() {
		for k, v := range m {
			switch k {
			case "name":
				x.Name = d.str(k, v, false)
			case "namespace":
				x.Namespace = d.str(k, v, false)
			case "prefix":
				x.Prefix = d.str(k, v, false)
			case "attribute":
				x.Attribute = d.boolean(k, v, false)
			case "wrapped":
				x.Wrapped = d.boolean(k, v, false)
			default:
				d.ext(&x.Extensions, k, v)
			}
		}
	})
	return x
}

func (d *decoder) externalDocs(key string, v any, in bool) *openapi3.ExternalDocs {
	m := d.obj(key, v, in)
	if m == nil {
		return nil
	}
	x := &openapi3.ExternalDocs{}
	d.at(key, func() {
		for k, v := range m {
			switch k {
			case "description":
				x.Description = d.str(k, v, false)
			case "url":
				x.URL = d.str(k, v, false)
			default:
				d.ext(&x.Extensions, k, v)
			}
		}
	})
	return x
}

// refOr decodes the current value v, a reference object or an object
// built by build, into the reference wrapper that wrap makes.
func refOr[R any, V any](d *decoder, v any, kind refKind, build func(map[string]any) *V, wrap func(ref string, val *V) *R) *R {
	m := d.obj("", v, false)
	if m == nil {
		return nil
	}
	ref, only, ok := refObject(m)
	if !ok {
		return wrap("", build(m))
	}
	r := wrap(ref, nil)
	if !only {
		r = wrap("", nil)
		d.siblings(any(r).(json.Unmarshaler), m)
	}
	d.useRef(ref, kind, m, r)
	return r
}

func (d *decoder) parameterRef(v any) *openapi3.ParameterRef {
	return refOr(d, v, kindParameter, d.parameter, func(ref string, x *openapi3.Parameter) *openapi3.ParameterRef {
		return &openapi3.ParameterRef{Ref: ref, Value: x}
	})
}

func (d *decoder) headerRef(v any) *openapi3.HeaderRef {
	return refOr(d, v, kindHeader, d.header, func(ref string, x *openapi3.Header) *openapi3.HeaderRef {
		return &openapi3.HeaderRef{Ref: ref, Value: x}
	})
}

func (d *decoder) header(m map[string]any) *openapi3.Header {
	return &openapi3.Header{Parameter: *d.parameter(m)}
}

func (d *decoder) requestBodyRef(v any) *openapi3.RequestBodyRef {
	return refOr(d, v, kindRequestBody, d.requestBody, func(ref string, x *openapi3.RequestBody) *openapi3.RequestBodyRef {
		return &openapi3.RequestBodyRef{Ref: ref, Value: x}
	})
}

func (d *decoder) responseRef(v any) *openapi3.ResponseRef {
	return refOr(d, v, kindResponse, d.response, func(ref string, x *openapi3.Response) *openapi3.ResponseRef {
		return &openapi3.ResponseRef{Ref: ref, Value: x}
	})
}

func (d *decoder) exampleRef(v any) *openapi3.ExampleRef {
	return refOr(d, v, kindExample, d.example, func(ref string, x *openapi3.Example) *openapi3.ExampleRef {
		return &openapi3.ExampleRef{Ref: ref, Value: x}
	})
}

func (d *decoder) linkRef(v any) *openapi3.LinkRef {
	return refOr(d, v, kindLink, d.link, func(ref string, x *openapi3.Link) *openapi3.LinkRef {
		return &openapi3.LinkRef{Ref: ref, Value: x}
	})
}

func (d *decoder) callbackRef(v any) *openapi3.CallbackRef {
	return refOr(d, v, kindCallback, d.callback, func(ref string, x *openapi3.Callback) *openapi3.CallbackRef {
		return &openapi3.CallbackRef{Ref: ref, Value: x}
	})
}

func (d *decoder) securitySchemeRef(v any) *openapi3.SecuritySchemeRef {
	return refOr(d, v, kindSecurityScheme, d.securityScheme, func(ref string, x *openapi3.SecurityScheme) *openapi3.SecuritySchemeRef {
		return &openapi3.SecuritySchemeRef{Ref: ref, Value: x}
	})
}

// refMap decodes an object of named objects (or references) at key.
func refMap[T any](d *decoder, key string, v any, one func(any) *T) map[string]*T {
	m := d.obj(key, v, false)
	if m == nil {
		return nil
	}
	out := make(map[string]*T, len(m))
	d.push(key)
	for k, e := range members(m) {
		d.at(k, func() { out[k] = one(e) })
	}
	d.pop()
	return out
}

// examples decodes an "examples" object of Example objects; one that is
// not (lenient.go: an annotation) is ignored with a warning.
func (d *decoder) examples(key string, v any) openapi3.Examples {
	if m, ok := v.(map[string]any); ok {
		for _, e := range members(m) {
			if k := kindOf(e); k != 'o' && k != 'z' {
				d.wrong(key, v, 'e', false)
				return nil
			}
		}
	}
	return refMap(d, key, v, d.exampleRef)
}

func (d *decoder) content(key string, v any) openapi3.Content {
	return refMap(d, key, v, func(v any) *openapi3.MediaType { return d.mediaType(d.obj("", v, false)) })
}

func (d *decoder) parameter(m map[string]any) *openapi3.Parameter {
	p := &openapi3.Parameter{}
	for k, v := range m {
		switch k {
		case "name":
			p.Name = d.str(k, v, false)
		case "in":
			p.In = d.str(k, v, false)
		case "description":
			p.Description = d.str(k, v, false)
		case "style":
			p.Style = d.str(k, v, false)
		case "explode":
			p.Explode = d.boolPtr(k, v)
		case "allowEmptyValue":
			p.AllowEmptyValue = d.boolean(k, v, false)
		case "allowReserved":
			p.AllowReserved = d.boolean(k, v, false)
		case "deprecated":
			p.Deprecated = d.boolean(k, v, false)
		case "required":
			p.Required = d.boolean(k, v, false)
		case "schema":
			p.Schema = d.schemaRefAt(k, v)
		case "example":
			p.Example = d.anyValue(k, v)
		case "examples":
			p.Examples = d.examples(k, v)
		case "content":
			p.Content = d.content(k, v)
		case originKey:
			p.Origin = origin(v)
		default:
			d.ext(&p.Extensions, k, v)
		}
	}
	return p
}

func (d *decoder) requestBody(m map[string]any) *openapi3.RequestBody {
	b := &openapi3.RequestBody{}
	for k, v := range m {
		switch k {
		case "description":
			b.Description = d.str(k, v, false)
		case "required":
			b.Required = d.boolean(k, v, false)
		case "content":
			b.Content = d.content(k, v)
		case originKey:
			b.Origin = origin(v)
		default:
			d.ext(&b.Extensions, k, v)
		}
	}
	return b
}

func (d *decoder) response(m map[string]any) *openapi3.Response {
	r := &openapi3.Response{}
	for k, v := range m {
		switch k {
		case "description":
			if v != nil {
				s := d.str(k, v, false)
				r.Description = &s
			}
		case "headers":
			r.Headers = refMap(d, k, v, d.headerRef)
		case "content":
			r.Content = d.content(k, v)
		case "links":
			r.Links = refMap(d, k, v, d.linkRef)
		case originKey:
			r.Origin = origin(v)
		default:
			d.ext(&r.Extensions, k, v)
		}
	}
	return r
}

func (d *decoder) mediaType(m map[string]any) *openapi3.MediaType {
	if m == nil {
		return nil
	}
	x := &openapi3.MediaType{}
	for k, v := range m {
		switch k {
		case "schema":
			x.Schema = d.schemaRefAt(k, v)
		case "itemSchema":
			x.ItemSchema = d.schemaRefAt(k, v)
		case "example":
			x.Example = d.anyValue(k, v)
		case "examples":
			x.Examples = d.examples(k, v)
		case "encoding":
			x.Encoding = refMap(d, k, v, func(v any) *openapi3.Encoding { return d.encoding(d.obj("", v, false)) })
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

func (d *decoder) encoding(m map[string]any) *openapi3.Encoding {
	if m == nil {
		return nil
	}
	x := &openapi3.Encoding{}
	for k, v := range m {
		switch k {
		case "contentType":
			x.ContentType = d.str(k, v, false)
		case "headers":
			x.Headers = refMap(d, k, v, d.headerRef)
		case "style":
			x.Style = d.str(k, v, false)
		case "explode":
			x.Explode = d.boolPtr(k, v)
		case "allowReserved":
			x.AllowReserved = d.boolean(k, v, false)
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

func (d *decoder) example(m map[string]any) *openapi3.Example {
	x := &openapi3.Example{}
	for k, v := range m {
		switch k {
		case "summary":
			x.Summary = d.str(k, v, false)
		case "description":
			x.Description = d.str(k, v, false)
		case "value":
			x.Value = d.anyValue(k, v)
		case "externalValue":
			x.ExternalValue = d.str(k, v, false)
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

func (d *decoder) link(m map[string]any) *openapi3.Link {
	x := &openapi3.Link{}
	for k, v := range m {
		switch k {
		case "operationRef":
			x.OperationRef = d.str(k, v, false)
		case "operationId":
			x.OperationID = d.str(k, v, false)
		case "description":
			x.Description = d.str(k, v, false)
		case "parameters":
			if o := d.obj(k, v, false); o != nil {
				x.Parameters, _ = d.anyValue(k, o).(map[string]any)
			}
		case "server":
			if o := d.obj(k, v, false); o != nil {
				d.at(k, func() { x.Server = d.server(o) })
			}
		case "requestBody":
			x.RequestBody = d.anyValue(k, v)
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

// mapExtensions splits an object of named values from its x- extensions
// (Paths, Responses, Callback: their extensions are never nil).
func (d *decoder) mapLike(m map[string]any, ext map[string]any, set func(k string, v any)) {
	for k, v := range members(m) {
		if strings.HasPrefix(k, "x-") {
			ext[k] = d.anyValue(k, v)
			continue
		}
		d.at(k, func() { set(k, v) })
	}
}

func (d *decoder) callback(m map[string]any) *openapi3.Callback {
	c := openapi3.NewCallbackWithCapacity(len(m))
	c.Extensions = map[string]any{}
	d.mapLike(m, c.Extensions, func(k string, v any) { c.Set(k, d.pathItem(d.obj("", v, false))) })
	return c
}

func (d *decoder) responses(m map[string]any) *openapi3.Responses {
	r := openapi3.NewResponsesWithCapacity(len(m))
	r.Extensions = map[string]any{}
	d.mapLike(m, r.Extensions, func(k string, v any) { r.Set(k, d.responseRef(v)) })
	return r
}

func (d *decoder) paths(m map[string]any) *openapi3.Paths {
	p := openapi3.NewPathsWithCapacity(len(m))
	p.Extensions = map[string]any{}
	d.mapLike(m, p.Extensions, func(k string, v any) { p.Set(k, d.pathItem(d.obj("", v, false))) })
	return p
}

// pathItem decodes a Path Item; its $ref (with or without siblings) is
// resolved by kin-openapi, which merges the siblings.
func (d *decoder) pathItem(m map[string]any) *openapi3.PathItem {
	if m == nil {
		return &openapi3.PathItem{}
	}
	x := &openapi3.PathItem{}
	for k, v := range m {
		switch k {
		case "$ref":
			x.Ref = d.str(k, v, false)
			if x.Ref != "" {
				d.useRef(x.Ref, kindPathItem, m, x)
			}
		case "summary":
			x.Summary = d.str(k, v, false)
		case "description":
			x.Description = d.str(k, v, false)
		case "connect", "delete", "get", "head", "options", "patch", "post", "put", "trace", "query":
			if o := d.obj(k, v, false); o != nil {
				var op *openapi3.Operation
				d.at(k, func() { op = d.operation(o) })
				x.SetOperation(strings.ToUpper(k), op)
			}
		case "servers":
			x.Servers = d.servers(k, v)
		case "parameters":
			x.Parameters = d.parameters(k, v)
		case "additionalOperations":
			x.AdditionalOperations = refMap(d, k, v, func(v any) *openapi3.Operation { return d.operation(d.obj("", v, false)) })
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

func (d *decoder) parameters(key string, v any) openapi3.Parameters {
	a := d.list(key, v, false)
	if a == nil {
		return nil
	}
	out := make(openapi3.Parameters, len(a))
	d.push(key)
	for i, e := range a {
		d.at(strconv.Itoa(i), func() { out[i] = d.parameterRef(e) })
	}
	d.pop()
	return out
}

func (d *decoder) servers(key string, v any) openapi3.Servers {
	a := d.list(key, v, false)
	if a == nil {
		return nil
	}
	out := make(openapi3.Servers, len(a))
	d.push(key)
	for i, e := range a {
		if o := d.obj(strconv.Itoa(i), e, false); o != nil {
			d.at(strconv.Itoa(i), func() { out[i] = d.server(o) })
		}
	}
	d.pop()
	return out
}

func (d *decoder) server(m map[string]any) *openapi3.Server {
	s := &openapi3.Server{}
	for k, v := range m {
		switch k {
		case "url":
			s.URL = d.str(k, v, false)
		case "description":
			s.Description = d.str(k, v, false)
		case "variables":
			s.Variables = refMap(d, k, v, func(v any) *openapi3.ServerVariable {
				o := d.obj("", v, false)
				if o == nil {
					return nil
				}
				sv := &openapi3.ServerVariable{}
				for k, v := range o {
					switch k {
					case "enum":
						sv.Enum = d.strs(k, v, false)
					case "default":
						sv.Default = d.str(k, v, false)
					case "description":
						sv.Description = d.str(k, v, false)
					default:
						d.ext(&sv.Extensions, k, v)
					}
				}
				return sv
			})
		default:
			d.ext(&s.Extensions, k, v)
		}
	}
	return s
}

func (d *decoder) security(key string, v any) openapi3.SecurityRequirements {
	a := d.list(key, v, false)
	if a == nil {
		return nil
	}
	out := make(openapi3.SecurityRequirements, len(a))
	d.push(key)
	for i, e := range a {
		if o := d.obj(strconv.Itoa(i), e, false); o != nil {
			req := make(openapi3.SecurityRequirement, len(o))
			d.at(strconv.Itoa(i), func() {
				for name, scopes := range members(o) {
					req[name] = d.strs(name, scopes, false)
				}
			})
			out[i] = req
		}
	}
	d.pop()
	return out
}

func (d *decoder) operation(m map[string]any) *openapi3.Operation {
	if m == nil {
		return nil
	}
	op := &openapi3.Operation{}
	for k, v := range m {
		switch k {
		case "tags":
			op.Tags = d.strs(k, v, false)
		case "summary":
			op.Summary = d.str(k, v, false)
		case "description":
			op.Description = d.str(k, v, false)
		case "operationId":
			op.OperationID = d.str(k, v, false)
		case "parameters":
			op.Parameters = d.parameters(k, v)
		case "requestBody":
			if v != nil {
				d.at(k, func() { op.RequestBody = d.requestBodyRef(v) })
			}
		case "responses":
			if o := d.obj(k, v, false); o != nil {
				d.at(k, func() { op.Responses = d.responses(o) })
			}
		case "callbacks":
			op.Callbacks = refMap(d, k, v, d.callbackRef)
		case "deprecated":
			op.Deprecated = d.boolean(k, v, false)
		case "security":
			if v != nil {
				s := d.security(k, v)
				op.Security = &s
			}
		case "servers":
			if v != nil {
				s := d.servers(k, v)
				op.Servers = &s
			}
		case "externalDocs":
			op.ExternalDocs = d.externalDocs(k, v, false)
		case originKey:
			op.Origin = origin(v)
		default:
			d.ext(&op.Extensions, k, v)
		}
	}
	return op
}

func (d *decoder) securityScheme(m map[string]any) *openapi3.SecurityScheme {
	s := &openapi3.SecurityScheme{}
	for k, v := range m {
		switch k {
		case "type":
			s.Type = d.str(k, v, false)
		case "description":
			s.Description = d.str(k, v, false)
		case "name":
			s.Name = d.str(k, v, false)
		case "in":
			s.In = d.str(k, v, false)
		case "scheme":
			s.Scheme = d.str(k, v, false)
		case "bearerFormat":
			s.BearerFormat = d.str(k, v, false)
		case "openIdConnectUrl":
			s.OpenIdConnectUrl = d.str(k, v, false)
		case "flows":
			if o := d.obj(k, v, false); o != nil {
				d.at(k, func() { s.Flows = d.oauthFlows(o) })
			}
		default:
			d.ext(&s.Extensions, k, v)
		}
	}
	return s
}

func (d *decoder) oauthFlows(m map[string]any) *openapi3.OAuthFlows {
	f := &openapi3.OAuthFlows{}
	flow := func(k string, v any) *openapi3.OAuthFlow {
		o := d.obj(k, v, false)
		if o == nil {
			return nil
		}
		x := &openapi3.OAuthFlow{}
		d.at(k, func() {
			for k, v := range o {
				switch k {
				case "authorizationUrl":
					x.AuthorizationURL = d.str(k, v, false)
				case "tokenUrl":
					x.TokenURL = d.str(k, v, false)
				case "refreshUrl":
					x.RefreshURL = d.str(k, v, false)
				case "scopes":
					if so := d.obj(k, v, false); so != nil {
						x.Scopes = make(map[string]string, len(so))
						d.at(k, func() {
							for name, e := range members(so) {
								x.Scopes[name] = d.str(name, e, false)
							}
						})
					}
				default:
					d.ext(&x.Extensions, k, v)
				}
			}
		})
		return x
	}
	for k, v := range m {
		switch k {
		case "implicit":
			f.Implicit = flow(k, v)
		case "password":
			f.Password = flow(k, v)
		case "clientCredentials":
			f.ClientCredentials = flow(k, v)
		case "authorizationCode":
			f.AuthorizationCode = flow(k, v)
		default:
			d.ext(&f.Extensions, k, v)
		}
	}
	return f
}

func (d *decoder) components(m map[string]any) *openapi3.Components {
	c := &openapi3.Components{}
	for k, v := range m {
		switch k {
		case "schemas":
			c.Schemas = d.schemaMap(k, v)
		case "parameters":
			c.Parameters = refMap(d, k, v, d.parameterRef)
		case "headers":
			c.Headers = refMap(d, k, v, d.headerRef)
		case "requestBodies":
			c.RequestBodies = refMap(d, k, v, d.requestBodyRef)
		case "responses":
			c.Responses = refMap(d, k, v, d.responseRef)
		case "securitySchemes":
			c.SecuritySchemes = refMap(d, k, v, d.securitySchemeRef)
		case "examples":
			c.Examples = d.examples(k, v)
		case "links":
			c.Links = refMap(d, k, v, d.linkRef)
		case "callbacks":
			c.Callbacks = refMap(d, k, v, d.callbackRef)
		default:
			d.ext(&c.Extensions, k, v)
		}
	}
	return c
}

func (d *decoder) info(m map[string]any) *openapi3.Info {
	x := &openapi3.Info{}
	for k, v := range m {
		switch k {
		case "title":
			x.Title = d.str(k, v, false)
		case "summary":
			x.Summary = d.str(k, v, false)
		case "description":
			x.Description = d.str(k, v, false)
		case "termsOfService":
			x.TermsOfService = d.str(k, v, false)
		case "version":
			x.Version = d.str(k, v, false)
		case "contact":
			if o := d.obj(k, v, false); o != nil {
				c := &openapi3.Contact{}
				d.at(k, func() {
					for k, v := range o {
						switch k {
						case "name":
							c.Name = d.str(k, v, false)
						case "url":
							c.URL = d.str(k, v, false)
						case "email":
							c.Email = d.str(k, v, false)
						default:
							d.ext(&c.Extensions, k, v)
						}
					}
				})
				x.Contact = c
			}
		case "license":
			if o := d.obj(k, v, false); o != nil {
				l := &openapi3.License{}
				d.at(k, func() {
					for k, v := range o {
						switch k {
						case "name":
							l.Name = d.str(k, v, false)
						case "url":
							l.URL = d.str(k, v, false)
						case "identifier":
							l.Identifier = d.str(k, v, false)
						default:
							d.ext(&l.Extensions, k, v)
						}
					}
				})
				x.License = l
			}
		default:
			d.ext(&x.Extensions, k, v)
		}
	}
	return x
}

func (d *decoder) tags(key string, v any) openapi3.Tags {
	a := d.list(key, v, false)
	if a == nil {
		return nil
	}
	out := make(openapi3.Tags, len(a))
	d.push(key)
	for i, e := range a {
		o := d.obj(strconv.Itoa(i), e, false)
		if o == nil {
			continue
		}
		t := &openapi3.Tag{}
		d.at(strconv.Itoa(i), func() {
			for k, v := range o {
				switch k {
				case "name":
					t.Name = d.str(k, v, false)
				case "description":
					t.Description = d.str(k, v, false)
				case "externalDocs":
					t.ExternalDocs = d.externalDocs(k, v, false)
				default:
					d.ext(&t.Extensions, k, v)
				}
			}
		})
		out[i] = t
	}
	d.pop()
	return out
}

// member decodes the top-level member k: v into doc.
func (d *decoder) member(doc *openapi3.T, k string, v any) {
	switch k {
	case "openapi":
		doc.OpenAPI = d.str(k, v, false)
	case "components":
		if o := d.obj(k, v, false); o != nil {
			d.at(k, func() { doc.Components = d.components(o) })
		}
	case "info":
		if o := d.obj(k, v, false); o != nil {
			d.at(k, func() { doc.Info = d.info(o) })
		}
	case "paths":
		if o := d.obj(k, v, false); o != nil {
			d.at(k, func() { doc.Paths = d.paths(o) })
		}
	case "security":
		doc.Security = d.security(k, v)
	case "servers":
		doc.Servers = d.servers(k, v)
	case "tags":
		doc.Tags = d.tags(k, v)
	case "externalDocs":
		doc.ExternalDocs = d.externalDocs(k, v, false)
	case "webhooks":
		doc.Webhooks = refMap(d, k, v, func(v any) *openapi3.PathItem { return d.pathItem(d.obj("", v, false)) })
	case "jsonSchemaDialect":
		doc.JSONSchemaDialect = d.str(k, v, false)
	default:
		d.ext(&doc.Extensions, k, v)
	}
}
