package conform

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// FullValidator compiles JSON Schemas for the keywords the runtime's own
// walker does not check (not, if/then/else, patternProperties, contains,
// $dynamicRef, ...: see the package doc). Package
// github.com/opsgen/opsgen/runtime/fullschema registers one (backed by
// santhosh-tekuri/jsonschema/v6) when it is imported; generated code
// imports it only when its schemas use such keywords, so that a program
// whose schemas do not need it neither links it nor pays for its package
// initialisation.
type FullValidator interface {
	// Compile compiles the schema at the JSON pointer fragment ptr ("#" for
	// the root) of doc, a document decoded with json.Number numbers and
	// OpenAPI 3.0's nullable already rewritten as a type array.
	Compile(doc any, ptr string) (FullSchema, error)
}

// FullSchema is a schema compiled by a FullValidator.
type FullSchema interface {
	// Validate returns the mismatches of data (valid JSON) with the schema,
	// each with the JSON pointer of the value (OperationID left empty).
	Validate(data []byte) []Issue
}

var fullValidator atomic.Pointer[FullValidator]

// SetFullValidator installs v as the validator of the keywords the walker
// does not check; schemas compiled before keep what they had. Package
// runtime/fullschema calls it in its init.
func SetFullValidator(v FullValidator) { fullValidator.Store(&v) }

func currentFullValidator() FullValidator {
	if p := fullValidator.Load(); p != nil {
		return *p
	}
	return nil
}

// NeedsFullValidator reports whether any of the JSON Schema documents uses
// a keyword the walker does not check, which only a FullValidator
// (runtime/fullschema) validates. The generator calls it to decide whether
// generated code imports runtime/fullschema. A document that is not JSON
// is reported as not needing it (compiling it fails anyway).
func NeedsFullValidator(docs ...string) bool {
	for _, doc := range docs {
		// Most documents use none: a scan without decoding says so.
		if !strings.Contains(doc, `"`) || !mayUseUnsupported(doc) {
			continue
		}
		v, err := parseJSON(doc)
		if err == nil && usesUnsupported(v) {
			return true
		}
	}
	return false
}

// usesUnsupported walks a schema document for unsupportedKeywords in
// keyword position (not member names of properties, $defs and the like,
// nor values of enum, const, default and examples).
func usesUnsupported(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			switch k {
			case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas", "dependencies":
				if unsupportedKeywords[k] {
					return true
				}
				if m, ok := c.(map[string]any); ok {
					for _, s := range m {
						if usesUnsupported(s) {
							return true
						}
					}
				}
				continue
			case "enum", "const", "default", "examples", "example":
				continue
			}
			if k == "not" && isTrivialSchema(c) {
				continue // {"not":{}}: the walker's false schema
			}
			if unsupportedKeywords[k] || usesUnsupported(c) {
				return true
			}
		}
	case []any:
		for _, c := range v {
			if usesUnsupported(c) {
				return true
			}
		}
	}
	return false
}

// compileFallback compiles the schema with the FullValidator, for the
// keywords the walker does not check. Without one (runtime/fullschema not
// imported) those keywords are not checked, and a warning says so once
// per schema through the default logger.
func compileFallback(s *Schema) (FullSchema, error) {
	fv := currentFullValidator()
	if fv == nil {
		uncheckedOnce(s)
		return nil, nil
	}
	doc, _ := parseJSON(s.JSON) // parsed fine before
	ptr := "#"
	if len(s.Defs) > 0 || s.Set != nil {
		// Refs of the schema point into its defs or the set document: put
		// the schema inside (a copy of) that document so they resolve.
		var refDoc any
		var err error
		if len(s.Defs) > 0 {
			refDoc, err = defsDocument(s.Defs, true)
		} else {
			refDoc, err = s.Set.freshDocument()
		}
		if err != nil {
			return nil, err
		}
		m, ok := refDoc.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("opsgen: schema set is not an object")
		}
		defs, _ := m["$defs"].(map[string]any)
		if defs == nil {
			defs = map[string]any{}
			m["$defs"] = defs
		}
		defs["opsgen:root"] = doc
		doc, ptr = m, "#/$defs/opsgen:root"
	}
	sch, err := fv.Compile(openAPINullable(doc), ptr)
	if err != nil {
		return nil, fmt.Errorf("opsgen: schema: %w", err)
	}
	return sch, nil
}

var uncheckedLogged sync.Map // *Schema -> struct{}

func uncheckedOnce(s *Schema) {
	if _, dup := uncheckedLogged.LoadOrStore(s, struct{}{}); !dup {
		logUnchecked()
	}
}

// logUnchecked is a variable so that a test can observe it.
var logUnchecked = func() {
	LogWarning("opsgen: a schema uses JSON Schema keywords the runtime checks only with runtime/fullschema imported; they are not checked")
}

// Issues validates data (JSON) against schema without normalizing it: the
// walker's issues and the full validator's. A non-nil error means data is
// not JSON.
func (schema *Schema) Issues(data []byte) ([]Issue, error) {
	w := newWalker(data, false)
	defer w.release()
	w.document(schema.root)
	if w.err != nil {
		var v any
		if jerr := json.Unmarshal(data, &v); jerr != nil {
			return nil, jerr
		}
		return nil, w.err
	}
	issues := w.issues
	if schema.fallback != nil {
		issues = append(issues, fallbackIssues(schema, data, issues)...)
	}
	return issues, nil
}
