package emit

import (
	"github.com/opsgen/opsgen/generator/ir"
)

// errorTypes declares op's error types, one per declared error status
// (Response.ErrorName): a struct embedding runtime.StatusError with a Body
// of the status's type (struct{} when the body is not JSON or not declared),
// so that errors.As reaches the failure with its body typed.
func (g *gen) errorTypes(w *textWriter, op *ir.Operation) {
	for _, r := range op.Responses {
		if r.ErrorName == "" {
			continue
		}
		body := named("struct{}")
		if typedKind(r.Kind) && r.Type != nil {
			body = g.goType(r.Type, false, op.Pos)
		}
		status := "status " + r.Status
		switch r.Status {
		case "default":
			status = "a status it does not declare otherwise"
		case "1XX", "2XX", "3XX", "4XX", "5XX":
			status = "a status " + r.Status
		}
		d := newDoc(r.ErrorName + " is the error " + op.GoName + " returns for " + status + "; errors.As reaches it, Body is the response body decoded.")
		d.para(r.Doc.Description)
		d.origin(op.Doc)
		w.b.WriteString("\n")
		w.doc(d.lines())
		w.b.WriteString("type " + r.ErrorName + " struct {\n\t" + w.typeText(qual(pkgRuntime, "StatusError")) + "\n\tBody " + w.typeText(body) + "\n}\n")
	}
}
