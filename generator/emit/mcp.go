package emit

import (
	"cmp"
	"slices"
	"strings"

	"github.com/opsgen/opsgen/generator/ir"
)

var (
	mcpParams = qual(pkgMCP, "CallToolParams").ptr()
	mcpResult = qual(pkgMCP, "CallToolResult").ptr()
)

var mcpOptions = []reexport{
	{"WithValidation", "WithValidation sets what a result that does not match its output schema does: a warning (runtime.ValidateWarn, the default), an error (runtime.ValidateStrict), or nothing (runtime.ValidateOff).", []any{"m ", validationType}, "m"},
	{"WithLogger", "WithLogger sets the logger of validation warnings.", []any{"l ", qual(pkgRuntime, "Logger")}, "l"},
	{"WithWarningHook", "WithWarningHook sets a function called with every validation warning.", []any{"f func(", ctxType, ", ", warningType, ")"}, "f"},
	{"WithConvention", `WithConvention sets the content convention ("toolenvelope-v1", "dotbot" or "auto") of tools that declare none.`, []any{"name string"}, "name"},
	{"WithMiddleware", "WithMiddleware wraps the sending of every tools/call (an mcpclient.Invoker chain that sees the tool's name, arguments and _meta, and the raw result).", []any{"m ...", qual(pkgMCPClient, "Middleware")}, "m..."},
	{"WithBeforeCall", "WithBeforeCall adds a hook called with the parameters of every tools/call before it is sent.", []any{"f func(ctx ", ctxType, ", params ", mcpParams, ") error"}, "f"},
	{"WithAfterResult", "WithAfterResult adds a hook called with every tools/call result before it is decoded.", []any{"f func(ctx ", ctxType, ", params ", mcpParams, ", res ", mcpResult, ") error"}, "f"},
	{"WithTimeout", "WithTimeout sets the default timeout of every call.", []any{"d ", durationType}, "d"},
}

var mcpCallOptions = []reexport{
	{"WithProgress", "WithProgress calls a function with each progress notification of one call (it sends a progress token).", []any{"f func(ctx ", ctxType, ", p ", qual(pkgMCPClient, "Progress"), ")"}, "f"},
	{"WithMeta", "WithMeta adds entries to the _meta of one call's request.", []any{"meta map[string]any"}, "meta"},
	{"WithCallTimeout", "WithCallTimeout sets the timeout of one call.", []any{"d ", durationType}, "d"},
	{"WithCallValidation", "WithCallValidation sets the validation mode of one call.", []any{"m ", validationType}, "m"},
	{"WithTaskStatus", "WithTaskStatus calls a function with each status of the task one call becomes, when the server runs it as a task.", []any{"f func(ctx ", ctxType, ", s ", qual(pkgMCPClient, "TaskStatus"), ")"}, "f"},
	{"WithTaskTTL", "WithTaskTTL asks the server to keep the task of one call for d (2025-11-25 servers).", []any{"d ", durationType}, "d"},
}

// mcpServerName names the server of the listing in docs, `the MCP server
// "name" (Title)`, when the listing records it ("" otherwise), with its
// version when withVersion is set.
func (g *gen) mcpServerName(withVersion bool) string {
	name, title, version := sanitize(g.svc.ServerName), sanitize(g.svc.Title), sanitize(g.svc.Version)
	var s string
	switch {
	case name != "":
		s = "the MCP server " + quoted(name)
	case title != "":
		s = "the MCP server " + title
	default:
		return ""
	}
	if withVersion && version != "" {
		s += " version " + version
	}
	if name != "" && title != "" && title != name {
		s += " (" + title + ")"
	}
	return s
}

func (g *gen) mcpClientFile() *generatedFile {
	f := g.newFile()
	usage := "Create a client with NewClient from a connected *mcp.ClientSession; make the session with mcpclient.Connect (or mcpclient.WrapTransport) so that content blocks of types newer than the SDK never fail a call and progress notifications reach WithProgress. Options set the validation mode (WithValidation), the logger (WithLogger), a warning hook, the default content convention (WithConvention), middlewares and hooks (WithMiddleware, WithBeforeCall, WithAfterResult) and a timeout (WithTimeout); per-call options set progress notifications (WithProgress), _meta (WithMeta), a timeout, the validation mode and what to do with a task (WithTaskStatus, WithTaskTTL): a call the server runs as a task is followed to its result. Set mcpclient.ConnectOptions.Input to answer the server's requests for input (elicitation, sampling). A tool result with isError set is a result, not a Go error: see its envelope's MCPMeta, or mcpclient.AsError."
	// The package doc names the server, with its version, when the listing
	// records them. The protocol version is left out: it depends on the
	// transport the snapshot used (go-sdk agrees on an older one over HTTP),
	// and the same server should give the same package.
	g.packageDoc(f, cmp.Or(g.mcpServerName(true), "an MCP server"), "", usage)
	g.versionGuard(f)
	title := cmp.Or(g.mcpServerName(false), "the MCP server")
	clientTypes(f, pkgMCPClient, "Client calls the tools of "+title+". Create one with NewClient; it is safe for concurrent use.",
		"CallOption configures one call: WithProgress, WithMeta, WithCallTimeout, WithCallValidation, WithTaskStatus, WithTaskTTL.")
	opts := mcpOptions
	if g.opts.Registry {
		// Only tools with a registry id can be called remotely.
		opts = append(slices.Clip(opts), reexport{"WithRemote", "WithRemote calls the tools through rm (e.g. a call protocol spoke whose hub registered this client) instead of the session.", []any{"rm ", qual(pkgMCPClient, "Remote")}, "rm"})
	}
	reexports(f, pkgMCPClient, opts, "Option")
	reexports(f, pkgMCPClient, mcpCallOptions, "CallOption")
	nd := newDoc("NewClient returns a client calling tools over session, a connected *mcp.ClientSession (see mcpclient.Connect), configured by opts, this package's With* options (see the package doc).")
	nd.para(g.validationDoc())
	f.write(nd, func(w *textWriter) {
		w.P("func NewClient(session *", qual(pkgMCP, "ClientSession"), ", opts ...Option) *Client {")
		g.defaultOptions(w, false)
		w.P("\treturn &Client{c: ", qual(pkgMCPClient, "New"), "(session, opts...)}")
		w.P("}")
	})
	return f
}

// hasInput reports whether a tool takes arguments.
func hasInput(t *ir.Tool) bool {
	in := t.InputType
	return in != nil && (in.Kind != ir.Struct || len(in.Fields) > 0 || in.AdditionalProperties != nil)
}

// outType is the Data type of a tool's envelope.
func (g *gen) outType(op *ir.Operation) goType {
	if op.Tool.OutputType == nil {
		return qual(pkgRuntime, "ContentBlock").under("[]")
	}
	return g.goType(op.Tool.OutputType, false, op.Pos)
}

func hints(t *ir.Tool) string {
	var hs []string
	add := func(b *bool, yes, no string) {
		if b != nil && *b {
			hs = append(hs, yes)
		} else if b != nil {
			hs = append(hs, no)
		}
	}
	add(t.ReadOnly, "read-only", "not read-only")
	add(t.Destructive, "destructive", "not destructive")
	add(t.Idempotent, "idempotent", "not idempotent")
	add(t.OpenWorld, "open-world", "closed-world")
	if len(hs) == 0 {
		return ""
	}
	return "Hints (from the server, not guarantees): " + strings.Join(hs, ", ") + "."
}

// paramHeaderLits writes the elements of a []mcpclient.ParamHeader.
func paramHeaderLits(hs []ir.ParamHeader) string {
	elems := make([]string, len(hs))
	for i, h := range hs {
		path := make([]string, len(h.Path))
		for j, p := range h.Path {
			path[j] = litText(p)
		}
		elems[i] = "{Path: []string{" + strings.Join(path, ", ") + "}, Header: " + litText(h.Header) + "}"
	}
	return strings.Join(elems, ", ")
}

// toolsFile declares one *mcpclient.Tool and one method per tool.
func (g *gen) toolsFile() *generatedFile {
	f := g.newFile()
	for _, op := range g.ops {
		t := op.Tool
		tv := "tool" + op.GoName
		d := []string{"Name: " + litText(t.Name)}
		if id := g.remoteIDs()[op]; id != "" {
			d = append(d, "ID: "+litText(id))
		}
		if t.OutputType != nil {
			schema := op.OutputSchema
			if schema == nil && t.OutputType.Def != nil {
				schema = t.OutputType.Def.Schema
			}
			if schema != nil {
				if v := g.schemaVar(schema, "outSchema"+op.GoName); v != "" {
					d = append(d, "OutputSchema: "+v)
				}
			}
		}
		optKV(&d, "Convention", t.Convention)
		if t.TaskSupport != "forbidden" { // the default
			optKV(&d, "TaskSupport", t.TaskSupport)
		}
		decl := []any{"var ", tv, " = &", qual(pkgMCPClient, "Tool"), "{", strings.Join(d, ", ")}
		if len(t.ParamHeaders) > 0 {
			decl = append(decl, ", ParamHeaders: []", qual(pkgMCPClient, "ParamHeader"), "{", paramHeaderLits(t.ParamHeaders), "}")
		}
		f.write(nil, func(w *textWriter) {
			w.P(append(decl, "}")...)
		})

		params := []any{"ctx ", qual("context", "Context")}
		args := "struct{}{}"
		if hasInput(t) {
			params = append(params, ", in ", g.goType(t.InputType, false, op.Pos))
			args = "in"
		}
		out := g.outType(op)
		d2 := newDoc(op.GoName + " calls the tool " + quoted(t.Name) + ".")
		if sanitize(t.Title) != sanitize(op.Doc.Summary) {
			d2.para(t.Title)
		}
		d2.spec(op.Doc)
		d2.para(hints(t))
		if t.OutputType == nil {
			d2.para("The tool declares no output schema: Data is the result's content blocks.")
		}
		if t.TaskSupport == "required" {
			d2.para(`The server runs calls of this tool as tasks only (execution.taskSupport "required"): the call follows the task to its result (see mcpclient's Tasks).`)
		}
		if len(t.ParamHeaders) > 0 {
			sent := make([]string, len(t.ParamHeaders))
			for i, h := range t.ParamHeaders {
				sent[i] = strings.Join(h.Path, ".") + " as Mcp-Param-" + h.Header
			}
			d2.para("On streamable HTTP from protocol 2026-07-28, these arguments are sent as headers too (x-mcp-header): " + strings.Join(sent, ", ") + ".")
		}
		d2.origin(op.Doc)
		params = append(params, ", opts ...CallOption")
		f.write(d2, func(w *textWriter) {
			w.P(append(append([]any{"func (c *Client) ", op.GoName, "("}, params...), ") (", qual(pkgRuntime, "ResponseEnvelope"), "[", out, "], error) {")...)
			w.P("\treturn ", qual(pkgMCPClient, "Call"), "[", out, "](ctx, c.c, ", tv, ", ", args, ", opts...)")
			w.P("}")
		})
	}
	return f
}
