package httpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"sync"
)

// Values whose type has its own JSON encoding (a json.MarshalJSON method)
// hide their content from reflection: a generated union keeps the chosen
// variant as raw JSON in an unexported field, a tuple is a struct written as
// an array, an object with additionalProperties keeps the extra members in
// a field tagged "-". The parameter, form and multipart encoders therefore
// serialize such a value from its JSON: resolve marshals it and decodes the
// result into generic values (jsonObject, []any, string, json.Number, bool)
// that they walk like any other.

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	jsonObjectType    = reflect.TypeFor[jsonObject]()
)

// resolve follows pointers and interfaces like deref and replaces a value
// that encodes itself as JSON (see ownJSON) by its decoded JSON; ok is false
// at a nil and at a value whose JSON is null.
func resolve(rv reflect.Value) (reflect.Value, bool, error) {
	rv, ok := deref(rv)
	if !ok || !rv.CanInterface() || !ownJSON(rv.Type()) {
		// A field reached through an unexported embedded struct cannot be
		// handed to MarshalJSON; it is walked like any other.
		return rv, ok, nil
	}
	v := rv.Interface()
	if !rv.Type().Implements(jsonMarshalerType) { // MarshalJSON has a pointer receiver
		pv := reflect.New(rv.Type())
		pv.Elem().Set(rv)
		v = pv.Interface()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return rv, false, err
	}
	d, err := decodeJSON(b)
	if err != nil {
		return rv, false, fmt.Errorf("%s: %w", rv.Type(), err)
	}
	rv, ok = deref(reflect.ValueOf(d))
	return rv, ok, nil
}

// ownJSON reports whether values of t are serialized from their JSON: t
// (or *t) is a json.Marshaler, and not one of the types the encoders
// render as text themselves (time.Time, json.RawMessage, any
// encoding.TextMarshaler) or a decoded object.
func ownJSON(t reflect.Type) bool {
	if t.PkgPath() == "" && t.Kind() != reflect.Struct {
		// Predeclared and unnamed non-struct types have no methods: the
		// common case (string, int64, []string...) needs no lookup.
		return false
	}
	if v, ok := ownJSONCache.Load(t); ok {
		return v.(bool)
	}
	own := false
	if t != timeType && t != rawMessageType && t != jsonObjectType {
		pt := reflect.PointerTo(t)
		own = !t.Implements(textMarshalerType) && !pt.Implements(textMarshalerType) &&
			(t.Implements(jsonMarshalerType) || pt.Implements(jsonMarshalerType))
	}
	ownJSONCache.Store(t, own)
	return own
}

var ownJSONCache sync.Map // reflect.Type -> bool

// jsonObject is a decoded JSON object that keeps its members in order.
type jsonObject struct {
	members []jsonMember
}

type jsonMember struct {
	k string
	v any
}

// MarshalJSON writes the object back, members in order, so that a nested
// object sent as JSON (a form field, a multipart part) stays as it was.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.k)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeJSON decodes one JSON value: objects as jsonObject, arrays as
// []any, numbers as json.Number (their text, unchanged), null as nil.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON: data after the value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		var o jsonObject
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.members = append(o.members, jsonMember{kt.(string), v})
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return tok, nil
}
