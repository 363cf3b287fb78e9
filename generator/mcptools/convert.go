package mcptools

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonschema"
	"github.com/opsgen/opsgen/generator/naming"
)

// built is a tool with its Go names and decoded schemas.
type built struct {
	*tool
	goName, inputName, outputName string
	// input and output are the root components of the tool's schemas (nil
	// for none; input is nil for a tool without arguments).
	input, output *component
}

// decodeTools names the selected tools (sorted: pinned names first, then
// by name, the order names are claimed in) and decodes their schemas.
func decodeTools(tools []*tool, opts LoadOptions, pos *positions, diags *diag.List) (*decoder, []*built) {
	methods := naming.NewNamespace(ir.ReservedMethods...)
	dec := newDecoder(diags, naming.NewNamespace(ir.Reserved...))
	var bts []*built
	for _, t := range tools {
		bt := &built{tool: t}
		bts = append(bts, bt)
		want := cmp.Or(opts.Names[t.name], naming.Ident(t.name, "Tool"))
		bt.goName = methods.Alloc(want)
		if bt.goName != want {
			diags.Warn(diag.Renamed, pos.pos(t.ptr+"/name"), "tool %q is named %s: %s is taken by another tool", t.name, bt.goName, want)
		}
		var input *schemaDoc
		if !noArguments(t.input) {
			bt.inputName = dec.types.Alloc(bt.goName + "Input")
			input = dec.decode(t.input, pos, t.ptr+"/inputSchema", bt.inputName, bt.goName, fmt.Sprintf("MCP tool %q inputSchema", t.name), nil)
			bt.input = input.comps[""]
		}
		if t.output != nil {
			bt.outputName = dec.types.Alloc(bt.goName + "Output")
			p, ptr, label := pos, t.ptr+"/outputSchema", fmt.Sprintf("MCP tool %q outputSchema", t.name)
			if t.outputPos != nil {
				p, ptr, label = t.outputPos, "", label+" (configured)"
			}
			bt.output = dec.decode(t.output, p, ptr, bt.outputName, bt.goName, label, input).comps[""]
		}
	}
	dec.breakAliasCycles()
	return dec, bts
}

// convert turns the selected tools (sorted as decodeTools wants) into a service.
func convert(tools []*tool, opts LoadOptions, source string, pos *positions, diags *diag.List) *ir.Service {
	dec, bts := decodeTools(tools, opts, pos, diags)
	conv := jsonschema.New(diags, jsonschema.Options{Origin: dec.origin, Key: dec.key, Types: opts.Types, KeepUnknown: opts.KeepUnknown})
	where := func(c *component) jsonschema.Where {
		return jsonschema.Where{File: c.doc.pos.file, Ptr: c.doc.ptr + c.rel}
	}
	// Components are declared in name order, then the tools use them.
	for _, name := range slices.Sorted(maps.Keys(dec.comps)) {
		c := dec.comps[name]
		conv.Declare(c.node, where(c), name)
	}
	svc := &ir.Service{Kind: ir.MCP, Source: source}
	for _, bt := range bts {
		var in, out *ir.Type
		if bt.input != nil {
			in = conv.Use(bt.input.node, where(bt.input)).Type
		}
		if bt.output != nil {
			out = conv.Use(bt.output.node, where(bt.output)).Type
		}
		convention := opts.DefaultConvention
		if c, ok := opts.Conventions[bt.name]; ok {
			convention = c
		}
		svc.Operations = append(svc.Operations, &ir.Operation{
			Kind:   ir.MCPTool,
			ID:     bt.name,
			GoName: bt.goName,
			Doc: ir.Doc{
				Summary:     bt.title,
				Description: bt.description,
				Origin:      fmt.Sprintf("MCP tool %q", bt.name),
			},
			Pos: pos.pos(bt.ptr),
			Tool: &ir.Tool{
				Name:         bt.name,
				Title:        bt.title,
				ReadOnly:     bt.readOnly,
				Destructive:  bt.destructive,
				Idempotent:   bt.idempotent,
				OpenWorld:    bt.openWorld,
				InputType:    in,
				OutputType:   out,
				Convention:   convention,
				TaskSupport:  bt.taskSupport,
				ParamHeaders: bt.paramHeaders,
			},
		})
	}
	conv.AllocateNames()
	svc.Types = conv.Types()
	svc.Defs = make([]*ir.Def, len(svc.Types))
	for i, t := range svc.Types {
		t.Def.Schema, t.Def.Input = conv.TypeSchemas(t)
		svc.Defs[i] = t.Def
	}
	for i, op := range svc.Operations {
		if in := op.Tool.InputType; in != nil {
			op.ParamsName = in.Name
			op.InputSchema = schemaOf(in)
		} else {
			op.InputSchema = noArgumentsSchema(bts[i].tool.input)
		}
		if out := op.Tool.OutputType; out != nil {
			op.OutputSchema = schemaOf(out)
		}
	}
	// Tools repeat shapes: declare each once.
	ir.MergeIdentical(svc)
	sort.Slice(svc.Operations, func(i, j int) bool { return svc.Operations[i].GoName < svc.Operations[j].GoName })
	// Lines and columns, from the listing (or a configured output schema).
	files := map[string]*positions{source: pos}
	for _, d := range dec.places {
		files[d.pos.file] = d.pos
	}
	fill := func(p *diag.Pos) {
		if f := files[p.File]; f != nil && p.Line == 0 {
			*p = f.pos(p.Pointer)
		}
	}
	for _, t := range svc.Types {
		fill(&t.Pos)
		for _, f := range t.Fields {
			fill(&f.Pos)
		}
	}
	for i := range *diags {
		fill(&(*diags)[i].Pos)
	}
	return svc
}

// doc returns the schema document that holds ptr in file: the one at the
// longest of the pointer's first prefixes (a tool schema is at
// /tools/<i>/inputSchema, or at the root of a configured output schema).
func (dec *decoder) doc(file, ptr string) *schemaDoc {
	var best *schemaDoc
	for n, end := 0, 0; n < 4; n++ {
		if d := dec.places[place{file, ptr[:end]}]; d != nil {
			best = d
		}
		if end == len(ptr) {
			break
		}
		if i := strings.IndexByte(ptr[end+1:], '/'); i >= 0 {
			end += 1 + i
		} else {
			end = len(ptr)
		}
	}
	return best
}

// origin is the doc origin of a type defined at ptr in file: the tool
// schema and the pointer inside it.
func (dec *decoder) origin(file, ptr string) string {
	d := dec.doc(file, ptr)
	if d == nil {
		return "#" + ptr
	}
	return d.docOrigin(strings.TrimPrefix(ptr, d.ptr))
}

// key orders the names of the types defined at ptr in file by tool name
// and place in the tool's schema, not by the tool's place in the listing.
func (dec *decoder) key(file, ptr string) string {
	if d := dec.doc(file, ptr); d != nil {
		return d.label + strings.TrimPrefix(ptr, d.ptr)
	}
	return file + "#" + ptr
}

// schemaOf returns the JSON Schema of t: a reference to its def when t is
// named; an anonymous type (a schema that only refers to itself) accepts
// any value.
func schemaOf(t *ir.Type) *ir.Schema {
	if t.Def != nil {
		return ir.RefTo(t.Def)
	}
	return &ir.Schema{}
}
