package emit

import (
	"cmp"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/opsgen/opsgen/generator/ir"
)

var mcpOptions = []reexport{
	{"WithValidation", "WithValidation sets what a result that does not match its output schema does: a warning (runtime.ValidateWarn, the default), an error (runtime.ValidateStrict), or nothing (runtime.ValidateOff)."},
	{"WithLogger", "WithLogger sets the logger of validation warnings."},
	{"WithWarningHook", "WithWarningHook sets a function called with every validation warning."},
	{"WithConvention", `WithConvention sets the content convention ("toolenvelope-v1", "dotbot" or "auto") of tools that declare none.`},
	{"WithMiddleware", "WithMiddleware wraps the sending of every tools/call (an mcpclient.Invoker chain that sees the tool's name, arguments and _meta, and the raw result)."},
	{"WithBeforeCall", "WithBeforeCall adds a hook called with the parameters of every tools/call before it is sent."},
	{"WithAfterResult", "WithAfterResult adds a hook called with every tools/call result before it is decoded."},
	{"WithTimeout", "WithTimeout sets the default timeout of every call."},
}

var mcpCallOptions = []reexport{
	{"WithProgress", "WithProgress calls a function with each progress notification of one call (it sends a progress token)."},
	{"WithMeta", "WithMeta adds entries to the _meta of one call's request."},
	{"WithCallTimeout", "WithCallTimeout sets the timeout of one call."},
	{"WithCallValidation", "WithCallValidation sets the validation mode of one call."},
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
	usage := "Create a client with NewClient from a connected *mcp.ClientSession; make the session with mcpclient.Connect (or mcpclient.WrapTransport) so that content blocks of types newer than the SDK never fail a call and progress notifications reach WithProgress. Options set the validation mode (WithValidation), the logger (WithLogger), a warning hook, the default content convention (WithConvention), middlewares and hooks (WithMiddleware, WithBeforeCall, WithAfterResult) and a timeout (WithTimeout); per-call options set progress notifications (WithProgress), _meta (WithMeta), a timeout and the validation mode. A tool result with isError set is a result, not a Go error: see its envelope's MCPMeta, or mcpclient.AsError."
	// The package doc names the server, with its version, when the listing
	// records them. The protocol version is left out: it depends on the
	// transport the snapshot used (go-sdk agrees on an older one over HTTP),
	// and the same server should give the same package.
	g.packageDoc(f, cmp.Or(g.mcpServerName(true), "an MCP server"), "", usage)
	g.versionGuard(f)
	title := cmp.Or(g.mcpServerName(false), "the MCP server")
	f.decl(newDoc("Client calls the tools of "+title+". Create one with NewClient; it is safe for concurrent use."),
		jen.Type().Id("Client").Struct(jen.Id("c").Op("*").Add(f.Qual(pkgMCPClient, "Client"))))
	f.decl(newDoc("Option configures a Client: see NewClient."), jen.Type().Id("Option").Op("=").Add(f.Qual(pkgMCPClient, "Option")))
	f.decl(newDoc("CallOption configures one call: WithProgress, WithMeta, WithCallTimeout, WithCallValidation."),
		jen.Type().Id("CallOption").Op("=").Add(f.Qual(pkgMCPClient, "CallOption")))
	opts := mcpOptions
	if g.opts.Registry {
		// Only tools with a registry id can be called remotely.
		opts = append(slices.Clip(opts), reexport{"WithRemote", "WithRemote calls the tools through rm (e.g. a call protocol spoke whose hub registered this client) instead of the session."})
	}
	reexports(f, "Options of NewClient, from package mcpclient.", pkgMCPClient, opts)
	reexports(f, "Options of single calls, from package mcpclient.", pkgMCPClient, mcpCallOptions)
	nd := newDoc("NewClient returns a client calling tools over session.")
	nd.para(usage)
	nd.para(g.validationDoc())
	f.decl(nd, jen.Func().Id("NewClient").Params(jen.Id("session").Op("*").Add(f.Qual(pkgMCP, "ClientSession")), jen.Id("opts").Op("...").Id("Option")).Op("*").Id("Client").Block(
		g.defaultOptions(f, false),
		jen.Return(jen.Op("&").Id("Client").Values(jen.Dict{jen.Id("c"): f.Qual(pkgMCPClient, "New").Call(jen.Id("session"), jen.Id("opts").Op("..."))})),
	))
	return f
}

// hasInput reports whether a tool takes arguments.
func hasInput(t *ir.Tool) bool {
	in := t.InputType
	return in != nil && (in.Kind != ir.Struct || len(in.Fields) > 0 || in.AdditionalProperties != nil)
}

// outType is the Data type of a tool's envelope.
func (g *gen) outType(f *generatedFile, op *ir.Operation) *jen.Statement {
	if op.Tool.OutputType == nil {
		return jen.Index().Add(f.Qual(pkgRuntime, "ContentBlock"))
	}
	return g.typ(f, op.Tool.OutputType, op.Pos)
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

// toolsFile declares one *mcpclient.Tool and one method per tool.
func (g *gen) toolsFile() *generatedFile {
	f := g.newFile()
	for _, op := range g.ops {
		t := op.Tool
		tv := "tool" + op.GoName
		d := []jen.Code{kv("Name", jen.Lit(t.Name))}
		if id := g.remoteIDs()[op]; id != "" {
			d = append(d, kv("ID", jen.Lit(id)))
		}
		if t.OutputType != nil {
			schema := op.OutputSchema
			if schema == nil {
				schema = t.OutputType.Schema
			}
			if schema != nil {
				if v := g.schemaVar(schema, "outSchema"+op.GoName, op.Pos); v != "" {
					d = append(d, kv("OutputSchema", jen.Id(v)))
				}
			}
		}
		optKV(&d, "Convention", t.Convention)
		if t.TaskSupport != "forbidden" { // the default
			optKV(&d, "TaskSupport", t.TaskSupport)
		}
		f.decl(nil, jen.Var().Id(tv).Op("=").Op("&").Add(f.Qual(pkgMCPClient, "Tool")).Values(d...))

		params := []jen.Code{jen.Id("ctx").Add(f.Qual("context", "Context"))}
		args := jen.Struct().Values()
		if hasInput(t) {
			params = append(params, jen.Id("in").Add(g.typ(f, t.InputType, op.Pos)))
			args = jen.Id("in")
		}
		out := g.outType(f, op)
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
			d2.para(`The server accepts task-augmented calls of this tool only (execution.taskSupport "required"), which go-sdk v1.8.0 cannot make: the server is likely to refuse this call, and the error says so.`)
		}
		d2.origin(op.Doc)
		params = append(params, jen.Id("opts").Op("...").Id("CallOption"))
		f.decl(d2, jen.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(op.GoName).Params(params...).
			Params(f.Qual(pkgRuntime, "ResponseEnvelope").Types(out.Clone()), jen.Error()).Block(
			jen.Return(f.Qual(pkgMCPClient, "Call").Types(out.Clone()).Call(jen.Id("ctx"), jen.Id("c").Dot("c"), jen.Id(tv), args, jen.Id("opts").Op("..."))),
		))
	}
	return f
}
