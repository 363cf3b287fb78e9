package opsgenimpl

import "github.com/opsgen/opsgen/runtime/internal/conform"

// Schema is a JSON Schema compiled for the result pipeline: the output
// schema of an operation or a standalone one (NewSchema). Generated code
// declares each as a statically initialised value,
//
//	var refSchemaPet = opsgenimpl.Schema{JSON: `{"$ref":"#/$defs/Pet"}`, Defs: []opsgenimpl.DefRef{defRefPet{}}, Set: &schemaSet}
//
// which compiles within {"$defs": {the defs Defs reach}} on first use, or
// by Compile, which a generated test can call to find a broken schema
// early.
type Schema = conform.Schema

// Def is the JSON Schema of one named type of a generated package, with the
// defs it refers to directly:
//
//	var defSchemaPet = opsgenimpl.Def{Name: "Pet", JSON: `{...}`, Deps: []opsgenimpl.DefRef{defRefOwner{}}}
type Def = conform.Def

// DefRef refers to a Def. Generated code declares one zero-size type per
// def whose Def method returns it,
//
//	type defRefPet struct{}
//
//	func (defRefPet) Def() *opsgenimpl.Def { return &defSchemaPet }
//
// so that recursive defs can list each other in static data (converting a
// value to an interface is no initialisation reference), and a program
// links only the defs its schemas reach.
type DefRef = conform.DefRef

// SchemaSet shares compiled nodes among the schemas of a generated package
// (a zero SchemaSet, for schemas with Defs), so recursive and shared types
// compile once; or it is a JSON Schema document that the schemas made by
// SchemaSet.Ref refer into (NewSchemaSet, NewDefSet).
type SchemaSet = conform.SchemaSet

// NewSchemaSet returns a set from a JSON Schema document holding named
// types under "$defs"; SchemaSet.Ref makes a schema that refers into it,
// usually {"$ref":"#/$defs/Pet"}. (Generated code of contract version 2
// declared one per package.)
func NewSchemaSet(doc string) *SchemaSet { return conform.NewSchemaSet(doc) }

// NewDefSet returns the set whose document is {"$defs": {...}} with the
// defs refs reach, built when a schema of the set is first used: a
// generated package's Schemas.
func NewDefSet(refs ...DefRef) *SchemaSet { return conform.NewDefSet(refs...) }

// NewSchema returns a standalone schema, for hand-written code.
func NewSchema(doc string) *Schema { return conform.NewSchema(doc) }

// NeedsFullValidator reports whether any of the JSON Schema documents uses
// a keyword the pipeline's own walker does not check, so that generated
// code must import runtime/fullschema for it to be checked.
func NeedsFullValidator(docs ...string) bool { return conform.NeedsFullValidator(docs...) }
