package mcptools

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// tool is one tool of a listing, read from the raw JSON.
type tool struct {
	name        string
	title       string
	description string
	// ptr is the tool's JSON pointer in the listing ("/tools/3").
	ptr string
	// input and output are the decoded schemas (numbers as json.Number);
	// output is nil when the tool declares none.
	input, output any
	// outputPos indexes output when it came from LoadOptions.OutputSchemas
	// (it is then not part of the listing); nil otherwise.
	outputPos *positions
	// Annotation hints; nil when not given.
	readOnly, destructive, idempotent, openWorld *bool
	// taskSupport is execution.taskSupport ("" when not given).
	taskSupport string
	// paramHeaders are the valid x-mcp-header annotations of the input
	// schema, in path order.
	paramHeaders []ir.ParamHeader
}

// serverInfo is what a listing made by opsgen mcp snapshot records of the
// server: its serverInfo and the session's protocolVersion.
type serverInfo struct {
	name, title, version, description, protocol string
}

// decodeJSON decodes one JSON value, keeping numbers as json.Number, and
// rejects trailing data.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, &trailingDataError{offset: dec.InputOffset()}
	}
	return v, nil
}

// trailingDataError reports data after the JSON value.
type trailingDataError struct{ offset int64 }

func (e *trailingDataError) Error() string { return "data after the top-level value" }

// parseListing reads the tools of a listing: a tools/list result
// ({"tools": [...]}, with the serverInfo and protocolVersion that opsgen mcp
// snapshot adds) or a bare array of tools.
func parseListing(doc any, pos *positions, chk *checker, diags *diag.List) ([]*tool, serverInfo) {
	var list []any
	var info serverInfo
	base := ""
	switch v := doc.(type) {
	case []any:
		list = v
	case map[string]any:
		tools, ok := v["tools"]
		if !ok {
			diags.Errorf(pos.pos(""), `not a tool listing: expected {"tools": [...]} or an array of tools, found an object without "tools"`)
			return nil, info
		}
		if list, ok = tools.([]any); !ok {
			diags.Errorf(pos.pos("/tools"), `"tools" must be an array, found %s`, jsonKind(tools))
			return nil, info
		}
		base = "/tools"
		info.protocol = optString(v, "protocolVersion", "", pos, diags)
		if m, ok := opt[map[string]any](v, "serverInfo", "an object", "", pos, diags); ok {
			info.name = optString(m, "name", "/serverInfo", pos, diags)
			info.title = optString(m, "title", "/serverInfo", pos, diags)
			info.version = optString(m, "version", "/serverInfo", pos, diags)
			info.description = optString(m, "description", "/serverInfo", pos, diags)
		}
	default:
		diags.Errorf(pos.pos(""), `not a tool listing: expected {"tools": [...]} or an array of tools, found %s`, jsonKind(doc))
		return nil, info
	}

	var tools []*tool
	first := map[string]string{} // name -> pointer of its first tool
	for i, elem := range list {
		ptr := base + "/" + strconv.Itoa(i)
		t := parseTool(elem, ptr, pos, chk, diags)
		if t == nil {
			continue
		}
		if prev, ok := first[t.name]; ok {
			diags.Errorf(pos.pos(ptr+"/name"), "duplicate tool name %q (first at %s)", t.name, prev)
			continue
		}
		first[t.name] = ptr
		tools = append(tools, t)
	}
	return tools, info
}

// exactOutputSchema is the key of a tool's _meta under which an opsgen
// server puts the operation's exact output schema when the one it serves
// is relaxed (runtime/mcpserver.MetaOutputSchema).
const exactOutputSchema = "io.opsgen/outputSchema"

// parseTool reads one tool, or reports why it cannot and returns nil.
func parseTool(elem any, ptr string, pos *positions, chk *checker, diags *diag.List) *tool {
	obj, ok := elem.(map[string]any)
	if !ok {
		diags.Errorf(pos.pos(ptr), "a tool must be an object, found %s", jsonKind(elem))
		return nil
	}
	nameVal, ok := obj["name"]
	if !ok {
		diags.Errorf(pos.pos(ptr), `tool has no "name"`)
		return nil
	}
	name, ok := nameVal.(string)
	if !ok || name == "" {
		diags.Errorf(pos.pos(ptr+"/name"), "tool name must be a non-empty string, found %s", jsonKind(nameVal))
		return nil
	}
	t := &tool{name: name, ptr: ptr}
	t.title = optString(obj, "title", ptr, pos, diags)
	t.description = optString(obj, "description", ptr, pos, diags)

	if in, ok := obj["inputSchema"]; ok {
		if !isSchema(in) {
			diags.Errorf(pos.pos(ptr+"/inputSchema"), "inputSchema must be a JSON Schema object, found %s", jsonKind(in))
			return nil
		}
		t.input = chk.check(in, pos, ptr+"/inputSchema", diags)
		t.paramHeaders = paramHeaders(in, ptr+"/inputSchema", pos, diags)
	} else {
		// Required by the spec, but an absent schema has one reasonable reading.
		diags.Warn(diag.Other, pos.pos(ptr), "tool %q has no inputSchema; it is taken to have no arguments", name)
		t.input = map[string]any{"type": "object"}
	}
	if out, ok := obj["outputSchema"]; ok && out != nil {
		if !isSchema(out) {
			diags.Errorf(pos.pos(ptr+"/outputSchema"), "outputSchema must be a JSON Schema object, found %s", jsonKind(out))
			return nil
		}
		outPtr := ptr + "/outputSchema"
		// An opsgen server (runtime/mcpserver) in a lenient mode serves a
		// relaxed output schema (no enums, formats, required members: what
		// its results are sure to fit) and the operation's own in the
		// tool's _meta: the data is typed and checked with that one.
		if meta, ok := obj["_meta"].(map[string]any); ok && isSchema(meta[exactOutputSchema]) {
			out, outPtr = meta[exactOutputSchema], ptr+"/_meta/"+strings.ReplaceAll(exactOutputSchema, "/", "~1")
		}
		t.output = chk.check(out, pos, outPtr, diags)
	}

	if ann, ok := opt[map[string]any](obj, "annotations", "an object", ptr, pos, diags); ok {
		aptr := ptr + "/annotations"
		t.readOnly = optBool(ann, "readOnlyHint", aptr, pos, diags)
		t.destructive = optBool(ann, "destructiveHint", aptr, pos, diags)
		t.idempotent = optBool(ann, "idempotentHint", aptr, pos, diags)
		t.openWorld = optBool(ann, "openWorldHint", aptr, pos, diags)
		// Protocol 2025-03-26 put the display title in the annotations.
		if t.title == "" {
			t.title = optString(ann, "title", aptr, pos, diags)
		}
	}
	if ex, ok := opt[map[string]any](obj, "execution", "an object", ptr, pos, diags); ok {
		eptr := ptr + "/execution"
		switch ts := optString(ex, "taskSupport", eptr, pos, diags); ts {
		case "", "forbidden", "optional", "required":
			t.taskSupport = ts
		default:
			diags.Warn(diag.LeftOut, pos.pos(eptr+"/taskSupport"), "unknown taskSupport %q (want forbidden, optional or required); ignored", ts)
		}
	}
	return t
}

// isSchema reports whether v can be a JSON Schema (an object or a boolean).
func isSchema(v any) bool {
	switch v.(type) {
	case map[string]any, bool:
		return true
	}
	return false
}

// opt returns the member key of obj, the object at ptr, as a T; ok is
// false when it is absent, null or not a T (what T is: "a string"), which
// is reported and ignored.
func opt[T any](obj map[string]any, key, what, ptr string, pos *positions, diags *diag.List) (_ T, ok bool) {
	x, ok := obj[key].(T)
	if v := obj[key]; v != nil && !ok {
		diags.Warn(diag.LeftOut, pos.pos(ptr+"/"+key), "%s must be %s, found %s; ignored", key, what, jsonKind(v))
	}
	return x, ok
}

func optString(obj map[string]any, key, ptr string, pos *positions, diags *diag.List) string {
	s, _ := opt[string](obj, key, "a string", ptr, pos, diags)
	return s
}

func optBool(obj map[string]any, key, ptr string, pos *positions, diags *diag.List) *bool {
	if b, ok := opt[bool](obj, key, "a boolean", ptr, pos, diags); ok {
		return &b
	}
	return nil
}

// jsonKind names the JSON kind of a decoded value, for messages.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "an unknown value"
}
