package emit

import "github.com/opsgen/opsgen/generator/ir"

// Structs whose schema states no type (ir.Type.NonObject).
//
// "properties" without "type" constrains objects only, so an array, a
// string or null is as valid as an object: azure's search-searchindex
// AutocompleteResult is such a schema, and its server sends an array. The
// struct stays the struct, for objects, and gets a NonObject field
// (json.RawMessage, not in the JSON object) that its UnmarshalJSON fills
// with any other value as it came, and that its MarshalJSON writes back
// instead of the fields: the value round-trips and decoding it is no drift.

// nonObjectField is the field of a NonObject struct.
func nonObjectField() field {
	return field{
		doc: []string{
			"NonObject holds the value, as it came, when it is not a JSON object",
			"(the schema states no type, so any JSON value is valid). When set,",
			"MarshalJSON writes it instead of the fields.",
		},
		name: ir.NonObjectField, typ: rawMessageType, tag: "-",
	}
}

// jsonMethods declares the MarshalJSON and UnmarshalJSON of struct t with
// the given bodies (which handle JSON objects), both after "type plain
// <t>", t without the methods; for a NonObject struct the methods first
// deal with NonObject.
func (g *gen) jsonMethods(f *generatedFile, t *ir.Type, marshalDoc string, marshal func(w *textWriter), unmarshalDoc string, unmarshal func(w *textWriter)) {
	if t.NonObject {
		marshalDoc += " A value in NonObject is written as it is."
		unmarshalDoc += " A value that is not an object is kept in NonObject."
	}
	f.write(newDoc(marshalDoc), func(w *textWriter) {
		w.P("func (v ", t.Name, ") MarshalJSON() ([]byte, error) {")
		if t.NonObject {
			w.P("\tif v.", ir.NonObjectField, " != nil {")
			w.P("\t\treturn v.", ir.NonObjectField, ", nil")
			w.P("\t}")
		}
		w.P("\ttype plain ", t.Name)
		marshal(w)
		w.P("}")
	})
	f.write(newDoc(unmarshalDoc), func(w *textWriter) {
		w.P("func (v *", t.Name, ") UnmarshalJSON(b []byte) error {")
		if t.NonObject {
			w.P("\tif raw := ", qual("bytes", "TrimSpace"), "(b); len(raw) > 0 && raw[0] != '{' {")
			w.P("\t\t*v = ", t.Name, "{", ir.NonObjectField, ": append(", qual("encoding/json", "RawMessage"), "(nil), raw...)}")
			w.P("\t\treturn nil")
			w.P("\t}")
			w.P("\tv.", ir.NonObjectField, " = nil")
		}
		w.P("\ttype plain ", t.Name)
		unmarshal(w)
		w.P("}")
	})
}

// plainNonObjectMethods declares the methods of a NonObject struct that
// needs no others: objects are read and written by encoding/json.
func (g *gen) plainNonObjectMethods(f *generatedFile, t *ir.Type) {
	g.jsonMethods(f, t, "MarshalJSON writes the fields as one object.", func(w *textWriter) {
		w.P("\treturn ", qual("encoding/json", "Marshal"), "(plain(v))")
	}, "UnmarshalJSON reads an object into the fields.", func(w *textWriter) {
		w.P("\treturn ", qual("encoding/json", "Unmarshal"), "(b, (*plain)(v))")
	})
}
