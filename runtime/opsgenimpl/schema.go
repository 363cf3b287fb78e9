package opsgenimpl

import "github.com/opsgen/opsgen/runtime/internal/conform"

// Schema is a JSON Schema compiled for the result pipeline: the output
// schema of an operation (SchemaSet.Ref) or a standalone one (NewSchema).
// It compiles on first use, or by Compile, which a generated test can call
// to find a broken schema early.
type Schema = conform.Schema

// SchemaSet is the JSON Schema document of a generated package, every
// named type under "$defs"; its schemas share their compiled nodes, so
// recursive and shared types compile once.
type SchemaSet = conform.SchemaSet

// NewSchemaSet returns the schemas of a generated package: doc is a JSON
// Schema document holding every named type under "$defs"; SchemaSet.Ref
// makes the schema of one operation's output, usually
// {"$ref":"#/$defs/Pet"}.
func NewSchemaSet(doc string) *SchemaSet { return conform.NewSchemaSet(doc) }

// NewSchema returns a standalone schema, for hand-written code.
func NewSchema(doc string) *Schema { return conform.NewSchema(doc) }

// NeedsFullValidator reports whether any of the JSON Schema documents uses
// a keyword the pipeline's own walker does not check, so that generated
// code must import runtime/fullschema for it to be checked.
func NeedsFullValidator(docs ...string) bool { return conform.NeedsFullValidator(docs...) }
