package runtime

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed envelope_schema.json
var envelopeSchema []byte

// EnvelopeSchema returns the JSON Schema (draft 2020-12) of an envelope's
// wire form: the seeds' ResponseEnvelopeSchema. Data may be anything; meta
// is one of the local, http and mcp metas, and MCP content blocks are the
// five known block types. It returns a fresh copy on each call.
func EnvelopeSchema() []byte { return bytes.Clone(envelopeSchema) }

var envelopeValidator = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(envelopeSchema))
	if err != nil {
		panic("opsgen: embedded envelope schema: " + err.Error())
	}
	c := jsonschema.NewCompiler()
	const url = "https://opsgen.dev/schema/response-envelope.json"
	if err := c.AddResource(url, doc); err != nil {
		panic("opsgen: embedded envelope schema: " + err.Error())
	}
	return c.MustCompile(url)
})

// ValidateEnvelopeJSON checks b, an envelope's JSON, against EnvelopeSchema.
// The error says where b does not match.
func ValidateEnvelopeJSON(b []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("opsgen: envelope JSON: %w", err)
	}
	if err := envelopeValidator().Validate(v); err != nil {
		return fmt.Errorf("opsgen: envelope does not match its schema: %w", err)
	}
	return nil
}
