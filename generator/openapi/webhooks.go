package openapi

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/naming"
)

// hookSite is a webhook or callback operation found in the document.
type hookSite struct {
	name       string // the webhook's name, or "<operation id>/<callback name>"
	expression string // a callback's URL expression
	method     string
	op         *openapi3.Operation
	w          where
}

// webhooks converts the document's webhooks (OpenAPI 3.1) and the
// callbacks of the operations the filter keeps (OpenAPI 3.0 and 3.1).
// Their parameters and responses are not converted: the generated receiver
// hands the payload (the request body) to its handler and answers 204.
func (l *loader) webhooks(ops []*ir.Operation) []*ir.Operation {
	var sites []hookSite
	add := func(name, expression string, item *openapi3.PathItem, w where) {
		if item == nil {
			return
		}
		itemOps := item.Operations()
		for _, m := range slices.Sorted(maps.Keys(itemOps)) {
			sites = append(sites, hookSite{name: name, expression: expression, method: strings.ToUpper(m), op: itemOps[m], w: w.at(strings.ToLower(m), "")})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(l.doc.Webhooks)) {
		add(name, "", l.doc.Webhooks[name], where{file: l.name, ptr: "/webhooks/" + jsonptr.Escape(name)})
	}
	// Callbacks of the operations kept, by path and method as operations
	// are found; a callback is named after its operation's final id.
	idOf := map[string]string{}
	for _, op := range ops {
		idOf[op.Pos.Pointer] = op.ID
	}
	paths := l.doc.Paths.Map()
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		if paths[p] == nil {
			continue
		}
		pathOps := paths[p].Operations()
		for _, m := range slices.Sorted(maps.Keys(pathOps)) {
			ptr := "/paths/" + jsonptr.Escape(p) + "/" + strings.ToLower(m)
			parent, kept := idOf[ptr]
			if !kept {
				continue
			}
			cbs := pathOps[m].Callbacks
			for _, cb := range slices.Sorted(maps.Keys(cbs)) {
				if cbs[cb] == nil || cbs[cb].Value == nil {
					continue
				}
				exprs := cbs[cb].Value.Map()
				for _, e := range slices.Sorted(maps.Keys(exprs)) {
					add(parent+"/"+cb, e, exprs[e], where{file: l.name, ptr: ptr + "/callbacks/" + jsonptr.Escape(cb) + "/" + jsonptr.Escape(e)})
				}
			}
		}
	}

	ids := map[string]int{}
	for _, op := range ops {
		ids[op.ID] = 1 // a registry may hold both: ids stay unique
	}
	goNames := naming.NewNamespace()
	var out []*ir.Operation
	for _, s := range sites {
		pos := l.pos(s.w, s.op.Origin)
		if s.op.RequestBody == nil || s.op.RequestBody.Value == nil {
			l.diags.Warn(diag.LeftOut, pos, "%s %q has no request body; it is left out", hookWhat(s), s.name)
			continue
		}
		// The id: the operationId, else the name (and the method when the
		// name has more than one), unique.
		id := s.op.OperationID
		if id == "" {
			id = strings.ReplaceAll(s.name, "/", ".")
			if n := len(sitesNamed(sites, s.name)); n > 1 {
				id += "." + strings.ToLower(s.method)
			}
		}
		if ids[id]++; ids[id] > 1 {
			renamed := fmt.Sprintf("%s_%d", id, ids[id])
			l.diags.Warn(diag.Renamed, pos, "%s id %q is used more than once; using %q", hookWhat(s), id, renamed)
			id = renamed
		}
		want := cmp.Or(goNameExt(s.op.Extensions), l.opts.Names[s.op.OperationID])
		if want == "" {
			want = naming.Ident(id, "Webhook")
		}
		origin := "webhook " + strconv.Quote(s.name) + ": " + s.method
		if s.expression != "" {
			origin = "callback " + strconv.Quote(s.name) + ": " + s.method + " " + s.expression
		}
		op := &ir.Operation{
			Kind:    ir.HTTPCall,
			ID:      id,
			GoName:  goNames.Alloc(naming.Sanitize(want, "Webhook")),
			Method:  s.method,
			Pos:     pos,
			Tags:    s.op.Tags,
			Webhook: &ir.Webhook{Name: s.name, Expression: s.expression},
			Doc: ir.Doc{
				Summary:     s.op.Summary,
				Description: s.op.Description,
				Deprecated:  s.op.Deprecated,
				Origin:      origin,
			},
		}
		op.Body = l.body(op, s.op.RequestBody.Value, s.w.at("requestBody", op.GoName+"Payload"))
		if op.Body == nil {
			continue
		}
		if ref := l.bodyRefs[op.Body]; ref != nil {
			l.finish = append(l.finish, func() { op.OutputSchema = l.jsonSchema(ref) })
		}
		out = append(out, op)
	}
	slices.SortFunc(out, func(a, b *ir.Operation) int { return strings.Compare(a.GoName, b.GoName) })
	return out
}

func hookWhat(s hookSite) string {
	if s.expression != "" {
		return "callback"
	}
	return "webhook"
}

// sitesNamed returns the sites of one webhook or callback name.
func sitesNamed(sites []hookSite, name string) []hookSite {
	var out []hookSite
	for _, s := range sites {
		if s.name == name {
			out = append(out, s)
		}
	}
	return out
}
