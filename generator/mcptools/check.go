package mcptools

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/jsonptr"
)

// maxSchemaErrors bounds the metaschema violations reported for one schema.
const maxSchemaErrors = 3

var printer = message.NewPrinter(language.English)

// checker validates tool schemas against the metaschema of their draft
// ($schema, 2020-12 by default). One compiler serves a listing, so the
// metaschemas are compiled once.
type checker struct {
	c *jsonschema.Compiler
	n int
}

func newChecker() *checker {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{}) // references to other documents are not followed
	return &checker{c: c}
}

// maxSchemaDepth bounds the nesting of JSON values in a tool schema: the
// metaschema check takes time quadratic in it (seconds at a thousand
// levels), and real schemas stay far below.
const maxSchemaDepth = 200

// jsonDepth returns the nesting depth of a decoded JSON value, counting
// no further than limit+1.
func jsonDepth(v any, limit int) int {
	if limit < 0 {
		return 0
	}
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			deepest = max(deepest, jsonDepth(e, limit-1))
		}
	case []any:
		for _, e := range v {
			deepest = max(deepest, jsonDepth(e, limit-1))
		}
	default:
		return 0
	}
	return deepest + 1
}

// maxCheckRounds bounds how often check repairs a schema and checks it
// again before it gives up on the schema as a whole.
const maxCheckRounds = 5

// check reports where schema is not a valid JSON Schema (`"type": 5`,
// `"required": "id"`) as warnings at their places, and returns the schema
// repaired: generation never fails because of a schema. An offending
// keyword is removed from its schema (see repair); a value that should be a
// schema and is not becomes {} (any value). Other compilation problems
// (references, an unknown dialect) are left to the conversion, which
// handles them. The schema is changed in place.
func (k *checker) check(schema any, pos *positions, ptr string, diags *diag.List) any {
	if jsonDepth(schema, maxSchemaDepth) > maxSchemaDepth {
		diags.Warn(diag.RawJSON, pos.pos(ptr), "schema nests deeper than %d levels; any value is accepted", maxSchemaDepth)
		return map[string]any{}
	}
	reported := 0
	for round := 0; ; round++ {
		var ve *jsonschema.ValidationError
		switch err := k.validate(schema); {
		case err == nil:
			return schema
		case round == maxCheckRounds || !errors.As(err, &ve):
			diags.Warn(diag.RawJSON, pos.pos(ptr), "not a valid JSON Schema: %v; any value is accepted", err)
			return map[string]any{}
		}
		// By place, so that the places reported do not depend on the
		// validator's map order.
		byPlace := map[string]*jsonschema.ValidationError{}
		for _, leaf := range leaves(ve) {
			if at := joinPointer("", leaf.InstanceLocation); byPlace[at] == nil {
				byPlace[at] = leaf
			}
		}
		for _, at := range slices.Sorted(maps.Keys(byPlace)) {
			leaf := byPlace[at]
			var what string
			var kind diag.Kind
			schema, what, kind = repair(schema, leaf.InstanceLocation)
			if reported++; reported <= maxSchemaErrors {
				diags.Warn(kind, pos.pos(ptr+at), "not a valid JSON Schema: %s; %s", leaf.ErrorKind.LocalizedString(printer), what)
			} else if reported == maxSchemaErrors+1 {
				diags.Warn(diag.LeftOut, pos.pos(ptr), "not a valid JSON Schema in more places; those are ignored too")
			}
		}
	}
}

// validate checks schema against its draft's metaschema and returns the
// *jsonschema.SchemaValidationError's cause, or nil. A schema with an
// unknown dialect is checked as the default one.
func (k *checker) validate(schema any) error {
	var sve *jsonschema.SchemaValidationError
	err := k.compile(schema)
	if m, ok := schema.(map[string]any); ok && err != nil && !errors.As(err, &sve) {
		if _, ok := m["$schema"]; ok {
			m = maps.Clone(m)
			delete(m, "$schema")
			err = k.compile(m)
		}
	}
	if !errors.As(err, &sve) {
		return nil
	}
	return sve.Err
}

// repair fixes the place toks (a location inside root that fails the
// metaschema) and says what it did. When the value there is where a
// schema belongs, it becomes {} (any value). Otherwise the keyword of the
// innermost schema that holds the place is removed: `"type": 5`, `"required":
// ["a", 1]` and `"pattern": "(["` lose their keyword, and the rest of the
// schema is kept. kind classifies what was lost.
func repair(root any, toks []string) (_ any, what string, kind diag.Kind) {
	n := schemaDepth(root, toks)
	if n == len(toks) {
		if n == 0 {
			return map[string]any{}, "any value is accepted", diag.RawJSON
		}
		parent, _ := jsonptr.Lookup(root, joinPointer("", toks[:n-1]))
		switch p := parent.(type) {
		case map[string]any:
			p[toks[n-1]] = map[string]any{}
		case []any:
			i, _ := strconv.Atoi(toks[n-1])
			p[i] = map[string]any{}
		}
		return root, "any value is accepted there", diag.RawJSON
	}
	if s, ok := jsonptr.Lookup(root, joinPointer("", toks[:n])); ok {
		if m, ok := s.(map[string]any); ok {
			delete(m, toks[n])
		}
	}
	return root, fmt.Sprintf("the keyword %q is ignored", toks[n]), diag.LeftOut
}

// Keywords whose value holds subschemas: by name, by index, or itself.
var (
	namedSchemas   = map[string]bool{"properties": true, "patternProperties": true, "$defs": true, "definitions": true, "dependentSchemas": true, "dependencies": true}
	indexedSchemas = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true, "items": true}
	singleSchema   = map[string]bool{
		"items": true, "additionalItems": true, "additionalProperties": true, "unevaluatedItems": true, "unevaluatedProperties": true,
		"not": true, "if": true, "then": true, "else": true, "contains": true, "propertyNames": true, "contentSchema": true,
	}
)

// schemaDepth returns the number of tokens of toks that lead from root to
// the innermost subschema on the way: toks[:n] is a schema, or a place
// where one belongs (then n may be len(toks)).
func schemaDepth(root any, toks []string) int {
	n, v := 0, root
	for i := 0; i < len(toks); {
		m, ok := v.(map[string]any)
		if !ok {
			break
		}
		child, ok := m[toks[i]]
		if !ok {
			break
		}
		switch key := toks[i]; {
		case singleSchema[key] && !isList(child):
			v, i = child, i+1
		case i+1 < len(toks) && namedSchemas[key]:
			c, _ := child.(map[string]any)
			if v, ok = c[toks[i+1]]; !ok || isList(v) {
				return n // a draft-07 dependency list is no schema
			}
			i += 2
		case i+1 < len(toks) && indexedSchemas[key] && isList(child):
			j, err := strconv.Atoi(toks[i+1])
			if err != nil || j < 0 || j >= len(child.([]any)) {
				return n
			}
			v, i = child.([]any)[j], i+2
		default:
			return n
		}
		n = i
	}
	return n
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// compile compiles schema as a resource of its own.
func (k *checker) compile(schema any) error {
	k.n++
	url := fmt.Sprintf("urn:opsgen:tool-schema:%d", k.n)
	if err := k.c.AddResource(url, schema); err != nil {
		return err
	}
	_, err := k.c.Compile(url)
	return err
}

// refuseLoader loads no URL.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("not loading %s", url)
}

// leaves returns the innermost errors of a validation error tree, which
// name the precise places.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// joinPointer is ptr followed by the tokens.
func joinPointer(ptr string, toks []string) string {
	var b strings.Builder
	b.WriteString(ptr)
	for _, t := range toks {
		b.WriteString("/" + jsonptr.Escape(t))
	}
	return b.String()
}
