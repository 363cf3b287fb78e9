package emit

import (
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// errorTypes declares op's own error types, one per declared error status
// whose response is inline (Response.ErrorName without Shared): a struct
// embedding runtime.StatusError with a Body of the status's type
// (struct{} when the body is not JSON or not declared), so that errors.As
// reaches the failure with its body typed. The error types of component
// responses are shared and declared once, in errors.go (errorsFile).
func (g *gen) errorTypes(w *textWriter, op *ir.Operation) {
	for _, r := range op.Responses {
		if r.ErrorName == "" || r.Shared != nil {
			continue
		}
		d := newDoc(r.ErrorName + " is the error " + op.GoName + " returns for " + statusPhrase(r.Status) + "; errors.As reaches it, Body is the response body decoded.")
		d.para(r.Doc.Description)
		d.origin(op.Doc)
		w.b.WriteString("\n")
		w.doc(d.lines())
		g.errorStruct(w, r.ErrorName, g.errorBody(r, op.Pos))
	}
}

// errorBody is the type of the Body of r's error type.
func (g *gen) errorBody(r *ir.Response, pos diag.Pos) goType {
	if typedKind(r.Kind) && r.Type != nil {
		return g.goType(r.Type, false, pos)
	}
	return named("struct{}")
}

// errorStruct writes the declaration of an error type.
func (g *gen) errorStruct(w *textWriter, name string, body goType) {
	w.b.WriteString("type " + name + " struct {\n\t" + w.typeText(qual(pkgRuntime, "StatusError")) + "\n\tBody " + w.typeText(body) + "\n}\n")
}

// statusPhrase says which statuses an error response is declared for.
func statusPhrase(status string) string {
	switch status {
	case "default":
		return "a status it does not declare otherwise"
	case "1XX", "2XX", "3XX", "4XX", "5XX":
		return "a status " + status
	}
	return "status " + status
}

// sharedErrors returns the error types of component responses the
// operations refer to, by name, with the statuses each serves, sorted.
func (g *gen) sharedErrors() ([]*ir.ErrorType, map[*ir.ErrorType][]*ir.Response) {
	uses := map[*ir.ErrorType][]*ir.Response{}
	var out []*ir.ErrorType
	for _, op := range g.ops {
		if op.Kind != ir.HTTPCall {
			continue
		}
		for _, r := range op.Responses {
			if r.Shared == nil || r.ErrorName == "" {
				continue
			}
			if uses[r.Shared] == nil {
				out = append(out, r.Shared)
			}
			uses[r.Shared] = append(uses[r.Shared], r)
		}
	}
	slices.SortFunc(out, func(a, b *ir.ErrorType) int { return strings.Compare(a.Name, b.Name) })
	return out, uses
}

// errorsFile declares the error types of component responses (errors.go),
// each once for every operation and status whose response refers to it;
// nil when there are none.
func (g *gen) errorsFile() *generatedFile {
	types, uses := g.sharedErrors()
	if len(types) == 0 {
		return nil
	}
	f := g.newFile()
	w := newTextWriter(f)
	defer w.done()
	for i, et := range types {
		rs := uses[et]
		statuses := map[string]bool{}
		var phrases []string
		for _, r := range rs {
			if !statuses[r.Status] {
				statuses[r.Status] = true
				phrases = append(phrases, r.Status)
			}
		}
		slices.Sort(phrases)
		for j, s := range phrases {
			phrases[j] = statusPhrase(s)
		}
		first := et.Name + " is the error of every operation whose response for " + strings.Join(phrases, " or ") +
			" refers to the component response " + quoted(et.Component) + "; errors.As reaches it, Body is the response body decoded."
		if len(phrases) > 1 {
			first += " One type serves these statuses: StatusCode tells them apart."
		}
		d := newDoc(first)
		d.para(et.Doc.Description)
		if i > 0 {
			w.b.WriteString("\n")
		}
		w.doc(d.lines())
		// The responses share the component's body type: the first says it.
		g.errorStruct(w, et.Name, g.errorBody(rs[0], et.Pos))
	}
	f.text(w.b.String())
	return f
}
