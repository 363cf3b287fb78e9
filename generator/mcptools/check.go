package mcptools

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/opsgen/opsgen/generator/diag"
)

// maxSchemaErrors bounds the errors reported for one schema.
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

// check reports where schema is not a valid JSON Schema (`"type": 5`,
// `"required": "id"`), so that such mistakes are named at their place
// instead of failing the conversion as a whole. It reports whether the
// schema is valid. Other compilation problems (references, an unknown
// dialect) are left to the conversion, which handles them.
func (k *checker) check(schema any, pos *positions, ptr string, diags *diag.List) bool {
	err := k.compile(schema)
	if m, ok := schema.(map[string]any); ok && err != nil && !isMetaschemaError(err) {
		if _, ok := m["$schema"]; ok {
			// An unknown dialect: check it as the default one.
			m = maps.Clone(m)
			delete(m, "$schema")
			err = k.compile(m)
		}
	}
	var sve *jsonschema.SchemaValidationError
	if !errors.As(err, &sve) {
		return true
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sve.Err, &ve) {
		diags.Errorf(pos.pos(ptr), "not a valid JSON Schema: %v", sve.Err)
		return false
	}
	seen := map[string]bool{}
	for _, leaf := range leaves(ve) {
		at := joinPointer(ptr, leaf.InstanceLocation)
		if seen[at] {
			continue
		}
		seen[at] = true
		if len(seen) > maxSchemaErrors {
			break
		}
		diags.Errorf(pos.pos(at), "not a valid JSON Schema: %s", leaf.ErrorKind.LocalizedString(printer))
	}
	return false
}

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

func isMetaschemaError(err error) bool {
	var sve *jsonschema.SchemaValidationError
	return errors.As(err, &sve)
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
		b.WriteString("/" + escapePointer(t))
	}
	return b.String()
}
