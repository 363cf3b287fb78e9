package opsgenimpl

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/internal/conform"
)

//go:embed envelope_schema.json
var envelopeSchema []byte

// EnvelopeSchema returns the JSON Schema (draft 2020-12) of an envelope's
// wire form: the seeds' ResponseEnvelopeSchema. Data may be anything; meta
// is one of the local, http and mcp metas, and MCP content blocks are the
// five known block types. It returns a fresh copy on each call.
func EnvelopeSchema() []byte { return bytes.Clone(envelopeSchema) }

// envelopeValidator is EnvelopeSchema compiled for the walker, which checks
// every keyword it uses.
var envelopeValidator = conform.NewSchema(string(envelopeSchema))

// ValidateEnvelopeJSON checks b, an envelope's JSON, against EnvelopeSchema.
// The error says where b does not match.
func ValidateEnvelopeJSON(b []byte) error {
	if err := envelopeValidator.Compile(); err != nil {
		panic("opsgen: embedded envelope schema: " + err.Error())
	}
	found, err := envelopeValidator.Issues(b)
	if err != nil {
		return fmt.Errorf("opsgen: envelope JSON: %w", err)
	}
	if len(found) > 0 {
		msgs := make([]string, len(found))
		for i, is := range found {
			msgs[i] = runtime.Warning(is).String()
		}
		return fmt.Errorf("opsgen: envelope does not match its schema: %w", errors.New(strings.Join(msgs, "; ")))
	}
	return nil
}
