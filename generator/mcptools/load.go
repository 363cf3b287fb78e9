package mcptools

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/naming"
)

// The conventions a tool's result can follow (see ir.Tool.Convention).
var conventions = map[string]bool{"": true, "toolenvelope-v1": true, "dotbot": true, "auto": true}

// LoadOptions configures Load and LoadData. Maps are keyed by tool name.
type LoadOptions struct {
	// OutputSchemas gives an output schema to tools that declare none, so
	// that their results are typed; a tool's own outputSchema wins.
	OutputSchemas map[string]json.RawMessage
	// Conventions sets a tool's result convention: "toolenvelope-v1",
	// "dotbot", "auto" or "" (none). Tools not listed get DefaultConvention.
	Conventions       map[string]string
	DefaultConvention string
	// Filter selects tools: IncludeOperations and ExcludeOperations hold
	// tool names (a trailing "*" matches by prefix); the other lists do not
	// apply to MCP.
	Filter ir.Filter
	// Names pins the Go name of a tool's method; the input and output types
	// are named after it (<Name>Input, <Name>Output).
	Names map[string]string
	// Types maps a format to the Go type of its values (jsonschema.Options.Types).
	Types map[string]string
	// KeepUnknown gives struct types a map of the members their schemas
	// do not declare (jsonschema.Options.KeepUnknown).
	KeepUnknown bool
}

// Load reads the listing file at path (as given by the user; it is written
// into diagnostics and the generated header) and converts it.
func Load(ctx context.Context, path string, opts LoadOptions) (*ir.Service, diag.List, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("mcptools: %w", err)
	}
	return LoadData(ctx, data, path, opts)
}

// LoadData converts a tool listing: a tools/list result ({"tools": [...]})
// or a bare array of tools. source names the listing in diagnostics and in
// the generated header. Each selected tool becomes an operation of kind
// ir.MCPTool whose ID is the tool name.
//
// The returned list holds every diagnostic, warnings included; the error is
// non-nil (and the service nil) when any of them is an error.
func LoadData(ctx context.Context, data []byte, source string, opts LoadOptions) (*ir.Service, diag.List, error) {
	var diags diag.List
	doc, err := decodeJSON(data)
	if err != nil {
		pos, _ := syntaxPos(source, data, err)
		pos.File = source
		diags.Errorf(pos, "invalid JSON: %v", err)
		return nil, diags, diags.Err()
	}
	pos := indexPositions(source, data)
	chk := newChecker()
	tools, info := parseListing(doc, pos, chk, &diags)
	tools = selectTools(tools, opts, source, pos, chk, &diags)
	checkOptions(tools, opts, source, &diags)
	if err := ctx.Err(); err != nil {
		return nil, diags, err
	}
	var svc *ir.Service
	if !diags.HasErrors() {
		// Names are claimed in an order that does not depend on the
		// listing's: pinned names first, then by tool name.
		sort.Slice(tools, func(i, j int) bool {
			pi, pj := opts.Names[tools[i].name] != "", opts.Names[tools[j].name] != ""
			if pi != pj {
				return pi
			}
			return tools[i].name < tools[j].name
		})
		svc = convert(tools, opts, source, pos, &diags)
		svc.ServerName, svc.ProtocolVersion = info.name, info.protocol
		svc.Title, svc.Version, svc.Description = info.title, info.version, info.description
	}
	diags.Sort()
	if err := diags.Err(); err != nil {
		return nil, diags, err
	}
	return svc, diags, nil
}

// selectTools applies the filter and the user's output schemas.
func selectTools(tools []*tool, opts LoadOptions, source string, pos *positions, chk *checker, diags *diag.List) []*tool {
	var out []*tool
	for _, t := range tools {
		if len(opts.Filter.IncludeOperations) > 0 && !ir.MatchPattern(opts.Filter.IncludeOperations, t.name) || ir.MatchPattern(opts.Filter.ExcludeOperations, t.name) {
			continue
		}
		if raw, ok := opts.OutputSchemas[t.name]; ok {
			file := fmt.Sprintf("%s: configured output schema of %q", source, t.name)
			switch s, err := decodeJSON(raw); {
			case t.output != nil:
				diags.Warn(diag.Other, pos.pos(t.ptr+"/outputSchema"),
					"tool %q declares an outputSchema; the configured one is not used", t.name)
			case err != nil:
				pos, _ := syntaxPos(file, raw, err)
				pos.File = file
				diags.Errorf(pos, "invalid JSON: %v", err)
			case !isSchema(s):
				diags.Errorf(diag.Pos{File: file}, "an output schema must be a JSON Schema object, found %s", jsonKind(s))
			default:
				p := indexPositions(file, raw)
				t.output, t.outputPos = chk.check(s, p, "", diags), p
			}
		}
		out = append(out, t)
	}
	return out
}

// checkOptions reports options that name no tool, and bad conventions.
func checkOptions(tools []*tool, opts LoadOptions, source string, diags *diag.List) {
	known := map[string]bool{}
	for _, t := range tools {
		known[t.name] = true
	}
	pos := diag.Pos{File: source}
	for _, opt := range []struct {
		what  string
		names []string
	}{
		{"an output schema", slices.Sorted(maps.Keys(opts.OutputSchemas))},
		{"a convention", slices.Sorted(maps.Keys(opts.Conventions))},
		{"a Go name", slices.Sorted(maps.Keys(opts.Names))},
	} {
		for _, name := range opt.names {
			if !known[name] {
				diags.Warn(diag.Other, pos, "%s is configured for tool %q, which is not in the listing (or not selected)", opt.what, name)
			}
		}
	}
	for _, name := range opts.Filter.IncludeOperations {
		if !strings.HasSuffix(name, "*") && !known[name] {
			diags.Warn(diag.Other, pos, "included tool %q is not in the listing", name)
		}
	}
	if !conventions[opts.DefaultConvention] {
		diags.Errorf(pos, "unknown default convention %q (want toolenvelope-v1, dotbot, auto or none)", opts.DefaultConvention)
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Conventions)) {
		if c := opts.Conventions[name]; !conventions[c] {
			diags.Errorf(pos, "unknown convention %q for tool %q (want toolenvelope-v1, dotbot, auto or none)", c, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(opts.Names)) {
		if n := opts.Names[name]; !naming.IsExported(n) {
			diags.Errorf(pos, "Go name %q for tool %q is not an exported Go identifier", n, name)
		}
	}
}
