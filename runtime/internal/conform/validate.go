package conform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
)

// walker validates raw JSON against a compiled schema in one pass, and
// records the edits that normalize it (see normalize.go). It never decodes
// the document into Go values; it scans it.
type walker struct {
	b []byte
	// sorter sorts the edits in normalized.
	sorter editOrder
	issues []Issue
	// notes are what normalization did that the data should be told
	// about (a member additionalProperties false drops). They are
	// warnings, but do not make an anyOf or oneOf branch fail to match.
	notes []Issue
	edits []edit
	err   error // syntax error: the document is not JSON
	depth int

	path []pathSeg // location of the value being walked, for issue pointers
	seen []bool    // stack of "property present" marks of the objects being walked

	// dropUndeclared: remove members no schema declares. It is off for
	// struct targets, which encoding/json already drops them for.
	dropUndeclared bool
	// itemCount is the item count of the array walked last.
	itemCount int

	// shallowAt is the offset of the object a branch trial walks: its
	// members are checked but not dropped or added (the object's owner
	// does that), and shallowDefaults gets the defaults it would add.
	shallowAt       int
	shallowDefaults []*propInfo
	shallowView     *objView

	// probe: a branch trial of choose, whose issues tell only that the
	// branch fails; their messages are not made (choose walks the branch
	// again for the one message it reports).
	probe bool
}

type pathSeg struct {
	key []byte // raw JSON string contents, escapes included; nil for an index
	idx int
}

const maxDepth = 10000

var errDepth = errors.New("JSON nested too deeply")

// walkers are reused: their scratch slices (edits, path, seen) are what
// would otherwise be allocated on every call.
var walkers = sync.Pool{New: func() any { return new(walker) }}

func newWalker(b []byte, dropUndeclared bool) *walker {
	w := walkers.Get().(*walker)
	*w = walker{b: b, shallowAt: -1, dropUndeclared: dropUndeclared,
		edits: w.edits[:0], path: w.path[:0], seen: w.seen[:0]}
	return w
}

// release returns w to the pool. Its issues stay with the caller.
func (w *walker) release() {
	*w = walker{edits: w.edits[:0], path: w.path[:0], seen: w.seen[:0]}
	walkers.Put(w)
}

// document walks the whole document against n.
func (w *walker) document(n *node) {
	i := w.ws(0)
	if i >= len(w.b) {
		w.fail(i, "unexpected end of JSON input")
		return
	}
	end, fit := w.value(n, i)
	if w.err != nil {
		return
	}
	if j := w.ws(end); j < len(w.b) {
		w.fail(j, "invalid character after top-level value")
		return
	}
	if !fit {
		w.edit(i, end, "null")
	}
}

func (w *walker) fail(i int, msg string) {
	if w.err == nil {
		w.err = fmt.Errorf("offset %d: %s", i, msg)
	}
}

func (w *walker) issue(format string, args ...any) {
	if w.probe {
		w.issues = append(w.issues, Issue{}) // that there is one is all a probe tells
		return
	}
	w.issues = append(w.issues, Issue{Pointer: w.pointer(), Message: fmt.Sprintf(format, args...)})
}

func (w *walker) pointer() string {
	if len(w.path) == 0 {
		return ""
	}
	var sb strings.Builder
	for _, s := range w.path {
		sb.WriteByte('/')
		if s.key == nil {
			sb.WriteString(strconv.Itoa(s.idx))
			continue
		}
		sb.WriteString(jsonptr.Escape(unquote(s.key)))
	}
	return sb.String()
}

// unquote returns the value of raw JSON string contents (without quotes).
func unquote(raw []byte) string {
	for _, c := range raw {
		if c == '\\' {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) == nil {
				return s
			}
			break
		}
	}
	return string(raw)
}

func (w *walker) ws(i int) int {
	if i < len(w.b) && w.b[i] > ' ' {
		return i // the common case: no white space
	}
	for i < len(w.b) {
		switch w.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// kindAt classifies the value starting at i.
func kindAt(c byte) typeMask {
	switch {
	case c == '{':
		return tObject
	case c == '[':
		return tArray
	case c == '"':
		return tString
	case c == '-' || (c >= '0' && c <= '9'):
		return tNumber
	case c == 't' || c == 'f':
		return tBoolean
	case c == 'n':
		return tNull
	}
	return 0
}

// value walks the value at i against n and returns its end. fit is false
// when the value has the wrong type for n (the caller drops it).
func (w *walker) value(n *node, i int) (end int, fit bool) {
	if n == nil || n.always {
		return w.skip(i), true
	}
	if i >= len(w.b) {
		w.fail(i, "unexpected end of JSON input")
		return len(w.b), true
	}
	kind := kindAt(w.b[i])
	if kind == 0 {
		w.fail(i, fmt.Sprintf("invalid character %q looking for beginning of value", w.b[i]))
		return len(w.b), true
	}
	// Scalars are scanned first: their type may depend on the literal.
	var numEnd int
	integral := false
	if kind == tNumber {
		numEnd = w.number(i)
		if w.err != nil {
			return numEnd, true
		}
		integral = isIntegral(w.b[i:numEnd])
	}
	if kind == tNull && w.nullable(n) {
		return w.skip(i), true
	}
	for _, m := range n.conj {
		if m.never {
			w.issue("no value is allowed here")
			return w.skip(i), false
		}
		if m.types == 0 || m.types&kind != 0 || (kind == tNumber && integral && m.types&tInteger != 0) {
			continue
		}
		w.issue("expected %s, got %s", m.types, kindName(kind, integral))
		return w.skip(i), false
	}
	var chosen []*node
	if len(n.choices) > 0 {
		chosen = w.choose(n, i)
		if w.err != nil {
			return len(w.b), true
		}
	}
	switch kind {
	case tObject:
		end = w.object(n, i, chosen)
	case tArray:
		end = w.array(n, i)
	case tString:
		end = w.strEnd(i)
	case tNumber:
		end = numEnd
		if !integral || !n.wantsInteger() {
			break
		}
		// 1e3 and 2.0 are integers to JSON Schema but not to encoding/json.
		if lit := w.b[i:end]; !plainInteger(lit) {
			if f, err := strconv.ParseFloat(string(lit), 64); err == nil && math.Abs(f) < 1<<53 {
				w.edit(i, end, strconv.FormatFloat(f, 'f', -1, 64))
			}
		}
	default:
		end = w.skip(i)
	}
	if w.err == nil && n.scalar {
		w.scalarChecks(n, kind, i, end)
	}
	return end, true
}

func (w *walker) nullable(n *node) bool {
	for _, m := range n.conj {
		if m.nullable {
			return true
		}
	}
	return false
}

// wantsInteger reports whether some node of n's conj wants an integer and
// none accepts any number.
func (n *node) wantsInteger() bool {
	want := false
	for _, m := range n.conj {
		if m.types&tNumber != 0 {
			return false
		}
		want = want || m.types&tInteger != 0
	}
	return want
}

func kindName(k typeMask, integral bool) string {
	if k == tNumber && integral {
		return "integer"
	}
	return k.String()
}

// plainInteger reports whether the number literal lit has neither a
// fraction nor an exponent (a byte loop: strings.ContainsAny took 5% of
// the walk of a large list of integers).
func plainInteger(lit []byte) bool {
	for _, c := range lit {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

func isIntegral(lit []byte) bool {
	for _, c := range lit {
		if c == '.' || c == 'e' || c == 'E' {
			f, err := strconv.ParseFloat(bytesString(lit), 64)
			return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
		}
	}
	return true
}

// choose tries the anyOf and oneOf branches of n on the value at i and
// commits the edits of the branch chosen in each group. It returns the
// chosen branches: for an object they declare members too.
func (w *walker) choose(n *node, i int) []*node {
	var chosen []*node
	// branch walks the value against one branch: a probe (issues without
	// their messages) unless the message is wanted.
	branch := func(b *node, probe bool) *walker {
		t := &walker{b: w.b, shallowAt: -1, depth: w.depth, path: w.path, dropUndeclared: w.dropUndeclared, probe: probe}
		if w.b[i] == '{' {
			t.shallowAt = i
		}
		t.value(b, i)
		return t
	}
	for g, group := range n.choices {
		oneOf := n.oneOfs[g]
		var pick *walker
		var pickNode *node
		matches := 0
		firstFail := -1 // the first branch that fails
		for k, b := range group {
			if w.rejectsKind(b, i) {
				// It would fail at its type.
				if firstFail < 0 {
					firstFail = k
				}
				continue
			}
			t := branch(b, true)
			if t.err != nil {
				w.err = t.err
				return nil
			}
			if len(t.issues) > 0 {
				if firstFail < 0 {
					firstFail = k
				}
				continue
			}
			matches++
			if pick == nil {
				pick, pickNode = t, b
			}
			if !oneOf {
				break
			}
		}
		switch {
		case matches == 0:
			var first string
			if !w.probe {
				// The first failing branch again, for its message.
				t := branch(group[firstFail], false)
				if t.err != nil {
					w.err = t.err
					return nil
				}
				first = firstIssue(t)
			}
			kw := "anyOf"
			if oneOf {
				kw = "oneOf"
			}
			w.issue("matches none of the %d %s schemas (first: %s)", len(group), kw, first)
			continue
		case oneOf && matches > 1:
			w.issue("matches %d of the oneOf schemas, must match exactly one", matches)
		}
		w.edits = append(w.edits, pick.edits...)
		w.notes = append(w.notes, pick.notes...)
		if pick.shallowView != nil {
			chosen = append(chosen, pickNode)
			w.shallowDefaults = append(w.shallowDefaults, pick.shallowDefaults...)
		}
	}
	return chosen
}

// rejectsKind reports whether value would fail the value at i against b
// at its first checks, of the value's JSON kind alone, before looking into
// it. Numbers are not judged (whether one is an integer takes a scan).
func (w *walker) rejectsKind(b *node, i int) bool {
	if b == nil || b.always || i >= len(w.b) {
		return false
	}
	kind := kindAt(w.b[i])
	if kind == 0 || kind == tNumber || (kind == tNull && w.nullable(b)) {
		return false
	}
	for _, m := range b.conj {
		if m.never {
			return true
		}
		if m.types != 0 && m.types&kind == 0 {
			return true
		}
	}
	return false
}

// checkOnly walks the value at i against n for its issues only: its edits
// (and the notes about them) are dropped.
func (w *walker) checkOnly(n *node, i int) (end int, fit bool) {
	t := &walker{b: w.b, shallowAt: -1, depth: w.depth, path: w.path, dropUndeclared: w.dropUndeclared}
	end, fit = t.value(n, i)
	w.issues = append(w.issues, t.issues...)
	if t.err != nil {
		w.err = t.err
	}
	return end, fit
}

func firstIssue(t *walker) string {
	is := t.issues[0]
	if is.Pointer == "" {
		return is.Message
	}
	return is.Pointer + ": " + is.Message
}

// object walks the object at i.
func (w *walker) object(n *node, i int, chosen []*node) int {
	if w.depth++; w.depth > maxDepth {
		w.fail(i, errDepth.Error())
		return len(w.b)
	}
	mark := len(w.seen)
	end := w.members(n, i, chosen)
	w.seen = w.seen[:mark]
	w.depth--
	return end
}

// members walks the members of the object at i (see object).
func (w *walker) members(n *node, i int, chosen []*node) int {
	shallow := i == w.shallowAt
	view := n.obj
	// Defaults the chosen branches would add, and what they declare.
	branchDefaults := w.shallowDefaults
	w.shallowDefaults = nil
	if shallow {
		w.shallowView = view
		if view == nil {
			w.shallowView = &objView{}
		}
	}
	drop := w.dropUndeclared && !shallow && view != nil && view.drop
	for _, c := range chosen {
		drop = drop || (w.dropUndeclared && !shallow && c.obj != nil && c.obj.drop && (view == nil || view.addl == nil))
	}
	var seen []bool
	if view != nil {
		mark := len(w.seen)
		w.seen = append(w.seen, make([]bool, len(view.names))...)
		seen = w.seen[mark:]
	}

	kept := 0
	prevEnd := -1     // end of the previous member's value
	pendingDrop := -1 // start of a dropped member no kept member precedes
	j := w.ws(i + 1)
	if j < len(w.b) && w.b[j] == '}' {
		return w.objectEnd(n, i, j, view, seen, chosen, branchDefaults, shallow, 0)
	}
	for {
		if j >= len(w.b) || w.b[j] != '"' {
			w.fail(j, "expected a string key in object")
			return len(w.b)
		}
		keyStart := j
		keyEnd := w.strEnd(j)
		if w.err != nil {
			return len(w.b)
		}
		k := w.ws(keyEnd)
		if k >= len(w.b) || w.b[k] != ':' {
			w.fail(k, "expected ':' after object key")
			return len(w.b)
		}
		vs := w.ws(k + 1)
		key := w.b[keyStart+1 : keyEnd-1]
		if pendingDrop >= 0 {
			w.edit(pendingDrop, keyStart, "")
			pendingDrop = -1
		}

		var pi *propInfo
		if view != nil {
			pi = view.lookup(key)
		}
		var target *node
		declared := pi != nil
		switch {
		case pi != nil:
			target = pi.node
			seen[pi.idx] = true
		case declaredBy(chosen, key):
			declared = true // walked by the chosen branch
		case view != nil && view.addl != nil:
			target, declared = view.addl, true
		case view != nil && view.addlFalse && shallow:
			w.path = append(w.path, pathSeg{key: key})
			w.issue("property is not allowed")
			w.path = w.path[:len(w.path)-1]
		}
		w.path = append(w.path, pathSeg{key: key})
		var end int
		var fit bool
		if pi != nil && declaredBy(chosen, key) {
			// The chosen branch normalized this member already: only check it.
			end, fit = w.checkOnly(target, vs)
		} else if pi == nil && declared && target == nil && view != nil && view.addl != nil {
			// A member only the chosen branch declares is an additional
			// property of this schema all the same (JSON Schema's
			// additionalProperties looks at the schema's own properties):
			// checked against it, and kept for the branch's type.
			end, _ = w.checkOnly(view.addl, vs)
			fit = true
		} else {
			end, fit = w.value(target, vs)
		}
		w.path = w.path[:len(w.path)-1]
		if w.err != nil {
			return len(w.b)
		}
		// additionalProperties false: the member goes whatever the target,
		// and the data is told (encoding/json would ignore it in a struct,
		// or match it to a field whose name differs only in case).
		forbidden := !declared && !shallow && view != nil && view.addlFalse && view.drop
		if forbidden {
			w.path = append(w.path, pathSeg{key: key})
			w.notes = append(w.notes, Issue{Pointer: w.pointer(),
				Message: fmt.Sprintf("property %q is not allowed (additionalProperties is false): dropped", truncate(unquote(key)))})
			w.path = w.path[:len(w.path)-1]
		}
		remove := (!fit && !shallow) || (!declared && drop) || forbidden
		switch {
		case !remove:
			kept++
		case kept > 0:
			w.edit(prevEnd, end, "")
		default:
			pendingDrop = keyStart
		}
		prevEnd = end
		j = w.ws(end)
		if j >= len(w.b) {
			w.fail(j, "unexpected end of JSON input")
			return len(w.b)
		}
		if w.b[j] == '}' {
			if pendingDrop >= 0 {
				w.edit(pendingDrop, end, "")
			}
			return w.objectEnd(n, i, j, view, seen, chosen, branchDefaults, shallow, kept)
		}
		if w.b[j] != ',' {
			w.fail(j, "expected ',' or '}' after object member")
			return len(w.b)
		}
		j = w.ws(j + 1)
	}
}

// lookup finds the property of a raw key; escaped keys are unescaped
// first. Few properties are compared in turn, which beats hashing.
func (v *objView) lookup(raw []byte) *propInfo {
	if bytes.IndexByte(raw, '\\') >= 0 {
		return v.props[unquote(raw)]
	}
	if len(v.names) > 8 {
		return v.props[string(raw)] // the compiler does not allocate here
	}
	for i, name := range v.names {
		if name == string(raw) {
			return v.infos[i]
		}
	}
	return nil
}

// bytesString views b as a string without copying, for parsing and
// matching while b is not modified.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

func declaredBy(chosen []*node, key []byte) bool {
	for _, c := range chosen {
		if c.obj != nil && (c.obj.lookup(key) != nil || c.obj.addl != nil) {
			return true
		}
	}
	return false
}

// objectEnd finishes the object whose '}' is at j: it adds absent
// defaults and checks required members. kept counts the members that stay.
func (w *walker) objectEnd(n *node, i, j int, view *objView, seen []bool, chosen []*node, branchDefaults []*propInfo, shallow bool, kept int) int {
	var add []*propInfo
	if view != nil {
		for _, pi := range view.defaults {
			if !seen[pi.idx] {
				add = append(add, pi)
			}
		}
	}
	for _, pi := range branchDefaults {
		if !hasMember(add, pi.member) {
			add = append(add, pi)
		}
	}
	if shallow {
		w.shallowDefaults = add
	} else if len(add) > 0 {
		var sb strings.Builder
		for k, pi := range add {
			if k > 0 {
				sb.WriteByte(',')
			}
			sb.Write(pi.member)
		}
		if kept > 0 {
			sb.WriteByte(',')
		}
		w.edit(i+1, i+1, sb.String())
	}
	if view != nil {
		for _, name := range view.required {
			pi := view.props[name]
			if pi != nil && (seen[pi.idx] || pi.member != nil) {
				continue
			}
			if pi == nil && (declaredBy(chosen, []byte(name)) || w.hasKey(i, name)) {
				continue
			}
			w.issue("missing required property %q", name)
		}
	}
	if n.scalar {
		count := kept + len(add)
		if shallow {
			count = w.countMembers(i)
		}
		for _, m := range n.conj {
			if m.minProps >= 0 && count < m.minProps {
				w.issue("has %d properties, fewer than minProperties %d", count, m.minProps)
			}
			if m.maxProps >= 0 && count > m.maxProps {
				w.issue("has %d properties, more than maxProperties %d", count, m.maxProps)
			}
		}
	}
	return j + 1
}

func hasMember(list []*propInfo, member []byte) bool {
	for _, pi := range list {
		if string(pi.member) == string(member) {
			return true
		}
	}
	return false
}

// hasKey reports whether the object at i has a member named name. It is
// for required members that only a chosen branch or no properties declare.
func (w *walker) hasKey(i int, name string) bool {
	found := false
	w.eachKey(i, func(key []byte) { found = found || unquote(key) == name })
	return found
}

func (w *walker) countMembers(i int) int {
	c := 0
	w.eachKey(i, func([]byte) { c++ })
	return c
}

// eachKey calls f with the raw key of each member of the (already
// checked) object at i.
func (w *walker) eachKey(i int, f func(key []byte)) {
	j := w.ws(i + 1)
	for j < len(w.b) && w.b[j] == '"' {
		ke := w.strEnd(j)
		f(w.b[j+1 : ke-1])
		j = w.ws(w.skip(w.ws(w.ws(ke) + 1)))
		if j >= len(w.b) || w.b[j] != ',' {
			return
		}
		j = w.ws(j + 1)
	}
}

// array walks the array at i.
func (w *walker) array(n *node, i int) int {
	if w.depth++; w.depth > maxDepth {
		w.fail(i, errDepth.Error())
		return len(w.b)
	}
	end := w.arrayItems(n, i)
	w.depth--
	return end
}

// arrayItems walks the items of the array at i (see array).
func (w *walker) arrayItems(n *node, i int) int {
	view := n.arr
	w.itemCount = 0
	j := w.ws(i + 1)
	if j < len(w.b) && w.b[j] == ']' {
		return j + 1
	}
	for idx := 0; ; idx++ {
		w.itemCount = idx + 1
		var target *node
		if view != nil {
			target = view.items
			if idx < len(view.prefix) {
				target = view.prefix[idx]
			}
		}
		w.path = append(w.path, pathSeg{idx: idx})
		end, fit := w.value(target, j)
		w.path = w.path[:len(w.path)-1]
		if w.err != nil {
			return len(w.b)
		}
		if !fit {
			w.edit(j, end, "null")
		}
		j = w.ws(end)
		if j >= len(w.b) {
			w.fail(j, "unexpected end of JSON input")
			return len(w.b)
		}
		if w.b[j] == ']' {
			w.itemCount = idx + 1
			return j + 1
		}
		if w.b[j] != ',' {
			w.fail(j, "expected ',' or ']' after array element")
			return len(w.b)
		}
		j = w.ws(j + 1)
	}
}

// scalarChecks applies the checks beyond the type to the value at b[i:end].
func (w *walker) scalarChecks(n *node, kind typeMask, i, end int) {
	raw := w.b[i:end]
	items := w.itemCount // set by the array walk that just ended
	var decoded any
	haveDecoded := false
	decode := func() any {
		if !haveDecoded {
			haveDecoded = true
			decoded = decodeRaw(raw)
		}
		return decoded
	}
	var str string
	haveStr := false
	for _, m := range n.conj {
		if m.enum != nil {
			ok := false
			if kind == tString && m.enumStrings != nil {
				if !haveStr {
					haveStr, str = true, rawString(raw[1:len(raw)-1])
				}
				ok = m.enumStrings[str]
			} else {
				for _, e := range m.enum {
					if equalJSON(e, decode()) {
						ok = true
						break
					}
				}
			}
			if !ok {
				w.issue("value %s is not one of %s", truncate(string(raw)), truncate(compactDisplay(m.enum)))
			}
		}
		if m.hasConst && !equalJSON(m.constVal, decode()) {
			w.issue("value %s is not the constant %s", truncate(string(raw)), truncate(compactDisplay(m.constVal)))
		}
		switch kind {
		case tNumber:
			w.numberChecks(m, raw)
		case tString:
			if m.minLen < 0 && m.maxLen < 0 && m.pattern == nil && m.format == "" {
				continue
			}
			if m.pattern == nil && m.format == "" && !haveStr {
				// Lengths only: counted on the JSON, without decoding
				// the string (Stripe bounds nearly every string).
				w.lengthChecks(m, unquotedRuneCount(raw[1:len(raw)-1]))
				continue
			}
			if !haveStr {
				haveStr, str = true, rawString(raw[1:len(raw)-1])
			}
			w.stringChecks(m, str)
		case tArray:
			if m.minItems < 0 && m.maxItems < 0 && !m.unique {
				continue
			}
			if m.minItems >= 0 && items < m.minItems {
				w.issue("has %d items, fewer than minItems %d", items, m.minItems)
			}
			if m.maxItems >= 0 && items > m.maxItems {
				w.issue("has %d items, more than maxItems %d", items, m.maxItems)
			}
			if m.unique {
				arr, _ := decode().([]any)
				for a := range arr {
					for b := a + 1; b < len(arr); b++ {
						if equalJSON(arr[a], arr[b]) {
							w.issue("items %d and %d are equal, items must be unique", a, b)
						}
					}
				}
			}
		}
	}
}

// rawString returns the value of raw JSON string contents, without copying
// when there is no escape (see bytesString).
func rawString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return bytesString(raw)
	}
	return unquote(raw)
}

func decodeRaw(raw []byte) any {
	var v any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

func (w *walker) numberChecks(m *node, raw []byte) {
	if math.IsNaN(m.minimum) && math.IsNaN(m.maximum) && math.IsNaN(m.exclMin) && math.IsNaN(m.exclMax) && math.IsNaN(m.multipleOf) && m.format == "" {
		return
	}
	f, err := strconv.ParseFloat(bytesString(raw), 64)
	if err != nil {
		return
	}
	lit := bytesString(raw) // only escapes into messages, which copy it
	if check := numberFormats[m.format]; check != nil && !check(f) {
		w.issue("%s is not a valid %s", lit, m.format)
	}
	if !math.IsNaN(m.minimum) && f < m.minimum {
		w.issue("%s is less than minimum %v", lit, m.minimum)
	}
	if !math.IsNaN(m.maximum) && f > m.maximum {
		w.issue("%s is greater than maximum %v", lit, m.maximum)
	}
	if !math.IsNaN(m.exclMin) && f <= m.exclMin {
		w.issue("%s is not greater than exclusiveMinimum %v", lit, m.exclMin)
	}
	if !math.IsNaN(m.exclMax) && f >= m.exclMax {
		w.issue("%s is not less than exclusiveMaximum %v", lit, m.exclMax)
	}
	if !math.IsNaN(m.multipleOf) {
		q := f / m.multipleOf
		if math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			w.issue("%s is not a multiple of %v", lit, m.multipleOf)
		}
	}
}

func (w *walker) stringChecks(m *node, s string) {
	if m.minLen >= 0 || m.maxLen >= 0 {
		w.lengthChecks(m, utf8.RuneCountInString(s))
	}
	if m.pattern != nil && !m.pattern.MatchString(s) {
		w.issue("%q does not match pattern %q", truncate(s), m.pattern.String())
	}
	if check := formats[m.format]; check != nil && !check(s) {
		w.issue("%q is not a valid %s", truncate(s), m.format)
	}
}

// lengthChecks checks a string of n characters against minLength and
// maxLength.
func (w *walker) lengthChecks(m *node, n int) {
	if m.minLen >= 0 && n < m.minLen {
		w.issue("length %d is less than minLength %d", n, m.minLen)
	}
	if m.maxLen >= 0 && n > m.maxLen {
		w.issue("length %d is greater than maxLength %d", n, m.maxLen)
	}
}

// unquotedRuneCount returns the number of characters of the contents of a
// JSON string that strEnd has checked, as decoded by encoding/json (see
// unquoteString): an escape is one, a valid surrogate pair one, each byte
// of invalid UTF-8 one (U+FFFD).
func unquotedRuneCount(b []byte) int {
	n := 0
	for r := 0; r < len(b); n++ {
		switch c := b[r]; {
		case c == '\\' && b[r+1] == 'u':
			if rr := hex4(b[r+2 : r+6]); utf16.IsSurrogate(rr) && r+12 <= len(b) && b[r+6] == '\\' && b[r+7] == 'u' &&
				utf16.DecodeRune(rr, hex4(b[r+8:r+12])) != utf8.RuneError {
				r += 12
			} else {
				r += 6
			}
		case c == '\\':
			r += 2
		case c < utf8.RuneSelf:
			r++
		default:
			_, size := utf8.DecodeRune(b[r:])
			r += size
		}
	}
	return n
}

// numberFormats are the number formats the walker checks: OpenAPI's
// int32 and int64 are integers of that range, whatever the type says
// (just-eat's "type: number, format: int32", which a server refuses 14.5
// for).
var numberFormats = map[string]func(float64) bool{
	"int32": func(f float64) bool { return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 },
	"int64": func(f float64) bool { return f == math.Trunc(f) && f >= -(1<<63) && f <= 1<<63 },
}

// formats are the string formats the walker checks; others are annotations.
var formats = map[string]func(string) bool{
	"date-time": func(s string) bool {
		_, err := time.Parse(time.RFC3339Nano, s)
		return err == nil
	},
	"date": func(s string) bool {
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	},
	"uuid": func(s string) bool {
		if len(s) != 36 {
			return false
		}
		for i, c := range []byte(s) {
			switch i {
			case 8, 13, 18, 23:
				if c != '-' {
					return false
				}
			default:
				if !strings.ContainsRune("0123456789abcdefABCDEF", rune(c)) {
					return false
				}
			}
		}
		return true
	},
	"email": validEmail,
}

// skip scans over the value at i, checking its syntax, and returns its end.
func (w *walker) skip(i int) int {
	if i >= len(w.b) {
		w.fail(i, "unexpected end of JSON input")
		return len(w.b)
	}
	switch kindAt(w.b[i]) {
	case tObject:
		return w.object(anything, i, nil)
	case tArray:
		return w.array(anything, i)
	case tString:
		return w.strEnd(i)
	case tNumber:
		return w.number(i)
	case tBoolean, tNull:
		for _, lit := range [...]string{"true", "false", "null"} {
			if len(w.b)-i >= len(lit) && string(w.b[i:i+len(lit)]) == lit {
				return i + len(lit)
			}
		}
	}
	w.fail(i, fmt.Sprintf("invalid character %q looking for beginning of value", w.b[i]))
	return len(w.b)
}

// anything is the schema that constrains nothing; skip walks containers
// with it.
var anything = func() *node { n := newNode(); n.trivial, n.always = true, true; return n }()

// plain marks the bytes a string holds as they are: not '"', '\\' or a
// control character.
var plain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// strEnd scans the string at i (checking its escapes) and returns its end.
func (w *walker) strEnd(i int) int {
	b := w.b
	for j := i + 1; j < len(b); j++ {
		for j < len(b) && plain[b[j]] {
			j++
		}
		if j >= len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			w.fail(j, "invalid control character in string")
			return len(b)
		case c == '\\':
			j++
			if j >= len(b) {
				break
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) {
					w.fail(j, "unexpected end of JSON input")
					return len(b)
				}
				for _, h := range b[j+1 : j+5] {
					if !strings.ContainsRune("0123456789abcdefABCDEF", rune(h)) {
						w.fail(j, "invalid \\u escape in string")
						return len(b)
					}
				}
				j += 4
			default:
				w.fail(j, "invalid escape in string")
				return len(b)
			}
		}
	}
	w.fail(len(b), "unexpected end of JSON input in string")
	return len(b)
}

// number scans the number at i per the JSON grammar and returns its end.
func (w *walker) number(i int) int {
	b := w.b
	j := i
	digits := func() bool {
		s := j
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j > s
	}
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case !digits():
		w.fail(j, "invalid number")
		return len(b)
	}
	if j < len(b) && b[j] == '.' {
		j++
		if !digits() {
			w.fail(j, "invalid number")
			return len(b)
		}
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if !digits() {
			w.fail(j, "invalid number")
			return len(b)
		}
	}
	return j
}
