// Command trimspec cuts an OpenAPI description down to a few operations and
// the components they reach, so that a benchmark can commit a small
// description taken from a real one. It keeps the description's own
// schemas as they are, except for two cuts a benchmark's payloads never
// exercise, both optional:
//
//   - -drop EXT removes every property whose schema is marked with the
//     extension EXT (Microsoft Graph's x-ms-navigationProperty: relations a
//     list response leaves out unless asked to $expand them);
//   - -expand N keeps only the string branch of Stripe's expandable unions
//     (anyOf an ID and the objects it names) in schemas reached through
//     more than N references from the operation: objects expanded within
//     expanded objects, which a response carries as IDs unless asked.
//
// With -nodiscriminator the discriminators are left out: Graph's name
// every type derived from entity and directoryObject, and neither ogen
// v1.24.0 ("merge discriminator" not implemented) nor oapi-codegen v2.8.2
// ("merging two schemas with discriminators is not supported") generates
// a client for a description that has them.
//
// Security requirements are left out (the benchmarks do not authenticate),
// and so are the bodies of GET operations, the query and header parameters not named by -params and
// the responses not named by -responses (Stripe's error schema alone
// reaches half its description).
//
//	go run ./internal/trimspec -in stripe.com.json -op 'get /v1/refunds' -expand 1 -params limit -out spec/stripe-refunds.json
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

type opList []string

func (o *opList) String() string     { return strings.Join(*o, ",") }
func (o *opList) Set(s string) error { *o = append(*o, s); return nil }

func main() {
	in := flag.String("in", "", "the description (JSON)")
	out := flag.String("out", "", "where to write the trimmed description")
	drop := flag.String("drop", "", "drop properties whose schema has this extension set to true")
	depth := flag.Int("expand", 0, "keep only the string branch of expandable unions (anyOf a string and references) in schemas more than this many references deep (0: keep all)")
	origin := flag.String("origin", "", "a note on where the description comes from, put in info.x-trimmed-from")
	params := flag.String("params", "", "the query and header parameters to keep, comma-separated (path parameters are always kept)")
	responses := flag.String("responses", "", "the responses to keep, comma-separated status codes (empty: all)")
	noDisc := flag.Bool("nodiscriminator", false, "leave discriminators out")
	var ops opList
	flag.Var(&ops, "op", "an operation to keep, \"method /path\" (repeatable)")
	flag.Parse()
	if err := run(*in, *out, *drop, *depth, *origin, strings.Split(*params, ","), splitNonEmpty(*responses), *noDisc, ops); err != nil {
		fmt.Fprintln(os.Stderr, "trimspec:", err)
		os.Exit(1)
	}
}

func run(in, out, drop string, depth int, origin string, params, responses []string, noDisc bool, ops []string) error {
	raw, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	t := &trimmer{doc: doc, drop: drop, depth: depth, kept: map[string]any{}, params: params}
	paths, _ := doc["paths"].(map[string]any)
	newPaths := map[string]any{}
	for _, o := range ops {
		method, path, ok := strings.Cut(o, " ")
		if !ok {
			return fmt.Errorf("-op %q: want \"method /path\"", o)
		}
		item, _ := paths[path].(map[string]any)
		op, ok := item[strings.ToLower(method)]
		if !ok {
			return fmt.Errorf("%s: no operation %s %s", in, method, path)
		}
		ni, _ := newPaths[path].(map[string]any)
		if ni == nil {
			ni = map[string]any{}
			if ps, ok := item["parameters"]; ok {
				ni["parameters"] = t.walk(t.keepParams(ps), 0)
			}
			newPaths[path] = ni
		}
		opm := map[string]any{}
		for k, v := range op.(map[string]any) {
			switch k {
			case "security":
				// Authentication is not what the benchmarks measure.
			case "requestBody":
				// Stripe's GET operations declare a form body that no
				// one sends.
				if !strings.EqualFold(method, "get") {
					opm[k] = v
				}
			case "parameters":
				opm[k] = t.keepParams(v)
			case "responses":
				if len(responses) == 0 {
					opm[k] = v
					break
				}
				rs := map[string]any{}
				for code, r := range v.(map[string]any) {
					if slices.Contains(responses, code) {
						rs[code] = r
					}
				}
				opm[k] = rs
			default:
				opm[k] = v
			}
		}
		ni[strings.ToLower(method)] = t.walk(opm, 0)
	}
	for len(t.queue) > 0 {
		q := t.queue[0]
		t.queue = t.queue[1:]
		t.kept[q.ref] = t.walk(t.resolve(q.ref), q.depth)
	}
	res := map[string]any{}
	for k, v := range doc {
		switch k {
		case "openapi", "swagger", "info", "servers":
			res[k] = v
		}
	}
	if origin != "" {
		info, _ := res["info"].(map[string]any)
		if info == nil {
			info = map[string]any{}
			res["info"] = info
		}
		info["x-trimmed-from"] = origin
	}
	res["paths"] = newPaths
	comps := map[string]any{}
	for ref, v := range t.kept {
		parts := strings.Split(strings.TrimPrefix(ref, "#/components/"), "/")
		sec, _ := comps[parts[0]].(map[string]any)
		if sec == nil {
			sec = map[string]any{}
			comps[parts[0]] = sec
		}
		sec[unescape(parts[1])] = v
	}
	// A discriminator's mapping names schemas by reference in strings:
	// those not kept are left out of it.
	t.pruneMappings(comps, noDisc)
	res["components"] = comps
	b, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

type queued struct {
	ref   string
	depth int
}

type trimmer struct {
	doc   map[string]any
	drop  string
	depth int
	kept  map[string]any
	queue []queued
	// queued marks the references already queued.
	queued map[string]bool
	params []string
}

// pruneMappings leaves out of every discriminator mapping under v the
// schemas not kept, or every discriminator (drop).
func (t *trimmer) pruneMappings(v any, drop bool) {
	switch v := v.(type) {
	case map[string]any:
		if drop {
			delete(v, "discriminator")
		}
		if disc, ok := v["discriminator"].(map[string]any); ok {
			mapping, _ := disc["mapping"].(map[string]any)
			for k, ref := range mapping {
				if _, ok := t.kept[ref.(string)]; !ok {
					delete(mapping, k)
				}
			}
		}
		for _, x := range v {
			t.pruneMappings(x, drop)
		}
	case []any:
		for _, x := range v {
			t.pruneMappings(x, drop)
		}
	}
}

// unexpand returns an expandable union (anyOf a string and references)
// as its string branch alone.
func (t *trimmer) unexpand(v map[string]any) map[string]any {
	branches, ok := v["anyOf"].([]any)
	if !ok {
		return v
	}
	var str any
	for _, b := range branches {
		m, _ := b.(map[string]any)
		if _, isRef := m["$ref"]; isRef {
			continue
		}
		if m["type"] != "string" || str != nil {
			return v
		}
		str = b
	}
	if str == nil {
		return v
	}
	res := map[string]any{}
	for k, x := range v {
		if k != "anyOf" {
			res[k] = x
		}
	}
	res["anyOf"] = []any{str}
	return res
}

func splitNonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// keepParams returns the parameters of ps that are in the path or named by
// -params.
func (t *trimmer) keepParams(ps any) any {
	var res []any
	for _, p := range ps.([]any) {
		m := p.(map[string]any)
		if ref, ok := m["$ref"].(string); ok {
			m = t.resolve(ref).(map[string]any)
		}
		name, _ := m["name"].(string)
		if m["in"] == "path" || slices.Contains(t.params, name) {
			res = append(res, p)
		}
	}
	return res
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func (t *trimmer) resolve(ref string) any {
	var cur any = t.doc
	for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
		cur = cur.(map[string]any)[unescape(p)]
	}
	return cur
}

// walk copies v, queueing the references it holds (at depth d + 1) and
// applying the cuts.
func (t *trimmer) walk(v any, d int) any {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok && len(v) == 1 {
			if t.queued == nil {
				t.queued = map[string]bool{}
			}
			if !t.queued[ref] {
				t.queued[ref] = true
				t.queue = append(t.queue, queued{ref, d + 1})
			}
			return v
		}
		res := make(map[string]any, len(v))
		if t.depth > 0 && d > t.depth {
			v = t.unexpand(v)
		}
		for k, x := range v {
			if k == "properties" && t.drop != "" {
				props := map[string]any{}
				for name, s := range x.(map[string]any) {
					if m, ok := s.(map[string]any); ok && m[t.drop] == true {
						continue
					}
					props[name] = t.walk(s, d)
				}
				res[k] = props
				continue
			}
			if strings.HasPrefix(k, "x-") {
				continue // extensions: not needed, and large
			}
			res[k] = t.walk(x, d)
		}
		return res
	case []any:
		res := make([]any, len(v))
		for i, x := range v {
			res[i] = t.walk(x, d)
		}
		return res
	}
	return v
}
