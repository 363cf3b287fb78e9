package emit

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// pkgWebhook receives webhooks and callbacks; only webhooks.go imports it,
// so a client of an API without them does not depend on it.
const pkgWebhook = "github.com/opsgen/opsgen/runtime/webhook"

// plainPath is a mux path that needs no escaping: a webhook's name, or a
// callback's "<operation id>/<callback name>", of URL-safe characters.
var plainPath = regexp.MustCompile(`^[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*$`)

// webhookOp is a webhook or callback operation as webhooks.go declares it.
type webhookOp struct {
	op      *ir.Operation
	kind    string // the webhook.BodyKind constant, "" for BodyJSON
	typ     goType // the handler's event data type
	id      string // the registry id
	pattern string // the http.ServeMux pattern
	schema  string // the payload schema's var, "" without one
}

// webhookOps returns the operations webhooks.go declares, sorted by Go
// name, leaving out (with a warning) those whose payload it cannot take.
// It is worked out once, when client.go's package doc asks.
func (g *gen) webhookOps() []webhookOp {
	if g.hooks == nil {
		g.hooks = g.findWebhookOps()
	}
	return *g.hooks
}

func (g *gen) findWebhookOps() *[]webhookOp {
	out := []webhookOp{}
	patterns := map[string]bool{}
	ids := map[string]bool{}
	for _, op := range sortedBy(g.svc.Webhooks, func(op *ir.Operation) string { return op.GoName }) {
		if op == nil || op.Webhook == nil || op.Body == nil {
			g.diags.Errorf(diag.Pos{File: g.svc.Source}, "webhook without a payload in service")
			continue
		}
		wo := webhookOp{op: op, id: registryID(g.opts.Namespace, op.ID)}
		switch op.Body.Kind {
		case ir.BodyJSON:
			wo.typ = g.goType(op.Body.Type, false, op.Pos)
			if op.OutputSchema != nil {
				wo.schema = g.schemaVar(op.OutputSchema, "webhookSchema"+op.GoName)
			}
		case ir.BodyText:
			wo.kind, wo.typ = "BodyText", named("string")
		case ir.BodyBinary:
			wo.kind, wo.typ = "BodyBytes", named("byte").under("[]")
		default:
			g.warn(diag.LeftOut, op.Pos, "%s payload %s of %s is not JSON, text or binary; it is left out of the receiver", webhookWhat(op), quoted(op.Body.MediaType), quoted(op.Webhook.Name))
			continue
		}
		if ids[wo.id] {
			g.warn(diag.LeftOut, op.Pos, "%s %s would be registered as %s like another one; it is left out of the receiver", webhookWhat(op), quoted(op.Webhook.Name), quoted(wo.id))
			continue
		}
		ids[wo.id] = true
		// The path is the name when it is URL-safe and not taken, else the
		// Go name.
		wo.pattern = op.Method + " /" + op.Webhook.Name
		if !plainPath.MatchString(op.Webhook.Name) || patterns[wo.pattern] {
			wo.pattern = op.Method + " /" + op.GoName
		}
		if patterns[wo.pattern] || !plainPath.MatchString(op.Method) {
			g.warn(diag.LeftOut, op.Pos, "%s %s: no free path for it; it is left out of the receiver", webhookWhat(op), quoted(op.Webhook.Name))
			continue
		}
		patterns[wo.pattern] = true
		out = append(out, wo)
	}
	return &out
}

// checkWebhooks checks what webhooks.go writes as code: each operation's
// method name (exported, unique) and its payload's type.
func (g *gen) checkWebhooks(declare func(name string, pos diag.Pos, what string)) {
	methods := map[string]bool{}
	for _, op := range g.svc.Webhooks {
		switch {
		case op == nil || op.Webhook == nil:
			g.diags.Errorf(diag.Pos{File: g.svc.Source}, "webhook without its Webhook part in service")
			continue
		case !naming.IsExported(op.GoName) || methods[op.GoName]:
			g.diags.Errorf(op.Pos, "webhook %q has no exported, unique Go name (%q)", op.ID, op.GoName)
		}
		methods[op.GoName] = true
		if op.Body != nil {
			g.checkType(op.Body.Type, false, map[*ir.Type]bool{}, declare)
		}
	}
}

func webhookWhat(op *ir.Operation) string {
	if op.Webhook.Expression != "" {
		return "callback"
	}
	return "webhook"
}

// webhooksFile declares the receiver of the service's webhooks and
// callbacks: the WebhookHandler interface (one method per operation),
// NewWebhookMux (one webhook.Handle per operation) and RegisterWebhooks
// (one subscription per operation), or nil when there are none.
func (g *gen) webhooksFile() *generatedFile {
	ops := g.webhookOps()
	if len(ops) == 0 {
		return nil
	}
	f := g.newFile()
	w := newTextWriter(f)
	defer w.done()
	ctx, env := w.typeText(qual("context", "Context")), w.typeText(qual(pkgRuntime, "ResponseEnvelope"))

	title := sanitize(g.svc.Title)
	first := "WebhookHandler receives the webhooks and callbacks"
	if title != "" {
		first += " of " + title
	}
	d := newDoc(first + ": one method per operation, called by the handlers of NewWebhookMux with each delivery whose signature was verified and whose payload went through the result pipeline (the envelope's Warnings say what did not match its schema; its Meta is the request's *runtime.HTTPMeta). An error answers 500, so that the sender retries.")
	w.doc(d.lines())
	w.b.WriteString("type WebhookHandler interface {\n")
	for i, wo := range ops {
		if i > 0 {
			w.b.WriteString("\n")
		}
		md := newDoc(wo.op.GoName + " receives the " + webhookWhat(wo.op) + " " + quoted(wo.op.Webhook.Name) + ".")
		md.spec(wo.op.Doc)
		md.origin(wo.op.Doc)
		w.comment("\t", md.lines())
		w.b.WriteString("\t" + wo.op.GoName + "(ctx " + ctx + ", event " + env + "[" + w.typeText(wo.typ) + "]) error\n")
	}
	w.b.WriteString("}")
	f.text(w.b.String())

	w.b.Reset()
	recv := w.typeText(qual(pkgWebhook, "Receiver"))
	md := newDoc("NewWebhookMux returns an http.Handler that receives each webhook and callback at a path of its own, verifying its deliveries with rc (see package github.com/opsgen/opsgen/runtime/webhook for the signature schemes, replay protection and answers), and hands them to h:")
	var list []string
	for _, wo := range ops {
		list = append(list, "  - "+wo.pattern+": "+wo.op.GoName)
	}
	md.paras = append(md.paras, list)
	md.para("Mount it under a prefix with http.StripPrefix, and give each sender its URL.")
	w.doc(md.lines())
	w.b.WriteString("func NewWebhookMux(rc *" + recv + ", h WebhookHandler) *" + w.typeText(qual("net/http", "ServeMux")) + " {\n")
	w.b.WriteString("\tmux := " + w.typeText(qual("net/http", "NewServeMux")) + "()\n")
	handle := w.typeText(qual(pkgWebhook, "Handle"))
	for _, wo := range ops {
		w.b.WriteString("\tmux.Handle(" + strconv.Quote(wo.pattern) + ", " + handle + "(rc, webhook" + wo.op.GoName + ", h." + wo.op.GoName + "))\n")
	}
	w.b.WriteString("\treturn mux\n}")
	f.text(w.b.String())

	w.b.Reset()
	rd := newDoc("RegisterWebhooks registers each webhook and callback in reg as a subscription whose events are the deliveries rc receives (through the handlers of NewWebhookMux), so that a call protocol hub fans them out to its spokes. The ids are:")
	list = nil
	for _, wo := range ops {
		list = append(list, "  - "+wo.id+": "+wo.op.GoName)
	}
	rd.paras = append(rd.paras, list)
	w.doc(rd.lines())
	spec := w.typeText(qual(pkgRuntime, "OperationSpec"))
	w.b.WriteString("func RegisterWebhooks(reg *" + w.typeText(qual(pkgRuntime, "Registry")) + ", rc *" + recv + ") error {\n")
	w.b.WriteString("\tfor _, spec := range []" + spec + "{\n")
	for _, wo := range ops {
		kvs := []string{"ID: " + litText(wo.id)}
		if desc := description(wo.op); desc != "" {
			kvs = append(kvs, "Description: "+litText(desc))
		}
		if wo.op.Method != "" {
			kvs = append(kvs, "Method: "+litText(wo.op.Method))
		}
		if s := g.bundle(wo.op.OutputSchema, false); wo.schema != "" && s != "" {
			kvs = append(kvs, "OutputSchema: "+w.typeText(qual("encoding/json", "RawMessage"))+"("+jsonString(s)+")", "Output: "+wo.schema)
		}
		w.b.WriteString("\t\t{" + strings.Join(kvs, ", ") + "},\n")
	}
	w.b.WriteString("\t} {\n\t\tif err := reg.RegisterSubscription(spec, rc.Subscription(spec.ID)); err != nil {\n\t\t\treturn err\n\t\t}\n\t}\n\treturn nil\n}")
	f.text(w.b.String())

	operation := w.typeText(qual(pkgWebhook, "Operation"))
	for _, wo := range ops {
		w.b.Reset()
		kvs := []string{"ID: " + litText(wo.id), "Name: " + litText(wo.op.Webhook.Name), "Method: " + litText(wo.op.Method)}
		if wo.kind != "" {
			kvs = append(kvs, "Kind: "+w.typeText(qual(pkgWebhook, wo.kind)))
		}
		if wo.schema != "" {
			kvs = append(kvs, "Schema: "+wo.schema)
		}
		w.doc([]string{"webhook" + wo.op.GoName + " describes " + wo.op.GoName + " to webhook.Handle."})
		w.b.WriteString("var webhook" + wo.op.GoName + " = " + operation + "{" + strings.Join(kvs, ", ") + "}")
		f.text(w.b.String())
	}
	return f
}
