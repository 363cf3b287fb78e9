package opsgenimpl

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestUnionSelectDiscriminator(t *testing.T) {
	u := &Union{Discriminator: "kind", Variants: []UnionVariant{
		{Name: "Circle", Tags: []string{"circle", "round"}, JSONKind: "object"},
		{Name: "Square", Tags: []string{"square"}, JSONKind: "object"},
	}}
	for in, want := range map[string]string{
		`{"kind":"circle","r":1}`: "Circle",
		`{"kind":"round"}`:        "Circle",
		` {"kind":"square"}`:      "Square",
		`{"kind":"hexagon"}`:      "",
		`{"kind":7}`:              "",
		`{}`:                      "",
		`{"kind":`:                "",
		``:                        "",
		`null`:                    "",
	} {
		if got := u.Select(json.RawMessage(in)); got != want {
			t.Errorf("Select(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestUnionSelectByKind(t *testing.T) {
	u := &Union{Variants: []UnionVariant{
		{Name: "Int", JSONKind: "integer"},
		{Name: "Num", JSONKind: "number"},
		{Name: "Str", JSONKind: "string"},
		{Name: "Any", JSONKind: "object"},
		{Name: "Cat", JSONKind: "object", Required: []string{"meow"}},
		{Name: "Dog", JSONKind: "object", Required: []string{"woof", "name"}},
		{Name: "List", JSONKind: "array"},
		{Name: "Null", JSONKind: "null"},
	}}
	for in, want := range map[string]string{
		`3`:                       "Int",
		`3.0`:                     "Int",
		`3.5`:                     "Num",
		`-1e3`:                    "Int",
		`"x"`:                     "Str",
		`{"a":1}`:                 "Any",
		`{"meow":1}`:              "Cat",
		`{"woof":1,"name":"Rex"}`: "Dog",
		`{"woof":1}`:              "Any",
		`[1]`:                     "List",
		`null`:                    "Null",
		`true`:                    "",
	} {
		if got := u.Select(json.RawMessage(in)); got != want {
			t.Errorf("Select(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestUnionAsAndMarshalRaw(t *testing.T) {
	type circle struct{ R float64 }
	c, err := UnionAs[circle](json.RawMessage(`{"R":2}`))
	if err != nil || c.R != 2 {
		t.Errorf("UnionAs = %+v, %v", c, err)
	}
	if _, err := UnionAs[circle](nil); err == nil {
		t.Error("UnionAs(nil): no error")
	}
	if _, err := UnionAs[circle](json.RawMessage(`"x"`)); err == nil {
		t.Error("UnionAs of a string as a struct: no error")
	}
	if b, _ := MarshalRaw(nil); string(b) != "null" {
		t.Errorf("MarshalRaw(nil) = %s", b)
	}
	if b, _ := MarshalRaw(json.RawMessage(`[1]`)); string(b) != "[1]" {
		t.Errorf("MarshalRaw = %s", b)
	}
}

func TestTuple(t *testing.T) {
	var (
		name string
		n    int
		rest []bool
	)
	if err := UnmarshalTuple([]byte(`["a",2,true,false]`), []any{&name, &n}, &rest); err != nil {
		t.Fatal(err)
	}
	if name != "a" || n != 2 || !reflect.DeepEqual(rest, []bool{true, false}) {
		t.Errorf("UnmarshalTuple = %q %d %v", name, n, rest)
	}
	b, err := MarshalTuple([]any{name, n}, rest)
	if err != nil || string(b) != `["a",2,true,false]` {
		t.Errorf("MarshalTuple = %s, %v", b, err)
	}
	if b, _ := MarshalTuple([]any{"x"}, nil); string(b) != `["x"]` {
		t.Errorf("MarshalTuple without rest = %s", b)
	}
	// A short array leaves positions zero; extra items without rest are ignored.
	name, n = "", 0
	if err := UnmarshalTuple([]byte(`["b"]`), []any{&name, &n}, nil); err != nil || name != "b" || n != 0 {
		t.Errorf("short array: %q %d %v", name, n, err)
	}
	if err := UnmarshalTuple([]byte(`["b",1,2]`), []any{&name}, nil); err != nil {
		t.Errorf("extra items: %v", err)
	}
	for _, bad := range []string{`{}`, `[1]`, `["a","b","c"]`} {
		if err := UnmarshalTuple([]byte(bad), []any{&name, &n}, &[]int{}); err == nil {
			t.Errorf("UnmarshalTuple(%s): no error", bad)
		}
	}
	if _, err := MarshalTuple(nil, 5); err == nil {
		t.Error("MarshalTuple with a non-slice rest: no error")
	}
}
