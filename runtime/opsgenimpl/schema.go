package opsgenimpl

import "github.com/opsgen/opsgen/runtime"

// NewSchemaSet returns the schemas of a generated package: doc is a JSON
// Schema document holding every named type under "$defs"; SchemaSet.Ref
// makes the schema of one operation's output. Schemas compile on first use.
func NewSchemaSet(doc string) *runtime.SchemaSet { return runtime.NewSchemaSet(doc) }
