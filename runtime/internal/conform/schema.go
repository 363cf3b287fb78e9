package conform

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
)

// Schema is a compiled JSON Schema that data is normalized and validated
// against. It is compiled on first use (or by Compile) and is safe for
// concurrent use. Build one with NewSchema or (*SchemaSet).Ref, or, in
// generated code, as a statically initialised value: JSON with the Defs it
// refers to and the package's Set, so that a program links only the
// schemas its operations reach. The exported fields must not change once
// the schema is in use.
type Schema struct {
	// JSON is the schema's text. Its "$ref"s ("#/$defs/Pet") resolve
	// against the closure of Defs when Defs is set, else against Set's
	// document, else against the schema itself.
	JSON string
	// Defs are the named types JSON refers to directly; the schema is
	// compiled within {"$defs": {every def they reach}}.
	Defs []DefRef
	// Set, when not nil, shares compiled nodes among the schemas of one
	// package (a zero SchemaSet does for schemas with Defs), so that each
	// named type is compiled once.
	Set *SchemaSet

	once     sync.Once
	root     *node
	fallback FullSchema // set when the schema uses keywords the walker does not support and a FullValidator is installed
	err      error

	// parsed is the schema as decoded JSON, for Document (on first use);
	// defsDoc the closure of Defs as {"$defs": {...}}.
	parsedOnce sync.Once
	parsed     any
	parseErr   error
	defsOnce   sync.Once
	defsDoc    map[string]any
	defsErr    error
}

// SchemaSet is a JSON Schema document holding named schemas (under "$defs",
// or any other place a JSON pointer reaches) that the schemas made by Ref
// refer into, and the nodes its schemas compiled. Schemas of one set share
// their compiled nodes, so each named type is compiled once. Its zero
// value is an empty set, which schemas with Defs share nodes through.
type SchemaSet struct {
	doc  string   // NewSchemaSet's document
	defs []DefRef // NewDefSet's defs: the document is their closure

	mu     sync.Mutex
	parsed bool
	root   any
	err    error
	nodes  map[string]*node // compiled schemas of the set document, by JSON pointer
}

// NewSchema returns a standalone schema; its "$ref"s ("#/$defs/X") resolve
// against doc itself. doc is compiled on first use; Compile reports errors.
func NewSchema(doc string) *Schema { return &Schema{JSON: doc} }

// NewSchemaSet returns a set of schemas from a JSON Schema document, usually
// one whose "$defs" hold every named type of a generated package.
func NewSchemaSet(doc string) *SchemaSet { return &SchemaSet{doc: doc} }

// NewDefSet returns the set whose document is {"$defs": {...}} with the
// defs refs reach (transitively); it is built when a schema of the set is
// first used.
func NewDefSet(refs ...DefRef) *SchemaSet { return &SchemaSet{defs: refs} }

// Ref returns a schema of the set: schema is a JSON Schema whose "$ref"s
// resolve against the set document, typically just {"$ref":"#/$defs/Pet"}
// or an array of such refs.
func (s *SchemaSet) Ref(schema string) *Schema { return &Schema{JSON: schema, Set: s} }

// Compile compiles the schema now, if it was not compiled yet, and returns
// the error that makes it unusable, if any. Schemas compile on first use;
// Compile lets a program or a test find a broken schema early. A nil
// *Schema is no schema, and compiles.
func (s *Schema) Compile() error {
	if s == nil {
		return nil
	}
	s.once.Do(s.compile)
	return s.err
}

func (s *Schema) compile() {
	doc, err := parseJSON(s.JSON)
	if err != nil {
		s.err = fmt.Errorf("opsgen: schema: %w", err)
		return
	}
	c := &compiler{root: doc, nodes: map[string]*node{}}
	loc := "#"
	if s.Set != nil {
		s.Set.mu.Lock()
		defer s.Set.mu.Unlock()
		if s.Set.nodes == nil {
			s.Set.nodes = map[string]*node{}
		}
		c.nodes = s.Set.nodes
	}
	if len(s.Defs) > 0 || s.Set != nil {
		// The schema itself is not part of the document its refs resolve
		// against: its nodes are not cached (loc ""), its refs resolve
		// into the shared defs.
		if c.root, err = s.refDoc(); err != nil {
			s.err = err
			return
		}
		loc = ""
	}
	root, err := c.compile(doc, loc)
	if err != nil {
		s.err = fmt.Errorf("opsgen: schema: %w", err)
		return
	}
	link(root)
	s.root = root
	if c.unsupported {
		s.fallback, s.err = compileFallback(s)
	}
}

// refDoc returns the document the schema's refs resolve against: the
// closure of Defs, else Set's document (whose lock the caller holds).
func (s *Schema) refDoc() (any, error) {
	if len(s.Defs) > 0 {
		s.defsOnce.Do(func() { s.defsDoc, s.defsErr = defsDocument(s.Defs, false) })
		return s.defsDoc, s.defsErr
	}
	if err := s.Set.parse(); err != nil {
		return nil, err
	}
	return s.Set.root, nil
}

func (s *SchemaSet) parse() error {
	if !s.parsed {
		s.parsed = true
		if s.nodes == nil {
			s.nodes = map[string]*node{}
		}
		if s.doc == "" {
			s.root, s.err = defsDocument(s.defs, false)
			return s.err
		}
		s.root, s.err = parseJSON(s.doc)
		if s.err != nil {
			s.err = fmt.Errorf("opsgen: schema set: %w", s.err)
		}
	}
	return s.err
}

// freshDocument returns the set's document decoded anew, which the caller
// may modify.
func (s *SchemaSet) freshDocument() (any, error) {
	if s.doc == "" {
		return defsDocument(s.defs, true)
	}
	return parseJSON(s.doc)
}

// parseJSON decodes a schema document, keeping numbers exact.
func parseJSON(doc string) (any, error) {
	d := json.NewDecoder(strings.NewReader(doc))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("data after the schema document")
	}
	return v, nil
}

// openAPINullable rewrites OpenAPI 3.0's "nullable": true into a type array
// with "null", which is what it means in JSON Schema.
func openAPINullable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if n, _ := v["nullable"].(bool); n {
			if t, ok := v["type"].(string); ok {
				v["type"] = []any{t, "null"}
			}
		}
		for _, e := range v {
			openAPINullable(e)
		}
	case []any:
		for _, e := range v {
			openAPINullable(e)
		}
	}
	return v
}

// typeMask is a set of JSON types; 0 means any type.
type typeMask uint8

const (
	tNull typeMask = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
)

var typeNames = map[string]typeMask{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "integer": tInteger, "string": tString,
}

// String names the types for messages: "null or string".
func (t typeMask) String() string {
	var names []string
	for _, n := range []string{"null", "boolean", "object", "array", "number", "integer", "string"} {
		if t&typeNames[n] != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " or ")
}

// node is one compiled schema: the subset of JSON Schema the walker checks.
// Absent numeric bounds are NaN, absent counts -1.
type node struct {
	trivial  bool // true schema, or no constraining keyword of its own
	always   bool // every node of conj is trivial: any value fits, skip it
	never    bool // false schema
	types    typeMask
	nullable bool // OpenAPI 3.0 "nullable": null is accepted whatever else the schema says

	props       map[string]*node
	propOrder   []string // sorted, for deterministic default insertion
	required    []string
	addl        *node
	addlFalse   bool
	open        bool // additionalProperties: true, or an unsupported object keyword: never drop members
	minProps    int
	maxProps    int
	items       *node
	prefixItems []*node
	minItems    int
	maxItems    int
	unique      bool

	enum        []any           // decoded with json.Number
	enumStrings map[string]bool // the string members of enum, for a fast lookup
	hasConst    bool
	constVal    any
	def         json.RawMessage // "default", compact

	minimum, maximum, exclMin, exclMax, multipleOf float64
	minLen, maxLen                                 int
	pattern                                        Pattern
	format                                         string

	allOf, anyOf, oneOf []*node

	// Derived by link.
	linked  bool
	conj    []*node // this node and every node reached through allOf: all apply
	obj     *objView
	arr     *arrView
	choices [][]*node // anyOf and oneOf groups of conj, oneOf marked in oneOfs
	oneOfs  []bool
	scalar  bool // some node of conj has a check beyond the type
	// For the fused path (fused.go): plainKinds are the kinds of value
	// every node of conj accepts as they are, with no check beyond the
	// type and nothing normalization would change (no choices); plainInts:
	// a number whose literal is a plain integer (no fraction, no
	// exponent) is accepted likewise.
	plainKinds typeMask
	plainInts  bool
}

// objView is the merged object shape of a node's conj.
type objView struct {
	props    map[string]*propInfo
	names    []string    // the names of props, sorted; idx indexes it
	infos    []*propInfo // props in names order
	defaults []*propInfo // declared properties with a default, sorted by name
	required []string
	// requiredIdx is the idx of each required property, -1 for one
	// that is not declared (for the fused path).
	requiredIdx []int
	addl        *node
	addlFalse   bool
	// drop: undeclared properties are dropped by normalization.
	drop bool
}

type propInfo struct {
	node   *node
	idx    int
	member []byte // `"name":default`, when the property has a default
}

type arrView struct {
	items  *node
	prefix []*node
}

// compiler turns decoded schema documents into nodes.
type compiler struct {
	root        any              // the document "#..." refs resolve against
	nodes       map[string]*node // by location in root
	unsupported bool
	depth       int
}

// Keywords that are annotations only, or that the walker deliberately ignores.
var ignoredKeywords = map[string]bool{
	"$schema": true, "$id": true, "$comment": true, "$defs": true, "definitions": true,
	"title": true, "description": true, "examples": true, "example": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "discriminator": true,
	"xml": true, "externalDocs": true, "contentEncoding": true, "contentMediaType": true,
	"$anchor": true,
}

// Keywords the walker does not check; a schema using one is also validated
// by the fallback validator.
var unsupportedKeywords = map[string]bool{
	"not": true, "if": true, "then": true, "else": true, "patternProperties": true,
	"propertyNames": true, "dependentSchemas": true, "dependentRequired": true,
	"dependencies": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	"contains": true, "minContains": true, "maxContains": true, "$dynamicRef": true,
	"$recursiveRef": true, "$dynamicAnchor": true, "$recursiveAnchor": true,
	"contentSchema": true,
}

// objectKeywords are unsupported keywords that decide which members an
// object may hold: with one of them, undeclared members are kept.
var objectKeywords = map[string]bool{
	"patternProperties": true, "unevaluatedProperties": true, "dependentSchemas": true,
	"dependencies": true, "if": true, "then": true, "else": true, "$dynamicRef": true,
	"$recursiveRef": true,
}

const maxSchemaDepth = 1000

// compile compiles v, found at loc in c.root ("" when v is not in c.root).
func (c *compiler) compile(v any, loc string) (*node, error) {
	if loc != "" {
		if n, ok := c.nodes[loc]; ok {
			return n, nil // compiled, or being compiled (a recursive ref)
		}
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > maxSchemaDepth {
		return nil, fmt.Errorf("%s: schema nested too deeply", where(loc))
	}
	n := newNode()
	if loc != "" {
		c.nodes[loc] = n
	}
	switch v := v.(type) {
	case bool:
		n.trivial, n.never = v, !v
		return n, nil
	case map[string]any:
		if err := c.object(n, v, loc); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, fmt.Errorf("%s: schema must be an object or a boolean, not %s", where(loc), valueKind(v))
}

// isTrivialSchema reports whether v is a schema that accepts anything: true
// or an object without keywords.
func isTrivialSchema(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case map[string]any:
		return len(v) == 0
	}
	return false
}

func where(loc string) string {
	if loc == "" {
		return "schema"
	}
	return "schema " + loc
}

func child(loc string, tokens ...string) string {
	if loc == "" {
		return ""
	}
	for _, t := range tokens {
		loc += "/" + jsonptr.Escape(t)
	}
	return loc
}

func (c *compiler) object(n *node, m map[string]any, loc string) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	constrained := false
	var err error
	for _, k := range keys {
		v := m[k]
		at := child(loc, k)
		bad := func(want string) error {
			return fmt.Errorf("%s: %q must be %s", where(loc), k, want)
		}
		if ignoredKeywords[k] || strings.HasPrefix(k, "x-") {
			continue
		}
		if k == "not" && isTrivialSchema(v) {
			// {"not":{}}: the false schema in OpenAPI 3.0's dialect, which
			// has no boolean schemas (the generator writes it so).
			n.never = true
			constrained = true
			continue
		}
		if unsupportedKeywords[k] {
			c.unsupported = true
			n.open = n.open || objectKeywords[k]
			continue
		}
		if k == "default" {
			b, err := json.Marshal(v)
			if err != nil {
				return bad("JSON")
			}
			n.def = b
			continue
		}
		constrained = true
		switch k {
		case "$ref":
			s, ok := v.(string)
			if !ok {
				return bad("a string")
			}
			target, err := c.ref(s, loc)
			if err != nil {
				return err
			}
			n.allOf = append(n.allOf, target)
		case "type":
			switch t := v.(type) {
			case string:
				if typeNames[t] == 0 {
					return bad("a JSON type name")
				}
				n.types |= typeNames[t]
			case []any:
				for _, e := range t {
					s, _ := e.(string)
					if typeNames[s] == 0 {
						return bad("a JSON type name or an array of them")
					}
					n.types |= typeNames[s]
				}
			default:
				return bad("a JSON type name or an array of them")
			}
		case "nullable":
			b, ok := v.(bool)
			if !ok {
				return bad("a boolean")
			}
			n.nullable = b
		case "properties":
			pm, ok := v.(map[string]any)
			if !ok {
				return bad("an object")
			}
			n.props = make(map[string]*node, len(pm))
			for name, ps := range pm {
				if n.props[name], err = c.compile(ps, child(at, name)); err != nil {
					return err
				}
				n.propOrder = append(n.propOrder, name)
			}
			sort.Strings(n.propOrder)
		case "required":
			arr, ok := v.([]any)
			if !ok {
				return bad("an array of strings")
			}
			for _, e := range arr {
				s, ok := e.(string)
				if !ok {
					return bad("an array of strings")
				}
				n.required = append(n.required, s)
			}
		case "additionalProperties":
			if b, ok := v.(bool); ok {
				// An explicit true keeps undeclared members.
				n.addlFalse, n.open = !b, n.open || b
				continue
			}
			if n.addl, err = c.compile(v, at); err != nil {
				return err
			}
		case "items":
			if arr, ok := v.([]any); ok { // draft 4-2019 tuple form
				for i, e := range arr {
					p, err := c.compile(e, child(at, strconv.Itoa(i)))
					if err != nil {
						return err
					}
					n.prefixItems = append(n.prefixItems, p)
				}
				continue
			}
			if n.items, err = c.compile(v, at); err != nil {
				return err
			}
		case "prefixItems":
			arr, ok := v.([]any)
			if !ok {
				return bad("an array of schemas")
			}
			for i, e := range arr {
				p, err := c.compile(e, child(at, strconv.Itoa(i)))
				if err != nil {
					return err
				}
				n.prefixItems = append(n.prefixItems, p)
			}
		case "additionalItems":
			if b, ok := v.(bool); ok && !b {
				n.items = newNode()
				n.items.never = true
				continue
			}
			if n.items, err = c.compile(v, at); err != nil {
				return err
			}
		case "allOf", "anyOf", "oneOf":
			arr, ok := v.([]any)
			if !ok || len(arr) == 0 {
				return bad("a non-empty array of schemas")
			}
			list := make([]*node, len(arr))
			for i, e := range arr {
				if list[i], err = c.compile(e, child(at, strconv.Itoa(i))); err != nil {
					return err
				}
			}
			switch k {
			case "allOf":
				n.allOf = append(n.allOf, list...)
			case "anyOf":
				n.anyOf = list
			default:
				n.oneOf = list
			}
		case "enum":
			arr, ok := v.([]any)
			if !ok {
				return bad("an array")
			}
			n.enum = arr
			for _, e := range arr {
				if s, ok := e.(string); ok {
					if n.enumStrings == nil {
						n.enumStrings = map[string]bool{}
					}
					n.enumStrings[s] = true
				}
			}
		case "const":
			n.hasConst, n.constVal = true, v
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf":
			if b, ok := v.(bool); ok { // draft 4: exclusiveM* qualifies minimum/maximum
				if b && k == "exclusiveMinimum" {
					n.exclMin = numberOf(m["minimum"])
				} else if b && k == "exclusiveMaximum" {
					n.exclMax = numberOf(m["maximum"])
				}
				continue
			}
			f := numberOf(v)
			if math.IsNaN(f) {
				return bad("a number")
			}
			switch k {
			case "minimum":
				n.minimum = f
			case "maximum":
				n.maximum = f
			case "exclusiveMinimum":
				n.exclMin = f
			case "exclusiveMaximum":
				n.exclMax = f
			default:
				if f <= 0 {
					return bad("a positive number")
				}
				n.multipleOf = f
			}
		case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
			f := numberOf(v)
			if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
				return bad("a non-negative integer")
			}
			i := int(f)
			switch k {
			case "minLength":
				n.minLen = i
			case "maxLength":
				n.maxLen = i
			case "minItems":
				n.minItems = i
			case "maxItems":
				n.maxItems = i
			case "minProperties":
				n.minProps = i
			default:
				n.maxProps = i
			}
		case "uniqueItems":
			b, ok := v.(bool)
			if !ok {
				return bad("a boolean")
			}
			n.unique = b
		case "pattern":
			s, ok := v.(string)
			if !ok {
				return bad("a string")
			}
			// Patterns Go's regexp cannot compile are not checked (see
			// CompilePattern).
			n.pattern = CompilePattern(s)
		case "format":
			s, ok := v.(string)
			if !ok {
				return bad("a string")
			}
			if formats[s] != nil || numberFormats[s] != nil {
				n.format = s
			}
		default:
			// An unknown keyword is an annotation, per JSON Schema.
		}
	}
	n.trivial = !constrained && !n.open
	return nil
}

func newNode() *node {
	nan := math.NaN()
	return &node{minProps: -1, maxProps: -1, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1,
		minimum: nan, maximum: nan, exclMin: nan, exclMax: nan, multipleOf: nan}
}

func numberOf(v any) float64 {
	if n, ok := v.(json.Number); ok {
		if f, err := n.Float64(); err == nil {
			return f
		}
	}
	return math.NaN()
}

// ref resolves a "$ref" against the compiler's root document.
func (c *compiler) ref(ref, loc string) (*node, error) {
	if !strings.HasPrefix(ref, "#") {
		return nil, fmt.Errorf("%s: $ref %q: only refs inside the document (\"#/...\") are supported", where(loc), ref)
	}
	target, err := jsonptr.Lookup(c.root, ref[1:])
	if err != nil {
		return nil, fmt.Errorf("%s: $ref %q: %w", where(loc), ref, err)
	}
	return c.compile(target, ref)
}

func valueKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// link derives the merged views of n and of every node reachable from it.
// allOf is flattened into conj, and the object and array shapes of conj
// are merged, so the walker visits a value once for all of them.
func link(root *node) {
	work := []*node{root}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if n.linked {
			continue
		}
		n.linked = true
		n.conj = conjOf(n)
		synth := n.merge()
		for _, m := range n.conj {
			work = append(work, m.allOf...)
			work = append(work, m.anyOf...)
			work = append(work, m.oneOf...)
			work = append(work, m.prefixItems...)
			for _, p := range m.props {
				work = append(work, p)
			}
			if m.addl != nil {
				work = append(work, m.addl)
			}
			if m.items != nil {
				work = append(work, m.items)
			}
		}
		work = append(work, synth...)
	}
}

func conjOf(n *node) []*node {
	if len(n.allOf) == 0 {
		return []*node{n}
	}
	seen := map[*node]bool{}
	var out []*node
	var visit func(*node)
	visit = func(m *node) {
		if seen[m] {
			return
		}
		seen[m] = true
		out = append(out, m)
		for _, a := range m.allOf {
			visit(a)
		}
	}
	visit(n)
	return out
}

// merge fills n.obj, n.arr, n.choices and n.scalar from n.conj, and
// returns the synthetic nodes it made for properties declared by more than
// one node of conj (they need linking too).
func (n *node) merge() []*node {
	var synth []*node
	both := func(a, b *node) *node {
		if a == b {
			return a
		}
		s := newNode()
		s.allOf = []*node{a, b}
		synth = append(synth, s)
		return s
	}
	var ov objView
	hasObj, open := false, false
	var av arrView
	hasArr := false
	n.always = true
	for _, m := range n.conj {
		n.always = n.always && m.trivial
		if m.props != nil || m.addl != nil || m.addlFalse || len(m.required) > 0 {
			hasObj = true
			if ov.props == nil {
				ov.props = map[string]*propInfo{}
			}
			for _, name := range m.propOrder {
				p := m.props[name]
				if pi, ok := ov.props[name]; ok {
					pi.node = both(pi.node, p)
				} else {
					ov.props[name] = &propInfo{node: p}
				}
			}
			ov.required = append(ov.required, m.required...)
			if m.addl != nil {
				if ov.addl == nil {
					ov.addl = m.addl
				} else {
					ov.addl = both(ov.addl, m.addl)
				}
			}
			ov.addlFalse = ov.addlFalse || m.addlFalse
			ov.drop = ov.drop || m.props != nil || m.addlFalse
		}
		open = open || m.open
		if m.items != nil || m.prefixItems != nil {
			hasArr = true
			if m.items != nil {
				if av.items == nil {
					av.items = m.items
				} else {
					av.items = both(av.items, m.items)
				}
			}
			for i, p := range m.prefixItems {
				if i < len(av.prefix) {
					av.prefix[i] = both(av.prefix[i], p)
				} else {
					av.prefix = append(av.prefix, p)
				}
			}
		}
		if m.anyOf != nil {
			n.choices = append(n.choices, m.anyOf)
			n.oneOfs = append(n.oneOfs, false)
		}
		if m.oneOf != nil {
			n.choices = append(n.choices, m.oneOf)
			n.oneOfs = append(n.oneOfs, true)
		}
		n.scalar = n.scalar || m.hasScalar()
	}
	n.plainKinds, n.plainInts = n.plainSummary()
	if hasObj {
		ov.drop = ov.drop && ov.addl == nil && !open
		names := make([]string, 0, len(ov.props))
		for name := range ov.props {
			names = append(names, name)
		}
		sort.Strings(names)
		ov.names = names
		for i, name := range names {
			pi := ov.props[name]
			pi.idx = i
			ov.infos = append(ov.infos, pi)
			if def := defaultOf(pi.node); def != nil {
				key, _ := json.Marshal(name)
				pi.member = append(append(key, ':'), def...)
				ov.defaults = append(ov.defaults, pi)
			}
		}
		for _, name := range ov.required {
			idx := -1
			if pi := ov.props[name]; pi != nil {
				idx = pi.idx
			}
			ov.requiredIdx = append(ov.requiredIdx, idx)
		}
		n.obj = &ov
	}
	if hasArr {
		n.arr = &av
	}
	return synth
}

// defaultOf returns the default of a property schema, looking through allOf
// (a "$ref" with a sibling "default" compiles to an allOf).
func defaultOf(n *node) json.RawMessage {
	if n.def != nil {
		return n.def
	}
	for _, a := range n.allOf {
		if d := defaultOf(a); d != nil {
			return d
		}
	}
	return nil
}

// plainSummary computes plainKinds and plainInts (see node) from n.conj
// and n.choices, as the fused path's value checks them.
func (n *node) plainSummary() (kinds typeMask, ints bool) {
	if len(n.choices) > 0 {
		return 0, false
	}
	const all = tNull | tBoolean | tObject | tArray | tNumber | tString
	kinds = all
	numberIfInt := true // a plain integer is accepted by every node
	nullable := false
	for _, m := range n.conj {
		if m.never {
			return 0, false
		}
		nullable = nullable || m.nullable
		if m.enum != nil || m.hasConst {
			kinds &^= all // every kind has a check
		}
		if !math.IsNaN(m.minimum) || !math.IsNaN(m.maximum) || !math.IsNaN(m.exclMin) || !math.IsNaN(m.exclMax) || !math.IsNaN(m.multipleOf) {
			kinds &^= tNumber
			numberIfInt = false
		}
		if m.minLen >= 0 || m.maxLen >= 0 || m.pattern != nil || m.format != "" {
			kinds &^= tString
		}
		if m.minItems >= 0 || m.maxItems >= 0 || m.unique {
			kinds &^= tArray
		}
		if m.enum != nil || m.hasConst {
			numberIfInt = false
		}
		if m.types == 0 {
			continue
		}
		kinds &= m.types | tInteger
		if m.types&(tNumber|tInteger) == 0 {
			numberIfInt = false
		}
	}
	kinds &^= tInteger
	if nullable {
		// The fused path decodes null with no check then.
		kinds |= tNull
	}
	return kinds, numberIfInt && kinds&tNumber == 0
}

func (m *node) hasScalar() bool {
	return m.never || m.enum != nil || m.hasConst || !math.IsNaN(m.minimum) || !math.IsNaN(m.maximum) ||
		!math.IsNaN(m.exclMin) || !math.IsNaN(m.exclMax) || !math.IsNaN(m.multipleOf) ||
		m.minLen >= 0 || m.maxLen >= 0 || m.pattern != nil || m.format != "" ||
		m.minItems >= 0 || m.maxItems >= 0 || m.unique || m.minProps >= 0 || m.maxProps >= 0
}

// equalJSON reports whether two decoded JSON values (numbers as json.Number
// or float64) are equal as JSON values.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number, float64:
		fa, fb := toFloat(a), toFloat(b)
		return !math.IsNaN(fa) && fa == fb
	case string:
		s, ok := b.(string)
		return ok && s == a
	case bool:
		v, ok := b.(bool)
		return ok && v == a
	case nil:
		return b == nil
	case []any:
		v, ok := b.([]any)
		if !ok || len(v) != len(a) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], v[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		v, ok := b.(map[string]any)
		if !ok || len(v) != len(a) {
			return false
		}
		for k, x := range a {
			y, ok := v[k]
			if !ok || !equalJSON(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case json.Number:
		return numberOf(v)
	case float64:
		return v
	}
	return math.NaN()
}

// compactDisplay renders a decoded JSON value for a message.
func compactDisplay(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
