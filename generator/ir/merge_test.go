package ir

import (
	"encoding/json"
	"strings"
	"testing"
)

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
	defs := map[string]json.RawMessage{
		"CreateInputEntitiesItem": json.RawMessage(`{"type":"object","required":["name"]}`),
		"ReadOutputEntitiesItem":  json.RawMessage(`{"type":"object","required":["name"]}`),
		"Other":                   json.RawMessage(`{"type":"object"}`),
		"CreateInput":             json.RawMessage(`{"items":{"$ref":"#/$defs/CreateInputEntitiesItem"}}`),
		"ReadOutput":              json.RawMessage(`{"items":{"$ref":"#/$defs/ReadOutputEntitiesItem"}}`),
	}
	svc := &Service{Kind: MCP, Types: []*Type{a, in, other, b, out}, Defs: defs, Operations: []*Operation{
		{ID: "create", Tool: &Tool{InputType: in}, InputSchema: json.RawMessage(`{"$ref":"#/$defs/CreateInput"}`)},
		{ID: "read", Tool: &Tool{OutputType: out}, OutputSchema: json.RawMessage(`{"$ref":"#/$defs/ReadOutput"}`)},
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
		if s := string(svc.Defs[name]); !strings.Contains(s, `"#/$defs/EntitiesItem"`) {
			t.Errorf("Defs[%s] = %s", name, s)
		}
	}
	if _, ok := svc.Defs["EntitiesItem"]; !ok || len(svc.Defs) != 4 {
		t.Errorf("Defs keys: %v", svc.Defs)
	}
	// The tools' own input and output types are never merged, however alike.
	if svc.Operations[0].Tool.InputType.Name != "CreateInput" {
		t.Error("tool input renamed")
	}
	// Deterministic: the same input merges the same way in another order.
	a2, b2 := entity("CreateInputEntitiesItem"), entity("ReadOutputEntitiesItem")
	svc2 := &Service{Kind: MCP, Types: []*Type{b2, a2}, Defs: map[string]json.RawMessage{
		"CreateInputEntitiesItem": json.RawMessage(`{}`), "ReadOutputEntitiesItem": json.RawMessage(`{}`)}}
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
	open := `{"type":"object","required":["name"]}`
	closed := `{"type":"object","required":["name"],"additionalProperties":false}`
	svc := &Service{Kind: MCP, Types: []*Type{a, in, b, out}, Defs: map[string]json.RawMessage{
		"CreateInputEntitiesItem": json.RawMessage(open),
		"ReadOutputEntitiesItem":  json.RawMessage(closed),
		"CreateInput":             json.RawMessage(`{"items":{"$ref":"#/$defs/CreateInputEntitiesItem"}}`),
		"ReadOutput":              json.RawMessage(`{"items":{"$ref":"#/$defs/ReadOutputEntitiesItem"}}`),
	}, Operations: []*Operation{
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
	if s := string(svc.Defs["EntitiesItem"]); s != closed {
		t.Errorf("Defs[EntitiesItem] = %s", s)
	}
	if s := string(svc.Defs["CreateInputEntitiesItem"]); s != open {
		t.Errorf("Defs[CreateInputEntitiesItem] = %s", s)
	}
	if s := string(svc.Defs["CreateInput"]); !strings.Contains(s, `"#/$defs/CreateInputEntitiesItem"`) {
		t.Errorf("Defs[CreateInput] = %s", s)
	}
	if s := string(svc.Defs["ReadOutput"]); !strings.Contains(s, `"#/$defs/EntitiesItem"`) {
		t.Errorf("Defs[ReadOutput] = %s", s)
	}
}
