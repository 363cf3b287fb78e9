package emit

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// bigService is a synthetic service of n operations over n/2 types, the
// shape of a large real API (GitHub's has 767 operations).
func bigService(n int) *ir.Service {
	str, i64 := &ir.Type{Kind: ir.String}, &ir.Type{Kind: ir.Int}
	state := &ir.Type{Name: "State", Kind: ir.Enum, Base: ir.String, Values: []*ir.EnumValue{
		{Name: "StateOpen", Value: "open"}, {Name: "StateClosed", Value: "closed"},
	}}
	apiErr := &ir.Type{Name: "Error", Kind: ir.Struct, Fields: []*ir.Field{{Name: "Message", JSONName: "message", Type: str, Required: true}}}
	svc := &ir.Service{Kind: ir.OpenAPI, Source: "specs/big.json", Title: "Big",
		Servers:         []ir.Server{{URL: "https://api.example"}},
		Types:           []*ir.Type{state, apiErr},
		SecuritySchemes: []*ir.SecurityScheme{{Name: "token", GoName: "Token", Type: "http", Scheme: "bearer"}},
		Security:        [][]string{{"token"}},
	}
	thingSchema, err := ir.DecodeSchema([]byte(`{"type":"object","properties":{"id":{"type":"integer"},"name":{"type":"string"}}}`), nil)
	if err != nil {
		panic(err)
	}
	apiErr.Def = &ir.Def{Name: "Error"} // referred to, not declared
	var prev *ir.Type
	for i := 0; i < n/2; i++ {
		t := &ir.Type{Name: fmt.Sprintf("Thing%d", i), Kind: ir.Struct, Doc: ir.Doc{Description: "A thing of the API, described at some length as real specs do.", Origin: "#/components/schemas/x"},
			Fields: []*ir.Field{
				{Name: "ID", JSONName: "id", Type: i64, Required: true, Doc: ir.Doc{Description: "Unique identifier."}},
				{Name: "Name", JSONName: "name", Type: str, Required: true, Doc: ir.Doc{Description: "The name."}},
				{Name: "State", JSONName: "state", Type: state},
				{Name: "Labels", JSONName: "labels", Type: &ir.Type{Kind: ir.Array, Elem: str}},
				{Name: "URL", JSONName: "url", Type: str, Doc: ir.Doc{Description: "Where it lives."}},
				{Name: "Created", JSONName: "created_at", Type: &ir.Type{Kind: ir.DateTime}, Required: true},
			}}
		if prev != nil {
			t.Fields = append(t.Fields, &ir.Field{Name: "Parent", JSONName: "parent", Type: prev})
		}
		prev = t
		svc.Types = append(svc.Types, t)
		t.Def = &ir.Def{Name: t.Name, Schema: thingSchema}
		svc.Defs = append(svc.Defs, t.Def)
	}
	for i := 0; i < n; i++ {
		thing := svc.Types[2+i%(n/2)]
		ref := ir.RefTo(thing.Def)
		ok := &ir.Response{Status: "200", MediaType: "application/json", Kind: ir.BodyJSON, Type: thing, Schema: ref}
		op := &ir.Operation{ID: fmt.Sprintf("op%d", i), GoName: fmt.Sprintf("Op%d", i), Method: "GET", Path: "/things/{id}", ParamsName: fmt.Sprintf("Op%dParams", i),
			Doc: ir.Doc{Summary: "Does something.", Description: "A longer description of what the operation does.", Origin: "GET /things/{id}"},
			Params: []*ir.Param{
				{Name: "id", GoName: "ID", In: ir.InPath, Required: true, Type: i64, Doc: ir.Doc{Description: "The id."}},
				{Name: "per_page", GoName: "PerPage", In: ir.InQuery, Explode: true, Type: i64},
				{Name: "state", GoName: "State", In: ir.InQuery, Explode: true, Type: state},
			},
			Responses: []*ir.Response{ok, {Status: "404", MediaType: "application/json", Kind: ir.BodyJSON, Type: apiErr, Schema: ir.RefTo(apiErr.Def)}},
			Result:    ok, InputSchema: ir.NewSchema(ir.Member{Key: "type", Value: "object"}), OutputSchema: ref}
		if i%2 == 0 {
			op.Method = "POST"
			op.Body = &ir.Body{MediaType: "application/json", Kind: ir.BodyJSON, Type: thing, Required: true}
		}
		svc.Operations = append(svc.Operations, op)
	}
	return svc
}

// TestEmitSize checks the line budget: a 767-operation API must stay well
// under 125,000 lines.
func TestEmitSize(t *testing.T) {
	files, _ := emit(t, bigService(767), Options{Package: "big", Registry: true})
	lines := 0
	for _, f := range files {
		n := bytes.Count(f.Content, []byte("\n"))
		t.Logf("%s: %d lines", f.Name, n)
		lines += n
	}
	t.Logf("total: %d lines", lines)
	if lines > 125000 {
		t.Errorf("%d lines for 767 operations, budget 125000", lines)
	}
}

func BenchmarkEmit(b *testing.B) {
	svc := bigService(767)
	for b.Loop() {
		if _, _, err := Emit(svc, Options{Package: "big", Registry: true}); err != nil {
			b.Fatal(err)
		}
	}
}
