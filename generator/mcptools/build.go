package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// builder makes the synthetic OpenAPI 3.1 document for a listing (one POST
// operation per tool: operationId = tool name, request body = input schema,
// response 200 = output schema) and turns the operations converted from it
// back into tools.
type builder struct {
	source string
	pos    *positions
	diags  *diag.List
	h      *hoister
	// ns holds the tools' Go names; types are named in h.ns.
	ns    *naming.Namespace
	tools map[string]*built
	paths map[string]any
}

// built is a tool with its Go names.
type built struct {
	*tool
	goName, inputName, outputName string
	// inputSchema is the converted input schema of a tool without arguments
	// (inputName is then "").
	inputSchema map[string]any
}

func newBuilder(source string, pos *positions, diags *diag.List) *builder {
	return &builder{
		source: source, pos: pos, diags: diags,
		h:     newHoister(diags, naming.NewNamespace(ir.Reserved...)),
		ns:    naming.NewNamespace(ir.ReservedMethods...),
		tools: map[string]*built{},
		paths: map[string]any{},
	}
}

// add adds a tool, with its pinned Go name or "". Names are claimed in the
// order of the calls.
func (b *builder) add(t *tool, pinned string) {
	bt := &built{tool: t}
	b.tools[t.name] = bt
	want := pinned
	if want == "" {
		want = naming.Ident(t.name, "Tool")
	}
	bt.goName = b.ns.Alloc(want)
	if bt.goName != want {
		b.diags.Warnf(b.pos.pos(t.ptr+"/name"), "tool %q is named %s: %s is taken by another tool", t.name, bt.goName, want)
	}

	op := map[string]any{
		"operationId": t.name,
		"responses":   map[string]any{"200": map[string]any{"description": "result"}},
	}
	var input *schemaDoc
	if noArguments(t.input) {
		d := &schemaDoc{h: b.h, root: t.input, pos: b.pos, ptr: t.ptr + "/inputSchema", refs: map[string]string{}}
		bt.inputSchema, _ = d.convert(t.input, "").(map[string]any)
	} else {
		bt.inputName = b.h.ns.Alloc(bt.goName + "Input")
		input = b.h.hoist(t.input, b.pos, t.ptr+"/inputSchema", bt.inputName, bt.goName, fmt.Sprintf("MCP tool %q inputSchema", t.name), nil)
		op["requestBody"] = map[string]any{"required": true, "content": jsonContent(bt.inputName)}
	}
	if t.output != nil {
		bt.outputName = b.h.ns.Alloc(bt.goName + "Output")
		p, ptr, label := b.pos, t.ptr+"/outputSchema", fmt.Sprintf("MCP tool %q outputSchema", t.name)
		if t.outputPos != nil {
			p, ptr, label = t.outputPos, "", label+" (configured)"
		}
		b.h.hoist(t.output, p, ptr, bt.outputName, bt.goName, label, input)
		op["responses"] = map[string]any{"200": map[string]any{
			"description": "structured content",
			"content":     jsonContent(bt.outputName),
		}}
	}
	b.paths[toolPath(t.name)] = map[string]any{"post": op}
}

// toolPath is the synthetic path of a tool's operation.
func toolPath(name string) string { return "/tools/" + url.PathEscape(name) }

func jsonContent(component string) map[string]any {
	return map[string]any{"application/json": map[string]any{
		"schema": map[string]any{"$ref": componentPrefix + component},
	}}
}

// documentJSON returns the synthetic document as JSON.
func (b *builder) documentJSON() ([]byte, error) {
	b.h.breakAliasCycles()
	doc := map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": b.source, "version": "mcp"},
		"paths":   b.paths,
	}
	if len(b.h.comps) > 0 {
		doc["components"] = map[string]any{"schemas": b.h.comps}
	}
	return json.Marshal(doc)
}

// document returns the synthetic document, loaded (references resolved) by
// kin-openapi.
func (b *builder) document(ctx context.Context) (*openapi3.T, error) {
	data, err := b.documentJSON()
	if err != nil {
		return nil, fmt.Errorf("building the schema document: %w", err)
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading the schema document: %w", err)
	}
	return doc, nil
}

// names pins the Go names the builder chose for the converter: component
// schemas keep theirs, operations get their tools'.
func (b *builder) names() map[string]string {
	names := map[string]string{}
	for name := range b.h.comps {
		names[componentPrefix+escapePointer(name)] = name
	}
	for _, bt := range b.tools {
		names[bt.name] = bt.goName
	}
	return names
}

// component splits a pointer into a component of the synthetic document
// into the component's origin and the rest of the pointer.
func (b *builder) component(ptr string) (origin, string, bool) {
	toks := strings.SplitN(ptr, "/", 5) // "", components, schemas, name, rest
	if len(toks) < 4 || toks[0] != "" || toks[1] != "components" || toks[2] != "schemas" {
		return origin{}, "", false
	}
	o, ok := b.h.origin[unescapePointer(toks[3])]
	rest := ""
	if len(toks) == 5 {
		rest = "/" + toks[4]
	}
	return o, rest, ok
}

// sourcePos maps a position in the synthetic document back to the listing.
func (b *builder) sourcePos(p diag.Pos) diag.Pos {
	if o, rest, ok := b.component(p.Pointer); ok {
		return o.pos.pos(o.ptr + rest)
	}
	if toks := strings.Split(p.Pointer, "/"); len(toks) >= 3 && toks[0] == "" && toks[1] == "paths" {
		path := unescapePointer(toks[2])
		for _, bt := range b.tools {
			if toolPath(bt.name) == path {
				return b.pos.pos(bt.ptr)
			}
		}
	}
	return diag.Pos{File: b.source}
}

// finish turns the operations converted from the synthetic document into
// tools.
func (b *builder) finish(svc *ir.Service, opts LoadOptions) error {
	svc.Kind = ir.MCP
	svc.Source = b.source
	svc.Title, svc.Description, svc.Version = "", "", ""
	svc.Servers, svc.SecuritySchemes, svc.Security = nil, nil, nil
	for _, op := range svc.Operations {
		bt := b.tools[op.ID]
		if bt == nil {
			return fmt.Errorf("converted operation %q is not a tool", op.ID)
		}
		var in, out *ir.Type
		if op.Body != nil {
			in = op.Body.Type
		}
		if op.Result != nil {
			out = op.Result.Type
		}
		if (in == nil) != (bt.inputName == "") || (out == nil) != (bt.outputName == "") {
			return fmt.Errorf("tool %q: the converted operation lost its input or output type", bt.name)
		}
		convention := opts.DefaultConvention
		if c, ok := opts.Conventions[bt.name]; ok {
			convention = c
		}
		*op = ir.Operation{
			Kind:   ir.MCPTool,
			ID:     bt.name,
			GoName: bt.goName,
			Doc: ir.Doc{
				Summary:     bt.title,
				Description: bt.description,
				Origin:      fmt.Sprintf("MCP tool %q", bt.name),
			},
			Pos: b.pos.pos(bt.ptr),
			Tool: &ir.Tool{
				Name:        bt.name,
				Title:       bt.title,
				ReadOnly:    bt.readOnly,
				Destructive: bt.destructive,
				Idempotent:  bt.idempotent,
				OpenWorld:   bt.openWorld,
				InputType:   in,
				OutputType:  out,
				Convention:  convention,
			},
		}
		if in != nil {
			op.ParamsName = in.Name
			op.InputSchema = schemaOf(svc, in)
		} else {
			data, err := json.Marshal(bt.inputSchema)
			if err != nil {
				return fmt.Errorf("tool %q: input schema: %w", bt.name, err)
			}
			op.InputSchema = data
		}
		if out != nil {
			op.OutputSchema = schemaOf(svc, out)
		}
	}
	sort.Slice(svc.Operations, func(i, j int) bool { return svc.Operations[i].GoName < svc.Operations[j].GoName })
	// Positions and origins point into the listing, not the synthetic document.
	for _, t := range svc.Types {
		if o, rest, ok := b.component(strings.TrimPrefix(t.Doc.Origin, "#")); ok {
			t.Doc.Origin = o.docOrigin(rest)
		}
		t.Pos = b.sourcePos(t.Pos)
		for _, f := range t.Fields {
			f.Pos = b.sourcePos(f.Pos)
		}
	}
	return nil
}

// schemaOf returns the JSON Schema of t, as a reference when t is named.
func schemaOf(svc *ir.Service, t *ir.Type) json.RawMessage {
	if _, ok := svc.Defs[t.Name]; ok && t.Named() {
		data, _ := json.Marshal(map[string]string{"$ref": "#/$defs/" + t.Name})
		return data
	}
	if t.Schema == nil {
		// An anonymous type the converter kept no schema for (a schema
		// that only refers to itself): it accepts any value.
		return json.RawMessage(`{}`)
	}
	return t.Schema
}
