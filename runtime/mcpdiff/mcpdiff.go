package mcpdiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Change is one difference between two listings.
type Change struct {
	// Tool is the name of the tool that changed.
	Tool string
	// Pointer is the JSON pointer, inside the tool, of what changed
	// ("/inputSchema/properties/limit"); "" for the tool as a whole.
	Pointer string
	// Breaking is true when a client generated from the old listing may
	// fail (or silently misread) against the new one.
	Breaking bool
	// What says what changed, and why that is (or is not) breaking.
	What string
}

// String formats c as one line: "BREAKING   tool: /pointer: what".
func (c Change) String() string {
	label := "COMPATIBLE"
	if c.Breaking {
		label = "BREAKING  "
	}
	if c.Pointer == "" {
		return fmt.Sprintf("%s %s: %s", label, c.Tool, c.What)
	}
	return fmt.Sprintf("%s %s: %s: %s", label, c.Tool, c.Pointer, c.What)
}

// Diff is the list of changes between two listings, by tool name and then
// in schema order (object members sorted by name).
type Diff []Change

// Breaking reports whether any change is breaking.
func (d Diff) Breaking() bool {
	return slices.ContainsFunc(d, func(c Change) bool { return c.Breaking })
}

// Count returns the numbers of breaking and compatible changes.
func (d Diff) Count() (breaking, compatible int) {
	for _, c := range d {
		if c.Breaking {
			breaking++
		} else {
			compatible++
		}
	}
	return breaking, compatible
}

// CompareListings compares two listing files: see ReadListing. The
// protocolVersion of the new listing (which opsgen mcp snapshot records) is
// taken as the one the generated client speaks with the server, for
// Options.ProtocolVersion.
func CompareListings(old, new []byte) (Diff, error) {
	o, err := ReadListing(old)
	if err != nil {
		return nil, fmt.Errorf("mcpdiff: old listing: %w", err)
	}
	n, err := ReadListing(new)
	if err != nil {
		return nil, fmt.Errorf("mcpdiff: new listing: %w", err)
	}
	var v struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(new, &v) // ReadListing has read it: a non-string version is just absent
	return CompareToolsWith(o, n, Options{ProtocolVersion: v.ProtocolVersion})
}

// Options says what the comparison knows of the generated client's
// sessions.
type Options struct {
	// ProtocolVersion is the MCP protocol version the client speaks with
	// the server ("2025-11-25", "2026-07-28"); "" when unknown, which is
	// taken as a version before 2026-07-28. It decides how a change of a
	// tool's execution.taskSupport is classified: from 2026-07-28 the
	// client declares the tasks extension (mcpclient.Connect, unless
	// ConnectOptions.NoTasks) and follows whatever tasks the server makes,
	// so such a change is compatible; before, the client asks for a task
	// exactly when the old listing said "optional" or "required", and the
	// change is breaking when the server now refuses that: a plain call to
	// a tool now "required", a task for a tool now "forbidden".
	ProtocolVersion string
}

// serverDirectedTasks reports whether tasks are the server's choice on
// every call (the 2026-07-28 tasks extension).
func (o Options) serverDirectedTasks() bool { return o.ProtocolVersion >= "2026-07-28" }

// ReadListing returns the tools of a listing file: a JSON object with a
// "tools" array, as `opsgen mcp snapshot` writes it or as a tools/list
// result carries it. Other members (serverInfo, protocolVersion) are
// ignored.
func ReadListing(data []byte) ([]json.RawMessage, error) {
	var l struct {
		Tools *[]json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(data, &l); err != nil {
		return nil, err
	}
	if l.Tools == nil {
		return nil, errors.New(`no "tools" array`)
	}
	return *l.Tools, nil
}

// CompareTools compares two lists of tools, each the JSON of an MCP Tool
// object (name, inputSchema, outputSchema, execution...), with the zero
// Options.
func CompareTools(old, new []json.RawMessage) (Diff, error) {
	return CompareToolsWith(old, new, Options{})
}

// CompareToolsWith is CompareTools with what is known of the client's
// sessions.
func CompareToolsWith(old, new []json.RawMessage, opts Options) (Diff, error) {
	o, err := indexTools("old", old)
	if err != nil {
		return nil, err
	}
	n, err := indexTools("new", new)
	if err != nil {
		return nil, err
	}
	var d Diff
	for _, name := range sortedKeys(o, n) {
		ot, inOld := o[name]
		nt, inNew := n[name]
		switch {
		case !inNew:
			d = append(d, Change{Tool: name, Breaking: true, What: "tool removed (the generated client still calls it)"})
		case !inOld:
			d = append(d, Change{Tool: name, What: "tool added (regenerate to call it)"})
		default:
			d = compareTool(d, name, ot, nt, opts)
		}
	}
	return d, nil
}

// indexTools decodes tools by name, with errors naming the tool's index.
func indexTools(which string, tools []json.RawMessage) (map[string]map[string]any, error) {
	m := make(map[string]map[string]any, len(tools))
	for i, raw := range tools {
		var tool map[string]any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber() // compare numbers (in enums, say) as written
		if err := dec.Decode(&tool); err != nil {
			return nil, fmt.Errorf("mcpdiff: %s listing: /tools/%d: %w", which, i, err)
		}
		name, _ := tool["name"].(string)
		if name == "" {
			return nil, fmt.Errorf("mcpdiff: %s listing: /tools/%d: no name", which, i)
		}
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("mcpdiff: %s listing: /tools/%d: tool %q listed twice", which, i, name)
		}
		m[name] = tool
	}
	return m, nil
}

func compareTool(d Diff, name string, o, n map[string]any, opts Options) Diff {
	for _, field := range []string{"title", "description"} {
		if !equalJSON(o[field], n[field]) {
			d = append(d, Change{Tool: name, Pointer: "/" + field, What: field + " changed (regenerate to update the doc comment)"})
		}
	}
	if ot, nt := taskSupport(o), taskSupport(n); ot != nt {
		d = append(d, taskChange(name, ot, nt, opts))
	}
	w := &walker{d: d, tool: name, seen: map[string]bool{}}
	w.compare(input, "/inputSchema", schemaAt(o, "inputSchema"), schemaAt(n, "inputSchema"))
	_, hadOut := o["outputSchema"]
	_, hasOut := n["outputSchema"]
	switch {
	case hadOut && !hasOut:
		w.add("/outputSchema", true, "output schema removed (the server no longer promises the structured result the generated client decodes)")
	case !hadOut && hasOut:
		w.add("/outputSchema", false, "output schema added (regenerate for a typed result)")
	case hadOut:
		w.compare(output, "/outputSchema", schemaAt(o, "outputSchema"), schemaAt(n, "outputSchema"))
	}
	return w.d
}

// taskChange classifies a change of execution.taskSupport from ot to nt
// (see Options.ProtocolVersion).
func taskChange(name, ot, nt string, opts Options) Change {
	c := Change{Tool: name, Pointer: "/execution/taskSupport", What: fmt.Sprintf("task support changed from %q to %q", ot, nt)}
	asksForTask := ot == "optional" || ot == "required"
	switch {
	case opts.serverDirectedTasks():
		c.What += " (the client follows the tasks the server makes on " + opts.ProtocolVersion + ")"
	case !asksForTask && nt == "required":
		c.Breaking = true
		c.What += " (the generated client makes plain calls, which are refused)"
	case asksForTask && nt == "forbidden":
		c.Breaking = true
		c.What += " (the generated client asks for a task, which the server may refuse)"
	case asksForTask:
		c.What += " (the generated client asks for a task, as before)"
	}
	return c
}

func taskSupport(tool map[string]any) string {
	exec, _ := tool["execution"].(map[string]any)
	s, _ := exec["taskSupport"].(string)
	if s == "" {
		return "forbidden" // the spec's default
	}
	return s
}

// schemaAt returns the schema in m[key] with its document root, for $refs.
func schemaAt(m map[string]any, key string) schemaRef {
	s := asSchema(m[key])
	return schemaRef{s: s, root: s}
}

// direction says which way values of a schema flow.
type direction int

const (
	// input values are written by the client and read by the server.
	input direction = iota
	// output values are written by the server and read by the client.
	output
)

func (dir direction) String() string {
	if dir == input {
		return "input"
	}
	return "output"
}

// schemaRef is a schema with the root its "#/..." references resolve in.
type schemaRef struct {
	s    map[string]any
	root map[string]any
}

// walker compares two schemas of one tool, appending to d.
type walker struct {
	d    Diff
	tool string
	// seen holds the pairs of references already compared, so that
	// recursive schemas end.
	seen map[string]bool
}

func (w *walker) add(ptr string, breaking bool, format string, args ...any) {
	w.d = append(w.d, Change{Tool: w.tool, Pointer: ptr, Breaking: breaking, What: fmt.Sprintf(format, args...)})
}

// maxDepth bounds the nesting compared, against hostile listings.
const maxDepth = 64

func (w *walker) compare(dir direction, ptr string, o, n schemaRef) {
	w.compareDepth(dir, ptr, o, n, 0)
}

func (w *walker) compareDepth(dir direction, ptr string, o, n schemaRef, depth int) {
	if depth > maxDepth {
		return
	}
	var oref, nref string
	o, oref = resolve(o)
	n, nref = resolve(n)
	if oref != "" || nref != "" {
		key := oref + "\x00" + nref
		if w.seen[key] {
			return
		}
		w.seen[key] = true
	}
	w.compareTypes(dir, ptr, o.s, n.s)
	w.compareEnums(dir, ptr, o.s, n.s)
	w.compareFormat(dir, ptr, o.s, n.s)
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not"} {
		if !equalJSON(o.s[k], n.s[k]) {
			w.add(ptr+"/"+k, true, "%s changed (not compared member by member)", k)
		}
	}
	w.compareProperties(dir, ptr, o, n, depth)
	_, oi := o.s["items"]
	_, ni := n.s["items"]
	if oi || ni {
		w.compareDepth(dir, ptr+"/items", schemaRef{asSchema(o.s["items"]), o.root}, schemaRef{asSchema(n.s["items"]), n.root}, depth+1)
	}
}

// resolve follows local "$ref"s ("#/$defs/node"), returning the schema and
// the last reference followed ("" for none). References it cannot follow
// are left as they are (their "$ref" member is compared as any other).
func resolve(r schemaRef) (schemaRef, string) {
	ref := ""
	for range maxDepth {
		p, ok := r.s["$ref"].(string)
		if !ok || !strings.HasPrefix(p, "#") {
			break
		}
		target, ok := pointer(r.root, p[1:])
		if !ok {
			break
		}
		ref, r.s = p, target
	}
	return r, ref
}

// pointer returns the schema at JSON pointer p in root.
func pointer(root map[string]any, p string) (map[string]any, bool) {
	var cur any = root
	if p == "" {
		return root, true
	}
	if !strings.HasPrefix(p, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// asSchema returns v as a schema object; true, absent and anything else that
// is not an object are the empty schema (any value).
func asSchema(v any) map[string]any {
	m, _ := v.(map[string]any)
	if m == nil {
		return map[string]any{}
	}
	return m
}

// types returns the set of JSON types a schema allows; nil means any.
func types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var ts []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				ts = append(ts, s)
			}
		}
		slices.Sort(ts)
		return ts
	}
	if c, ok := s["const"]; ok && c == nil {
		return []string{"null"}
	}
	return nil
}

// within reports whether every value of the types sub is a value of the
// types super (nil is any type; an integer is a number).
func within(sub, super []string) bool {
	if super == nil {
		return true
	}
	if sub == nil {
		return false
	}
	for _, t := range sub {
		if !slices.Contains(super, t) && (t != "integer" || !slices.Contains(super, "number")) {
			return false
		}
	}
	return true
}

func typeName(ts []string) string {
	switch len(ts) {
	case 0:
		return "any"
	case 1:
		return ts[0]
	}
	return "[" + strings.Join(ts, ", ") + "]"
}

// compareTypes: an input type may widen (the server still takes what the
// client sends); an output type may narrow (the client still decodes what
// the server sends).
func (w *walker) compareTypes(dir direction, ptr string, o, n map[string]any) {
	ot, nt := types(o), types(n)
	if slices.Equal(ot, nt) {
		return
	}
	sent, taken := ot, nt // input: the client sends old values to the new server
	if dir == output {
		sent, taken = nt, ot
	}
	if within(sent, taken) {
		verb := "widened"
		if dir == output {
			verb = "narrowed"
		}
		w.add(ptr+"/type", false, "%s type %s from %s to %s", dir, verb, typeName(ot), typeName(nt))
		return
	}
	why := "the server may refuse what the generated client sends"
	if dir == output {
		why = "the generated client may fail to decode what the server returns"
	}
	w.add(ptr+"/type", true, "%s type changed from %s to %s (%s)", dir, typeName(ot), typeName(nt), why)
}

// enumValues returns the canonical JSON of the values an enum (or const)
// allows, and whether the schema restricts them at all.
func enumValues(s map[string]any) ([]string, bool) {
	if c, ok := s["const"]; ok {
		return []string{canonical(c)}, true
	}
	e, ok := s["enum"].([]any)
	if !ok {
		return nil, false
	}
	vs := make([]string, len(e))
	for i, v := range e {
		vs[i] = canonical(v)
	}
	slices.Sort(vs)
	return slices.Compact(vs), true
}

// compareEnums: an input enum may gain values, an output enum may lose them.
func (w *walker) compareEnums(dir direction, ptr string, o, n map[string]any) {
	ov, oe := enumValues(o)
	nv, ne := enumValues(n)
	if !oe && !ne {
		return
	}
	removed, added := minus(ov, nv), minus(nv, ov)
	switch {
	case oe && !ne:
		w.add(ptr+"/enum", dir == output, "%s values no longer restricted to %s%s", dir, strings.Join(ov, ", "), outputWhy(dir))
	case !oe && ne:
		w.add(ptr+"/enum", dir == input, "%s values now restricted to %s%s", dir, strings.Join(nv, ", "), inputWhy(dir))
	default:
		if len(removed) > 0 {
			w.add(ptr+"/enum", dir == input, "%s enum narrowed: %s removed%s", dir, strings.Join(removed, ", "), inputWhy(dir))
		}
		if len(added) > 0 {
			w.add(ptr+"/enum", dir == output, "%s enum widened: %s added%s", dir, strings.Join(added, ", "), outputWhy(dir))
		}
	}
}

func inputWhy(dir direction) string {
	if dir == input {
		return " (the server may refuse values the generated client sends)"
	}
	return ""
}

func outputWhy(dir direction) string {
	if dir == output {
		return " (the generated client may get values it does not know)"
	}
	return ""
}

// compareFormat: a format is a narrowing (and may change the generated Go
// type, such as time.Time for date-time).
func (w *walker) compareFormat(dir direction, ptr string, o, n map[string]any) {
	of, _ := o["format"].(string)
	nf, _ := n["format"].(string)
	if of == nf {
		return
	}
	var breaking bool
	switch {
	case of == "": // added
		breaking = dir == input
	case nf == "": // removed
		breaking = dir == output
	default:
		breaking = true
	}
	w.add(ptr+"/format", breaking, "%s format changed from %q to %q", dir, of, nf)
}

// compareProperties compares the members of two object schemas.
func (w *walker) compareProperties(dir direction, ptr string, o, n schemaRef, depth int) {
	oreq, nreq := required(o.s), required(n.s)
	op := members(o.s, oreq)
	np := members(n.s, nreq)
	for _, name := range sortedKeys(op, np) {
		mptr := ptr + "/properties/" + escape(name)
		_, inOld := op[name]
		_, inNew := np[name]
		switch {
		case !inNew && dir == input:
			w.add(mptr, true, "input member %q removed (the generated client still sends it)", name)
		case !inNew:
			w.add(mptr, true, "output member %q removed (the generated client reads it)", name)
		case !inOld && dir == input && nreq[name]:
			w.add(mptr, true, "new required input member %q (the generated client does not send it)", name)
		case !inOld && dir == input:
			w.add(mptr, false, "new optional input member %q", name)
		case !inOld:
			w.add(mptr, false, "new output member %q (ignored until regenerated)", name)
		default:
			switch {
			case oreq[name] == nreq[name]:
			case dir == input && nreq[name]:
				w.add(mptr, true, "input member %q is now required (the generated client may leave it out)", name)
			case dir == input:
				w.add(mptr, false, "input member %q is now optional", name)
			case nreq[name]:
				w.add(mptr, false, "output member %q is now required", name)
			default:
				w.add(mptr, true, "output member %q is no longer required (the generated client may read a zero value)", name)
			}
			w.compareDepth(dir, mptr, schemaRef{asSchema(op[name]), o.root}, schemaRef{asSchema(np[name]), n.root}, depth+1)
		}
	}
}

// members returns the properties of an object schema, with the required
// names it does not describe as members of any type.
func members(s map[string]any, req map[string]bool) map[string]any {
	props := asSchema(s["properties"])
	if len(req) == 0 {
		return props
	}
	m := make(map[string]any, len(props)+len(req))
	for name := range req {
		m[name] = map[string]any{}
	}
	for name, v := range props {
		m[name] = v
	}
	return m
}

func required(s map[string]any) map[string]bool {
	r := map[string]bool{}
	list, _ := s["required"].([]any)
	for _, v := range list {
		if name, ok := v.(string); ok {
			r[name] = true
		}
	}
	return r
}

// escape escapes a JSON pointer token.
func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func sortedKeys[V any](a, b map[string]V) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// minus returns the members of a that are not in b.
func minus(a, b []string) []string {
	var r []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			r = append(r, v)
		}
	}
	return r
}

// canonical is the JSON of v with sorted keys (json.Marshal sorts map keys).
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func equalJSON(a, b any) bool {
	return canonical(a) == canonical(b)
}
