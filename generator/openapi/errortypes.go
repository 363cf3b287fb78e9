package openapi

import (
	"cmp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonptr"
	"github.com/opsgen/opsgen/generator/jsonschema"
	"github.com/opsgen/opsgen/generator/naming"
)

// sharedErr is the error type of one component response and the error
// responses of operations that refer to it: the response is converted
// once, at the component, and each reference gets a copy with its status.
type sharedErr struct {
	et        *ir.ErrorType
	tmpl      *ir.Response
	responses []*ir.Response
}

// use returns the response of an operation that refers to the component
// response for status.
func (se *sharedErr) use(status string) *ir.Response {
	r := *se.tmpl
	r.Status, r.Shared = status, se.et
	se.responses = append(se.responses, &r)
	return &r
}

// sharedError returns the shared error type of the component response rr
// refers to, made on first use, or nil when rr is not a reference to a
// component response of the main document (#/components/responses/NAME,
// which Swagger 2.0's #/responses/NAME becomes): such a response keeps a
// type per operation and status.
//
// The name is requested once per component, keyed by the component's
// pointer, so it does not depend on which operation refers to it first;
// Options.Names pins it by that pointer (or Swagger's), and so does
// x-go-name on the component response.
func (l *loader) sharedError(rr *openapi3.ResponseRef) *sharedErr {
	tail, ok := strings.CutPrefix(rr.Ref, "#/components/responses/")
	if !ok || strings.Contains(tail, "/") || rr.Value == nil {
		return nil
	}
	component := jsonptr.Unescape(tail)
	if se := l.sharedErrs[component]; se != nil {
		return se
	}
	ptr := "/components/responses/" + jsonptr.Escape(component)
	want := errorTypeName(component)
	// An inline body schema is named after the component: NotFoundBody.
	w := where{file: l.name, ptr: ptr, name: strings.TrimSuffix(want, "Error") + "Body"}
	et := &ir.ErrorType{Component: component, Pos: l.pos(w, rr.Value.Origin)}
	se := &sharedErr{et: et, tmpl: l.response(rr.Value, "", w)}
	et.Doc.Description = se.tmpl.Doc.Description
	if l.sharedErrs == nil {
		l.sharedErrs = map[string]*sharedErr{}
	}
	l.sharedErrs[component] = se
	group := jsonschema.GroupOperation
	pinned := cmp.Or(l.opts.Names["#"+ptr], goNameExt(rr.Value.Extensions))
	if l.swagger {
		pinned = cmp.Or(l.opts.Names["#/responses/"+jsonptr.Escape(component)], pinned)
	}
	if pinned != "" {
		want, group = pinned, jsonschema.GroupOverride
	}
	l.conv.RequestName(group, w.file+"#"+ptr, et.Pos, want, func(n string) {
		et.Name = n
		for _, r := range se.responses {
			r.ErrorName = n
		}
	})
	// After the template's own finish (l.response's), which sets its Schema.
	l.finish = append(l.finish, func() {
		for _, r := range se.responses {
			r.Schema = se.tmpl.Schema
		}
	})
	return se
}

// errorTypeName names the error type of a component response after the
// component, as Go names errors: not_found is NotFoundError; a name that
// says error already gets Response (error is ErrorResponse, ODataError
// ODataErrorResponse), and a Response suffix is dropped first
// (NotFoundResponse is NotFoundError).
func errorTypeName(component string) string {
	n := cmp.Or(strings.TrimSuffix(naming.Ident(component, "Response"), "Response"), "Response")
	if strings.HasSuffix(n, "Error") || strings.HasSuffix(n, "Errors") {
		return n + "Response"
	}
	return n + "Error"
}
