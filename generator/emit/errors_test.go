package emit

import (
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

func TestEmitRejectsBadInput(t *testing.T) {
	str := &ir.Type{Kind: ir.String}
	cases := []struct {
		name string
		edit func(*ir.Service)
		want string
	}{
		{"type name not an identifier", func(s *ir.Service) { s.Types[0].Name = "Bad Name" }, `type name "Bad Name" is not an exported Go identifier`},
		{"type name injected code", func(s *ir.Service) { s.Types[0].Name = "X struct{}; func init() {panic(1)}; type Y" }, "is not an exported Go identifier"},
		{"reserved type name", func(s *ir.Service) { s.Types[0].Name = "Client" }, `type name "Client" is already declared (at (reserved by opsgen))`},
		{"duplicate type", func(s *ir.Service) { s.Types = append(s.Types, &ir.Type{Name: "Toy", Kind: ir.String}) }, `type name "Toy" is already declared`},
		{"nil type", func(s *ir.Service) { s.Types = append(s.Types, nil) }, "nil type in service"},
		{"nil operation", func(s *ir.Service) { s.Operations = append(s.Operations, nil) }, "nil operation in service"},
		{"undeclared type", func(s *ir.Service) {
			s.Operations[0].Result.Type = &ir.Type{Name: "Ghost", Kind: ir.Struct}
		}, `type "Ghost" is used but not declared`},
		{"field name", func(s *ir.Service) { s.Types[1].Fields[0].Name = "name" }, "field without an exported, unique Go name"},
		{"duplicate field", func(s *ir.Service) { s.Types[1].Fields[1].Name = "Name" }, "field without an exported, unique Go name"},
		{"duplicate method", func(s *ir.Service) {
			op := *s.Operations[0]
			op.ParamsName = "OtherParams"
			s.Operations = append(s.Operations, &op)
		}, `method name "GetToy" is already used`},
		{"method named Register", func(s *ir.Service) { s.Operations[0].GoName = "Register" }, `method name "Register" is already used`},
		{"params without struct name", func(s *ir.Service) { s.Operations[0].ParamsName = "" }, "has parameters but no parameters struct name"},
		{"params struct collides with type", func(s *ir.Service) { s.Operations[0].ParamsName = "Toy" }, "collides with a type"},
		{"enum constant collides", func(s *ir.Service) { s.Types[0].Values[0].Name = "Toy" }, `enum constant name "Toy" is already declared`},
		{"duplicate variant", func(s *ir.Service) {
			s.Types = append(s.Types, &ir.Type{Name: "U", Kind: ir.Union, Variants: []*ir.Variant{{Name: "A", Type: str}, {Name: "A", Type: str}}})
		}, "variant without an exported, unique Go name"},
		{"security option collides", func(s *ir.Service) { s.Types[0].Name = "WithAPIKey"; s.Types[0].Values = nil }, `name "WithAPIKey" is already declared`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc := tiny()
			c.edit(svc)
			files, diags, err := Emit(svc, Options{Package: "toys", Registry: true})
			if err == nil || files != nil {
				t.Fatalf("Emit: err = %v, %d files", err, len(files))
			}
			if !diags.HasErrors() || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestEmitRejectsBadOptions(t *testing.T) {
	for _, opts := range []Options{{Package: ""}, {Package: "my-pkg"}, {Package: "_"}, {Package: "p", Namespace: "a.b"}} {
		if _, _, err := Emit(tiny(), opts); err == nil {
			t.Errorf("Emit with %+v: no error", opts)
		}
	}
	if _, _, err := Emit(nil, Options{Package: "p"}); err == nil {
		t.Error("Emit(nil): no error")
	}
}

func TestRegistryIDs(t *testing.T) {
	for in, want := range map[string]string{
		"getPet":        "ns.getPet",
		"read-graph.v2": "ns.read-graph.v2",
		"a b/c":         "ns.a_b_c",
		"x..y":          "ns.x._.y",
		"é":             "ns._",
	} {
		if got := registryID("ns", in); got != want {
			t.Errorf("registryID(%q) = %q, want %q", in, got, want)
		}
	}
}
