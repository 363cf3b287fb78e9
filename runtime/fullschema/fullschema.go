// Package fullschema validates the JSON Schema keywords that the runtime's
// own walker does not check (not, if/then/else, patternProperties,
// propertyNames, dependentSchemas, unevaluatedProperties, contains,
// $dynamicRef, ...), with github.com/santhosh-tekuri/jsonschema/v6.
//
// Importing it for its side effect installs it in package runtime:
//
//	import _ "github.com/opsgen/opsgen/runtime/fullschema"
//
// Generated code imports it only when its schemas use such keywords.
// Without it, those keywords are not checked (the runtime logs that once
// per schema) and everything else is. It lives apart from package runtime
// because jsonschema/v6 compiles its metaschemas in its package
// initialisation (about 5 ms at every start of a program that links it)
// and adds about 0.7 MB to a stripped binary.
package fullschema

import (
	"errors"
	"strings"

	"github.com/opsgen/opsgen/runtime/internal/conform"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/opsgen/opsgen/runtime/internal/jsonptr"
	// Its patterns compile as the walker's do.
	_ "github.com/opsgen/opsgen/runtime/pattern"
)

func init() { conform.SetFullValidator(Validator{}) }

// Validator is the conform.FullValidator of this package.
type Validator struct{}

// Compile implements conform.FullValidator.
func (Validator) Compile(doc any, ptr string) (conform.FullSchema, error) {
	const url = "opsgen:schema.json"
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(lenientRegexps)
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	if ptr == "" {
		ptr = "#"
	}
	s, err := c.Compile(url + ptr)
	if err != nil {
		return nil, err
	}
	return schema{s}, nil
}

type schema struct{ s *jsonschema.Schema }

// printer renders the validator's messages.
var printer = message.NewPrinter(language.English)

// Validate implements conform.FullSchema.
func (s schema) Validate(data []byte) []conform.Issue {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		return nil // the walker checked the syntax
	}
	var ve *jsonschema.ValidationError
	if !errors.As(s.s.Validate(v), &ve) {
		return nil
	}
	var out []conform.Issue
	var leaves func(e *jsonschema.ValidationError)
	leaves = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				leaves(c)
			}
			return
		}
		out = append(out, conform.Issue{Pointer: jsonptr.Join(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
	}
	leaves(ve)
	return out
}

// lenientRegexps reads patterns as the runtime's walker does
// (conform.CompilePattern): a pattern Go cannot compile matches everything
// rather than failing the whole schema.
func lenientRegexps(s string) (jsonschema.Regexp, error) {
	if re := conform.CompilePattern(s); re != nil {
		return re, nil
	}
	return anyString(s), nil
}

// anyString is a pattern that is not checked.
type anyString string

func (p anyString) String() string        { return string(p) }
func (anyString) MatchString(string) bool { return true }
