package httpclient

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Style is an OpenAPI parameter serialization style.
type Style string

// The OpenAPI 3 parameter styles.
const (
	StyleForm           Style = "form"
	StyleSimple         Style = "simple"
	StyleLabel          Style = "label"
	StyleMatrix         Style = "matrix"
	StyleSpaceDelimited Style = "spaceDelimited"
	StylePipeDelimited  Style = "pipeDelimited"
	StyleDeepObject     Style = "deepObject"
)

// The AWS query protocols' serializations: not OpenAPI styles, but how the
// services APIs.guru describes under amazonaws.com with an Action query
// parameter take lists and structures in the query.
const (
	// StyleAWSQuery is the query protocol's (STS, SNS, IAM, ...): a list
	// is Name.member.N (N from 1), a structure's member Name.Member, a map
	// Name.entry.N.key and Name.entry.N.value; an empty list is "Name=".
	StyleAWSQuery Style = "awsQuery"
	// StyleAWSEC2 is the EC2 protocol's: the same, with lists as Name.N.
	StyleAWSEC2 Style = "awsEC2"
)

// StyleDeepObjectComma is deepObject with each array member sent as one
// comma-separated value (name[k]=a,b) instead of a repeated key: OpenAPI
// leaves arrays in deepObject undefined, and PandaScore documents its
// filter and range parameters so ("filter[name]=Brand,Twitch").
const StyleDeepObjectComma Style = "deepObjectComma"

// escapeMode says which bytes of a value are percent-encoded.
type escapeMode uint8

const (
	// escapeAll keeps only RFC 3986 unreserved bytes (path, query, cookie).
	escapeAll escapeMode = iota
	// escapeReserved also keeps reserved bytes and existing %XX triplets
	// (query with allowReserved). '#' is still encoded: left bare it would
	// end the URL.
	escapeReserved
	// escapePathReserved is escapeReserved in a path ({+x}): '?' is
	// encoded too, as it would start the query.
	escapePathReserved
	// escapeNone keeps everything (headers).
	escapeNone
)

const upperhex = "0123456789ABCDEF"

func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// keep reports whether s[i] stays as it is under mode m.
func keep(s string, i int, m escapeMode) bool {
	c := s[i]
	if m == escapeNone || isUnreserved(c) {
		return true
	}
	if m == escapeReserved || m == escapePathReserved {
		switch c {
		case '?':
			return m == escapeReserved
		case ':', '/', '[', ']', '@', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';', '=':
			return true
		case '%':
			return i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2])
		}
	}
	return false
}

// appendEscaped appends s to dst, percent-encoded under mode m.
func appendEscaped(dst []byte, s string, m escapeMode) []byte {
	for i := 0; i < len(s); i++ {
		if keep(s, i, m) {
			dst = append(dst, s[i])
		} else {
			dst = append(dst, '%', upperhex[s[i]>>4], upperhex[s[i]&15])
		}
	}
	return dst
}

// valueKind is the shape of a parameter value once flattened.
type valueKind uint8

const (
	kindAbsent valueKind = iota
	kindScalar
	kindArray
	kindObject
)

type pair struct{ k, v string }

// flat is a parameter value reduced to what the styles serialize: a
// scalar string, a list of scalars, or ordered key/value pairs of scalars.
type flat struct {
	kind  valueKind
	s     string
	items []string
	props []pair
}

func (f *flat) empty() bool {
	switch f.kind {
	case kindScalar:
		return f.s == ""
	case kindArray:
		return len(f.items) == 0
	case kindObject:
		return len(f.props) == 0
	}
	return true
}

// undefined reports whether f is absent, an empty array or an object
// without members: the values RFC 6570 (section 2.3) calls undefined,
// which query, header and cookie parameters omit. The empty string is
// defined.
func (f *flat) undefined() bool {
	return f.kind == kindAbsent || f.kind != kindScalar && f.empty()
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// flatten reduces v to a flat value. nil, nil pointers, nil slices and nil
// maps are absent. Common scalar types take a fast path without reflection.
func flatten(v any) (flat, error) {
	switch v := v.(type) {
	case nil:
		return flat{}, nil
	case string:
		return flat{kind: kindScalar, s: v}, nil
	case *string:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindScalar, s: *v}, nil
	case int:
		return flat{kind: kindScalar, s: strconv.Itoa(v)}, nil
	case *int:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindScalar, s: strconv.Itoa(*v)}, nil
	case int64:
		return flat{kind: kindScalar, s: strconv.FormatInt(v, 10)}, nil
	case *int64:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindScalar, s: strconv.FormatInt(*v, 10)}, nil
	case int32:
		return flat{kind: kindScalar, s: strconv.FormatInt(int64(v), 10)}, nil
	case bool:
		return flat{kind: kindScalar, s: strconv.FormatBool(v)}, nil
	case *bool:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindScalar, s: strconv.FormatBool(*v)}, nil
	case float64:
		return flat{kind: kindScalar, s: formatFloat(v, 64)}, nil
	case *float64:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindScalar, s: formatFloat(*v, 64)}, nil
	case time.Time:
		return flat{kind: kindScalar, s: v.Format(time.RFC3339Nano)}, nil
	case []string:
		if v == nil {
			return flat{}, nil
		}
		return flat{kind: kindArray, items: v}, nil
	}
	return flattenValue(reflect.ValueOf(v))
}

// deref follows pointers and interfaces; ok is false at a nil.
func deref(rv reflect.Value) (reflect.Value, bool) {
	for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return rv, false
		}
		rv = rv.Elem()
	}
	return rv, rv.IsValid()
}

func flattenValue(rv reflect.Value) (flat, error) {
	rv, ok, err := resolve(rv)
	if err != nil || !ok {
		return flat{}, err
	}
	if rv.Type() == rawMessageType {
		// An untyped value: null is absent, and an array or object is
		// serialized as the style says, as a typed one would be (an array
		// in an exploded form query is ids=1&ids=2, not its JSON text).
		switch raw := bytes.TrimSpace(rv.Bytes()); {
		case string(raw) == "null":
			return flat{}, nil
		case len(raw) > 0 && (raw[0] == '[' || raw[0] == '{'):
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber() // numbers keep their text
			var v any
			if err := dec.Decode(&v); err != nil {
				return flat{}, err
			}
			return flattenValue(reflect.ValueOf(v))
		}
	}
	if s, ok, err := scalarString(rv); ok || err != nil {
		return flat{kind: kindScalar, s: s}, err
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return flat{}, nil
		}
		items := make([]string, 0, rv.Len())
		for i := range rv.Len() {
			e, ok, err := resolve(rv.Index(i))
			if err != nil {
				return flat{}, fmt.Errorf("item %d: %w", i, err)
			}
			if !ok {
				continue // a nil element has no serialization; it is left out
			}
			s, ok, err := scalarString(e)
			if err != nil {
				return flat{}, fmt.Errorf("item %d: %w", i, err)
			}
			if !ok {
				return flat{}, fmt.Errorf("item %d: %s is not a primitive (the styles serialize arrays of primitives only)", i, e.Type())
			}
			items = append(items, s)
		}
		return flat{kind: kindArray, items: items}, nil
	case reflect.Map, reflect.Struct:
		if rv.Kind() == reflect.Map && rv.IsNil() {
			return flat{}, nil
		}
		members, err := objectMembers(rv)
		if err != nil {
			return flat{}, err
		}
		props := make([]pair, 0, len(members))
		for _, m := range members {
			s, ok, err := scalarString(m.v)
			if err != nil {
				return flat{}, fmt.Errorf("property %q: %w", m.k, err)
			}
			if !ok {
				return flat{}, fmt.Errorf("property %q: %s is not a primitive (nested objects need style deepObject or a content parameter)", m.k, m.v.Type())
			}
			props = append(props, pair{m.k, s})
		}
		return flat{kind: kindObject, props: props}, nil
	}
	return flat{}, fmt.Errorf("unsupported type %s", rv.Type())
}

// scalarString renders a non-pointer primitive value; ok is false when rv is
// not a primitive (array, object, unsupported kind).
func scalarString(rv reflect.Value) (s string, ok bool, err error) {
	t := rv.Type()
	switch {
	case t == timeType:
		return rv.Interface().(time.Time).Format(time.RFC3339Nano), true, nil
	case t == rawMessageType:
		// An untyped value (a member no schema types, such as a required
		// name no property declares): a JSON string is its text, as a
		// union holding a string is (box's grant_type went out as
		// "%22e2e%22"); numbers and booleans are their JSON; objects
		// and arrays inside an object, which no style serializes, stay
		// JSON text (flattenValue serializes one at the top).
		raw := bytes.TrimSpace(rv.Bytes())
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			err := json.Unmarshal(raw, &s)
			return s, true, err
		}
		return string(raw), true, nil
	case t.Implements(textMarshalerType):
		b, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), true, err
	case reflect.PointerTo(t).Implements(textMarshalerType):
		if !rv.CanAddr() { // MarshalText has a pointer receiver: call it on a copy
			pv := reflect.New(t)
			pv.Elem().Set(rv)
			rv = pv.Elem()
		}
		b, err := rv.Addr().Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), true, err
	}
	switch rv.Kind() {
	case reflect.String:
		return rv.String(), true, nil
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool()), true, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(rv.Uint(), 10), true, nil
	case reflect.Float32:
		return formatFloat(rv.Float(), 32), true, nil
	case reflect.Float64:
		return formatFloat(rv.Float(), 64), true, nil
	case reflect.Slice:
		// []byte is a string of format "byte": base64, as encoding/json writes it.
		if t.Elem().Kind() == reflect.Uint8 {
			return base64.StdEncoding.EncodeToString(rv.Bytes()), true, nil
		}
	}
	return "", false, nil
}

// formatFloat writes integral values without exponent or fraction, and
// others as encoding/json does.
func formatFloat(f float64, bits int) string {
	if f == math.Trunc(f) && !math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.FormatFloat(f, 'e', -1, bits)
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

type member struct {
	k string
	v reflect.Value
}

// objectMembers lists the present members of a struct (by json tag, in
// declaration order, honouring omitempty and omitzero), of a map with
// string keys (sorted by key) or of a decoded JSON object (in order). Nil
// and null members are left out; members that encode themselves as JSON
// are resolved.
func objectMembers(rv reflect.Value) ([]member, error) {
	if rv.Type() == jsonObjectType {
		o := rv.Interface().(jsonObject)
		ms := make([]member, 0, len(o.members))
		for _, m := range o.members {
			if v, ok := deref(reflect.ValueOf(m.v)); ok {
				ms = append(ms, member{m.k, v})
			}
		}
		return ms, nil
	}
	if rv.Kind() == reflect.Map {
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("unsupported map key type %s (want a string kind)", rv.Type().Key())
		}
		ms := make([]member, 0, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			v, ok, err := resolve(it.Value())
			if err != nil {
				return nil, fmt.Errorf("property %q: %w", it.Key().String(), err)
			}
			if ok {
				ms = append(ms, member{it.Key().String(), v})
			}
		}
		sort.Sort(byKey(ms))
		return ms, nil
	}
	fields := structFields(rv.Type())
	ms := make([]member, 0, len(fields))
	for _, f := range fields {
		fv, ok := fieldByIndex(rv, f.index)
		if !ok || (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && fv.IsZero()) {
			continue
		}
		fv, ok, err := resolve(fv)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", f.name, err)
		}
		if ok {
			ms = append(ms, member{f.name, fv})
		}
	}
	return ms, nil
}

// fieldByIndex is reflect.Value.FieldByIndex that reports a nil embedded
// pointer on the way instead of panicking.
func fieldByIndex(rv reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 {
			var ok bool
			if rv, ok = deref(rv); !ok {
				return rv, false
			}
		}
		rv = rv.Field(x)
	}
	return rv, true
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

type structField struct {
	name      string
	index     []int
	omitEmpty bool
	omitZero  bool
}

var fieldCache sync.Map // reflect.Type -> []structField

// structFields lists the serialized fields of a struct type as
// encoding/json names them. Untagged embedded structs are inlined; when two
// fields share a name the shallower one wins.
func structFields(t reflect.Type) []structField {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]structField)
	}
	var fs []structField
	depth := map[string]int{}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(index[:len(index):len(index)], i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if d, seen := depth[name]; seen {
				if d <= len(idx) {
					continue
				}
				fs = slices.DeleteFunc(fs, func(f structField) bool { return f.name == name })
			}
			depth[name] = len(idx)
			fs = append(fs, structField{
				name:      name,
				index:     idx,
				omitEmpty: hasOpt(opts, "omitempty"),
				omitZero:  hasOpt(opts, "omitzero"),
			})
		}
	}
	walk(t, nil)
	fieldCache.Store(t, fs)
	return fs
}

func hasOpt(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}

// location is where a parameter goes.
type location uint8

const (
	inPath location = iota
	inQuery
	inHeader
	inCookie
)

func (l location) String() string {
	return [...]string{"path", "query", "header", "cookie"}[l]
}

// appendStyled appends the serialization of f, a value of the parameter
// name, in style and explode, to dst. It follows the OpenAPI 3.0.4/3.1.1
// Style Examples table; for query and cookie parameters dst receives
// name=value pairs separated by "&" (query) or "; " (cookie), for path and
// header parameters the text that replaces the template expression or
// makes the header value. An empty value ("", [] or {}) takes the table's
// "empty" column.
func appendStyled(dst []byte, loc location, name string, style Style, explode bool, esc escapeMode, f *flat) []byte {
	sep := "&"
	if loc == inCookie {
		sep = "; "
	}
	switch style {
	case StyleSimple:
		return appendJoined(dst, f, explode, ",", esc)
	case StyleLabel:
		dst = append(dst, '.')
		if explode {
			return appendJoined(dst, f, true, ".", esc)
		}
		return appendJoined(dst, f, false, ",", esc)
	case StyleMatrix:
		if explode && !f.empty() && f.kind != kindScalar {
			return appendExploded(dst, name, f, ";", "", esc)
		}
		dst = append(dst, ';')
		dst = appendEscaped(dst, name, esc)
		if f.empty() {
			return dst
		}
		dst = append(dst, '=')
		return appendJoined(dst, f, false, ",", esc)
	case StyleSpaceDelimited, StylePipeDelimited:
		// The table defines only explode=false for arrays and objects;
		// the rest is serialized as form.
		if !explode && (f.kind == kindArray || f.kind == kindObject) {
			delim := "%20"
			if style == StylePipeDelimited {
				delim = "%7C"
			}
			dst = appendEscaped(dst, name, esc)
			dst = append(dst, '=')
			return appendJoined(dst, f, false, delim, esc)
		}
	}
	// form, and the fallbacks above.
	if explode && !f.empty() && f.kind != kindScalar {
		return appendExploded(dst, name, f, "", sep, esc)
	}
	dst = appendEscaped(dst, name, esc)
	dst = append(dst, '=')
	return appendJoined(dst, f, false, ",", esc)
}

// appendJoined writes a scalar as is, array items separated by sep, and
// object members as k=v (explode) or k,v (not) separated by sep.
func appendJoined(dst []byte, f *flat, explode bool, sep string, esc escapeMode) []byte {
	switch f.kind {
	case kindScalar:
		return appendEscaped(dst, f.s, esc)
	case kindArray:
		for i, s := range f.items {
			if i > 0 {
				dst = append(dst, sep...)
			}
			dst = appendEscaped(dst, s, esc)
		}
	case kindObject:
		kv := ","
		if explode {
			kv = "="
		} else if sep != "," {
			kv = sep
		}
		for i, p := range f.props {
			if i > 0 {
				dst = append(dst, sep...)
			}
			dst = appendEscaped(dst, p.k, esc)
			dst = append(dst, kv...)
			dst = appendEscaped(dst, p.v, esc)
		}
	}
	return dst
}

// appendExploded writes an array as name=item pairs and an object as k=v
// pairs, each preceded by lead and separated by sep.
func appendExploded(dst []byte, name string, f *flat, lead, sep string, esc escapeMode) []byte {
	write := func(i int, k, v string) {
		if i > 0 {
			dst = append(dst, sep...)
		}
		dst = append(dst, lead...)
		dst = appendEscaped(dst, k, esc)
		dst = append(dst, '=')
		dst = appendEscaped(dst, v, esc)
	}
	if f.kind == kindArray {
		for i, s := range f.items {
			write(i, name, s)
		}
	} else {
		for i, p := range f.props {
			write(i, p.k, p.v)
		}
	}
	return dst
}

// deepPairs flattens an object for style deepObject: name[k]=v for each
// primitive member, name[k][k2]=v for nested objects and a repeated
// name[k]=v for each item of an array member (nesting beyond the table's
// one level follows the common bracket convention). The items of an array
// are consecutive pairs of one key, which no other member gives.
func deepPairs(prefix string, rv reflect.Value, out []pair) ([]pair, error) {
	rv, ok, err := resolve(rv)
	if err != nil || !ok {
		return out, err
	}
	if s, ok, err := scalarString(rv); ok || err != nil {
		return append(out, pair{prefix, s}), err
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			e, ok, err := resolve(rv.Index(i))
			if err != nil {
				return out, fmt.Errorf("%s: item %d: %w", prefix, i, err)
			}
			if !ok {
				continue
			}
			s, ok, err := scalarString(e)
			if err != nil {
				return out, err
			}
			if !ok {
				return out, fmt.Errorf("%s: item %d: %s is not a primitive", prefix, i, e.Type())
			}
			out = append(out, pair{prefix, s})
		}
		return out, nil
	case reflect.Map, reflect.Struct:
		members, err := objectMembers(rv)
		if err != nil {
			return out, err
		}
		for _, m := range members {
			if out, err = deepPairs(prefix+"["+m.k+"]", m.v, out); err != nil {
				return out, err
			}
		}
		return out, nil
	}
	return out, fmt.Errorf("%s: unsupported type %s", prefix, rv.Type())
}

// byKey sorts members by key. It is a sort.Interface rather than a
// slices.SortFunc so that the program shares sort's code with net/http
// instead of linking a copy for member.
type byKey []member

func (s byKey) Len() int           { return len(s) }
func (s byKey) Swap(i, j int)      { s[i], s[j] = s[j], s[i] }
func (s byKey) Less(i, j int) bool { return s[i].k < s[j].k }

// awsPairs flattens a value for StyleAWSQuery (ec2 false) or StyleAWSEC2.
func awsPairs(prefix string, rv reflect.Value, ec2 bool, out []pair) ([]pair, error) {
	rv, ok, err := resolve(rv)
	if err != nil || !ok {
		return out, err
	}
	if s, ok, err := scalarString(rv); ok || err != nil {
		return append(out, pair{prefix, s}), err
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return out, nil
		}
		if rv.Len() == 0 {
			return append(out, pair{prefix, ""}), nil
		}
		list := prefix + ".member."
		if ec2 {
			list = prefix + "."
		}
		for i := range rv.Len() {
			if out, err = awsPairs(list+strconv.Itoa(i+1), rv.Index(i), ec2, out); err != nil {
				return out, err
			}
		}
		return out, nil
	case reflect.Map, reflect.Struct:
		members, err := objectMembers(rv)
		if err != nil {
			return out, err
		}
		for i, m := range members {
			if rv.Kind() == reflect.Map {
				entry := prefix + ".entry." + strconv.Itoa(i+1)
				out = append(out, pair{entry + ".key", m.k})
				out, err = awsPairs(entry+".value", m.v, ec2, out)
			} else {
				out, err = awsPairs(prefix+"."+m.k, m.v, ec2, out)
			}
			if err != nil {
				return out, err
			}
		}
		return out, nil
	}
	return out, fmt.Errorf("%s: unsupported type %s", prefix, rv.Type())
}
