package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/openapi"
)

var kindNames = []string{"any", "bool", "int", "float", "string", "datetime", "date", "bytes", "binary", "array", "map", "struct", "enum", "union", "tuple", "null"}

func ts(t *ir.Type) string {
	if t == nil {
		return "<nil>"
	}
	if t.Name != "" {
		return t.Name
	}
	s := kindNames[t.Kind]
	switch t.Kind {
	case ir.Array, ir.Map:
		s += "[" + ts(t.Elem) + "]"
	case ir.Tuple:
		var parts []string
		for _, it := range t.Items {
			parts = append(parts, ts(it))
		}
		s += "(" + strings.Join(parts, ",") + ";" + ts(t.Elem) + ")"
	case ir.Union:
		var parts []string
		for _, v := range t.Variants {
			parts = append(parts, v.JSONKind+":"+ts(v.Type))
		}
		s += "(" + strings.Join(parts, "|") + ")"
	}
	if t.Format != "" {
		s += "/" + t.Format
	}
	if t.Nullable {
		s += "?"
	}
	return s
}

// dump renders a service as text: every name, kind, field, param, body,
// response and schema, so tests can compare whole services.
func dump(svc *ir.Service) string {
	var b strings.Builder
	for _, t := range svc.Types {
		fmt.Fprintf(&b, "type %s %s base=%s null=%v const=%v:%v def=%v\n", t.Name, kindNames[t.Kind], kindNames[t.Base], t.Nullable, t.HasConst, t.Const, t.Default)
		for _, f := range t.Fields {
			fmt.Fprintf(&b, "  field %s %q %s req=%v null=%v def=%v\n", f.Name, f.JSONName, ts(f.Type), f.Required, f.Nullable, f.Default)
		}
		if t.AdditionalProperties != nil {
			fmt.Fprintf(&b, "  extra %s\n", ts(t.AdditionalProperties))
		}
		if t.Elem != nil || len(t.Items) > 0 {
			fmt.Fprintf(&b, "  shape %s\n", ts(&ir.Type{Kind: t.Kind, Elem: t.Elem, Items: t.Items, Variants: t.Variants}))
		}
		for _, v := range t.Values {
			fmt.Fprintf(&b, "  value %s %#v\n", v.Name, v.Value)
		}
		for _, v := range t.Variants {
			fmt.Fprintf(&b, "  variant %s %s kind=%s tags=%v req=%v\n", v.Name, ts(v.Type), v.JSONKind, v.Tags, v.Required)
		}
		if t.Discriminator != "" || t.AnyOf {
			fmt.Fprintf(&b, "  disc=%q anyOf=%v\n", t.Discriminator, t.AnyOf)
		}
		fmt.Fprintf(&b, "  schema %s\n", t.Def.Schema)
	}
	for _, o := range svc.Operations {
		fmt.Fprintf(&b, "op %s %s %s %s params=%s sec=%v stream=%v\n", o.ID, o.GoName, o.Method, o.Path, o.ParamsName, o.Security, o.Stream)
		for _, p := range o.Params {
			fmt.Fprintf(&b, "  param %s %s %s style=%s explode=%v req=%v ct=%s %s\n", p.Name, p.GoName, p.In, p.Style, p.Explode, p.Required, p.ContentType, ts(p.Type))
		}
		if o.Body != nil {
			fmt.Fprintf(&b, "  body name=%s %s kind=%d %s req=%v enc=%v\n", o.Body.Name, o.Body.MediaType, o.Body.Kind, ts(o.Body.Type), o.Body.Required, o.Body.Encoding)
		}
		for _, r := range o.Responses {
			fmt.Fprintf(&b, "  resp %s %s kind=%d %s %s error=%s", r.Status, r.MediaType, r.Kind, ts(r.Type), r.Schema, r.ErrorName)
			if r.Shared != nil {
				fmt.Fprintf(&b, " shared=%s/%s", r.Shared.Component, r.Shared.Name)
			}
			b.WriteString("\n")
		}
		if o.Result != nil {
			fmt.Fprintf(&b, "  result %s %s\n", o.Result.Status, ts(o.Result.Type))
		}
		fmt.Fprintf(&b, "  in %s\n  out %s\n", o.InputSchema, o.OutputSchema)
	}
	return b.String()
}

const specDir = "../../testdata/specs/openapi/"

func load(t *testing.T, name string, opts openapi.Options) (*ir.Service, diag.List) {
	t.Helper()
	svc, diags, err := openapi.Load(context.Background(), specDir+name, opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return svc, diags
}

func typ(t *testing.T, svc *ir.Service, name string) *ir.Type {
	t.Helper()
	for _, ty := range svc.Types {
		if ty.Name == name {
			return ty
		}
	}
	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	t.Fatalf("no type %q; have %v", name, names)
	return nil
}

func op(t *testing.T, svc *ir.Service, id string) *ir.Operation {
	t.Helper()
	for _, o := range svc.Operations {
		if o.ID == id {
			return o
		}
	}
	t.Fatalf("no operation %q", id)
	return nil
}

func field(t *testing.T, ty *ir.Type, json string) *ir.Field {
	t.Helper()
	for _, f := range ty.Fields {
		if f.JSONName == json {
			return f
		}
	}
	t.Fatalf("type %s has no field %q", ty.Name, json)
	return nil
}

// fields lists "GoName:json:type[:req][:null]" for each field.
func fields(ty *ir.Type) []string {
	var out []string
	for _, f := range ty.Fields {
		s := f.Name + ":" + f.JSONName + ":" + ts(f.Type)
		if f.Required {
			s += ":req"
		}
		if f.Nullable {
			s += ":null"
		}
		out = append(out, s)
	}
	return out
}

func equal[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func equalSlice[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s =\n  %v\nwant\n  %v", what, got, want)
	}
}

func equalJSON(t *testing.T, what string, schema any, want string) {
	t.Helper()
	var got []byte
	switch s := schema.(type) {
	case *ir.Schema:
		got = []byte(s.String())
	case *ir.Def:
		if s == nil {
			t.Fatalf("%s: no such def", what)
		}
		got = []byte(s.Schema.String())
	default:
		t.Fatalf("%s: %T is no schema", what, schema)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: invalid JSON %s: %v", what, got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad expectation: %v", what, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s =\n  %s\nwant\n  %s", what, got, want)
	}
}

// hasDiag reports whether diags has a warning containing msg at the given
// file suffix, line and pointer.
func hasDiag(diags diag.List, file string, line int, ptr, msg string) bool {
	for _, d := range diags {
		if strings.HasSuffix(d.Pos.File, file) && d.Pos.Line == line && d.Pos.Pointer == ptr && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}
