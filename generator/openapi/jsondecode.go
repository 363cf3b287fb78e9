package openapi

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/jsonptr"
)

// decodeJSON parses and decodes a JSON document in parts, concurrently.
// The paths and the large members of the components (the schemas, on most
// large documents) are split into runs of entries of about partBytes of
// text, each parsed then decoded by one goroutine and merged in the
// document's order: the largest member no longer sets the time, and the
// cores do not wait for all the parsing to end before decoding. The other
// members are parsed concurrently, and decoded as decode does. The result
// is decode's: the document, its tree and the decoders (one per top-level
// member, in the document's order, and one per member of the components
// the table knows, after the components' own).
//
// ok is false when the text is not one this route takes: not an object, a
// key given twice at a level it splits (the last one wins, which decode's
// other route gets right), or a value the fast parser leaves to
// encoding/json (invalid JSON among them); decode then takes its other
// route, from the start.
func (s *docSource) decodeJSON() (doc *openapi3.T, tree map[string]any, decs []*decoder, ok bool) {
	members, ok := topMembers(s.data)
	if !ok || duplicateKeys(members) {
		return nil, nil, nil, false
	}
	doc = &openapi3.T{}
	tree = make(map[string]any, len(members))
	var (
		wg      sync.WaitGroup
		refused atomic.Bool // a value the fast parser leaves to encoding/json
		finish  []func()    // after the goroutines, in the document's order
	)
	// parse parses the value of m, nested in depth objects below the
	// document, in a goroutine, then calls then (in that goroutine) with
	// it; the value goes to into[m.key] when all is parsed.
	parse := func(m member, depth int, into map[string]any, then func(v any)) {
		var v any
		wg.Go(func() {
			var err error
			if v, err = parseValue(&treeParser{keys: map[string]string{}}, m.raw, depth); err != nil {
				refused.Store(true)
			} else if then != nil {
				then(v)
			}
		})
		finish = append(finish, func() { into[m.key] = v })
	}
	for _, m := range members {
		d := &decoder{file: s.name}
		decs = append(decs, d)
		var subs []member
		if m.key == "components" {
			var ok bool
			if subs, ok = topMembers(m.raw); ok && duplicateKeys(subs) {
				wg.Wait() // the goroutines started write doc
				return nil, nil, nil, false
			}
			if ok { // else not an object: the decoder says what it is
				doc.Components = new(openapi3.Components)
			}
		}
		switch {
		case doc.Components != nil && m.key == "components":
			comps := make(map[string]any, len(subs))
			tree[m.key] = comps
			table := componentsTable(doc.Components)
			rest := map[string]any{} // extensions and unknown keys
			for _, sub := range subs {
				i := slices.IndexFunc(table, func(f field) bool { return f.key == sub.key })
				if i < 0 {
					parse(sub, 1, rest, nil)
					continue
				}
				sd := &decoder{file: s.name, path: []string{"components"}}
				decs = append(decs, sd)
				entries, split := splittable(sub, sub.key == "examples")
				if !split {
					parse(sub, 1, comps, func(v any) {
						sd.fields(map[string]any{sub.key: v}, false, &doc.Components.Extensions, nil, table[i:i+1])
					})
					continue
				}
				parts := runs(entries)
				locals := make([]*openapi3.Components, len(parts))
				decodeRuns(&wg, &refused, s.name, []string{"components"}, parts, 2, func(j int, d *decoder, m map[string]any) {
					locals[j] = new(openapi3.Components)
					d.fields(map[string]any{sub.key: m}, false, &locals[j].Extensions, nil, componentsTable(locals[j])[i:i+1])
				}, func(v map[string]any, ds []*decoder) {
					comps[sub.key] = v
					for j, l := range locals {
						mergeComponents(table[i].dst, componentsTable(l)[i].dst)
						sd.absorb(ds[j])
					}
				}, &finish)
			}
			finish = append(finish, func() {
				maps.Copy(comps, rest)
				d.at("components", func() { d.fields(rest, false, &doc.Components.Extensions, nil, table[:0]) })
			})
		case m.key == "paths":
			entries, split := splittable(m, false)
			if !split {
				parse(m, 0, tree, func(v any) { d.member(doc, m.key, v) })
				continue
			}
			parts := runs(entries)
			locals := make([]*openapi3.Paths, len(parts))
			exts := make([]map[string]any, len(parts))
			decodeRuns(&wg, &refused, s.name, []string{"paths"}, parts, 1, func(j int, d *decoder, m map[string]any) {
				locals[j] = openapi3.NewPathsWithCapacity(len(m))
				named(d, m, &exts[j], locals[j].Set, pathItemAt)
			}, func(v map[string]any, ds []*decoder) {
				tree[m.key] = v
				doc.Paths = openapi3.NewPathsWithCapacity(len(v))
				doc.Paths.Extensions = map[string]any{}
				for j, l := range locals {
					for k, item := range l.Map() {
						doc.Paths.Set(k, item)
					}
					maps.Copy(doc.Paths.Extensions, exts[j])
					d.absorb(ds[j])
				}
			}, &finish)
		case m.key == "webhooks":
			parse(m, 0, tree, func(v any) { d.member(doc, m.key, v) })
		default:
			parse(m, 0, tree, nil)
			finish = append(finish, func() { d.member(doc, m.key, tree[m.key]) })
		}
	}
	wg.Wait()
	if refused.Load() {
		return nil, nil, nil, false
	}
	for _, f := range finish {
		f()
	}
	return doc, tree, decs, true
}

// partBytes is about the size of the runs of entries decodeJSON parses and
// decodes in one goroutine: small enough that the cores end together,
// large enough that the goroutines cost nothing. A variable for the tests.
var partBytes = 256 << 10

// decodeRuns parses and decodes the runs of entries of an object, nested
// in depth objects below the document, at the JSON pointer tokens path:
// each run in a goroutine (on wg), into a map of its entries, then decoded
// by decode (j is the run's index, d its own decoder, at path). A value
// the fast parser refuses sets refused. merge, added to finish, gets the
// object's tree (all the entries) and the runs' decoders.
func decodeRuns(wg *sync.WaitGroup, refused *atomic.Bool, file string, path []string, parts [][]member, depth int,
	decode func(j int, d *decoder, m map[string]any), merge func(v map[string]any, ds []*decoder), finish *[]func()) {
	trees := make([]map[string]any, len(parts))
	ds := make([]*decoder, len(parts))
	for j, part := range parts {
		ds[j] = &decoder{file: file, path: slices.Clone(path)}
		wg.Go(func() {
			p := &treeParser{keys: map[string]string{}}
			m := make(map[string]any, len(part))
			for _, e := range part {
				v, err := parseValue(p, e.raw, depth)
				if err != nil {
					refused.Store(true)
					return
				}
				m[e.key] = v
			}
			trees[j] = m
			decode(j, ds[j], m)
		})
	}
	*finish = append(*finish, func() {
		n := 0
		for _, m := range trees {
			n += len(m)
		}
		all := make(map[string]any, n)
		for _, m := range trees {
			maps.Copy(all, m)
		}
		merge(all, ds)
	})
}

// parseValue parses the JSON value data (all of it) with p, nested in
// depth objects below the document.
func parseValue(p *treeParser, data []byte, depth int) (any, error) {
	p.Scanner = jsonptr.Scanner{Data: data}
	v, err := p.tree(depth)
	if err == nil && p.Off != len(data) {
		err = errTree
	}
	return v, err
}

// splittable returns the entries of m's value when it is worth splitting
// (an object of more than partBytes of text, with no key twice). For a
// map of examples, each entry must be an object or null too: one that is
// not makes the whole member a wrong-kind annotation (set), which only a
// decoder that sees all of it can tell.
func splittable(m member, objects bool) ([]member, bool) {
	if len(m.raw) < 2*partBytes || m.raw[0] != '{' {
		return nil, false
	}
	entries, ok := topMembers(m.raw)
	if !ok || len(entries) < 2 || duplicateKeys(entries) {
		return nil, false
	}
	if objects && slices.ContainsFunc(entries, func(e member) bool { return e.raw[0] != '{' && e.raw[0] != 'n' }) {
		return nil, false
	}
	return entries, true
}

// runs splits entries into runs of about partBytes of text.
func runs(entries []member) [][]member {
	var out [][]member
	size, start := 0, 0
	for i, e := range entries {
		if size += len(e.raw); size >= partBytes || i == len(entries)-1 {
			out = append(out, entries[start:i+1])
			size, start = 0, i+1
		}
	}
	return out
}

// duplicateKeys reports whether a key is given twice.
func duplicateKeys(ms []member) bool {
	seen := make(map[string]bool, len(ms))
	for _, m := range ms {
		if seen[m.key] {
			return true
		}
		seen[m.key] = true
	}
	return false
}

// absorb adds o's findings to d's: its warnings, its $refs, and its error
// if d has none or o's has the lesser pointer (as if d had decoded what o
// did).
func (d *decoder) absorb(o *decoder) {
	d.diags = append(d.diags, o.diags...)
	d.refs = append(d.refs, o.refs...)
	d.outward = d.outward || o.outward
	d.nullRef = d.nullRef || o.nullRef
	if o.errMsg != "" {
		d.fail(o.errPtr, o.errMsg)
	}
}

// mergeComponents adds the map src points to (a member of a Components,
// decoded from some of its entries) to the one dst points to (the same
// member of another).
func mergeComponents(dst, src any) {
	switch dst := dst.(type) {
	case *openapi3.Schemas:
		mergeMap(dst, *src.(*openapi3.Schemas))
	case *openapi3.ParametersMap:
		mergeMap(dst, *src.(*openapi3.ParametersMap))
	case *openapi3.Headers:
		mergeMap(dst, *src.(*openapi3.Headers))
	case *openapi3.RequestBodies:
		mergeMap(dst, *src.(*openapi3.RequestBodies))
	case *openapi3.ResponseBodies:
		mergeMap(dst, *src.(*openapi3.ResponseBodies))
	case *openapi3.SecuritySchemes:
		mergeMap(dst, *src.(*openapi3.SecuritySchemes))
	case *openapi3.Examples:
		mergeMap(dst, *src.(*openapi3.Examples))
	case *openapi3.Links:
		mergeMap(dst, *src.(*openapi3.Links))
	case *openapi3.Callbacks:
		mergeMap(dst, *src.(*openapi3.Callbacks))
	default:
		panic("openapi: mergeComponents has no case for this member of Components")
	}
}

// mergeMap adds src's entries to *dst, made when nil.
func mergeMap[M ~map[string]V, V any](dst *M, src M) {
	if *dst == nil {
		*dst = make(M, len(src))
	}
	maps.Copy(*dst, src)
}
