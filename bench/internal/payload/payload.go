// Package payload writes JSON documents that conform to a schema of an
// OpenAPI description, deterministically from a seed, with values of the
// kinds real responses carry: nullable members sometimes null, optional
// members sometimes absent, date-times, IDs, URLs, enums, text of a few
// hundred bytes with escapes and non-ASCII characters, expandable unions
// sometimes expanded. The benchmarks decode them; a description's own
// schemas decide their shape.
package payload

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Generator writes values of the schemas of one description.
type Generator struct {
	doc map[string]any
	r   *rand.Rand
	// res caches the compiled patterns.
	res map[string]*regexp.Regexp
	// Omit names optional members never written (those an operation's
	// responses leave out, as GitHub's issue lists leave out the
	// repository).
	Omit map[string]bool
}

// New returns a Generator for the description doc (JSON), seeded with seed.
func New(doc []byte, seed uint64) (*Generator, error) {
	var d map[string]any
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	return &Generator{doc: d, r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), res: map[string]*regexp.Regexp{}}, nil
}

// Schema returns the schema at the JSON pointer ptr ("#/components/...").
func (g *Generator) Schema(ptr string) (any, error) {
	var cur any = g.doc
	for _, p := range strings.Split(strings.TrimPrefix(ptr, "#/"), "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: no %q", ptr, p)
		}
		if cur, ok = m[strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")]; !ok {
			return nil, fmt.Errorf("%s: no %q", ptr, p)
		}
	}
	return cur, nil
}

// List writes an array of items of schema item, as many as it takes for
// the array to reach size bytes (at least one).
func (g *Generator) List(item any, size int) []byte {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i := 0; i == 0 || buf.Len() < size; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		g.Write(&buf, item, "", 0)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}

// Write writes a value of schema s (name: the property it is the value of,
// which picks realistic strings) at nesting depth depth.
func (g *Generator) Write(buf *bytes.Buffer, s any, name string, depth int) {
	m := g.deref(s)
	if len(list(m, "allOf")) > 0 || m["properties"] != nil {
		g.object(buf, m, depth)
		return
	}
	if branches := union(m); len(branches) > 0 {
		g.union(buf, m, branches, name, depth)
		return
	}
	if g.nullable(m) && g.r.IntN(5) == 0 {
		buf.WriteString("null")
		return
	}
	if enum, ok := m["enum"].([]any); ok {
		var vals []any
		for _, v := range enum {
			if v != nil {
				vals = append(vals, v)
			}
		}
		if len(vals) > 0 {
			writeJSON(buf, vals[g.r.IntN(len(vals))])
			return
		}
	}
	switch typeOf(m) {
	case "string":
		writeJSON(buf, g.str(m, name))
	case "integer":
		buf.WriteString(strconv.FormatInt(g.integer(m, name), 10))
	case "number":
		buf.WriteString(strconv.FormatFloat(float64(g.r.IntN(100000))/100, 'f', -1, 64))
	case "boolean":
		buf.WriteString(strconv.FormatBool(g.r.IntN(2) == 0))
	case "array":
		n := g.r.IntN(4)
		if depth > 4 {
			n = 0
		}
		if minItems, ok := m["minItems"].(float64); ok && n < int(minItems) {
			n = int(minItems)
		}
		buf.WriteByte('[')
		for i := range n {
			if i > 0 {
				buf.WriteByte(',')
			}
			g.Write(buf, m["items"], name, depth+1)
		}
		buf.WriteByte(']')
	case "object":
		g.object(buf, m, depth)
	default:
		writeJSON(buf, g.words(3))
	}
}

// deref follows $ref to the schema (an empty one for anything else).
func (g *Generator) deref(s any) map[string]any {
	for {
		m, _ := s.(map[string]any)
		ref, ok := m["$ref"].(string)
		if !ok {
			if m == nil {
				m = map[string]any{}
			}
			return m
		}
		var err error
		if s, err = g.Schema(ref); err != nil {
			panic(err)
		}
	}
}

// list returns m[k] as a list (nil when it is not one).
func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

func typeOf(m map[string]any) string {
	switch t := m["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return x.(string)
			}
		}
	}
	return ""
}

func (g *Generator) nullable(m map[string]any) bool {
	if m["nullable"] == true {
		return true
	}
	if t, ok := m["type"].([]any); ok {
		return slices.Contains(t, any("null"))
	}
	return false
}

func union(m map[string]any) []any {
	if b, ok := m["oneOf"].([]any); ok {
		return b
	}
	b, _ := m["anyOf"].([]any)
	return b
}

// union writes one branch of a oneOf or anyOf: a branch that is an empty
// nullable object (Graph's way of saying "or null") as null, a string
// branch next to objects (Stripe's expandable IDs) more often than the
// objects.
func (g *Generator) union(buf *bytes.Buffer, m map[string]any, branches []any, name string, depth int) {
	var objs, others []any
	for _, b := range branches {
		bm := g.deref(b)
		switch {
		case typeOf(bm) == "object" && bm["properties"] == nil && bm["allOf"] == nil && bm["nullable"] == true:
			continue // the null branch
		case bm["properties"] != nil || bm["allOf"] != nil:
			objs = append(objs, b)
		default:
			others = append(others, b)
		}
	}
	if (g.nullable(m) || len(objs)+len(others) < len(branches)) && g.r.IntN(4) == 0 {
		buf.WriteString("null")
		return
	}
	pick := others
	if len(objs) > 0 && (len(others) == 0 || (depth < 3 && g.r.IntN(3) == 0)) {
		pick = objs
	}
	if len(pick) == 0 {
		buf.WriteString("null")
		return
	}
	g.Write(buf, pick[g.r.IntN(len(pick))], name, depth)
}

// props collects the properties and required names of m and its allOf.
func (g *Generator) props(m map[string]any, names *[]string, schemas map[string]any, required map[string]bool) {
	for _, b := range list(m, "allOf") {
		g.props(g.deref(b), names, schemas, required)
	}
	if ps, ok := m["properties"].(map[string]any); ok {
		keys := make([]string, 0, len(ps))
		for k := range ps {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if _, dup := schemas[k]; !dup {
				*names = append(*names, k)
			}
			schemas[k] = ps[k]
		}
	}
	for _, r := range list(m, "required") {
		required[r.(string)] = true
	}
}

func (g *Generator) object(buf *bytes.Buffer, m map[string]any, depth int) {
	var names []string
	schemas, required := map[string]any{}, map[string]bool{}
	g.props(m, &names, schemas, required)
	buf.WriteByte('{')
	n := 0
	member := func(k string) {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		writeJSON(buf, k)
		buf.WriteByte(':')
	}
	for _, k := range names {
		if !required[k] && (g.Omit[k] || depth > 3 || g.r.IntN(8) == 0) {
			continue // optional members are sometimes absent
		}
		member(k)
		s := g.deref(schemas[k])
		if def, ok := s["default"]; ok && strings.HasPrefix(k, "@odata.type") {
			writeJSON(buf, def)
			continue
		}
		g.Write(buf, schemas[k], k, depth+1)
	}
	if len(names) == 0 {
		if ap, ok := m["additionalProperties"].(map[string]any); ok {
			for i := range g.r.IntN(3) {
				member(fmt.Sprintf("%s_%d", g.word(), i))
				g.Write(buf, ap, "", depth+1)
			}
		}
	}
	buf.WriteByte('}')
}

var vocabulary = strings.Fields(`the a of to and in is it for on with as at by from this that be are not
an or have will can fix add update bug feature request issue error when should crash build test
docs release client server api user data response request value type name list page cache timeout
retry memory leak handler config option flag parser decoder schema field null nested array object
string number date time zone locale unicode emoji über café naïve 日本 東京 δ λ`)

func (g *Generator) word() string { return vocabulary[g.r.IntN(len(vocabulary))] }

func (g *Generator) words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = g.word()
	}
	return strings.Join(w, " ")
}

// text returns a few paragraphs of markdown-like text, with the newlines,
// quotes and backquotes an issue body has.
func (g *Generator) text() string {
	var b strings.Builder
	for p := range 2 + g.r.IntN(4) {
		if p > 0 {
			b.WriteString("\n\n")
		}
		switch g.r.IntN(4) {
		case 0:
			b.WriteString("```go\nerr := client.Do(ctx, \"" + g.word() + "\")\n```")
		case 1:
			b.WriteString("- [ ] " + g.words(6) + "\n- [x] " + g.words(5))
		default:
			b.WriteString(g.words(20 + g.r.IntN(40)))
		}
	}
	return b.String()
}

var epoch = time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)

func (g *Generator) str(m map[string]any, name string) string {
	maxLen := 1 << 30
	if ml, ok := m["maxLength"].(float64); ok {
		maxLen = int(ml)
	}
	s := g.strOf(m, name)
	if len(s) > maxLen {
		s = s[:maxLen]
	}
	return s
}

func (g *Generator) strOf(m map[string]any, name string) string {
	t := epoch.Add(time.Duration(g.r.Int64N(int64(6 * 365 * 24 * time.Hour))).Truncate(time.Second))
	switch m["format"] {
	case "date-time":
		return t.Format(time.RFC3339)
	case "date":
		return t.Format(time.DateOnly)
	case "uuid":
		var b [16]byte
		for i := range b {
			b[i] = byte(g.r.Uint32())
		}
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
		return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
	case "email":
		return g.login() + "@example.com"
	case "uri", "url":
		return g.url()
	case "byte", "base64url":
		return base64.StdEncoding.EncodeToString([]byte(g.words(2)))
	}
	if p, ok := m["pattern"].(string); ok {
		return g.matching(p)
	}
	switch {
	case name == "currency":
		return []string{"usd", "eur", "gbp", "jpy"}[g.r.IntN(4)]
	case name == "@odata.type":
		return "#microsoft.graph." + g.word()
	case name == "body" || name == "description" || name == "aboutMe":
		return g.text()
	case strings.HasSuffix(name, "url") || strings.HasSuffix(name, "_url") || strings.HasSuffix(name, "Url") || strings.HasSuffix(name, "Link"):
		return g.url()
	case strings.HasSuffix(name, "id") || strings.HasSuffix(name, "_id") || name == "balance_transaction" || name == "destination" || strings.HasSuffix(name, "payout"):
		return g.id()
	case name == "login" || name == "name" || strings.HasSuffix(name, "Name"):
		return g.login()
	case name == "color":
		return fmt.Sprintf("%06x", g.r.IntN(1<<24))
	case strings.HasSuffix(name, "_at") || strings.HasSuffix(name, "DateTime"):
		return t.Format(time.RFC3339)
	}
	return g.words(1 + g.r.IntN(6))
}

func (g *Generator) login() string {
	return g.word() + "-" + strconv.Itoa(g.r.IntN(10000))
}

func (g *Generator) id() string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("po_")
	for range 24 {
		b = append(b, alnum[g.r.IntN(len(alnum))])
	}
	return string(b)
}

func (g *Generator) url() string {
	return "https://api.example.com/repos/" + g.login() + "/" + strconv.Itoa(g.r.IntN(100000)) + "/items/" + strconv.Itoa(g.r.IntN(1000000))
}

func (g *Generator) integer(m map[string]any, name string) int64 {
	lo, hi := int64(0), int64(1_000_000_000)
	if name == "created" || name == "arrival_date" || strings.HasSuffix(name, "_at") || m["format"] == "unix-time" {
		lo, hi = 1_546_300_800, 1_735_689_600 // Stripe's times: Unix seconds
	}
	if v, ok := m["minimum"].(float64); ok {
		lo = int64(v)
	}
	if v, ok := m["maximum"].(float64); ok && int64(v) < hi {
		hi = int64(v)
	}
	if m["format"] == "int32" && hi > 1<<31-1 {
		hi = 1<<31 - 1
	}
	if hi <= lo {
		return lo
	}
	return lo + g.r.Int64N(hi-lo)
}

// matching returns a string that matches the pattern p, generated from
// its syntax tree.
func (g *Generator) matching(p string) string {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		panic(fmt.Sprintf("pattern %q: %v", p, err))
	}
	var b strings.Builder
	g.regexp(&b, re.Simplify())
	if g.res[p] == nil {
		g.res[p] = regexp.MustCompile(p)
	}
	if !g.res[p].MatchString(b.String()) {
		panic(fmt.Sprintf("pattern %q: generated %q does not match", p, b.String()))
	}
	return b.String()
}

func (g *Generator) regexp(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		// The class's first range, its first letters: readable.
		lo, hi := re.Rune[0], re.Rune[1]
		b.WriteRune(lo + rune(g.r.IntN(int(min(hi-lo, 25))+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a' + byte(g.r.IntN(26)))
	case syntax.OpCapture:
		g.regexp(b, re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			g.regexp(b, s)
		}
	case syntax.OpAlternate:
		g.regexp(b, re.Sub[g.r.IntN(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 6
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + 5
			}
		}
		for range lo + g.r.IntN(hi-lo+1) {
			g.regexp(b, re.Sub[0])
		}
	}
}

func writeJSON(buf *bytes.Buffer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	buf.Write(b)
}
