package ir

import (
	"strings"
	"testing"
)

// withDefs gives each type a def of the schema schemas names for it
// (JSON, references by "#/$defs/<Name>") and returns the defs.
func withDefs(t *testing.T, types []*Type, schemas map[string]string) []*Def {
	t.Helper()
	byName := map[string]*Def{}
	for _, ty := range types {
		ty.Def = &Def{Name: ty.Name}
		byName[ty.Name] = ty.Def
	}
	var defs []*Def
	for _, ty := range types {
		s, err := DecodeSchema([]byte(schemas[ty.Name]), func(name string) *Def { return byName[name] })
		if err != nil {
			t.Fatal(err)
		}
		ty.Def.Schema = s
		defs = append(defs, ty.Def)
	}
	return defs
}

// text is the JSON of s.
func text(t *testing.T, s *Schema) string {
	t.Helper()
	b, ok := s.AppendJSON(nil)
	if !ok {
		t.Fatalf("schema %v does not write", s)
	}
	return string(b)
}

func TestMergeIdentical(t *testing.T) {
	str := &Type{Kind: String}
	entity := func(name string) *Type {
		return &Type{Name: name, Kind: Struct, Doc: Doc{Description: name}, Fields: []*Field{
			{Name: "Name", JSONName: "name", Type: str, Required: true},
		}}
	}
	a, b, other := entity("CreateInputEntitiesItem"), entity("ReadOutputEntitiesItem"), entity("Other")
	other.Fields[0].Required = false // another shape
	in := &Type{Name: "CreateInput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: a}}}}
	out := &Type{Name: "ReadOutput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: b}}}}
	types := []*Type{a, in, other, b, out}
	defs := withDefs(t, types, map[string]string{
		"CreateInputEntitiesItem": `{"type":"object","required":["name"]}`,
		"ReadOutputEntitiesItem":  `{"type":"object","required":["name"]}`,
		"Other":                   `{"type":"object"}`,
		"CreateInput":             `{"items":{"$ref":"#/$defs/CreateInputEntitiesItem"}}`,
		"ReadOutput":              `{"items":{"$ref":"#/$defs/ReadOutputEntitiesItem"}}`,
	})
	svc := &Service{Kind: MCP, Types: types, Defs: defs, Operations: []*Operation{
		{ID: "create", Tool: &Tool{InputType: in}, InputSchema: RefTo(in.Def)},
		{ID: "read", Tool: &Tool{OutputType: out}, OutputSchema: RefTo(out.Def)},
	}}
	MergeIdentical(svc)
	var names []string
	for _, t := range svc.Types {
		names = append(names, t.Name)
	}
	if got := strings.Join(names, " "); got != "CreateInput EntitiesItem Other ReadOutput" {
		t.Fatalf("types = %s", got)
	}
	if in.Fields[0].Type.Elem != out.Fields[0].Type.Elem || in.Fields[0].Type.Elem.Name != "EntitiesItem" {
		t.Fatal("the tools do not share the entity type")
	}
	for _, name := range []string{"CreateInput", "ReadOutput"} {
		if s := text(t, svc.Def(name).Schema); s != `{"items":{"$ref":"#/$defs/EntitiesItem"}}` {
			t.Errorf("Defs[%s] = %s", name, s)
		}
	}
	var defNames []string
	for _, d := range svc.Defs {
		defNames = append(defNames, d.Name)
	}
	if got := strings.Join(defNames, " "); got != "CreateInput EntitiesItem Other ReadOutput" {
		t.Errorf("Defs: %s", got)
	}
	if got := text(t, svc.Operations[1].OutputSchema); got != `{"$ref":"#/$defs/ReadOutput"}` {
		t.Errorf("output schema: %s", got)
	}
	// The tools' own input and output types are never merged, however alike.
	if svc.Operations[0].Tool.InputType.Name != "CreateInput" {
		t.Error("tool input renamed")
	}
	// Deterministic: the same input merges the same way in another order.
	a2, b2 := entity("CreateInputEntitiesItem"), entity("ReadOutputEntitiesItem")
	types2 := []*Type{b2, a2}
	svc2 := &Service{Kind: MCP, Types: types2, Defs: withDefs(t, types2, map[string]string{
		"CreateInputEntitiesItem": `{}`, "ReadOutputEntitiesItem": `{}`})}
	MergeIdentical(svc2)
	if len(svc2.Types) != 1 || svc2.Types[0].Name != "EntitiesItem" {
		t.Errorf("reordered: %v", svc2.Types)
	}
}

// TestMergeIdenticalSchemasDiffer: the memory server's input entities are
// open objects and its output entities closed ones. The Go types are one;
// each operation's schema still validates as its document says.
func TestMergeIdenticalSchemasDiffer(t *testing.T) {
	str := &Type{Kind: String}
	entity := func(name string) *Type {
		return &Type{Name: name, Kind: Struct, Fields: []*Field{{Name: "Name", JSONName: "name", Type: str, Required: true}}}
	}
	a, b := entity("CreateInputEntitiesItem"), entity("ReadOutputEntitiesItem")
	in := &Type{Name: "CreateInput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: a}}}}
	out := &Type{Name: "ReadOutput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: b}}}}
	open := `{"required":["name"],"type":"object"}`
	closed := `{"additionalProperties":false,"required":["name"],"type":"object"}`
	types := []*Type{a, in, b, out}
	svc := &Service{Kind: MCP, Types: types, Defs: withDefs(t, types, map[string]string{
		"CreateInputEntitiesItem": open,
		"ReadOutputEntitiesItem":  closed,
		"CreateInput":             `{"items":{"$ref":"#/$defs/CreateInputEntitiesItem"}}`,
		"ReadOutput":              `{"items":{"$ref":"#/$defs/ReadOutputEntitiesItem"}}`,
	}), Operations: []*Operation{
		{ID: "create", Tool: &Tool{InputType: in}},
		{ID: "read", Tool: &Tool{OutputType: out}},
	}}
	MergeIdentical(svc)
	if in.Fields[0].Type.Elem != out.Fields[0].Type.Elem || in.Fields[0].Type.Elem.Name != "EntitiesItem" {
		t.Fatalf("not shared: %s and %s", in.Fields[0].Type.Elem.Name, out.Fields[0].Type.Elem.Name)
	}
	if len(svc.Types) != 3 {
		t.Errorf("types: %d", len(svc.Types))
	}
	// The keeper (the shorter name) has its schema under its new name; the
	// other keeps its own under its old name, still referred to by the
	// operation that declared it.
	if s := text(t, svc.Def("EntitiesItem").Schema); s != closed {
		t.Errorf("Defs[EntitiesItem] = %s", s)
	}
	if s := text(t, svc.Def("CreateInputEntitiesItem").Schema); s != open {
		t.Errorf("Defs[CreateInputEntitiesItem] = %s", s)
	}
	if s := text(t, svc.Def("CreateInput").Schema); !strings.Contains(s, `"#/$defs/CreateInputEntitiesItem"`) {
		t.Errorf("Defs[CreateInput] = %s", s)
	}
	if s := text(t, svc.Def("ReadOutput").Schema); !strings.Contains(s, `"#/$defs/EntitiesItem"`) {
		t.Errorf("Defs[ReadOutput] = %s", s)
	}
}

// TestMergeIdenticalInputsDiffer: two entities whose schemas are the same
// but whose input schemas differ (one requires a write-only token in
// requests) share a Go type, and each keeps its def, so that a request's
// bundle still requires the token.
func TestMergeIdenticalInputsDiffer(t *testing.T) {
	str := &Type{Kind: String}
	entity := func(name string) *Type {
		return &Type{Name: name, Kind: Struct, Fields: []*Field{{Name: "Token", JSONName: "token", Type: str, WriteOnly: true}}}
	}
	a, b := entity("CreateInputEntitiesItem"), entity("ReadOutputEntitiesItem")
	in := &Type{Name: "CreateInput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: a}}}}
	out := &Type{Name: "ReadOutput", Kind: Struct, Fields: []*Field{{Name: "Entities", JSONName: "entities", Type: &Type{Kind: Array, Elem: b}}}}
	types := []*Type{a, in, b, out}
	svc := &Service{Kind: MCP, Types: types, Defs: withDefs(t, types, map[string]string{
		"CreateInputEntitiesItem": `{"type":"object"}`,
		"ReadOutputEntitiesItem":  `{"type":"object"}`,
		"CreateInput":             `{"items":{"$ref":"#/$defs/CreateInputEntitiesItem"}}`,
		"ReadOutput":              `{"items":{"$ref":"#/$defs/ReadOutputEntitiesItem"}}`,
	}), Operations: []*Operation{
		{ID: "create", Tool: &Tool{InputType: in}},
		{ID: "read", Tool: &Tool{OutputType: out}},
	}}
	requiresToken := `{"required":["token"],"type":"object"}`
	input, err := DecodeSchema([]byte(requiresToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Def.Input = input
	MergeIdentical(svc)
	if in.Fields[0].Type.Elem != out.Fields[0].Type.Elem {
		t.Fatalf("not shared: %s and %s", in.Fields[0].Type.Elem.Name, out.Fields[0].Type.Elem.Name)
	}
	d := svc.Def("CreateInputEntitiesItem")
	if d == nil {
		t.Fatal("the def whose input schema differs was dropped")
	}
	if s := text(t, d.InputSchema()); s != requiresToken {
		t.Errorf("Defs[CreateInputEntitiesItem] input = %s", s)
	}
	if s := text(t, svc.Def("CreateInput").Schema); !strings.Contains(s, `"#/$defs/CreateInputEntitiesItem"`) {
		t.Errorf("Defs[CreateInput] = %s", s)
	}
}
