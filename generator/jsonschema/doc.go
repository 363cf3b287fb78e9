// Package jsonschema is the generator's schema stage: it turns JSON Schema
// into IR types (generator/ir), for every source.
//
// [Schema] is the model: one node per schema, in the dialects the sources
// use (draft 2020-12 and 2019-09, draft-07, OpenAPI 3.0's nullable,
// boolean exclusive bounds and discriminator), with references resolved
// (Ref and Target) and the position of each node. The loaders build it:
// generator/openapi adapts kin-openapi's schemas, generator/mcptools
// decodes a tool's schemas straight from the listing's JSON.
//
// A [Converter] maps the model to IR types, once per schema however often
// it is used:
//
//   - Objects with properties, enums, unions (oneOf, anyOf, several
//     types) and merged allOfs are named types; other schemas are written
//     in place. Definitions (Declare) and reference targets are named after
//     their key, inline types after their parent (PetOwner, OpResponseItem).
//     Names are requested during conversion and given by AllocateNames in
//     an order that does not depend on the document's (group, then key), so
//     that a component keeps its name when an invented one wants it too.
//   - Null: a named type's Nullable says its own schema allows null; where
//     a use adds null (oneOf [X, null], nullable, type arrays), the Entry
//     says so and fields record it.
//   - allOf: object parts merge into one struct (a later part's property
//     wins). An allOf of one part is that part's type, and so is an allOf
//     whose parts agree on a type (a primitive, an array, an enum, or one
//     object): parts that only annotate (title, description, default,
//     deprecated, readOnly, writeOnly, nullable) do not disagree, and give
//     their annotations to the property. AWS's allOf: [{$ref: String},
//     {description: ...}] is a String.
//   - readOnly and writeOnly: such a property is never required of the Go
//     value, so that its field is optional (omitempty, a pointer for
//     values) and a request leaves a read-only property out unless it is
//     set. The JSON Schemas follow the direction: the schema of responses
//     keeps a required read-only property required (a response without
//     its id is warned about) and drops a required write-only one, absent
//     from responses; the input schema of a request (a def's Input,
//     InputJSONSchema) keeps a required write-only property required, as
//     servers check it (bunq's attachment_id), and drops a read-only one.
//   - What the IR cannot express degrades to ir.Any (raw JSON) with a
//     warning naming the place, never an error.
//
// TypeSchemas and JSONSchema build the draft 2020-12 JSON Schema the
// runtime validates with (ir.Service.Defs), as ir.Schema values that the
// emitter writes: references to named types point at their types' Defs
// ({"$ref": "#/$defs/<Name>"} once written), OpenAPI 3.0's nullable becomes a type
// array (or anyOf with null), and documentation keywords are dropped; the
// sources give validation keywords in their 2020-12 form (AppendBound
// turns boolean exclusive bounds into numbers).
package jsonschema
