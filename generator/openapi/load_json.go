package openapi

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/jsonptr"
)

// The fast JSON path.
//
// kin-openapi decodes a document with encoding/json, and every one of its
// types has an UnmarshalJSON method that decodes its raw JSON twice (into
// the struct and into an extension map) and then calls encoding/json again
// for each child, which validates the child's bytes again. The cost grows
// with size times depth: about 15 times a plain decode on GitHub's spec.
//
// decodeJSONDoc decodes the text once into a tree of maps and slices (its
// top-level members concurrently, by parseTree) and builds the same
// kin-openapi values from it, by reflection over their json tags, doing
// what their UnmarshalJSON methods do: unknown keys become Extensions;
// {"$ref": "..."} sets Ref, and a $ref with siblings is handed to kin
// itself (it keeps unexported state; such objects are small); everything
// else that has its own UnmarshalJSON (Types, ExclusiveBound, boolean
// schemas...) is handed to that method with its own small text. Whatever it is not sure to
// decode the same way makes it give up with errSlowPath, and the caller
// uses kin-openapi's loader; so the result is always what kin-openapi
// would have produced (TestFastJSONMatchesKin checks it on every spec).
//
// Why not kin-openapi's public path alone: on GitHub's 3.7 MB description
// (2 shared cores, loaded) openapi3.Loader.LoadFromDataWithPath took
// 1.3-2.0 s where this path took 0.3-0.5 s (and the whole LoadData about
// 0.55 s), so kin's path would triple GitHub's load time. The reflection
// over kin's struct tags and the stub document (issue 16) are to go with a
// decoder of opsgen's own that builds the document by hand.

// errSlowPath says the fast path does not handle the document.
var errSlowPath = errors.New("openapi: fast JSON path not applicable")

// loadJSONFast loads a JSON document through the fast path, then resolves
// its references with kl. It returns errSlowPath when the caller should
// use kl.LoadFromDataWithPath instead.
func loadJSONFast(ctx context.Context, kl *openapi3.Loader, data []byte, loc *url.URL) (*openapi3.T, error) {
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		return nil, errSlowPath
	}
	parsed, err := decodeJSONDoc(data)
	if err != nil {
		return nil, errSlowPath
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Loading a minimal document first gives the loader its root location
	// and the document its URL (both unexported); the decoded fields then
	// replace the stub's and the references are resolved as kin would.
	doc, err := kl.LoadFromDataWithPath([]byte(`{"openapi":"3.0.0"}`), loc)
	if err != nil {
		return nil, errSlowPath
	}
	dv, pv := reflect.ValueOf(doc).Elem(), reflect.ValueOf(parsed).Elem()
	for i := range dv.NumField() {
		if dv.Type().Field(i).IsExported() {
			dv.Field(i).Set(pv.Field(i))
		}
	}
	if err := kl.ResolveRefsIn(doc, loc); err != nil {
		return nil, err
	}
	return doc, nil
}

// decodeJSONDoc decodes a JSON OpenAPI 3 document into kin-openapi's types,
// or returns errSlowPath.
//
// The top-level members are decoded concurrently, and the large ones
// (paths, components, webhooks: most of the work on a large spec) are also
// built concurrently.
func decodeJSONDoc(data []byte) (*openapi3.T, error) {
	members, ok := topMembers(data)
	if !ok {
		return nil, errSlowPath
	}
	type part struct {
		tree  any
		value reflect.Value // for the large members
		err   error
	}
	parts := make([]part, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		wg.Go(func() {
			p := &parts[i]
			if p.tree, p.err = decodeTree(m.raw); p.err != nil {
				return
			}
			if f, ok := largeFields[m.key]; ok {
				p.value = reflect.New(f.Type).Elem()
				p.err = decodeValue(p.value, p.tree)
			}
		})
	}
	wg.Wait()
	rest := make(map[string]any, len(members))
	for i, m := range members {
		if parts[i].err != nil {
			return nil, errSlowPath
		}
		if _, dup := rest[m.key]; dup {
			return nil, errSlowPath // encoding/json merges some duplicates
		}
		rest[m.key] = parts[i].tree
	}
	for key := range largeFields {
		delete(rest, key)
	}
	doc := new(openapi3.T)
	dv := reflect.ValueOf(doc).Elem()
	if err := decodeValue(dv, rest); err != nil {
		return nil, errSlowPath
	}
	for i, m := range members {
		if f, ok := largeFields[m.key]; ok {
			dv.FieldByIndex(f.Index).Set(parts[i].value)
		}
	}
	return doc, nil
}

// largeFields are the fields of openapi3.T decoded concurrently, by key.
var largeFields = map[string]reflect.StructField{}

func init() {
	t := reflect.TypeFor[openapi3.T]()
	for key, name := range map[string]string{"paths": "Paths", "components": "Components", "webhooks": "Webhooks"} {
		f, ok := t.FieldByName(name)
		if !ok {
			panic("openapi: kin-openapi's T has no field " + name)
		}
		largeFields[key] = f
	}
}

// member is a top-level member of a JSON object: its key and raw value.
type member struct {
	key string
	raw []byte
}

// topMembers splits a JSON object into its members without decoding them;
// ok is false when data is not an object followed by nothing but space.
// The values are checked when they are decoded.
func topMembers(data []byte) (ms []member, ok bool) {
	s := &jsonptr.Scanner{Data: data}
	s.Space()
	if s.Off >= len(data) || data[s.Off] != '{' {
		return nil, false
	}
	s.Off++
	s.Space()
	if s.Off < len(data) && data[s.Off] == '}' {
		s.Off++
	} else {
		for {
			s.Space()
			raw, ok := s.Str()
			if !ok {
				return nil, false
			}
			var key string
			if json.Unmarshal(raw, &key) != nil {
				return nil, false
			}
			s.Space()
			if s.Off >= len(data) || data[s.Off] != ':' {
				return nil, false
			}
			s.Off++
			s.Space()
			start := s.Off
			if !s.Skip() {
				return nil, false
			}
			ms = append(ms, member{key, data[start:s.Off]})
			more, ok := s.Next('}')
			if !ok {
				return nil, false
			}
			if !more {
				break
			}
		}
	}
	s.Space()
	return ms, s.Off == len(data)
}

// decodeTree decodes one JSON value, numbers as json.Number (parseTree).
func decodeTree(raw []byte) (any, error) { return parseTree(raw) }

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	headerType          = reflect.TypeFor[openapi3.Header]()
	pathsType           = reflect.TypeFor[openapi3.Paths]()
	responsesType       = reflect.TypeFor[openapi3.Responses]()
	callbackType        = reflect.TypeFor[openapi3.Callback]()
	typesType           = reflect.TypeFor[openapi3.Types]()
)

// refTypes are kin-openapi's reference wrappers: {Ref, Value}.
var refTypes = map[reflect.Type]bool{
	reflect.TypeFor[openapi3.CallbackRef]():       true,
	reflect.TypeFor[openapi3.ExampleRef]():        true,
	reflect.TypeFor[openapi3.HeaderRef]():         true,
	reflect.TypeFor[openapi3.LinkRef]():           true,
	reflect.TypeFor[openapi3.ParameterRef]():      true,
	reflect.TypeFor[openapi3.RequestBodyRef]():    true,
	reflect.TypeFor[openapi3.ResponseRef]():       true,
	reflect.TypeFor[openapi3.SchemaRef]():         true,
	reflect.TypeFor[openapi3.SecuritySchemeRef](): true,
}

// objectTypes are the types whose UnmarshalJSON decodes the struct and puts
// the keys it does not know into Extensions (the same code in each).
var objectTypes = map[reflect.Type]bool{}

func init() {
	for _, v := range []any{
		openapi3.T{}, openapi3.Components{}, openapi3.Contact{}, openapi3.Discriminator{},
		openapi3.Encoding{}, openapi3.Example{}, openapi3.ExternalDocs{}, openapi3.Info{},
		openapi3.License{}, openapi3.Link{}, openapi3.MediaType{}, openapi3.Operation{},
		openapi3.Parameter{}, openapi3.PathItem{}, openapi3.RequestBody{}, openapi3.Response{},
		openapi3.Schema{}, openapi3.SecurityScheme{}, openapi3.OAuthFlows{}, openapi3.OAuthFlow{},
		openapi3.Server{}, openapi3.ServerVariable{}, openapi3.Tag{}, openapi3.XML{},
	} {
		objectTypes[reflect.TypeOf(v)] = true
	}
}

// field is a JSON-visible struct field.
type field struct {
	name  string
	index []int
}

// structInfo describes how to decode a struct type.
type structInfo struct {
	fields []field
	byName map[string]int
	// keep lists the known keys that kin-openapi nevertheless leaves in
	// Extensions (it deletes a hand-written list of keys).
	keep map[string]bool
	// ok is false when the type cannot be decoded here.
	ok bool
}

var structInfos sync.Map // reflect.Type -> *structInfo

func infoFor(t reflect.Type) *structInfo {
	if si, ok := structInfos.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}, ok: true}
	collectFields(t, nil, si)
	if objectTypes[t] {
		si.keep, si.ok = keptKeys(t, si.fields)
	}
	structInfos.Store(t, si)
	return si
}

// collectFields lists t's JSON fields the way encoding/json sees them
// (embedded structs without a tag are flattened).
func collectFields(t reflect.Type, index []int, si *structInfo) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		idx := append(append([]int(nil), index...), i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, idx, si)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := si.byName[name]; dup {
			si.ok = false // encoding/json's conflict rules are not replicated
			continue
		}
		si.byName[name] = len(si.fields)
		si.fields = append(si.fields, field{name: name, index: idx})
	}
}

// keptKeys asks kin-openapi which of the type's own keys it keeps in
// Extensions: it decodes an object holding every key with a null value.
func keptKeys(t reflect.Type, fields []field) (map[string]bool, bool) {
	obj := map[string]any{}
	for _, f := range fields {
		obj[f.name] = nil
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	v := reflect.New(t)
	if err := v.Interface().(json.Unmarshaler).UnmarshalJSON(b); err != nil {
		return nil, false
	}
	keep := map[string]bool{}
	ext := v.Elem().FieldByName("Extensions")
	if !ext.IsValid() || ext.Type() != reflect.TypeFor[map[string]any]() {
		return nil, false
	}
	for k := range ext.Interface().(map[string]any) {
		keep[k] = true
	}
	return keep, true
}

// decodeValue stores the decoded JSON value v (numbers as json.Number) into
// dst as encoding/json plus kin-openapi's UnmarshalJSON methods would.
func decodeValue(dst reflect.Value, v any) error {
	t := dst.Type()
	if t.Kind() == reflect.Pointer {
		if v == nil {
			dst.SetZero()
			return nil
		}
		if dst.IsNil() {
			dst.Set(reflect.New(t.Elem()))
		}
		return decodeValue(dst.Elem(), v)
	}
	switch {
	case refTypes[t]:
		return decodeRef(dst, v)
	case t == headerType:
		return decodeValue(dst.Field(0), v)
	case t == pathsType, t == responsesType, t == callbackType:
		return decodeMapLike(dst, v)
	case objectTypes[t]:
		return decodeObject(dst, v)
	case t == typesType:
		// The most common delegated type ("type" of every schema), decoded
		// here as Types.UnmarshalJSON does: a list of strings, or a string.
		if types, ok := typesOf(v); ok {
			dst.Set(reflect.ValueOf(types))
			return nil
		}
		return delegate(dst, v)
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return delegate(dst, v)
	case reflect.PointerTo(t).Implements(textUnmarshalerType):
		s, ok := v.(string)
		if !ok || dst.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)) != nil {
			return errSlowPath
		}
		return nil
	}
	if v == nil {
		switch t.Kind() {
		case reflect.Interface, reflect.Map, reflect.Slice:
			dst.SetZero()
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return errSlowPath
		}
		p, ok := plain(v)
		if !ok {
			return errSlowPath
		}
		dst.Set(reflect.ValueOf(p))
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return errSlowPath
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return errSlowPath
		}
		dst.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return errSlowPath
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || dst.OverflowInt(i) {
			return errSlowPath
		}
		dst.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return errSlowPath
		}
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err != nil || dst.OverflowUint(u) {
			return errSlowPath
		}
		dst.SetUint(u)
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return errSlowPath
		}
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if err != nil || dst.OverflowFloat(f) {
			return errSlowPath
		}
		dst.SetFloat(f)
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok || t.Elem().Kind() == reflect.Uint8 {
			return errSlowPath
		}
		s := reflect.MakeSlice(t, len(arr), len(arr))
		for i, e := range arr {
			if err := decodeValue(s.Index(i), e); err != nil {
				return err
			}
		}
		dst.Set(s)
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			return errSlowPath
		}
		m := reflect.MakeMapWithSize(t, len(obj))
		for k, e := range obj {
			ev := reflect.New(t.Elem()).Elem()
			if err := decodeValue(ev, e); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		dst.Set(m)
	case reflect.Struct:
		return decodeFields(dst, v, infoFor(t))
	default:
		return errSlowPath
	}
	return nil
}

// decodeFields sets dst's fields from the JSON object v; unknown keys are
// ignored, and a key matches its field exactly or else without regard to
// case, as in encoding/json.
func decodeFields(dst reflect.Value, v any, si *structInfo) error {
	obj, ok := v.(map[string]any)
	if !ok || !si.ok {
		return errSlowPath
	}
	for k, e := range obj {
		i, ok := si.byName[k]
		if !ok {
			i = -1
			for j, f := range si.fields {
				if strings.EqualFold(f.name, k) {
					i = j
					break
				}
			}
			if i < 0 {
				continue
			}
			return errSlowPath // a key in another case: order-dependent in encoding/json
		}
		if err := decodeValue(dst.FieldByIndex(si.fields[i].index), e); err != nil {
			return err
		}
	}
	return nil
}

// decodeObject decodes one of objectTypes: its fields, then the remaining
// keys into Extensions.
func decodeObject(dst reflect.Value, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		// A boolean schema, or something kin-openapi handles (or rejects)
		// in its own way.
		return delegate(dst, v)
	}
	if _, ok := obj["__origin__"]; ok {
		return errSlowPath
	}
	si := infoFor(dst.Type())
	if err := decodeFields(dst, obj, si); err != nil {
		return err
	}
	var ext map[string]any
	for k, e := range obj {
		if _, known := si.byName[k]; known && !si.keep[k] {
			continue
		}
		if ext == nil {
			ext = map[string]any{}
		}
		p, ok := plain(e)
		if !ok {
			return errSlowPath
		}
		ext[k] = p
	}
	if dst.Type() == reflect.TypeFor[openapi3.Operation]() {
		if r, ok := obj["responses"]; ok && r == nil {
			return errSlowPath // kin-openapi marks an explicit null
		}
	}
	dst.FieldByName("Extensions").Set(reflect.ValueOf(ext))
	return nil
}

// decodeRef decodes a reference wrapper: a $ref object is decoded by
// kin-openapi itself, anything else into the wrapper's Value.
func decodeRef(dst reflect.Value, v any) error {
	if obj, ok := v.(map[string]any); ok {
		if ref, ok := obj["$ref"].(string); ok && ref != "" && len(obj) == 1 {
			// The common case, {"$ref": "..."}: kin-openapi sets Ref only.
			dst.FieldByName("Ref").SetString(ref)
			return nil
		}
		for k := range obj {
			if strings.EqualFold(k, "$ref") {
				return delegate(dst, v)
			}
		}
	}
	if v == nil {
		return nil
	}
	return decodeValue(dst.FieldByName("Value"), v)
}

// decodeMapLike decodes Paths, Responses or Callback: a map of values plus
// x- extensions (always a non-nil map).
func decodeMapLike(dst reflect.Value, v any) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return delegate(dst, v)
	}
	ext := make(map[string]any)
	var x reflect.Value
	switch dst.Type() {
	case pathsType:
		x = reflect.ValueOf(openapi3.NewPathsWithCapacity(len(obj)))
	case responsesType:
		x = reflect.ValueOf(openapi3.NewResponsesWithCapacity(len(obj)))
	default:
		x = reflect.ValueOf(openapi3.NewCallbackWithCapacity(len(obj)))
	}
	set := x.MethodByName("Set")
	elem := set.Type().In(1) // *PathItem or *ResponseRef
	for k, e := range obj {
		if strings.HasPrefix(k, "x-") {
			p, ok := plain(e)
			if !ok {
				return errSlowPath
			}
			ext[k] = p
			continue
		}
		if e == nil {
			// kin-openapi decodes "null" into a zero value.
			return errSlowPath
		}
		ev := reflect.New(elem.Elem())
		if err := decodeValue(ev.Elem(), e); err != nil {
			return err
		}
		set.Call([]reflect.Value{reflect.ValueOf(k), ev})
	}
	x.Elem().FieldByName("Extensions").Set(reflect.ValueOf(ext))
	dst.Set(x.Elem())
	return nil
}

// typesOf converts a string or a list of strings to openapi3.Types; ok is
// false for other values (the caller delegates them to kin-openapi).
func typesOf(v any) (openapi3.Types, bool) {
	switch v := v.(type) {
	case string:
		return openapi3.Types{v}, true
	case []any:
		types := make(openapi3.Types, len(v))
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			types[i] = s
		}
		return types, true
	}
	return nil, false
}

// delegate hands v, encoded again, to the UnmarshalJSON method of dst's type.
func delegate(dst reflect.Value, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return errSlowPath
	}
	u, ok := dst.Addr().Interface().(json.Unmarshaler)
	if !ok {
		return errSlowPath
	}
	if err := u.UnmarshalJSON(b); err != nil {
		return errSlowPath
	}
	return nil
}

// plain converts the json.Numbers of a decoded value to float64, as
// encoding/json decodes numbers into an interface; ok is false for a number
// out of float64's range (an error for encoding/json).
func plain(v any) (any, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case map[string]any:
		for k, e := range v {
			p, ok := plain(e)
			if !ok {
				return nil, false
			}
			v[k] = p
		}
	case []any:
		for i, e := range v {
			p, ok := plain(e)
			if !ok {
				return nil, false
			}
			v[i] = p
		}
	}
	return v, true
}
