package conform

import "fmt"

// Document returns the schema as decoded JSON (map[string]any, []any,
// json.Number and the other scalars) and the document its "$ref"s resolve
// against: the closure of its Defs, the set's document for a schema of a
// SchemaSet, else the schema itself.
// Wire forms that the schema guides (XML: runtime/xmljson) read it; the
// values are shared and must not be modified. A nil *Schema returns nils.
func (s *Schema) Document() (schema, doc any, err error) {
	if s == nil {
		return nil, nil, nil
	}
	s.parsedOnce.Do(func() { s.parsed, s.parseErr = parseJSON(s.JSON) })
	if s.parseErr != nil {
		return nil, nil, fmt.Errorf("opsgen: schema: %w", s.parseErr)
	}
	schema = s.parsed
	switch {
	case len(s.Defs) > 0:
		doc, err = s.refDoc()
		if err != nil {
			return nil, nil, err
		}
		return schema, doc, nil
	case s.Set == nil:
		return schema, schema, nil
	}
	s.Set.mu.Lock()
	defer s.Set.mu.Unlock()
	if doc, err = s.refDoc(); err != nil {
		return nil, nil, err
	}
	return schema, doc, nil
}
