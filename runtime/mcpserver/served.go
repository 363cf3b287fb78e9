package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// relaxedDrop are the keywords a schema served in a lenient mode (warn or
// off) goes without: what they check, warn mode keeps when it fails (a
// value outside an enum, a string that is not a date-time, a missing
// required member), so a client that validates structuredContent against
// them would refuse results the runtime accepted.
var relaxedDrop = map[string]bool{
	"enum": true, "const": true, "format": true, "pattern": true,
	"minLength": true, "maxLength": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true, "uniqueItems": true,
	"contains": true, "minContains": true, "maxContains": true,
	"required": true, "minProperties": true, "maxProperties": true,
	"dependentRequired": true, "dependentSchemas": true, "dependencies": true, "propertyNames": true,
	"not": true, "if": true, "then": true, "else": true,
}

// relax rewrites schema s (decoded JSON) in place into the schema a lenient
// mode guarantees: the keywords of relaxedDrop go, "false" for
// additionalProperties, unevaluatedProperties, unevaluatedItems, items and
// additionalItems goes (undeclared members may be kept), and oneOf becomes anyOf (with
// their constraints gone, several branches may match). What describes the
// shape of the data stays: types, properties, items, $defs, $refs, titles
// and descriptions; so do the branches' titles that name a union's
// variants. It reports whether it changed anything.
func relax(s any) (changed bool) {
	m, ok := s.(map[string]any)
	if !ok {
		return false
	}
	for k := range m {
		if relaxedDrop[k] {
			delete(m, k)
			changed = true
		}
	}
	for _, k := range []string{"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items", "additionalItems"} {
		if b, ok := m[k].(bool); ok && !b {
			delete(m, k)
			changed = true
		}
	}
	if one, ok := m["oneOf"]; ok {
		changed = true
		delete(m, "oneOf")
		if anyOf, ok := m["anyOf"].([]any); ok {
			// Both: keep them both as branches of an allOf.
			m["allOf"] = append(asList(m["allOf"]), map[string]any{"anyOf": one}, map[string]any{"anyOf": anyOf})
			delete(m, "anyOf")
		} else {
			m["anyOf"] = one
		}
	}
	for _, k := range []string{"properties", "patternProperties", "$defs", "definitions"} {
		if mm, ok := m[k].(map[string]any); ok {
			for _, sub := range mm {
				changed = relax(sub) || changed
			}
		}
	}
	for _, k := range []string{"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items", "additionalItems"} {
		changed = relax(m[k]) || changed
	}
	for _, k := range []string{"anyOf", "allOf", "prefixItems", "items"} {
		for _, sub := range asList(m[k]) {
			changed = relax(sub) || changed
		}
	}
	return changed
}

// asList is v as a list, or nil.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// conform brings data into the served schema of a tool in a lenient mode
// (see "Results" in the package doc): data already in it is returned as it
// is; otherwise the runtime's normalization (against the served schema)
// drops members of the wrong type and the values it cannot keep (array
// items, union values that fit no branch) are dropped, each with a
// warning. ok is false when the root itself does not fit (a number where
// the schema says an object): no structuredContent can be sent then.
func (t *tool) conform(ctx context.Context, data any) (out any, warnings []runtime.Warning, ok bool) {
	p := &runtime.Pipeline{Logger: nopLogger{}}
	env, err := opsgenimpl.Process(ctx, p, t.spec.ID, t.served, data)
	if err != nil {
		return nil, nil, false
	}
	if len(env.Warnings) == 0 {
		return data, nil, true
	}
	for _, w := range env.Warnings {
		w.Message = "structuredContent: " + w.Message
		warnings = append(warnings, w)
	}
	// What normalization could not fix is still there: drop it.
	again, err := opsgenimpl.Process(ctx, p, t.spec.ID, t.served, env.Data)
	if err != nil {
		return nil, warnings, false
	}
	out = again.Data
	if len(again.Warnings) == 0 {
		return out, warnings, true
	}
	// A copy to cut: what Process returns may share memory with what the
	// handler returned.
	if out, err = copyJSON(out); err != nil {
		return nil, warnings, false
	}
	for _, w := range again.Warnings {
		if w.Pointer == "" {
			return nil, append(warnings, w), false
		}
		out = dropPointer(out, w.Pointer)
		w.Message = "dropped from structuredContent: " + w.Message
		warnings = append(warnings, w)
	}
	out = compact(out)
	if last, err := opsgenimpl.Process(ctx, p, t.spec.ID, t.served, out); err != nil || len(last.Warnings) > 0 {
		return nil, append(warnings, last.Warnings...), false
	}
	return out, warnings, true
}

// copyJSON is a deep copy of v as decoded JSON.
func copyJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	err = dec.Decode(&out)
	return out, err
}

// dropped marks an array item that dropPointer removed; compact takes it out.
type dropped struct{}

// dropPointer removes the value at JSON pointer ptr from v (decoded JSON):
// a member is deleted, an array item marked (see compact). A pointer that
// leads nowhere changes nothing.
func dropPointer(v any, ptr string) any {
	tokens := strings.Split(ptr[1:], "/")
	cur := v
	for i, tok := range tokens {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		last := i == len(tokens)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				delete(c, tok)
				return v
			}
			cur = c[tok]
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(c) {
				return v
			}
			if last {
				c[n] = dropped{}
				return v
			}
			cur = c[n]
		default:
			return v
		}
	}
	return v
}

// compact removes the items dropPointer marked, at any depth.
func compact(v any) any {
	switch c := v.(type) {
	case map[string]any:
		for k, x := range c {
			c[k] = compact(x)
		}
	case []any:
		out := c[:0]
		for _, x := range c {
			if _, ok := x.(dropped); !ok {
				out = append(out, compact(x))
			}
		}
		return out
	}
	return v
}

// nopLogger drops the warnings of the server's own normalization: they are
// sent to the client (MetaWarnings) instead.
type nopLogger struct{}

func (nopLogger) WarnContext(context.Context, string, ...any) {}

// servedSchema is the output schema a tool publishes for out (the
// operation's) in mode: out itself in strict mode, its relaxed form
// otherwise (see relax). relaxed reports whether it differs from out.
func servedSchema(out json.RawMessage, mode runtime.ValidationMode) (served json.RawMessage, relaxed bool, err error) {
	if mode == runtime.ValidateStrict {
		return out, false, nil
	}
	root, err := decodeObject(out)
	if err != nil {
		return nil, false, err
	}
	if !relax(root) {
		return out, false, nil
	}
	served, err = json.Marshal(root)
	return served, true, err
}
