package conform

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Drift the Go type cannot hold.
//
// A value can be valid for its schema (or drift from it in a way the walker
// keeps) and still not fit the Go type it lands in: a date-time that is
// not RFC 3339 for a time.Time, a float32 out of range, invalid base64 for
// a []byte, an object where a schema without "type" became a slice.
// encoding/json then fails the whole decode. The decode paths call
// json.Unmarshal as they always did; only when it fails on well-formed
// JSON does fitGoType walk the document together with the Go type, find
// the values that do not fit, and drop them (or, for a time.Time, rewrite
// a recognisable date-time as RFC 3339), with a warning naming each
// pointer. Conforming data never gets here, so it costs nothing more.

// decodeFit decodes the well-formed JSON b into out (a non-nil pointer).
// When a value of b does not fit out's Go type, out is reset to its zero
// value and b is decoded again without the values that do not fit; the
// warnings (without operation id) say which. It fails only when b is not
// JSON (CodeDecode) or out is not a non-nil pointer.
func decodeFit(b []byte, out any) ([]Issue, error) {
	// The fused path without a schema first: it decodes as encoding/json
	// does, in one pass, or gives up with out zero again. Then
	// encoding/json's own path, so errors, repairs and their warnings are
	// exactly encoding/json's.
	if fusedEnabled && decodeFused(nil, b, out) {
		return nil, nil
	}
	err := json.Unmarshal(b, out)
	if err == nil {
		return nil, nil
	}
	var ie *json.InvalidUnmarshalError
	if errors.As(err, &ie) || !json.Valid(b) {
		return nil, err
	}
	rv := reflect.ValueOf(out).Elem()
	rv.SetZero()
	fixed, issues := fitGoType(b, rv.Type())
	if err2 := json.Unmarshal(fixed, out); err2 != nil {
		// The guaranteed fallback: nothing of the value is kept.
		rv.SetZero()
		issues = append(issues[:0], Issue{Message: fmt.Sprintf("the data does not fit Go type %s (%v): dropped", typeName(rv.Type()), err2)})
	} else if len(issues) == 0 && bytes.Equal(fixed, b) {
		// The second decode took what the first refused; say so anyway
		// (not when a repair changed the text silently: base64 forms).
		issues = append(issues, Issue{Message: fmt.Sprintf("decoding into Go type %s failed once (%v), then succeeded", typeName(rv.Type()), err)})
	}
	return issues, nil
}

// fitGoType returns b without the values Go type t cannot hold, and a
// warning for each. b must be well-formed JSON.
func fitGoType(b []byte, t reflect.Type) ([]byte, []Issue) {
	f := &fitter{w: &walker{b: b, shallowAt: -1}}
	i := f.w.ws(0)
	if _, ok := f.fit(t, i); !ok {
		f.w.edits = append(f.w.edits[:0], edit{i, len(f.w.b), "null"})
	}
	out, ok := f.w.normalized()
	if !ok {
		return []byte("null"), append(f.issues, Issue{Message: "the repaired data is not JSON: dropped"})
	}
	return out, f.issues
}

// fitter walks a document against a Go type. Its walker scans the
// document, tracks the pointer and collects the edits.
type fitter struct {
	w      *walker
	issues []Issue
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	timeType            = reflect.TypeFor[time.Time]()
)

// fit checks the value at i against t and returns its end and whether it
// fits, after the edits fit made inside it. When it does not fit, the
// issue is recorded (the caller drops the value) and the edits made inside
// it are undone.
func (f *fitter) fit(t reflect.Type, i int) (end int, ok bool) {
	end = f.w.skip(i)
	raw := f.w.b[i:end]
	for {
		if t.Kind() == reflect.Pointer {
			t = t.Elem() // null fits a pointer: tryDecode says so below
		} else if elem, ok := nullableElem(t); ok {
			// A Nullable: null fits it, a value must fit its T.
			if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
				return end, true
			}
			t = elem
		} else {
			break
		}
	}
	err := tryDecode(t, raw)
	if err == nil {
		return end, true
	}
	mark, imark := len(f.w.edits), len(f.issues)
	if f.descend(t, i) {
		if err2 := tryDecode(t, f.materialize(i, end, mark)); err2 == nil {
			return end, true
		}
		f.w.edits, f.issues = f.w.edits[:mark], f.issues[:imark]
	}
	if f.rewriteTime(t, i, end) || f.rewriteBase64(t, i, end) || f.rewriteInteger(t, i, end) {
		return end, true
	}
	f.issue(fitMessage(t, raw, err))
	return end, false
}

func (f *fitter) issue(msg string) {
	f.issues = append(f.issues, Issue{Pointer: f.w.pointer(), Message: msg})
}

// tryDecode decodes raw into a new value of type t.
func tryDecode(t reflect.Type, raw []byte) error {
	return json.Unmarshal(raw, reflect.New(t).Interface())
}

// materialize returns the value at b[i:end] with the edits from mark on
// (all of them inside it) applied.
func (f *fitter) materialize(i, end, mark int) []byte {
	if len(f.w.edits) == mark {
		return f.w.b[i:end]
	}
	sub := &walker{b: f.w.b[i:end]}
	for _, e := range f.w.edits[mark:] {
		sub.edits = append(sub.edits, edit{e.start - i, e.end - i, e.text})
	}
	out, _ := sub.normalized()
	return out
}

// descend repairs the parts of the container at i that do not fit the
// element, field or item types of t. It reports whether it looked inside:
// false for scalars, types with an UnmarshalJSON it knows nothing about,
// and a container of the wrong kind.
func (f *fitter) descend(t reflect.Type, i int) bool {
	kind := kindAt(f.w.b[i])
	if reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		// Generated types with an UnmarshalJSON of their own: objects
		// with AdditionalProperties, and tuples. Their fields say what
		// their members or items hold.
		if t.Kind() != reflect.Struct {
			return false
		}
		switch kind {
		case tObject:
			fields := fieldsOf(t)
			f.object(i, func(key string) (reflect.Type, bool) {
				if fl := fields.lookup(key); fl != nil {
					return fl.typ, fl.quoted
				}
				return fields.extra, false
			})
			return true
		case tArray:
			fields := fieldsOf(t)
			if fields.tuple == nil {
				return false
			}
			f.array(i, func(idx int) reflect.Type {
				if idx < len(fields.tuple) {
					return fields.tuple[idx]
				}
				return fields.rest
			})
			return true
		}
		return false
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		if kind != tObject {
			return false
		}
		fields := fieldsOf(t)
		f.object(i, func(key string) (reflect.Type, bool) {
			if fl := fields.lookup(key); fl != nil {
				return fl.typ, fl.quoted
			}
			return nil, false
		})
		return true
	case reflect.Map:
		if kind != tObject || !mapKeyKind(t.Key()) {
			return false
		}
		f.mapMembers(i, t)
		return true
	case reflect.Slice, reflect.Array:
		if kind != tArray {
			return false
		}
		elem, n := t.Elem(), -1
		if t.Kind() == reflect.Array {
			n = t.Len() // encoding/json ignores the items beyond
		}
		f.array(i, func(idx int) reflect.Type {
			if n >= 0 && idx >= n {
				return nil
			}
			return elem
		})
		return true
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return false
		}
		switch kind {
		case tObject:
			f.object(i, func(string) (reflect.Type, bool) { return t, false })
			return true
		case tArray:
			f.array(i, func(int) reflect.Type { return t })
			return true
		}
	}
	return false
}

// member is one member of an object the fitter walks.
type member struct {
	keyStart, end int
	drop          bool
}

// object fits each member of the object at i to the type typeOf gives its
// key (nil: the member is ignored by encoding/json), dropping those that do
// not fit. quoted is the ",string" option of a struct field.
func (f *fitter) object(i int, typeOf func(key string) (t reflect.Type, quoted bool)) {
	f.members(i, func(key []byte, vs int) (int, bool) {
		t, quoted := typeOf(unquote(key))
		if t == nil {
			return f.w.skip(vs), true
		}
		if quoted {
			end := f.w.skip(vs)
			if err := tryQuoted(t, f.w.b[vs:end]); err != nil {
				f.issue(fitMessage(t, f.w.b[vs:end], err))
				return end, false
			}
			return end, true
		}
		return f.fit(t, vs)
	})
}

// mapMembers fits the members of the object at i to map type t: the key
// to its key type, the value to its element type.
func (f *fitter) mapMembers(i int, t reflect.Type) {
	kt, et := t.Key(), t.Elem()
	f.members(i, func(key []byte, vs int) (int, bool) {
		if err := fitKey(kt, unquote(key)); err != nil {
			end := f.w.skip(vs)
			f.issue(fmt.Sprintf("key %q does not fit Go type %s (%v): dropped", truncate(unquote(key)), typeName(kt), err))
			return end, false
		}
		return f.fit(et, vs)
	})
}

// members walks the members of the object at i with check, which returns
// the end of the value at vs and whether to keep the member; the members
// not kept are deleted.
func (f *fitter) members(i int, check func(key []byte, vs int) (end int, keep bool)) {
	w := f.w
	var list []member
	j := w.ws(i + 1)
	for j < len(w.b) && w.b[j] == '"' {
		keyEnd := w.strEnd(j)
		key := w.b[j+1 : keyEnd-1]
		vs := w.ws(w.ws(keyEnd) + 1)
		w.path = append(w.path, pathSeg{key: key})
		end, keep := check(key, vs)
		w.path = w.path[:len(w.path)-1]
		list = append(list, member{keyStart: j, end: end, drop: !keep})
		j = w.ws(end)
		if j < len(w.b) && w.b[j] == ',' {
			j = w.ws(j + 1)
		}
	}
	dropMembers(w, list)
}

// dropMembers deletes the members marked drop, with their commas, in
// ranges that do not overlap.
func dropMembers(w *walker, list []member) {
	first := -1 // the first kept member
	for k, m := range list {
		if !m.drop {
			first = k
			break
		}
	}
	if first < 0 {
		if len(list) > 0 {
			w.edit(list[0].keyStart, list[len(list)-1].end, "")
		}
		return
	}
	if first > 0 {
		w.edit(list[0].keyStart, list[first].keyStart, "")
	}
	prev := first
	for k := first + 1; k <= len(list); k++ {
		if k < len(list) && list[k].drop {
			continue
		}
		// list[prev] is kept, and so is list[k] (or k is past the end):
		// delete what lies between, from the end of list[prev].
		if k-1 > prev {
			w.edit(list[prev].end, list[k-1].end, "")
		}
		prev = k
	}
}

// array fits each item of the array at i to the type typeOf gives its
// index (nil: ignored); an item that does not fit becomes null.
func (f *fitter) array(i int, typeOf func(idx int) reflect.Type) {
	w := f.w
	j := w.ws(i + 1)
	for idx := 0; j < len(w.b) && w.b[j] != ']'; idx++ {
		t := typeOf(idx)
		var end int
		if t == nil {
			end = w.skip(j)
		} else {
			w.path = append(w.path, pathSeg{idx: idx})
			var ok bool
			end, ok = f.fit(t, j)
			w.path = w.path[:len(w.path)-1]
			if !ok {
				w.edit(j, end, "null")
			}
		}
		j = w.ws(end)
		if j < len(w.b) && w.b[j] == ',' {
			j = w.ws(j + 1)
		}
	}
}

// timeLayouts are date-times that are not RFC 3339 but say the instant
// without ambiguity (year first, explicit offset), as real APIs send them.
var timeLayouts = []string{
	"2006-01-02T15:04:05Z0700",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05Z0700",
	"2006-01-02 15:04:05 Z07:00",
	"2006-01-02 15:04:05 Z0700",
	"2006/01/02 15:04:05Z07:00",
	"2006/01/02 15:04:05 Z07:00",
	"2006/01/02 15:04:05 Z0700",
	"2006/01/02T15:04:05Z07:00",
	time.RFC1123Z,
}

// rewriteTime rewrites a date-time string a time.Time cannot decode, but
// whose instant is clear, as RFC 3339.
func (f *fitter) rewriteTime(t reflect.Type, i, end int) bool {
	if t != timeType || kindAt(f.w.b[i]) != tString {
		return false
	}
	s := unquote(f.w.b[i+1 : end-1])
	for _, layout := range timeLayouts {
		if tm, err := time.Parse(layout, s); err == nil {
			rfc := tm.Format(time.RFC3339Nano)
			f.w.edit(i, end, strconv.Quote(rfc))
			f.issue(fmt.Sprintf("%q is not an RFC 3339 date-time, which Go type time.Time needs: read as %q", truncate(s), rfc))
			return true
		}
	}
	return false
}

// rewriteBase64 rewrites a string in another base64 of RFC 4648 (without
// padding, or URL-safe, as Google's APIs send format byte) into the padded
// standard one that a []byte reads. Both are base64: no warning.
func (f *fitter) rewriteBase64(t reflect.Type, i, end int) bool {
	if t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint8 || kindAt(f.w.b[i]) != tString {
		return false
	}
	s := unquote(f.w.b[i+1 : end-1])
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			f.w.edit(i, end, strconv.Quote(base64.StdEncoding.EncodeToString(b)))
			return true
		}
	}
	return false
}

// rewriteInteger rewrites a number an integer type cannot decode, but
// whose value it holds, as the integer literal it reads: an integer written
// with a fraction or an exponent (2.0, 1e3: integers to JSON Schema), and a
// 64-bit bound as JavaScript writes it (-9223372036854776000, Prism's and
// many descriptions' minimum of an int64, is the IEEE double of -2^63;
// 9223372036854776000 that of 2^63, which reads as the largest int64, the
// same double). Either is the same number: no warning.
func (f *fitter) rewriteInteger(t reflect.Type, i, end int) bool {
	lo, hi := intRange(t)
	if lo == nil || kindAt(f.w.b[i]) != tNumber {
		return false
	}
	lit := string(f.w.b[i:end])
	r, ok := new(big.Rat).SetString(lit)
	if !ok || !r.IsInt() {
		return false
	}
	v := r.Num()
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		if t.Bits() != 64 {
			return false
		}
		// Out of range: in range as a double, at a bound.
		d, _ := strconv.ParseFloat(lit, 64)
		switch {
		case d == bigFloat64(lo):
			v = lo
		case d == bigFloat64(hi):
			v = hi
		default:
			return false
		}
	}
	f.w.edit(i, end, v.String())
	return true
}

// intRange returns the bounds of integer type t (nil for other kinds).
func intRange(t reflect.Type) (lo, hi *big.Int) {
	one := big.NewInt(1)
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits()-1)), one)
		lo = new(big.Int).Neg(new(big.Int).Add(hi, one))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		hi = new(big.Int).Sub(new(big.Int).Lsh(one, uint(t.Bits())), one)
		lo = new(big.Int)
	}
	return lo, hi
}

// bigFloat64 is the double nearest n.
func bigFloat64(n *big.Int) float64 {
	d, _ := new(big.Float).SetInt(n).Float64()
	return d
}

// fitMessage says why raw does not fit t.
func fitMessage(t reflect.Type, raw []byte, err error) string {
	var reason string
	var ute *json.UnmarshalTypeError
	var pe *time.ParseError
	var ce base64.CorruptInputError
	switch {
	case errors.As(err, &pe):
		reason = "not an RFC 3339 date-time"
	case errors.As(err, &ce):
		reason = "not base64"
	case errors.As(err, &ute) && ute.Type == t:
		if strings.HasPrefix(ute.Value, "number") {
			switch t.Kind() {
			case reflect.Float32, reflect.Float64:
				reason = "out of its range"
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				if bytes.ContainsAny(raw, ".eE") {
					reason = "not an integer it can hold"
				} else {
					reason = "out of its range"
				}
			}
		}
	default:
		reason = err.Error()
	}
	value := raw
	if k := kindAt(raw[0]); k == tObject || k == tArray {
		var buf bytes.Buffer
		if json.Compact(&buf, raw) == nil {
			value = buf.Bytes()
		}
	}
	msg := fmt.Sprintf("value %s does not fit Go type %s", truncate(string(value)), typeName(t))
	if reason != "" {
		msg += " (" + reason + ")"
	}
	return msg + ": dropped"
}

// typeName names t for messages as Go source does: []byte, not []uint8.
func typeName(t reflect.Type) string {
	return strings.ReplaceAll(t.String(), "[]uint8", "[]byte")
}

// tryQuoted decodes raw as a struct field of type t with the ",string"
// option does.
func tryQuoted(t reflect.Type, raw []byte) error {
	st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: t, Tag: `json:"f,string"`}})
	doc := make([]byte, 0, len(raw)+6)
	doc = append(append(append(doc, `{"f":`...), raw...), '}')
	return json.Unmarshal(doc, reflect.New(st).Interface())
}

// mapKeyKind reports whether encoding/json decodes objects into maps with
// keys of type kt.
func mapKeyKind(kt reflect.Type) bool {
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		return true
	}
	switch kt.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// fitKey checks a map key as encoding/json converts it.
func fitKey(kt reflect.Type, key string) error {
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		return reflect.New(kt).Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(key))
	}
	switch kt.Kind() {
	case reflect.String:
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(key, 10, 64)
		if err == nil && reflect.Zero(kt).OverflowInt(n) {
			err = errors.New("out of range")
		}
		return err
	default:
		n, err := strconv.ParseUint(key, 10, 64)
		if err == nil && reflect.Zero(kt).OverflowUint(n) {
			err = errors.New("out of range")
		}
		return err
	}
}

// goFields are the JSON members of a struct type, as encoding/json finds
// them (tags, embedded structs, the dominant field of a name).
type goFields struct {
	list []goField
	// extra is the element type of a generated AdditionalProperties map
	// (tagged "-"), which the type's UnmarshalJSON fills; nil without one.
	extra reflect.Type
	// tuple and rest are the item types of a generated tuple (fields Item0,
	// Item1, ... and Rest); tuple is nil for other structs.
	tuple []reflect.Type
	rest  reflect.Type
}

type goField struct {
	name   string
	typ    reflect.Type
	quoted bool
}

// lookup finds the field of a member name: exactly, else ignoring case,
// as encoding/json matches them.
func (g *goFields) lookup(key string) *goField {
	for k := range g.list {
		if g.list[k].name == key {
			return &g.list[k]
		}
	}
	for k := range g.list {
		if strings.EqualFold(g.list[k].name, key) {
			return &g.list[k]
		}
	}
	return nil
}

var goFieldCache sync.Map // reflect.Type -> *goFields

func fieldsOf(t reflect.Type) *goFields {
	if g, ok := goFieldCache.Load(t); ok {
		return g.(*goFields)
	}
	g := collectFields(t)
	goFieldCache.Store(t, g)
	return g
}

// collectFields follows encoding/json's rules: exported fields (and
// embedded structs, whose fields are promoted) with their tag name; of the
// fields of one name the shallowest wins, a tagged one among equals, and
// a tie hides the name.
func collectFields(t reflect.Type) *goFields {
	type cand struct {
		goField
		depth  int
		tagged bool
	}
	var cands []cand
	seen := map[reflect.Type]bool{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0; depth++ {
		var next []reflect.Type
		for _, st := range level {
			if seen[st] {
				continue
			}
			seen[st] = true
			for k := 0; k < st.NumField(); k++ {
				sf := st.Field(k)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
					next = append(next, ft)
					continue
				}
				quoted := false
				for o := range strings.SplitSeq(opts, ",") {
					if o == "string" {
						switch ft.Kind() {
						case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
							reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
							reflect.Float32, reflect.Float64, reflect.String:
							quoted = true
						}
					}
				}
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				cands = append(cands, cand{goField{name, sf.Type, quoted}, depth, tagged})
			}
		}
		level = next
	}
	g := &goFields{}
	for k, c := range cands {
		dominant, tie := true, false
		for m, o := range cands {
			if m == k || o.name != c.name {
				continue
			}
			switch {
			case o.depth < c.depth, o.depth == c.depth && o.tagged && !c.tagged:
				dominant = false
			case o.depth == c.depth && o.tagged == c.tagged:
				tie = true
			}
		}
		if dominant && !tie {
			g.list = append(g.list, c.goField)
		}
	}
	if t.Kind() == reflect.Struct {
		if sf, ok := t.FieldByName("AdditionalProperties"); ok && sf.Tag.Get("json") == "-" && sf.Type.Kind() == reflect.Map {
			g.extra = sf.Type.Elem()
		}
		for k := 0; ; k++ {
			sf, ok := t.FieldByName("Item" + strconv.Itoa(k))
			if !ok {
				break
			}
			g.tuple = append(g.tuple, sf.Type)
		}
		if sf, ok := t.FieldByName("Rest"); ok && g.tuple != nil && sf.Type.Kind() == reflect.Slice {
			g.rest = sf.Type.Elem()
		}
	}
	return g
}
