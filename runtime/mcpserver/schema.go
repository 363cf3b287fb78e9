package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// newTool makes the tool of spec, named name, served in mode (see
// "Output schemas" in the package doc).
func newTool(spec runtime.OperationSpec, name string, mode runtime.ValidationMode) (*tool, error) {
	in, err := inputSchema(spec.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: operation %s: input schema: %w", spec.ID, err)
	}
	t := &tool{spec: spec, tool: &mcp.Tool{
		Name:        name,
		Title:       spec.Title,
		Description: description(spec),
		InputSchema: in,
		Annotations: annotations(spec),
	}}
	t.subscription = spec.Kind == runtime.KindSubscription
	if len(bytes.TrimSpace(spec.OutputSchema)) > 0 {
		schema := spec.OutputSchema
		if t.subscription {
			if schema, err = arrayOf(schema); err != nil {
				return nil, fmt.Errorf("mcpserver: operation %s: output schema: %w", spec.ID, err)
			}
		}
		out, object, err := outputSchema(schema)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: operation %s: output schema: %w", spec.ID, err)
		}
		served, relaxed, err := servedSchema(out, mode)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: operation %s: output schema: %w", spec.ID, err)
		}
		t.tool.OutputSchema = served
		if mode != runtime.ValidateStrict {
			t.served = opsgenimpl.NewSchema(string(served))
			if err := t.served.Compile(); err != nil {
				return nil, fmt.Errorf("mcpserver: operation %s: served output schema: %w", spec.ID, err)
			}
		}
		if relaxed {
			// The exact schema, for generators (opsgen's reads it from a
			// snapshot): the served one has lost its enums and formats.
			t.tool.Meta = mcp.Meta{MetaOutputSchema: out}
		}
		t.hasOutput = true
		t.objectOutput = object
	}
	return t, nil
}

// arrayOf is the schema of an array of event: a subscription tool's
// result holds its events. The event schema's $defs move to the root, so
// that its "#/$defs/..." references still resolve.
func arrayOf(event json.RawMessage) (json.RawMessage, error) {
	var m map[string]any
	if err := json.Unmarshal(event, &m); err != nil {
		return nil, err
	}
	out := map[string]any{"type": "array", "items": m}
	if defs, ok := m["$defs"]; ok {
		delete(m, "$defs")
		out["$defs"] = defs
	}
	return json.Marshal(out)
}

// deprecatedNote ends the description of a deprecated operation's tool: a
// paragraph in Go's "Deprecated:" form, so that a client generated from the
// tool marks its method deprecated too.
const deprecatedNote = "Deprecated: the API marks this operation as deprecated."

// description is the tool's description: the operation's, ending with
// deprecatedNote when the operation is deprecated.
func description(spec runtime.OperationSpec) string {
	if !spec.Deprecated {
		return spec.Description
	}
	if spec.Description == "" {
		return deprecatedNote
	}
	return spec.Description + "\n\n" + deprecatedNote
}

// annotations are the tool's hints: what the HTTP method says (GET, HEAD,
// OPTIONS and TRACE are safe: read-only and idempotent; PUT and DELETE are
// idempotent; DELETE is destructive, POST is not), overridden by the
// operation's own Hints. nil when nothing is known.
func annotations(spec runtime.OperationSpec) *mcp.ToolAnnotations {
	var a mcp.ToolAnnotations
	known := false
	yes := true
	switch strings.ToUpper(spec.Method) {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		a.ReadOnlyHint, a.IdempotentHint, known = true, true, true
	case "PUT":
		a.IdempotentHint, known = true, true
	case "DELETE":
		a.IdempotentHint, a.DestructiveHint, known = true, &yes, true
	case "POST":
		// Creates: not destructive (a client assumes a tool without the
		// hint is).
		a.DestructiveHint, known = new(bool), true
	case "PATCH":
		known = true
	}
	if h := spec.Hints; h != nil {
		if h.ReadOnly != nil {
			a.ReadOnlyHint, known = *h.ReadOnly, true
		}
		if h.Idempotent != nil {
			a.IdempotentHint, known = *h.Idempotent, true
		}
		if h.Destructive != nil {
			v := *h.Destructive
			a.DestructiveHint, known = &v, true
		}
		if h.OpenWorld != nil {
			v := *h.OpenWorld
			a.OpenWorldHint, known = &v, true
		}
	}
	if !known {
		return nil
	}
	return &a
}

// inputSchema returns the tool's input schema: the operation's, with
// "type": "object" at the root (MCP arguments are always an object, and
// go-sdk requires it). An empty schema accepts any object. It fails when
// the schema's root says the input is not an object.
func inputSchema(doc json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	root, err := decodeObject(doc)
	if err != nil {
		return nil, err
	}
	switch t := rootType(root); {
	case t == "object":
		if root["type"] == "object" {
			return doc, nil
		}
	case t != "":
		return nil, fmt.Errorf("describes %s, not an object (MCP tool arguments are an object)", t)
	}
	root["type"] = "object"
	return json.Marshal(root)
}

// outputSchema returns the tool's output schema, with "type": "object"
// made explicit at the root when the root is a local $ref to an object
// schema or a union of objects (protocols before 2026-07-28 require the
// root to say it), and titles naming the union branches that refine a
// definition (see nameVariants); and whether it describes an object.
func outputSchema(doc json.RawMessage) (json.RawMessage, bool, error) {
	root, err := decodeObject(doc)
	if err != nil {
		return nil, false, err
	}
	changed := nameVariants(root)
	t := rootType(root)
	if t == "" && unionOfObjects(root, root) {
		t = "object"
	}
	if t == "object" && root["type"] != "object" {
		root["type"] = "object"
		changed = true
	}
	if !changed {
		return doc, t == "object", nil
	}
	b, err := json.Marshal(root)
	return b, t == "object", err
}

// nameVariants gives a "title" to each branch of a oneOf or anyOf that
// refines one definition ({"allOf": [{"$ref": "#/$defs/Dog"}, {...}]},
// as a generated client writes the variants of a discriminated union):
// the definition's name. A client generated from the tool (opsgen's reads
// titles) then names the variant Dog, as the client of the API does,
// instead of by its position. A branch with a title keeps it. It reports
// whether it changed anything.
func nameVariants(s any) (changed bool) {
	switch v := s.(type) {
	case map[string]any:
		for _, k := range []string{"oneOf", "anyOf"} {
			for _, b := range asList(v[k]) {
				m, ok := b.(map[string]any)
				if !ok || m["title"] != nil || m["$ref"] != nil {
					continue
				}
				var refs []string
				for _, part := range asList(m["allOf"]) {
					if ref, ok := part.(map[string]any)["$ref"].(string); ok {
						refs = append(refs, ref)
					}
				}
				if len(refs) != 1 {
					continue
				}
				if i := strings.LastIndexByte(refs[0], '/'); strings.HasPrefix(refs[0], "#/") && i < len(refs[0])-1 {
					m["title"] = strings.ReplaceAll(strings.ReplaceAll(refs[0][i+1:], "~1", "/"), "~0", "~")
					changed = true
				}
			}
		}
		for k, x := range v {
			switch k {
			case "enum", "const", "default", "examples":
				continue // values, not schemas
			}
			changed = nameVariants(x) || changed
		}
	case []any:
		for _, x := range v {
			changed = nameVariants(x) || changed
		}
	}
	return changed
}

// unionOfObjects reports whether node (inside root) is a oneOf or anyOf
// whose branches all describe objects (following local $refs): its
// instances are objects, and the schema can say "type": "object" beside
// the union, which is what protocols before 2026-07-28 require of an
// output schema's root.
func unionOfObjects(root, node map[string]any) bool {
	for _, k := range []string{"oneOf", "anyOf"} {
		branches, ok := node[k].([]any)
		if !ok || len(branches) == 0 {
			continue
		}
		for _, b := range branches {
			m, ok := b.(map[string]any)
			if !ok {
				return false
			}
			for range 16 { // bounds $ref chains, which may loop
				ref, ok := m["$ref"].(string)
				if !ok || m["type"] != nil {
					break
				}
				if m, ok = resolveLocal(root, ref); !ok {
					return false
				}
			}
			if nodeType(root, m) != "object" && !unionOfObjects(root, m) {
				return false
			}
		}
		return true
	}
	return false
}

// rootType is the JSON type a schema's root says its instances have:
// "object", "array", ..., "" when it does not say (no type, or several),
// following local $refs ("#/$defs/X", "#/definitions/X"). A type list
// holding "object" and "null" counts as "object".
func rootType(root map[string]any) string { return nodeType(root, root) }

// nodeType is rootType for node, a schema inside root.
func nodeType(root, node map[string]any) string {
	for range 16 { // bounds $ref chains, which may loop
		switch t := node["type"].(type) {
		case string:
			return t
		case []any:
			var types []string
			for _, x := range t {
				if s, ok := x.(string); ok && s != "null" {
					types = append(types, s)
				}
			}
			if len(types) == 1 {
				return types[0]
			}
			if slices.Contains(types, "object") {
				return ""
			}
			return strings.Join(types, " or ")
		}
		ref, _ := node["$ref"].(string)
		next, ok := resolveLocal(root, ref)
		if !ok {
			return ""
		}
		node = next
	}
	return ""
}

// resolveLocal resolves a "#/..." JSON pointer inside root.
func resolveLocal(root map[string]any, ref string) (map[string]any, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	cur, err := jsonptr.Lookup(root, ref[1:])
	if err != nil {
		return nil, false
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// decodeObject decodes a schema that must be a JSON object, keeping
// numbers as written.
func decodeObject(doc json.RawMessage) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root map[string]any
	if err := dec.Decode(&root); err != nil || root == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	return root, nil
}
