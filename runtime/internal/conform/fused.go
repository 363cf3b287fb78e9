package conform

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"encoding/json"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The fused path: one pass over the bytes that validates a result against
// its schema and decodes it into its Go value together, for the common
// case of data that conforms and needs no normalization. It is an
// optimisation only: at the first thing it would not do exactly as the
// two passes do (a mismatch, an edit normalization would make, a member
// encoding/json would match case-insensitively, a duplicate member, a type
// it does not decode itself) it gives up, the value is reset to zero and
// the pipeline runs as before (check, then decodeFit), so warnings, edits,
// errors and decoded values are exactly the two passes'. The types
// generated code uses are decoded here as encoding/json would through
// their methods: Nullable (its state set, its value decoded in place),
// time.Time (UnmarshalText on the string's bytes: what its UnmarshalJSON
// does), encoding.TextUnmarshalers such as Date, and generated unions (the
// value's JSON kept, as UnionValue's UnmarshalJSON keeps it). Go types it
// does not decode itself (other Unmarshalers, interfaces, []byte, embedded
// structs, ...) are delegated value by value: the walker checks the value,
// encoding/json decodes it.

// fusedEnabled turns the fused path on; tests turn it off to compare.
var fusedEnabled = true

// planKind is how the fused path decodes one Go type.
type planKind uint8

const (
	pDelegate planKind = iota // the walker checks, encoding/json decodes
	pString
	pBool
	pInt
	pUint
	pFloat
	pPointer
	pSlice
	pStruct
	pMap // string keys
	// pNullable is a Nullable[T]: elem decodes its value, stateOff is
	// where its state is.
	pNullable
	// pTime is a time.Time: a JSON string parsed by UnmarshalText (its
	// UnmarshalJSON does just that with the string's raw bytes).
	pTime
	// pText is a type that decodes JSON strings by its pointer's
	// UnmarshalText and is no json.Unmarshaler (Date).
	pText
	// pUnion is a generated union: a struct of one embedded UnionValue,
	// whose UnmarshalJSON keeps a copy of the value's JSON.
	pUnion
)

// plan is how the fused path decodes values of one Go type.
type plan struct {
	kind planKind
	typ  reflect.Type
	bits int   // pInt, pUint, pFloat
	elem *plan // pPointer, pSlice, pMap, pNullable
	// stateOff is the offset of a Nullable's state (pNullable).
	stateOff uintptr
	// pStruct: the fields by JSON name, and the folded names (see fold)
	// that encoding/json would match a member to case-insensitively.
	fields []fieldPlan
	byName map[string]int
	folded map[string]bool
	// pSlice: the array types of the backing arrays, by log2 of their
	// length (reflect.ArrayOf looks them up in a global map).
	arrays [48]atomic.Pointer[arrayType]
	// pStruct: the members of the object view last decoded into it,
	// matched with the fields once.
	// bound holds the bindings of the last views (a Go type often has a
	// few schemas: GitHub's user is a simple-user in one place, a
	// nullable-simple-user in another, taken in turns), boundNext the slot
	// the next one replaces; boundNone is for no schema (ValidateOff).
	bound     [4]atomic.Pointer[binding]
	boundNext atomic.Uint32
	boundNone atomic.Pointer[binding]
}

type arrayType struct{ t reflect.Type }

// arrayOf returns the type [1<<log]elem.
func (p *plan) arrayOf(log int) reflect.Type {
	if a := p.arrays[log].Load(); a != nil {
		return a.t
	}
	a := &arrayType{reflect.ArrayOf(1<<log, p.elem.typ)}
	p.arrays[log].Store(a)
	return a.t
}

// binding matches the properties of an object view with the fields of a
// struct plan: one lookup per member finds both.
type binding struct {
	view    *objView
	entries []bindEntry
	first   atomic.Int32 // the entry of the first member last time (see next)
}

type bindEntry struct {
	name string
	pi   *propInfo // nil: no property of this name
	fi   int       // -1: no field of this name
	// raw: name holds only bytes a JSON string holds as they are, so a
	// key whose raw bytes equal it is it.
	raw bool
	// word holds the first eight bytes of name (fewer: the bits of mask),
	// to compare a key with in one step.
	word, mask uint64
	// next is the entry that followed this one in the object last
	// decoded (-1: none yet): objects of a list come with their members
	// in one order, and the next key is compared with it first. Racing
	// decodes may overwrite it; it is a guess only.
	next atomic.Int32
}

// bind returns the binding of view (nil: no schema) with p.
func (p *plan) bind(view *objView) *binding {
	slot := &p.boundNone
	if view != nil {
		for k := range p.bound {
			if b := p.bound[k].Load(); b != nil && b.view == view {
				return b
			}
		}
		slot = &p.bound[(p.boundNext.Add(1)-1)%uint32(len(p.bound))]
	} else if b := slot.Load(); b != nil {
		return b
	}
	b := &binding{view: view}
	n := len(p.fields)
	if view != nil {
		for _, name := range view.names {
			if _, ok := p.byName[name]; !ok {
				n++
			}
		}
	}
	b.entries = make([]bindEntry, 0, n)
	add := func(name string, pi *propInfo, fi int) {
		b.entries = append(b.entries, bindEntry{name: name, pi: pi, fi: fi, raw: rawName(name)})
		e := &b.entries[len(b.entries)-1]
		for k := range min(len(name), 8) {
			e.word |= uint64(name[k]) << (8 * k)
			e.mask |= 0xff << (8 * k)
		}
		e.next.Store(-1)
	}
	for i, f := range p.fields {
		var pi *propInfo
		if view != nil {
			pi = view.props[f.name]
		}
		add(f.name, pi, i)
	}
	if view != nil {
		for _, name := range view.names {
			if _, ok := p.byName[name]; !ok {
				add(name, view.props[name], -1)
			}
		}
	}
	b.first.Store(-1)
	slot.Store(b)
	return b
}

// rawName reports whether every byte of name is one a JSON string holds
// as it is.
func rawName(name string) bool {
	for i := 0; i < len(name); i++ {
		if !plain[name[i]] {
			return false
		}
	}
	return true
}

// short returns the entry at index at if its name is raw and at most
// eight bytes long, nil otherwise.
func (bd *binding) short(at int32) *bindEntry {
	if at < 0 || int(at) >= len(bd.entries) {
		return nil
	}
	if e := &bd.entries[at]; e.raw && len(e.name) <= 8 {
		return e
	}
	return nil
}

// predicted returns the entry at index at if the key of the member at j
// (its opening quote) is its name, with the key's end; nil otherwise.
func (bd *binding) predicted(b []byte, j int, at int32) (*bindEntry, int) {
	if at < 0 || int(at) >= len(bd.entries) {
		return nil, 0
	}
	e := &bd.entries[at]
	end := j + 1 + len(e.name)
	if !e.raw || end >= len(b) || b[end] != '"' {
		return nil, 0
	}
	if j+9 <= len(b) {
		// Eight bytes at once (beyond the key's end, if it is
		// shorter, masked out), then the rest of a longer name.
		if binary.LittleEndian.Uint64(b[j+1:])&e.mask != e.word || (len(e.name) > 8 && string(b[j+9:end]) != e.name[8:]) {
			return nil, 0
		}
	} else if string(b[j+1:end]) != e.name {
		return nil, 0
	}
	return e, end + 1
}

// find returns the entry named key exactly, or nil, trying from hint on:
// members usually come in the order of the last object's.
func (b *binding) find(key []byte, hint int) (*bindEntry, int) {
	n := len(b.entries)
	for k := range n {
		i := hint + k
		if i >= n {
			i -= n
		}
		if b.entries[i].name == string(key) {
			return &b.entries[i], i
		}
	}
	return nil, hint
}

type fieldPlan struct {
	name string
	off  uintptr
	plan *plan
}

var (
	plans          sync.Map // reflect.Type → *plan
	jsonNumberType = reflect.TypeFor[json.Number]()
	stringType     = reflect.TypeFor[string]()
)

// planFor returns the plan of t, compiling it on first use.
func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := compilePlan(t, map[reflect.Type]*plan{})
	actual, _ := plans.LoadOrStore(t, p)
	return actual.(*plan)
}

func compilePlan(t reflect.Type, seen map[reflect.Type]*plan) *plan {
	if p := seen[t]; p != nil {
		return p
	}
	p := &plan{typ: t}
	seen[t] = p
	pt := reflect.PointerTo(t)
	switch {
	case t == timeType:
		p.kind = pTime
		return p
	case isUnion(t):
		p.kind = pUnion
		return p
	}
	if e, ok := nullableElem(t); ok {
		p.kind, p.elem, p.stateOff = pNullable, compilePlan(e, seen), t.Field(1).Offset
		return p
	}
	// A pointer's methods are its element's: encoding/json allocates the
	// element and decodes into it as into the element (see the pointer
	// case below).
	if t.Kind() != reflect.Pointer {
		if t == jsonNumberType || t.Implements(jsonUnmarshalerType) || pt.Implements(jsonUnmarshalerType) {
			return p // pDelegate
		}
		if t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType) {
			// Through a pointer receiver only: a value receiver cannot
			// store what it decodes (but a map's could).
			if t.Kind() != reflect.Interface && t.Kind() != reflect.Map && !t.Implements(textUnmarshalerType) {
				p.kind = pText
			}
			return p
		}
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = pString
	case reflect.Bool:
		p.kind = pBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind, p.bits = pInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		p.kind, p.bits = pUint, t.Bits()
	case reflect.Float32, reflect.Float64:
		p.kind, p.bits = pFloat, t.Bits()
	case reflect.Pointer:
		// A pointer to a delegated type is delegated whole: encoding/json's
		// handling of null and Unmarshalers behind pointers is its own.
		if e := compilePlan(t.Elem(), seen); e.kind != pDelegate {
			p.kind, p.elem = pPointer, e
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return p // []byte is base64
		}
		p.kind, p.elem = pSlice, compilePlan(t.Elem(), seen)
	case reflect.Struct:
		if structPlan(p, t, seen) {
			p.kind = pStruct
		}
	case reflect.Map:
		// Keys of string kind that are not encoding.TextUnmarshalers
		// are the member names as they are (encoding/json's order of
		// tests); others are delegated.
		if kt := t.Key(); kt.Kind() == reflect.String && !reflect.PointerTo(kt).Implements(textUnmarshalerType) {
			p.kind, p.elem = pMap, compilePlan(t.Elem(), seen)
		}
	}
	return p
}

// isUnion reports whether t is a generated union type: a struct whose only
// field is an embedded UnionValue, so that its UnmarshalJSON is
// UnionValue's.
func isUnion(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Anonymous && types.UnionValue != nil && t.Field(0).Type == types.UnionValue
}

// structPlan fills the fields of p; it returns false for a struct the fused
// path does not decode itself (embedded fields, the ",string" option, tag
// names encoding/json would not use, two fields of one name).
func structPlan(p *plan, t reflect.Type, seen map[reflect.Type]*plan) bool {
	p.byName = map[string]int{}
	p.folded = map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := cutComma(tag)
		for opts != "" {
			var o string
			o, opts, _ = cutComma(opts)
			if o == "string" {
				return false
			}
		}
		if name == "" || !validTagName(name) {
			return false
		}
		if _, dup := p.byName[name]; dup {
			return false
		}
		p.byName[name] = len(p.fields)
		p.folded[fold(name)] = true
		p.fields = append(p.fields, fieldPlan{name: name, off: f.Offset, plan: compilePlan(f.Type, seen)})
	}
	return true
}

func cutComma(s string) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// validTagName reports whether encoding/json uses name as the key of its
// field (its isValidTag), restricted to ASCII.
func validTagName(name string) bool {
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c < 0x80 && c > ' ' && c != '"' && c != '\'' && c != '\\' && c != ',' && c != '`':
		default:
			return false
		}
	}
	return true
}

// fold lower-cases ASCII letters and drops '_' and '-': two names whose
// folds differ are never matched to each other by encoding/json's
// case-insensitive matching (this is coarser than its, so it finds every
// name it would match, and a few more).
func fold(s string) string {
	b := make([]byte, 0, len(s))
	for _, c := range []byte(s) {
		switch {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// foldedMatch reports whether a member key no field has exactly could be
// matched to a field case-insensitively. Keys that are not ASCII, or have
// escapes, count as a match (the fused path gives up on them).
func (p *plan) foldedMatch(key []byte) bool {
	var buf [64]byte
	b := buf[:0]
	for _, c := range key {
		switch {
		case c >= 0x80 || c == '\\':
			return true
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return p.folded[string(b)]
}

// fuser is one run of the fused path. Its walker holds the bytes, scans
// them and does the checks beyond the type (scalarChecks); a non-empty
// issues, notes or edits of the walker means give up.
type fuser struct {
	w       *walker
	bail    bool
	strings *stringCache
	// keys caches the strings of maps (taken from mapCaches at the first
	// map), apart from the others, which would evict them.
	keys *stringCache
	// estimated: an array's length has been estimated (items).
	estimated bool
	// slab holds the items of the string arrays decoded so far: each
	// array is a full slice of it (len = cap), so that the many short
	// arrays of a document (tags, names) cost an allocation per few
	// hundred strings, not one each.
	slab []string
}

// stringCache holds short strings decoded lately, so that a value repeated
// through a document (an enum, a tag, a name) is allocated once, as
// go-json-experiment does. Strings are immutable: sharing them is safe.
type stringCache [256]string

var stringCaches = sync.Pool{New: func() any { return new(stringCache) }}

// mapCaches are the caches of the strings of maps: a pool of their own, so
// that a decode's two caches do not swap roles from one decode to the next.
var mapCaches = sync.Pool{New: func() any { return new(stringCache) }}

// make returns b as a string, from the cache when b is short.
func (c *stringCache) make(b []byte) string {
	if len(b) < 2 || len(b) > 24 {
		return string(b)
	}
	// The length and the first and last two bytes tell apart most
	// strings of a document's vocabulary; a collision only costs an
	// allocation.
	h := uint32(len(b))*0x9e37 ^ uint32(b[0])<<8 ^ uint32(b[1])*0x3b ^ uint32(b[len(b)-2])*0x71 ^ uint32(b[len(b)-1])*0x1f
	h ^= h >> 8
	e := &c[h&255]
	if *e != string(b) {
		*e = string(b)
	}
	return *e
}

// decodeFused runs the fused path: it returns true when out holds the
// decoded body and there is nothing to report; false when the caller must
// take the two passes (out is then zero again, as it was). n is the
// compiled schema (nil: decode only).
func decodeFused(n *node, body []byte, out any) bool {
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	pl := planFor(rv.Type().Elem())
	if pl.kind == pDelegate || !rv.Elem().IsZero() {
		return false
	}
	// As check: members no schema declares are dropped unless a struct
	// drops them anyway.
	w := newWalker(body, !StructTarget(rv.Type().Elem()))
	defer w.release()
	f := fuser{w: w, strings: stringCaches.Get().(*stringCache)}
	defer stringCaches.Put(f.strings)
	end := f.value(n, w.ws(0), pl, rv.UnsafePointer())
	if f.keys != nil {
		mapCaches.Put(f.keys)
	}
	if !f.bail && (w.err != nil || w.ws(end) != len(body)) {
		f.bail = true
	}
	if f.bail {
		rv.Elem().SetZero()
		return false
	}
	return true
}

// clean reports whether the walker has found nothing to report or change.
func (f *fuser) clean() bool {
	w := f.w
	return w.err == nil && len(w.issues) == 0 && len(w.notes) == 0 && len(w.edits) == 0
}

// value checks the value at i against n (nil: no checks), decodes it into
// ptr by p and returns its end. It sets f.bail instead when it cannot.
func (f *fuser) value(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	if i >= len(w.b) {
		f.bail = true
		return i
	}
	switch p.kind {
	case pDelegate, pUnion:
		return f.delegate(n, i, p, ptr)
	case pNullable:
		if w.b[i] == 'n' {
			// Null (if n allows it): UnmarshalJSON's null state.
			end, fit := w.value(n, i)
			if !fit || !f.clean() || end != i+4 || string(w.b[i:end]) != "null" {
				f.bail = true
				return end
			}
			*(*uint8)(unsafe.Add(ptr, p.stateOff)) = types.NullableNull
			return end
		}
		// UnmarshalJSON decodes the value into a zero T with
		// encoding/json, as the value field here is.
		end := f.value(n, i, p.elem, ptr)
		if !f.bail {
			*(*uint8)(unsafe.Add(ptr, p.stateOff)) = types.NullableValue
		}
		return end
	}
	if n != nil && n.always {
		n = nil
	}
	if w.b[i] == '"' && p.kind == pString && (n == nil || n.plainKinds&tString != 0) {
		return f.str(i, ptr) // the most common value, shortest
	}
	kind := kindAt(w.b[i])
	if kind == 0 {
		f.bail = true
		return i
	}
	if n == nil {
		return f.decode(nil, kind, i, -1, p, ptr)
	}
	if n.plainKinds&kind != 0 {
		// Nothing to check beyond the type: what value would do below
		// comes to this.
		return f.decode(n, kind, i, -1, p, ptr)
	}
	if kind == tNumber && n.plainInts {
		if end, ok := fastNumber(w.b, i, p, ptr, true); ok {
			return end
		}
	}
	if len(n.choices) > 0 {
		// The walker chooses the branches; what it accepts unchanged is
		// decoded without further checks.
		end, fit := w.value(n, i)
		if !fit || !f.clean() {
			f.bail = true
			return end
		}
		return f.decode(nil, kind, i, -1, p, ptr)
	}
	numEnd := -1
	integral := false
	if kind == tNumber {
		numEnd = w.number(i)
		if w.err != nil {
			f.bail = true
			return numEnd
		}
		// Whether it is an integer matters only to a node that takes
		// integers but not all numbers.
		for _, m := range n.conj {
			if m.types != 0 && m.types&tNumber == 0 {
				integral = isIntegral(w.b[i:numEnd])
				break
			}
		}
	}
	if kind == tNull && w.nullable(n) {
		return f.decode(nil, kind, i, -1, p, ptr)
	}
	for _, m := range n.conj {
		if m.never {
			f.bail = true
			return i
		}
		if m.types == 0 || m.types&kind != 0 || (kind == tNumber && integral && m.types&tInteger != 0) {
			continue
		}
		f.bail = true
		return i
	}
	if kind == tNumber && integral && n.wantsInteger() && !plainInteger(w.b[i:numEnd]) {
		f.bail = true // normalization rewrites it
		return i
	}
	end := f.decode(n, kind, i, numEnd, p, ptr)
	if f.bail {
		return end
	}
	if n.scalar {
		w.scalarChecks(n, kind, i, end)
		if len(w.issues) > 0 {
			f.bail = true
		}
	}
	return end
}

// delegate checks the value at i with the walker and decodes it with
// encoding/json.
func (f *fuser) delegate(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	end, fit := w.value(n, i)
	if !fit || !f.clean() {
		f.bail = true
		return end
	}
	if p.kind == pUnion {
		// UnionValue's UnmarshalJSON: a copy of the value's JSON.
		types.SetUnionRaw(ptr, w.b[i:end])
		return end
	}
	if json.Unmarshal(w.b[i:end], reflect.NewAt(p.typ, ptr).Interface()) != nil {
		f.bail = true
	}
	return end
}

// text decodes the string at i into the time.Time or TextUnmarshaler at
// ptr with UnmarshalText, as encoding/json does; a string with escapes is
// given up on (time.Time's UnmarshalJSON would fail on one; for others
// this keeps to the common case).
func (f *fuser) text(i int, p *plan, ptr unsafe.Pointer) int {
	b := f.w.b
	j := plainRun(b, i+1)
	for j < len(b) && b[j] >= 0x80 {
		// UTF-8 is passed on as it is (encoding/json replaces only
		// invalid sequences, which the walker's checks would report).
		j = plainRun(b, j+1)
	}
	if j >= len(b) || b[j] != '"' || !utf8.Valid(b[i+1:j]) {
		f.bail = true
		return i
	}
	var err error
	if p.kind == pTime {
		err = (*time.Time)(ptr).UnmarshalText(b[i+1 : j])
	} else {
		err = reflect.NewAt(p.typ, ptr).Interface().(encoding.TextUnmarshaler).UnmarshalText(b[i+1 : j])
	}
	if err != nil {
		f.bail = true
	}
	return j + 1
}

// decode decodes the value at i, of JSON kind kind, into ptr by p; n (nil:
// none) checks an object's members or an array's items. numEnd is the end
// of a number already scanned, or -1.
func (f *fuser) decode(n *node, kind typeMask, i, numEnd int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	b := w.b
	switch p.kind {
	case pPointer:
		if kind != tNull && p.elem.kind >= pNullable {
			// To a type below, of any JSON kind.
			return f.pointer(n, kind, i, numEnd, p, ptr)
		}
	case pNullable:
		// Behind a pointer (a null is the nil pointer, below).
		if kind != tNull {
			end := f.decode(n, kind, i, numEnd, p.elem, ptr)
			if !f.bail {
				*(*uint8)(unsafe.Add(ptr, p.stateOff)) = types.NullableValue
			}
			return end
		}
	case pUnion:
		if kind != tNull {
			return f.delegate(n, i, p, ptr)
		}
	case pTime, pText:
		if kind == tString {
			return f.text(i, p, ptr)
		}
	}
	switch kind {
	case tNull:
		if len(b)-i >= 4 && string(b[i:i+4]) == "null" {
			// encoding/json leaves the zero value: a nil pointer or
			// slice, an untouched scalar or struct.
			return i + 4
		}
	case tBoolean:
		if p.kind == pPointer {
			return f.pointer(n, kind, i, numEnd, p, ptr)
		}
		if p.kind != pBool {
			break
		}
		if len(b)-i >= 4 && string(b[i:i+4]) == "true" {
			*(*bool)(ptr) = true
			return i + 4
		}
		if len(b)-i >= 5 && string(b[i:i+5]) == "false" {
			return i + 5
		}
	case tString:
		switch p.kind {
		case pPointer:
			return f.pointer(n, kind, i, numEnd, p, ptr)
		case pString:
			return f.str(i, ptr)
		}
	case tNumber:
		if numEnd < 0 {
			if end, ok := fastNumber(b, i, p, ptr, false); ok {
				return end
			}
			numEnd = w.number(i)
			if w.err != nil {
				break
			}
		}
		if number(b[i:numEnd], p, ptr) {
			return numEnd
		}
	case tObject:
		switch p.kind {
		case pPointer:
			return f.pointer(n, kind, i, numEnd, p, ptr)
		case pStruct:
			return f.object(n, i, p, ptr)
		case pMap:
			return f.mapObject(n, i, p, ptr)
		}
	case tArray:
		switch p.kind {
		case pPointer:
			return f.pointer(n, kind, i, numEnd, p, ptr)
		case pSlice:
			return f.array(n, i, p, ptr)
		}
	}
	f.bail = true
	return i
}

// pointer allocates the value a pointer points to and decodes into it.
func (f *fuser) pointer(n *node, kind typeMask, i, numEnd int, p *plan, ptr unsafe.Pointer) int {
	v := reflect.New(p.elem.typ).UnsafePointer()
	end := f.decode(n, kind, i, numEnd, p.elem, v)
	if !f.bail {
		*(*unsafe.Pointer)(ptr) = v
	}
	return end
}

// number stores the number literal lit by p, as encoding/json parses it.
func number(lit []byte, p *plan, ptr unsafe.Pointer) bool {
	s := bytesString(lit)
	switch p.kind {
	case pPointer:
		v := reflect.New(p.elem.typ).UnsafePointer()
		if !number(lit, p.elem, v) {
			return false
		}
		*(*unsafe.Pointer)(ptr) = v
		return true
	case pInt:
		x, ok := smallInt(lit)
		if !ok {
			var err error
			if x, err = strconv.ParseInt(s, 10, p.bits); err != nil {
				return false
			}
		} else if p.bits < 64 && (x < -1<<(p.bits-1) || x >= 1<<(p.bits-1)) {
			return false
		}
		switch p.bits {
		case 8:
			*(*int8)(ptr) = int8(x)
		case 16:
			*(*int16)(ptr) = int16(x)
		case 32:
			*(*int32)(ptr) = int32(x)
		default:
			*(*int64)(ptr) = x
		}
		return true
	case pUint:
		x, err := strconv.ParseUint(s, 10, p.bits)
		if err != nil {
			return false
		}
		switch p.bits {
		case 8:
			*(*uint8)(ptr) = uint8(x)
		case 16:
			*(*uint16)(ptr) = uint16(x)
		case 32:
			*(*uint32)(ptr) = uint32(x)
		default:
			*(*uint64)(ptr) = x
		}
		return true
	case pFloat:
		x, err := strconv.ParseFloat(s, p.bits)
		if err != nil || math.IsInf(x, 0) {
			return false
		}
		if p.bits == 32 {
			*(*float32)(ptr) = float32(x)
		} else {
			*(*float64)(ptr) = x
		}
		return true
	}
	return false
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// fastNumber decodes the number at i into ptr by p when its literal has a
// common form whose value it computes exactly as strconv would: at most 18
// significant digits, an integer for an integer type, for a float64 a
// mantissa below 2^53 and a power of ten a float64 holds exactly (one
// correctly rounded operation, strconv's own fast path). intOnly accepts
// plain integer literals only. ok is false, with nothing stored, for
// anything else (the caller then scans and parses it the long way).
func fastNumber(b []byte, i int, p *plan, ptr unsafe.Pointer, intOnly bool) (end int, ok bool) {
	j := i
	neg := false
	if j < len(b) && b[j] == '-' {
		neg = true
		j++
	}
	var mant uint64
	digits := 0
	if j < len(b) && b[j] == '0' {
		j++
	} else {
		for j < len(b) && b[j]-'0' <= 9 {
			mant = mant*10 + uint64(b[j]-'0')
			j++
			digits++
		}
		if digits == 0 {
			return i, false
		}
	}
	exp := 0
	plainInt := true
	if j < len(b) && b[j] == '.' {
		plainInt = false
		j++
		s := j
		for j < len(b) && b[j]-'0' <= 9 {
			mant = mant*10 + uint64(b[j]-'0')
			j++
			if mant != 0 {
				digits++
			}
		}
		if j == s {
			return i, false
		}
		exp = s - j
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		plainInt = false
		j++
		eneg := false
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			eneg = b[j] == '-'
			j++
		}
		s := j
		e := 0
		for j < len(b) && b[j]-'0' <= 9 && j-s < 4 {
			e = e*10 + int(b[j]-'0')
			j++
		}
		if j == s {
			return i, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if digits > 18 || (j < len(b) && (b[j]-'0' <= 9 || b[j] == '.' || b[j] == 'e' || b[j] == 'E')) {
		return i, false // long, or not what the walker's scan would end at
	}
	if intOnly && !plainInt {
		return i, false
	}
	switch p.kind {
	case pPointer:
		e := p.elem
		if e.kind != pInt && (e.kind != pFloat || e.bits != 64) {
			return i, false
		}
		v := reflect.New(e.typ).UnsafePointer()
		if end, ok = fastNumber(b, i, e, v, intOnly); ok {
			*(*unsafe.Pointer)(ptr) = v
		}
		return end, ok
	case pInt:
		if !plainInt {
			return i, false
		}
		x := int64(mant)
		if neg {
			x = -x
		}
		if p.bits < 64 && (x < -1<<(p.bits-1) || x >= 1<<(p.bits-1)) {
			return i, false
		}
		switch p.bits {
		case 8:
			*(*int8)(ptr) = int8(x)
		case 16:
			*(*int16)(ptr) = int16(x)
		case 32:
			*(*int32)(ptr) = int32(x)
		default:
			*(*int64)(ptr) = x
		}
		return j, true
	case pFloat:
		if p.bits != 64 || mant >= 1<<53 || exp < -22 || exp > 22 {
			return i, false
		}
		x := float64(mant)
		if exp < 0 {
			x /= pow10[-exp]
		} else {
			x *= pow10[exp]
		}
		if neg {
			x = -x
		}
		*(*float64)(ptr) = x
		return j, true
	}
	return i, false
}

// str decodes the string at i into the string at ptr. Strings with
// escapes, or bytes that are not ASCII, are decoded by unquoteString.
func (f *fuser) str(i int, ptr unsafe.Pointer) int {
	b := f.w.b
	j := plainRun(b, i+1)
	if j < len(b) && b[j] == '"' {
		*(*string)(ptr) = f.strings.make(b[i+1 : j])
		return j + 1
	}
	end := f.w.strEnd(i)
	if f.w.err != nil {
		f.bail = true
		return end
	}
	*(*string)(ptr) = unquoteString(b[i+1 : end-1])
	return end
}

// unquoteString returns the value of the contents of a JSON string that
// strEnd has checked, exactly as encoding/json decodes it (its
// unquoteBytes): a \u escape of a lone surrogate, and each byte of
// invalid UTF-8, become U+FFFD.
func unquoteString(b []byte) string {
	out := make([]byte, 0, len(b))
	for r := 0; r < len(b); {
		c := b[r]
		switch {
		case c == '\\':
			switch e := b[r+1]; e {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				rr := hex4(b[r+2 : r+6])
				r += 6
				if utf16.IsSurrogate(rr) {
					if r+6 <= len(b) && b[r] == '\\' && b[r+1] == 'u' {
						if dec := utf16.DecodeRune(rr, hex4(b[r+2:r+6])); dec != utf8.RuneError {
							out = utf8.AppendRune(out, dec)
							r += 6
							continue
						}
					}
					rr = utf8.RuneError
				}
				out = utf8.AppendRune(out, rr)
				continue
			default: // '"', '\\', '/'
				out = append(out, e)
			}
			r += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			r++
		default:
			rr, size := utf8.DecodeRune(b[r:])
			out = utf8.AppendRune(out, rr)
			r += size
		}
	}
	return unsafe.String(unsafe.SliceData(out), len(out))
}

// hex4 returns the value of four hexadecimal digits (strEnd checked them).
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		switch {
		case c <= '9':
			c -= '0'
		case c >= 'a':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// object decodes the object at i into the struct at ptr, checking its
// members against n as the walker does (see members), and gives up where
// the walker would change the object or report something.
func (f *fuser) object(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	if w.depth++; w.depth > maxDepth {
		f.bail = true
		return i
	}
	mark := len(w.seen)
	end := f.members(n, i, p, ptr)
	w.seen = w.seen[:mark]
	w.depth--
	return end
}

// mapObject decodes the object at i into the map at ptr, as encoding/json
// does: a nil map is made, and the members are set in order (the last of
// a repeated key wins). With a schema the walker checks the object first,
// as for a delegated value; the members then decode without one.
func (f *fuser) mapObject(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	if n != nil {
		end, fit := w.value(n, i)
		if !fit || !f.clean() {
			f.bail = true
			return end
		}
	}
	if w.depth++; w.depth > maxDepth {
		f.bail = true
		return i
	}
	end := f.mapMembers(i, p, ptr)
	w.depth--
	return end
}

func (f *fuser) mapMembers(i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	b := w.b
	m := reflect.NewAt(p.typ, ptr).Elem()
	if m.IsNil() {
		m.Set(reflect.MakeMap(p.typ))
	}
	j := w.ws(i + 1)
	if j < len(b) && b[j] == '}' {
		return j + 1
	}
	if f.keys == nil {
		f.keys = mapCaches.Get().(*stringCache)
	}
	// map[string]string, the common case, without reflect.
	var strs map[string]string
	var key, elem reflect.Value
	if p.typ.Key() == stringType && p.elem.typ == stringType {
		strs = *(*map[string]string)(ptr)
	} else {
		key = reflect.New(p.typ.Key()).Elem()
		elem = reflect.New(p.elem.typ).Elem()
	}
	for {
		if j >= len(b) || b[j] != '"' {
			f.bail = true
			return j
		}
		var name string
		if k := plainRun(b, j+1); k < len(b) && b[k] == '"' {
			name, j = f.keys.make(b[j+1:k]), k+1
		} else {
			end := w.strEnd(j)
			if w.err != nil {
				f.bail = true
				return end
			}
			name, j = unquoteString(b[j+1:end-1]), end
		}
		if j = w.ws(j); j >= len(b) || b[j] != ':' {
			f.bail = true
			return j
		}
		if j = w.ws(j + 1); strs != nil {
			var s string
			switch {
			case j < len(b) && b[j] == '"':
				// The values go to the maps' cache too.
				c := f.strings
				f.strings = f.keys
				j = f.str(j, unsafe.Pointer(&s))
				f.strings = c
			case len(b)-j >= 4 && string(b[j:j+4]) == "null":
				j += 4 // encoding/json stores "" under the key
			default:
				f.bail = true
				return j
			}
			strs[name] = s
		} else {
			elem.SetZero()
			if j = f.value(nil, j, p.elem, elem.Addr().UnsafePointer()); f.bail {
				return j
			}
			key.SetString(name)
			m.SetMapIndex(key, elem)
		}
		if f.bail {
			return j
		}
		if j = w.ws(j); j < len(b) && b[j] == ',' {
			j = w.ws(j + 1)
			continue
		}
		if j < len(b) && b[j] == '}' {
			return j + 1
		}
		f.bail = true
		return j
	}
}

// members decodes the members of the object at i (see object).
func (f *fuser) members(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	b := w.b
	var view *objView
	if n != nil {
		view = n.obj
	}
	bd := p.bind(view)
	drop := w.dropUndeclared && view != nil && view.drop
	mark := len(w.seen)
	nprops := 0
	if view != nil {
		nprops = len(view.names)
	}
	need := nprops + len(p.fields)
	w.seen = slices.Grow(w.seen, need)[:mark+need]
	clear(w.seen[mark:])
	seen := w.seen[mark : mark+nprops]
	have := w.seen[mark+nprops:]
	count, hint, prev := 0, 0, -1
	j := w.ws(i + 1)
	if j < len(b) && b[j] == '}' {
		return f.objectEnd(n, view, seen, count, j)
	}
	for {
		if j >= len(b) || b[j] != '"' {
			f.bail = true
			return j
		}
		keyStart := j
		// The member that followed the previous one last time is
		// likely this one: its name is compared with the key's bytes
		// directly.
		guess := int32(-1)
		switch {
		case prev >= 0:
			guess = bd.entries[prev].next.Load()
		case prev == -1:
			guess = bd.first.Load()
		}
		var e *bindEntry
		var keyEnd int
		if c := bd.short(guess); c != nil && j+9 <= len(b) && j+1+len(c.name) < len(b) &&
			binary.LittleEndian.Uint64(b[j+1:])&c.mask == c.word && b[j+1+len(c.name)] == '"' {
			// predicted's common case, inline: a name of at most
			// eight bytes.
			e, keyEnd = c, j+2+len(c.name)
		} else {
			e, keyEnd = bd.predicted(b, j, guess)
		}
		at := int(guess)
		if e == nil {
			// Keys are scanned by strEnd (escapes are checked; a key
			// with an escape matches no entry and is given up on below).
			keyEnd = w.strEnd(j)
			if w.err != nil {
				f.bail = true
				return keyEnd
			}
			e, at = bd.find(b[keyStart+1:keyEnd-1], hint)
			if e != nil {
				switch {
				case prev >= 0:
					bd.entries[prev].next.Store(int32(at))
				case prev == -1:
					bd.first.Store(int32(at))
				}
			}
		}
		k := keyEnd
		if k >= len(b) || b[k] != ':' {
			k = w.ws(k)
			if k >= len(b) || b[k] != ':' {
				f.bail = true
				return k
			}
		}
		vs := w.ws(k + 1)
		var target *node
		fi := -1
		prev = -2 // a key no entry has: no guess for the next one
		if e != nil {
			hint = at + 1
			fi = e.fi
			prev = at
		}
		if view != nil {
			switch {
			case e != nil && e.pi != nil:
				if seen[e.pi.idx] {
					f.bail = true // a duplicate: its last value wins, or merges
					return j
				}
				seen[e.pi.idx] = true
				target = e.pi.node
			case view.addl != nil:
				target = view.addl
			case view.addlFalse && view.drop, drop:
				f.bail = true // normalization drops it
				return j
			}
		}
		var end int
		if fi < 0 {
			if p.foldedMatch(b[keyStart+1 : keyEnd-1]) {
				f.bail = true
				return j
			}
			// Not decoded: only checked.
			var fit bool
			if target != nil {
				end, fit = w.value(target, vs)
			} else {
				end, fit = w.skip(vs), true
			}
			if !fit || !f.clean() {
				f.bail = true
				return end
			}
		} else {
			if have[fi] {
				f.bail = true
				return j
			}
			have[fi] = true
			fp := &p.fields[fi]
			end = f.value(target, vs, fp.plan, unsafe.Add(ptr, fp.off))
			if f.bail {
				return end
			}
		}
		count++
		j = w.ws(end)
		if j >= len(b) {
			f.bail = true
			return j
		}
		if b[j] == '}' {
			return f.objectEnd(n, view, seen, count, j)
		}
		if b[j] != ',' {
			f.bail = true
			return j
		}
		j = w.ws(j + 1)
	}
}

// objectEnd does the walker's checks at the end of an object (objectEnd):
// a default to add, a missing required member or a count out of bounds
// gives up.
func (f *fuser) objectEnd(n *node, view *objView, seen []bool, count, j int) int {
	if view != nil {
		for _, pi := range view.defaults {
			if !seen[pi.idx] {
				f.bail = true
				return j
			}
		}
		for _, idx := range view.requiredIdx {
			if idx < 0 || !seen[idx] {
				f.bail = true
				return j
			}
		}
	}
	if n != nil && n.scalar {
		for _, m := range n.conj {
			if (m.minProps >= 0 && count < m.minProps) || (m.maxProps >= 0 && count > m.maxProps) {
				f.bail = true
				return j
			}
		}
	}
	return j + 1
}

// array decodes the array at i into the slice at ptr, checking its items
// against n.
func (f *fuser) array(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	if w.depth++; w.depth > maxDepth {
		f.bail = true
		return i
	}
	end := f.items(n, i, p, ptr)
	w.depth--
	return end
}

// items decodes the items of the array at i (see array).
func (f *fuser) items(n *node, i int, p *plan, ptr unsafe.Pointer) int {
	w := f.w
	b := w.b
	var view *arrView
	if n != nil {
		view = n.arr
	}
	et := p.elem
	size := et.typ.Size()
	var cur reflect.Value // the backing array so far, an addressable array
	var data unsafe.Pointer
	count, capacity := 0, 0
	counted := false
	j := w.ws(i + 1)
	if j < len(b) && b[j] == ']' {
		// encoding/json makes an empty slice, not a nil one.
		*(*sliceHeader)(ptr) = sliceHeader{data: unsafe.Pointer(&zeroArray), len: 0, cap: 0}
		w.itemCount = 0
		return j + 1
	}
	if et.kind == pString {
		return f.stringItems(view, j, et, ptr)
	}
	estimated := false // capacity is estimate's
	first := j
	for idx := 0; ; idx++ {
		if count == 8 && capacity == 8 && w.depth <= 2 && !f.estimated && structItems(et) {
			// The document's list of objects (at the top, or a member
			// of the top object): its items are likely alike, and it
			// likely runs to near the end of the body, so the size of
			// the first ones tells about how many there are (see
			// estimate). Once per document: a wrong guess costs an
			// allocation of at most the body's size.
			if est := estimate(len(b), first, j, count, size); est > capacity {
				next := reflect.MakeSlice(p.typ, est, est)
				reflect.Copy(next, cur)
				cur, data, capacity = next, next.UnsafePointer(), est
				counted, estimated, f.estimated = true, true, true
			}
		}
		if count == capacity && estimated {
			// More items than estimated: counted after all.
			estimated = false
			if rest, ok := countItems(b, j); ok {
				next := reflect.MakeSlice(p.typ, count+rest, count+rest)
				reflect.Copy(next, cur)
				cur, data, capacity = next, next.UnsafePointer(), count+rest
			}
		}
		if count == capacity && capacity >= 1024 && !counted {
			// A long array: count its items once and allocate them all,
			// rather than doubling on, which holds the old and the new
			// backing array at once (the peak of a 50 MB list) and
			// leaves up to half the last one unused.
			counted = true
			if rest, ok := countItems(b, j); ok {
				next := reflect.MakeSlice(p.typ, count+rest, count+rest)
				reflect.Copy(next, cur)
				cur, data, capacity = next, next.UnsafePointer(), count+rest
			}
		}
		if count == capacity {
			// Grow by doubling, as encoding/json does. reflect.New of an
			// array type allocates the array alone (MakeSlice would
			// allocate a slice header too); Copy writes with the
			// barriers the garbage collector needs.
			// From 1, as append grows (and go-json-experiment): a
			// result with one item pays for one.
			log := 0
			if capacity > 0 {
				log = bits.Len(uint(capacity))
			}
			capacity = 1 << log
			next := reflect.New(p.arrayOf(log)).Elem()
			if cur.IsValid() {
				reflect.Copy(next, cur)
			}
			cur, data = next, next.Addr().UnsafePointer()
		}
		var target *node
		if view != nil {
			target = view.items
			if idx < len(view.prefix) {
				target = view.prefix[idx]
			}
		}
		end := f.value(target, j, et, unsafe.Add(data, uintptr(count)*size))
		if f.bail {
			return end
		}
		count++
		j = w.ws(end)
		if j >= len(b) {
			f.bail = true
			return j
		}
		if b[j] == ']' {
			if estimated && count < capacity-capacity/4 {
				// Far fewer than estimated: the unused part is not
				// kept.
				next := reflect.MakeSlice(p.typ, count, count)
				reflect.Copy(next, cur)
				data, capacity = next.UnsafePointer(), count
			}
			*(*sliceHeader)(ptr) = sliceHeader{data: data, len: count, cap: capacity}
			w.itemCount = count
			return j + 1
		}
		if b[j] != ',' {
			f.bail = true
			return j
		}
		j = w.ws(j + 1)
	}
}

// structItems reports whether et decodes objects into structs (or
// pointers to them).
func structItems(et *plan) bool {
	if et.kind == pPointer {
		et = et.elem
	}
	return et.kind == pStruct
}

// estimate returns how many items an array whose first count items span
// the bytes from first to next (the item after them) likely has, in a
// body of n bytes: as many as items of their mean size fit in the bytes to
// the end, and an eighth more (later items are often a little longer: ids
// with more digits). It is at most as many items of size bytes as the body
// has bytes (an item may decode to more bytes than its JSON: a struct of
// many fields, few present).
func estimate(n, first, next, count int, size uintptr) int {
	if next <= first || size == 0 {
		return 0
	}
	est := count + (n-next)*count/(next-first)
	est += est / 8
	return min(est, n/int(size))
}

// sliceHeader is the layout of a slice; stores through it keep the
// garbage collector's write barrier (data is a pointer field).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// zeroArray is where empty slices point, as reflect.MakeSlice(t, 0, 0)'s do.
var zeroArray [0]byte

// plainASCII marks the bytes a string holds as they are and that are
// ASCII: not '"', '\\', a control character or a byte of a multi-byte
// UTF-8 sequence.
var plainASCII = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
	}
	return t
}()

// plainRun returns the index of the first byte from j on that is not
// plainASCII (len(b) if none), eight bytes at a time.
func plainRun(b []byte, j int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for j+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[j:])
		q := x ^ (lo * '"')
		s := x ^ (lo * '\\')
		// The high bit of a byte is set in m where the byte is '"' or
		// '\\' (a zero of q or s), below 0x20 or not ASCII. Borrows
		// carry upwards only, so the lowest one set is exact.
		m := ((q - lo) &^ q) | ((s - lo) &^ s) | ((x - lo*0x20) &^ x) | x
		if m &= hi; m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	for j < len(b) && plainASCII[b[j]] {
		j++
	}
	return j
}

// smallInt parses a JSON integer literal of at most 18 digits (no
// fraction, no exponent), which cannot overflow an int64; ok is false for
// anything else, which strconv then parses.
func smallInt(lit []byte) (x int64, ok bool) {
	neg := len(lit) > 0 && lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) == 0 || len(lit) > 18 {
		return 0, false
	}
	for _, c := range lit {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int64(c-'0')
	}
	if neg {
		x = -x
	}
	return x, true
}

// countItems counts the items of an array from the item at j to the
// array's end, scanning for its structure only; ok is false when the
// bytes end first (the walk then finds the error).
func countItems(b []byte, j int) (n int, ok bool) {
	depth := 0
	n = 1
	for j < len(b) {
		switch b[j] {
		case '"':
			// To the closing quote: one preceded by an even number of
			// backslashes.
			for {
				k := bytes.IndexByte(b[j+1:], '"')
				if k < 0 {
					return 0, false
				}
				j += 1 + k
				bs := 0
				for b[j-1-bs] == '\\' {
					bs++
				}
				if bs%2 == 0 {
					break
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth == 0 {
				return n, true
			}
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
		j++
	}
	return 0, false
}

// stringItems decodes the items of a string array into the slab (see
// fuser), from the first item at j.
func (f *fuser) stringItems(view *arrView, j int, et *plan, ptr unsafe.Pointer) int {
	w := f.w
	b := w.b
	start := len(f.slab)
	for idx := 0; ; idx++ {
		if len(f.slab) == cap(f.slab) {
			// A new slab; the items of this array so far move to it.
			// Slabs grow from 4 strings (a small result pays little) to 512.
			next := make([]string, len(f.slab)-start, max(min(512, 2*cap(f.slab)), 4, 2*(len(f.slab)-start)))
			copy(next, f.slab[start:])
			f.slab, start = next, 0
		}
		var target *node
		if view != nil {
			target = view.items
			if idx < len(view.prefix) {
				target = view.prefix[idx]
			}
		}
		f.slab = f.slab[:len(f.slab)+1]
		end := f.value(target, j, et, unsafe.Pointer(&f.slab[len(f.slab)-1]))
		if f.bail {
			return end
		}
		j = w.ws(end)
		if j >= len(b) {
			f.bail = true
			return j
		}
		if b[j] == ']' {
			// The slice type may be of a named string type: same layout.
			items := f.slab[start:len(f.slab):len(f.slab)]
			*(*[]string)(ptr) = items
			w.itemCount = len(items)
			return j + 1
		}
		if b[j] != ',' {
			f.bail = true
			return j
		}
		j = w.ws(j + 1)
	}
}
