package openapi

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// presolveRefs resolves, before kin-openapi does, the plain $refs to
// components in the places kin-openapi's resolution walks: it sets each
// such reference's Value to the target's, as kin-openapi would, and
// kin-openapi then skips it (a reference with a Value is resolved).
// kin-openapi walks every component in full anyway; without this it also
// walks each one again through the first $ref that reaches it, and parses
// each $ref and looks it up by reflection (on GitHub's description, most
// of its resolution time). Only references whose result is certain are
// taken: a $ref alone in its object (no siblings), in a slot that
// kin-openapi's walk reaches (presolvable), of the form
// #/components/<section>/<name> with the section of the slot's kind and a
// name that needs no unescaping, whose target exists and is not itself a
// $ref (a chain is left to kin-openapi); kin-openapi resolves the rest as
// before.
func presolveRefs(doc *openapi3.T, decs []*decoder) {
	c := doc.Components
	if c == nil {
		return
	}
	for _, d := range decs {
		for _, u := range d.refs {
			if len(u.m) != 1 || !presolvable(doc, u.path, u.kind) {
				continue
			}
			switch r := u.slot.(type) {
			case *openapi3.SchemaRef:
				presolve(u.ref, "schemas", c.Schemas, &r.Ref, &r.Value, func(t *openapi3.SchemaRef) (string, *openapi3.Schema) { return t.Ref, t.Value })
			case *openapi3.ParameterRef:
				presolve(u.ref, "parameters", c.Parameters, &r.Ref, &r.Value, func(t *openapi3.ParameterRef) (string, *openapi3.Parameter) { return t.Ref, t.Value })
			case *openapi3.RequestBodyRef:
				presolve(u.ref, "requestBodies", c.RequestBodies, &r.Ref, &r.Value, func(t *openapi3.RequestBodyRef) (string, *openapi3.RequestBody) { return t.Ref, t.Value })
			case *openapi3.ResponseRef:
				presolve(u.ref, "responses", c.Responses, &r.Ref, &r.Value, func(t *openapi3.ResponseRef) (string, *openapi3.Response) { return t.Ref, t.Value })
			case *openapi3.HeaderRef:
				presolve(u.ref, "headers", c.Headers, &r.Ref, &r.Value, func(t *openapi3.HeaderRef) (string, *openapi3.Header) { return t.Ref, t.Value })
			case *openapi3.ExampleRef:
				presolve(u.ref, "examples", c.Examples, &r.Ref, &r.Value, func(t *openapi3.ExampleRef) (string, *openapi3.Example) { return t.Ref, t.Value })
			}
		}
	}
}

// presolve sets *val, the Value of the reference slot whose $ref is *ref
// (which must be ref, and not resolved yet), to the value of the component
// ref names in section (components, of which target gives the $ref and the
// value), when ref is #/components/<section>/<plain name> and that
// component is there and not itself a $ref.
func presolve[R, V any](ref, section string, components map[string]*R, slotRef *string, val **V, target func(*R) (string, *V)) {
	if *slotRef != ref || *val != nil {
		return
	}
	name, ok := strings.CutPrefix(ref, "#/components/"+section+"/")
	if !ok || !plainName(name) {
		return
	}
	if t := components[name]; t != nil {
		if tref, tval := target(t); tref == "" && tval != nil {
			*val = tval
		}
	}
}

// presolvable reports whether the JSON pointer tokens p of a reference
// slot of kind k lie where kin-openapi's ResolveRefsIn walks:
//   - a schema in a component schema; the schema of a component
//     parameter, request body or response; the schema of a parameter,
//     request body or response of an operation;
//   - a parameter of a path item or of an operation;
//   - the request body or a response of an operation;
//   - a header of a response (a component's or an operation's);
//   - an example of the media types of a response or a request body (a
//     component's or an operation's).
//
// An operation is one of the eight methods of a path item that is not a
// $ref itself. Anywhere else (encodings, callbacks, webhooks...) the $ref
// is left to kin-openapi.
func presolvable(doc *openapi3.T, p []string, k refKind) bool {
	at := func(i int, tok string) bool { return len(p) > i && p[i] == tok }
	media := func(i int) bool { return at(i, "content") && at(i+2, "schema") } // content/<type>/schema...
	example := func(i int) bool { return len(p) == i+4 && at(i, "content") && at(i+2, "examples") }
	switch {
	case len(p) < 3:
		return false
	case p[0] == "components":
		switch k {
		case kindSchema:
			switch p[1] {
			case "schemas":
				return true
			case "parameters":
				return at(3, "schema")
			case "requestBodies", "responses":
				return media(3)
			}
		case kindHeader:
			return p[1] == "responses" && len(p) == 5 && at(3, "headers")
		case kindExample:
			return (p[1] == "responses" || p[1] == "requestBodies") && example(3)
		}
		return false
	case p[0] != "paths" || doc.Paths == nil:
		return false
	}
	item := doc.Paths.Value(p[1])
	if item == nil || item.Ref != "" {
		return false
	}
	if p[2] == "parameters" {
		return k == kindSchema && at(4, "schema") || k == kindParameter && len(p) == 4
	}
	switch p[2] {
	case "get", "put", "post", "delete", "options", "head", "patch", "trace":
	default:
		return false
	}
	switch k {
	case kindSchema:
		return at(3, "parameters") && at(5, "schema") || at(3, "requestBody") && media(4) || at(3, "responses") && media(5)
	case kindParameter:
		return at(3, "parameters") && len(p) == 5
	case kindRequestBody:
		return at(3, "requestBody") && len(p) == 4
	case kindResponse:
		return at(3, "responses") && len(p) == 5
	case kindHeader:
		return at(3, "responses") && at(5, "headers") && len(p) == 7
	case kindExample:
		return at(3, "responses") && example(5) || at(3, "requestBody") && example(4)
	}
	return false
}

// unresolved reports whether kin-openapi's resolution has anything left to
// resolve in what d decoded, or may fail on it: a $ref without its Value
// (not presolved), a path item's $ref, a discriminator mapping to another
// file, a null where a reference object could be.
func (d *decoder) unresolved() bool {
	if d.outward || d.nullRef {
		return true
	}
	for _, u := range d.refs {
		var open bool
		switch r := u.slot.(type) {
		case *openapi3.SchemaRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.ParameterRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.HeaderRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.RequestBodyRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.ResponseRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.ExampleRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.LinkRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.CallbackRef:
			open = r.Ref != "" && r.Value == nil
		case *openapi3.SecuritySchemeRef:
			open = r.Ref != "" && r.Value == nil
		default: // a path item's
			open = true
		}
		if open {
			return true
		}
	}
	return false
}
