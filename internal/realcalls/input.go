package realcalls

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
)

// InputGen builds operation inputs from their JSON Schemas (the registry's
// input schemas: {"params": {...}, "body": ...}), deterministically for a
// seed. It fills every required member, picks enum values, honours const,
// formats, patterns, bounds and lengths, and uses a schema's default or
// example when NoExamples is false. Optional members are included at random
// (seeded), so that the encoding of more parameters is exercised.
type InputGen struct {
	r *rand.Rand
	// NoExamples ignores default, example and examples: specs' examples
	// often contradict their own schemas, so a retry goes without them.
	NoExamples bool
	// Optional is the chance of including an optional member (0..1).
	Optional float64
	root     map[string]any
}

// NewInputGen returns a generator for the seed.
func NewInputGen(seed uint64) *InputGen {
	return &InputGen{r: rand.New(rand.NewPCG(seed, seed^0x5eed)), Optional: 0.5}
}

// Generate returns an input for the schema (a JSON document); {} for an
// empty or unparsable one.
func (g *InputGen) Generate(schema json.RawMessage) (json.RawMessage, error) {
	if len(schema) == 0 {
		return json.RawMessage("{}"), nil
	}
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	g.root = root
	v := g.value(root, 0, map[string]int{})
	if v == nil {
		v = map[string]any{}
	}
	return json.Marshal(v)
}

// maxDepth bounds nesting: past it only required members are filled, and
// recursive refs stop.
const maxDepth = 6

// resolve follows a local $ref ("#/..."), returning nil when it does not
// resolve.
func (g *InputGen) resolve(ref string) map[string]any {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	var cur any = g.root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	m, _ := cur.(map[string]any)
	return m
}

func (g *InputGen) value(s map[string]any, depth int, refs map[string]int) any {
	if s == nil {
		return "e2e"
	}
	if ref, ok := s["$ref"].(string); ok {
		if refs[ref] >= 2 || depth > maxDepth+2 {
			return nil
		}
		t := g.resolve(ref)
		if t == nil {
			return "e2e"
		}
		refs[ref]++
		defer func() { refs[ref]-- }()
		// Siblings of $ref (2019+) add to the target.
		if len(s) > 1 {
			t = mergeSchemas(t, s)
			delete(t, "$ref")
		}
		return g.value(t, depth, refs)
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		var vals []any
		for _, v := range e {
			if v != nil {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			return nil
		}
		return vals[g.r.IntN(len(vals))]
	}
	if !g.NoExamples {
		if d, ok := s["default"]; ok && d != nil {
			return d
		}
		if ex, ok := s["example"]; ok && ex != nil {
			return ex
		}
		if exs, ok := s["examples"].([]any); ok && len(exs) > 0 && exs[0] != nil {
			return exs[0]
		}
	}
	if all, ok := s["allOf"].([]any); ok && len(all) > 0 {
		m := map[string]any{}
		for k, v := range s {
			if k != "allOf" {
				m[k] = v
			}
		}
		for _, a := range all {
			sub, _ := a.(map[string]any)
			m = mergeSchemas(m, g.deref(sub, refs))
		}
		return g.value(m, depth, refs)
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		if alts, ok := s[kw].([]any); ok && len(alts) > 0 {
			var cands []map[string]any
			for _, a := range alts {
				sub, _ := a.(map[string]any)
				if sub = g.deref(sub, refs); sub != nil && !isNullSchema(sub) {
					cands = append(cands, sub)
				}
			}
			if len(cands) == 0 {
				return nil
			}
			pick := cands[g.r.IntN(len(cands))]
			// Keep the parent's own keywords (type, properties) with the variant.
			m := map[string]any{}
			for k, v := range s {
				if k != kw {
					m[k] = v
				}
			}
			return g.value(mergeSchemas(m, pick), depth, refs)
		}
	}
	typ := schemaType(s)
	switch typ {
	case "null":
		return nil
	case "object":
		return g.object(s, depth, refs)
	case "array":
		return g.array(s, depth, refs)
	case "integer":
		return g.integer(s)
	case "number":
		return g.number(s)
	case "boolean":
		return g.r.IntN(2) == 0
	}
	return g.str(s)
}

// deref returns the target of a $ref schema (s itself otherwise).
func (g *InputGen) deref(s map[string]any, refs map[string]int) map[string]any {
	for i := 0; i < 8 && s != nil; i++ {
		ref, ok := s["$ref"].(string)
		if !ok || refs[ref] >= 2 {
			return s
		}
		s = g.resolve(ref)
	}
	return s
}

func isNullSchema(s map[string]any) bool {
	t, _ := s["type"].(string)
	return t == "null"
}

// schemaType is the schema's type (the first non-null one of a list), or
// one implied by its keywords.
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x, ok := x.(string); ok && x != "null" {
				return x
			}
		}
		return "null"
	}
	switch {
	case s["properties"] != nil || s["required"] != nil || s["additionalProperties"] != nil:
		return "object"
	case s["items"] != nil:
		return "array"
	}
	return ""
}

// mergeSchemas is a shallow allOf merge: properties and required are
// unioned, other keywords of b win.
func mergeSchemas(a, b map[string]any) map[string]any {
	m := map[string]any{}
	for k, v := range a {
		m[k] = v
	}
	if b == nil {
		return m
	}
	for k, v := range b {
		switch k {
		case "properties":
			props := map[string]any{}
			if p, ok := m["properties"].(map[string]any); ok {
				for pk, pv := range p {
					props[pk] = pv
				}
			}
			if p, ok := v.(map[string]any); ok {
				for pk, pv := range p {
					props[pk] = pv
				}
			}
			m[k] = props
		case "required":
			var req []any
			if r, ok := m["required"].([]any); ok {
				req = append(req, r...)
			}
			if r, ok := v.([]any); ok {
				req = append(req, r...)
			}
			m[k] = req
		default:
			m[k] = v
		}
	}
	return m
}

func (g *InputGen) object(s map[string]any, depth int, refs map[string]int) any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			if name, ok := x.(string); ok {
				req[name] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		sub, _ := props[name].(map[string]any)
		if sub != nil && sub["readOnly"] == true {
			continue
		}
		include := req[name]
		if !include && depth < 3 && g.r.Float64() < g.Optional {
			include = true
		}
		if !include {
			continue
		}
		v := g.value(sub, depth+1, refs)
		if v == nil && !req[name] {
			continue
		}
		out[name] = v
	}
	// The body and the params (depth 1) carry at least one member when
	// they can: an empty form body is zero bytes, which no server tells
	// from a missing body (seldon's required form bodies, all of whose
	// members are optional), and a call that sends nothing tests little.
	if depth == 1 && len(out) == 0 && len(req) == 0 {
		for _, name := range names {
			if sub, _ := props[name].(map[string]any); sub != nil && sub["readOnly"] != true {
				if v := g.value(sub, depth+1, refs); v != nil {
					out[name] = v
					break
				}
			}
		}
	}
	// Required members that no property describes.
	for name := range req {
		if _, ok := out[name]; !ok {
			if ap, ok := s["additionalProperties"].(map[string]any); ok {
				out[name] = g.value(ap, depth+1, refs)
			} else {
				out[name] = "e2e"
			}
		}
	}
	if n, ok := num(s["minProperties"]); ok && len(out) < int(n) {
		ap, _ := s["additionalProperties"].(map[string]any)
		for i := 0; len(out) < int(n); i++ {
			out[fmt.Sprintf("e2e%d", i)] = g.value(ap, depth+1, refs)
		}
	}
	return out
}

func (g *InputGen) array(s map[string]any, depth int, refs map[string]int) any {
	// Two items by default: delimiters and repeated parts get exercised.
	lo, n := 0, 2
	if m, ok := num(s["minItems"]); ok {
		lo = int(m)
		n = max(n, lo)
	}
	if m, ok := num(s["maxItems"]); ok && int(m) < n {
		n = int(m)
	}
	if depth > maxDepth {
		n = lo
	}
	items, _ := s["items"].(map[string]any)
	out := make([]any, 0, n)
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		v := g.value(items, depth+1, refs)
		if s["uniqueItems"] == true {
			b, _ := json.Marshal(v)
			for tries := 0; seen[string(b)] && tries < 8; tries++ {
				v = g.value(items, depth+1, refs)
				b, _ = json.Marshal(v)
			}
			if seen[string(b)] {
				if len(out) >= lo {
					break
				}
			}
			seen[string(b)] = true
		}
		out = append(out, v)
	}
	return out
}

func num(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// bounds returns the inclusive range a number must fall in, from minimum,
// maximum and their exclusive forms (draft 4 booleans or 2019+ numbers).
func bounds(s map[string]any, step float64) (lo, hi float64) {
	lo, hi = 1, 100
	if m, ok := num(s["minimum"]); ok {
		lo = m
		if s["exclusiveMinimum"] == true {
			lo += step
		}
		if hi < lo {
			hi = lo + 100
		}
	}
	if m, ok := num(s["exclusiveMinimum"]); ok {
		lo = m + step
		if hi < lo {
			hi = lo + 100
		}
	}
	if m, ok := num(s["maximum"]); ok {
		hi = m
		if s["exclusiveMaximum"] == true {
			hi -= step
		}
		if lo > hi {
			lo = hi - 100
			if _, ok := num(s["minimum"]); ok {
				lo = hi
			}
		}
	}
	if m, ok := num(s["exclusiveMaximum"]); ok {
		hi = m - step
		if lo > hi {
			lo = hi
		}
	}
	return lo, hi
}

func (g *InputGen) integer(s map[string]any) any {
	lo, hi := bounds(s, 1)
	lo, hi = math.Ceil(lo), math.Floor(hi)
	if hi < lo {
		return int64(lo)
	}
	span := int64(math.Min(hi-lo, 1000))
	v := int64(lo) + g.r.Int64N(span+1)
	if m, ok := num(s["multipleOf"]); ok && m >= 1 {
		step := int64(m)
		v = (v + step - 1) / step * step
		if float64(v) > hi {
			v -= step
		}
	}
	return v
}

func (g *InputGen) number(s map[string]any) any {
	lo, hi := bounds(s, 0.5)
	if m, ok := num(s["multipleOf"]); ok && m > 0 {
		k := math.Ceil(lo / m)
		return k * m
	}
	if hi < lo {
		return lo
	}
	v := lo + (hi-lo)*g.r.Float64()
	if f := s["format"]; f == "int32" || f == "int64" {
		return math.Round(v) // an integer, as the format says
	}
	return math.Round(v*4) / 4
}

// words are the plain strings, some with characters that need escaping in
// a path, a query or a form.
var words = []string{"e2e", "e2e value", "e2e&x=1", "ü-e2e", "e2e+plus"}

func (g *InputGen) str(s map[string]any) any {
	format, _ := s["format"].(string)
	if s["contentEncoding"] == "base64" {
		format = "byte" // a file or bytes, given as base64
	}
	var v string
	switch format {
	case "date-time":
		v = "2024-01-02T03:04:05Z"
	case "date":
		v = "2024-01-02"
	case "time":
		v = "03:04:05Z"
	case "email", "idn-email":
		v = "e2e@example.com"
	case "uuid":
		v = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	case "uri", "url", "iri", "uri-reference", "iri-reference":
		v = "https://example.com/e2e"
	case "hostname", "idn-hostname":
		v = "example.com"
	case "ipv4":
		v = "192.0.2.1"
	case "ipv6":
		v = "2001:db8::1"
	case "byte":
		v = "ZTJl"
	case "int32", "int64":
		v = "7"
	case "duration":
		v = "P1D"
	case "regex":
		v = "^e2e$"
	case "json-pointer":
		v = "/e2e"
	}
	minLen := 0
	if m, ok := num(s["minLength"]); ok {
		minLen = int(m)
	}
	if v == "" {
		if p, ok := s["pattern"].(string); ok {
			if m, ok := fromPatternLen(p, minLen); ok {
				v = m
			}
		}
	}
	if v == "" {
		v = words[g.r.IntN(len(words))]
	}
	if m, ok := num(s["maxLength"]); ok && len([]rune(v)) > int(m) {
		v = string([]rune(v)[:int(m)])
	}
	// Padding with 'e' is for free strings and formats; a pattern's string
	// was grown above inside its repetitions, so that it still matches
	// (padding "0" to "0eeee" would break ^[0-9]+$).
	for len([]rune(v)) < minLen {
		v += "e"
	}
	return v
}

// fromPattern returns a string matching the (ECMAScript-ish) pattern, or
// false when Go's regexp syntax does not parse it. It is deterministic:
// the first alternative, the fewest repetitions (at least one where the
// pattern allows one), a letter or digit from a class.
func fromPattern(p string) (string, bool) { return fromPatternLen(p, 0) }

// fromPatternLen is fromPattern for a string of at least minLen characters
// where the pattern allows one: the shortest string is grown by repeating
// its first repetitions that allow more (`*`, `+`, `{n,m}`), in order,
// until it is long enough. When no repetition can grow it, it stays short.
func fromPatternLen(p string, minLen int) (string, bool) {
	// Go's syntax refuses repeat counts over 1000 (AWS ARNs say {0,1023});
	// the fewest repetitions are generated, so lowering the bound is harmless.
	re, err := syntax.Parse(clampRepeats(p), syntax.Perl)
	if err != nil {
		return "", false
	}
	short := generateFrom(re, 0)
	if n := len([]rune(short)); n < minLen {
		short = generateFrom(re, minLen-n)
	}
	// Unanchored patterns match anywhere: the whole string matches too.
	return short, short != ""
}

// generateFrom walks re: the first alternative, the fewest repetitions (at
// least one where allowed), and extra characters' worth of additional
// repetitions in the first repetitions that allow more.
func generateFrom(re *syntax.Regexp, extra int) string {
	var b strings.Builder
	var walk func(re *syntax.Regexp)
	// grow repeats sub after its minimal repetitions (reps so far) while
	// characters are missing and max (-1: unbounded) allows.
	grow := func(sub *syntax.Regexp, reps, max int) {
		for extra > 0 && (max < 0 || reps < max) {
			before := b.Len()
			walk(sub)
			n := len([]rune(b.String()[before:]))
			if n == 0 {
				return // an empty repetition never grows the string
			}
			extra -= n
			reps++
		}
	}
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
		case syntax.OpCharClass:
			b.WriteRune(pickRune(re.Rune))
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpCapture:
			for _, s := range re.Sub {
				walk(s)
			}
		case syntax.OpStar:
			grow(re.Sub[0], 0, -1) // zero repetitions unless growing
		case syntax.OpQuest:
			grow(re.Sub[0], 0, 1)
		case syntax.OpPlus:
			walk(re.Sub[0])
			grow(re.Sub[0], 1, -1)
		case syntax.OpRepeat:
			n := re.Min
			if n == 0 && re.Max != 0 {
				n = 1
			}
			for i := 0; i < n; i++ {
				walk(re.Sub[0])
			}
			grow(re.Sub[0], n, re.Max)
		case syntax.OpConcat:
			for _, s := range re.Sub {
				walk(s)
			}
		case syntax.OpAlternate:
			walk(re.Sub[0])
		}
	}
	walk(re)
	return b.String()
}

// repeatCount matches the counts of a repeat: {n}, {n,}, {n,m}.
var repeatCount = regexp.MustCompile(`\{\d+(,\d*)?\}`)

// clampRepeats lowers the repeat counts of p to at most 1000, the most Go's
// regexp syntax accepts.
func clampRepeats(p string) string {
	return repeatCount.ReplaceAllStringFunc(p, func(m string) string {
		return regexp.MustCompile(`\d+`).ReplaceAllStringFunc(m, func(n string) string {
			if len(n) > 4 || len(n) == 4 && n > "1000" {
				return "1000"
			}
			return n
		})
	})
}

// pickRune picks a character of a class (pairs of inclusive ranges),
// preferring letters and digits.
func pickRune(ranges []rune) rune {
	if len(ranges) < 2 {
		return 'a'
	}
	for _, pref := range []rune{'a', 'A', '0', 'e'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= pref && pref <= ranges[i+1] {
				return pref
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for c := lo; c <= hi && c < lo+128; c++ {
			if c > ' ' && c < 0x7f && c != '/' && c != '?' && c != '#' {
				return c
			}
		}
	}
	return ranges[0]
}
