package mcptools

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
	"github.com/opsgen/opsgen/generator/jsonschema"
)

// specDir holds the listings of the tests.
var specDir = filepath.Join("..", "..", "testdata", "specs", "mcp")

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decoded is a listing decoded into jsonschema's model.
type decoded struct {
	dec   *decoder
	tools map[string]*built
	diags diag.List
}

// decodeData decodes a listing as LoadData does before the conversion.
func decodeData(t *testing.T, data []byte, source string, opts LoadOptions) decoded {
	t.Helper()
	var diags diag.List
	doc, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	pos := indexPositions(source, data)
	chk := newChecker()
	listed, _ := parseListing(doc, pos, chk, &diags)
	tools := selectTools(listed, opts, source, pos, chk, &diags)
	sort.Slice(tools, func(i, j int) bool {
		pi, pj := opts.Names[tools[i].name] != "", opts.Names[tools[j].name] != ""
		if pi != pj {
			return pi
		}
		return tools[i].name < tools[j].name
	})
	dec, bts := decodeTools(tools, opts, pos, &diags)
	out := decoded{dec: dec, tools: map[string]*built{}, diags: diags}
	for _, bt := range bts {
		out.tools[bt.name] = bt
	}
	return out
}

func decodeFile(t *testing.T, name string) decoded {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(specDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return decodeData(t, data, "specs/mcp/"+name, LoadOptions{})
}

// component returns the schema of a component, failing the test when absent.
func (d decoded) component(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	c := d.dec.comps[name]
	if c == nil {
		t.Fatalf("no component %q; have %v", name, slices.Sorted(maps.Keys(d.dec.comps)))
	}
	return c.node
}

// wantRef checks that s is a reference to a component, resolved.
func (d decoded) wantRef(t *testing.T, what string, s *jsonschema.Schema, component string) {
	t.Helper()
	if s == nil {
		t.Fatalf("%s: no schema", what)
	}
	c := d.dec.comps[component]
	if c == nil || s.Ref != c.ref || s.Target != c.node {
		t.Errorf("%s: $ref %q (target %p), want component %q", what, s.Ref, s.Target, component)
	}
}

func TestDecodeDraft07Definitions(t *testing.T) {
	d := decodeFile(t, "draft07-definitions.json")
	co := d.tools["create_order"]
	if co.inputName != "CreateOrderInput" || co.outputName != "CreateOrderOutput" {
		t.Errorf("names %s %s", co.inputName, co.outputName)
	}
	in := d.component(t, "CreateOrderInput")
	if in != co.input.node || in.GoName != "CreateOrderInput" {
		t.Errorf("input component %p %q", in, in.GoName)
	}
	d.wantRef(t, "customer", in.Properties["customer"], "CreateOrderCustomer")
	d.wantRef(t, "lines items", in.Properties["lines"].Items, "CreateOrderOrderLine")
	d.wantRef(t, "address", d.component(t, "CreateOrderCustomer").Properties["address"], "CreateOrderAddress")
	if r := d.dec.comps["CreateOrderAddress"].ref; r != "#/tools/0/inputSchema/definitions/Address" {
		t.Errorf("Address referred to as %q", r)
	}
	// The output schema's own Customer is a different schema: it gets its own name.
	d.wantRef(t, "output customer", d.component(t, "CreateOrderOutput").Properties["customer"], "CreateOrderCustomer2")
	if got := d.component(t, "CreateOrderCustomer2").Properties; len(got) != 1 {
		t.Errorf("output Customer has %d properties, want 1", len(got))
	}
	// Draft-07 ignores keywords next to $ref.
	if c := in.Properties["customer"]; c.Description != "" || c.AllOf != nil {
		t.Errorf("draft-07 $ref sibling kept: %+v", c)
	}
	// Draft-07 tuples become prefixItems; additionalItems false closes them.
	if point := in.Properties["point"]; len(point.PrefixItems) != 2 || point.Items != nil {
		t.Errorf("tuple not decoded: prefixItems %d, items %+v", len(point.PrefixItems), point.Items)
	}
}

func TestDecodeDefs2020(t *testing.T) {
	d := decodeFile(t, "defs-2020-12.json")
	in := d.component(t, "UpdatePetInput")
	d.wantRef(t, "pet", in.Properties["pet"], "UpdatePetPet")
	d.wantRef(t, "pet allOf", d.component(t, "UpdatePetPet").AllOf[0], "UpdatePetBase")
	if got := in.Properties["nickname"].Types; !slices.Equal(got, []string{"string", "null"}) {
		t.Errorf("nickname type = %v, want string and null", got)
	}
	if got := in.Properties["status"].Enum; len(got) != 3 {
		t.Errorf("status enum = %v", got)
	}
	if got := in.Properties["kind"].Const; got != "pet" {
		t.Errorf("kind const = %v", got)
	}
	// From 2019-09 on, assertions next to $ref apply too.
	owner := in.Properties["owner"]
	if len(owner.AllOf) != 2 || !slices.Equal(owner.AllOf[1].Required, []string{"email"}) {
		t.Fatalf("owner = %+v, want allOf [$ref, {required: [email]}]", owner)
	}
	d.wantRef(t, "owner allOf", owner.AllOf[0], "UpdatePetOwner")
	out := d.component(t, "UpdatePetOutput")
	if len(out.OneOf) != 2 {
		t.Fatalf("output oneOf has %d variants", len(out.OneOf))
	}
	d.wantRef(t, "oneOf 0", out.OneOf[0], "UpdatePetCat")
	d.wantRef(t, "oneOf 1", out.OneOf[1], "UpdatePetDog")

	// 2019-09: an items array is a tuple, additionalItems the rest.
	pair := d.component(t, "FindThingsInput").Properties["pair"]
	if len(pair.PrefixItems) != 1 || pair.Items == nil || !slices.Equal(pair.Items.Types, []string{"integer"}) {
		t.Errorf("2019-09 tuple not decoded: %+v", pair)
	}
	if got := d.component(t, "FindThingsInput").Properties["filter"].AnyOf; len(got) != 2 {
		t.Errorf("anyOf = %v", got)
	}
	if ft := d.tools["find_things"]; ft.output != nil || ft.outputName != "" {
		t.Errorf("find_things has an output %q", ft.outputName)
	}
}

func TestDecodeRecursion(t *testing.T) {
	d := decodeFile(t, "recursion.json")
	in := d.component(t, "WalkTreeInput")
	d.wantRef(t, "children items (#)", in.Properties["children"].Items, "WalkTreeInput")
	d.wantRef(t, "graph", d.component(t, "WalkTreeOutput").Properties["graph"], "WalkTreeNode")
	node := d.component(t, "WalkTreeNode")
	d.wantRef(t, "edges", node.Properties["edges"].Items, "WalkTreeEdge")
	edge := d.component(t, "WalkTreeEdge")
	d.wantRef(t, "to", edge.Properties["to"], "WalkTreeNode")
	// A pointer into a definition is a component of its own.
	d.wantRef(t, "label", edge.Properties["label"], "WalkTreeName")
	if !slices.Equal(d.component(t, "WalkTreeName").Types, []string{"string"}) {
		t.Error("WalkTreeName is not the string it points at")
	}
}

func TestDecodeNonObjectOutputs(t *testing.T) {
	d := decodeFile(t, "non-object-output.json")
	for name, typ := range map[string]string{
		"ListTagsOutput": "array", "SummarizeOutput": "string", "CountWordsOutput": "integer", "ScoreOutput": "number",
	} {
		if got := d.component(t, name).Types; !slices.Contains(got, typ) {
			t.Errorf("%s type = %v, want %s", name, got, typ)
		}
	}
	// list_tags takes no arguments: no input component.
	if _, ok := d.dec.comps["ListTagsInput"]; ok {
		t.Error("ListTagsInput made for a tool without arguments")
	}
	if lt := d.tools["list_tags"]; lt.input != nil || lt.inputName != "" {
		t.Error("input for a tool without arguments")
	}
}

// TestDecodeKeywords: numbers are float64 as in the rest of the model,
// counts written 2.0 are integers, draft-04 boolean bounds and numbers
// beyond float64 are handled, discriminator mappings point where the
// variants' references do.
func TestDecodeKeywords(t *testing.T) {
	listing := `[{"name": "a", "inputSchema": {"type": "object", "properties": {
  "n": {"type": "number", "minimum": 1, "exclusiveMaximum": 5, "default": 2, "enum": [1, 2.5]},
  "s": {"type": "string", "maxLength": 2.0, "readOnly": true, "x-go-name": "Str"},
  "u": {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}], "discriminator": {"propertyName": "k", "mapping": {"a": "#/$defs/A", "b": "B"}}},
  "e": {"enum": [1e400]}},
  "$defs": {"A": {"type": "object"}, "B": {"type": "object"}}}},
 {"name": "b", "inputSchema": {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {
  "p": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "minLength": 0}}}}]`
	d := decodeData(t, []byte(listing), "x.json", LoadOptions{})
	props := d.component(t, "AInput").Properties
	n := props["n"]
	if !keywords(n, "minimum", 1.0, "exclusiveMaximum", 5.0) || n.Default != 2.0 || !slices.Equal(n.Enum, []any{1.0, 2.5}) {
		t.Errorf("n = %+v", n)
	}
	if s := props["s"]; !keywords(s, "maxLength", uint64(2)) || !s.ReadOnly || s.GoName != "Str" {
		t.Errorf("s = %+v", s)
	}
	// Draft-04's boolean exclusiveMinimum modifies minimum; minLength 0 says nothing.
	if p := d.component(t, "BInput").Properties["p"]; !keywords(p, "exclusiveMinimum", 0.0, "maximum", 9.0) {
		t.Errorf("p keywords %v", p.Keywords)
	}
	disc := props["u"].Discriminator
	if disc == nil || disc.PropertyName != "k" || disc.Mapping["a"] != d.dec.comps["AA"].ref || disc.Mapping["b"] != "B" {
		t.Errorf("discriminator %+v", disc)
	}
	if e := props["e"]; e.Enum != nil {
		t.Errorf("enum out of range kept: %v", e.Enum)
	}
	var warned []string
	for _, w := range d.diags {
		warned = append(warned, w.String())
	}
	if want := `x.json:5:9 (#/0/inputSchema/properties/e/enum): warning: enum holds a number out of range; ignored`; !slices.Contains(warned, want) {
		t.Errorf("diagnostics %s, want %s", strings.Join(warned, "\n"), want)
	}
}

// keywords reports whether s has exactly the validation keywords nameValues.
func keywords(s *jsonschema.Schema, nameValues ...any) bool {
	var want []jsonschema.Keyword
	for i := 0; i < len(nameValues); i += 2 {
		want = append(want, jsonschema.Keyword{Name: nameValues[i].(string), Value: nameValues[i+1]})
	}
	return slices.Equal(s.Keywords, want)
}

func TestDecodeCollidingNames(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(specDir, "colliding-names.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := decodeData(t, data, "colliding-names.json", LoadOptions{})
	got := map[string]string{}
	for name, bt := range d.tools {
		got[name] = bt.goName + "/" + bt.inputName
	}
	// Claimed in sorted order of tool names: "get-user" < "getUser" < "get_user".
	want := map[string]string{
		"2fa-check": "X2faCheck/",
		"client":    "Client/ClientInput",
		"get-user":  "GetUser/GetUserInput",
		"getUser":   "GetUser2/GetUser2Input",
		"get_user":  "GetUser3/GetUser3Input",
		"users.get": "UsersGet/UsersGetInput",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("tool %q named %q, want %q", name, got[name], w)
		}
	}
	var warned []string
	for _, d := range d.diags {
		if d.Severity == diag.Warning && strings.Contains(d.Message, "is taken by another tool") {
			warned = append(warned, d.Pos.Pointer)
		}
	}
	slices.Sort(warned)
	if !slices.Equal(warned, []string{"/tools/0/name", "/tools/2/name"}) {
		t.Errorf("collision warnings at %v, want get_user (/tools/0) and getUser (/tools/2)", warned)
	}

	// Pinned names win and are claimed first.
	d = decodeData(t, data, "colliding-names.json", LoadOptions{
		Names: map[string]string{"get_user": "GetUser", "getUser": "FetchUser"},
	})
	if g := d.tools["get_user"].goName; g != "GetUser" {
		t.Errorf("pinned get_user named %s", g)
	}
	if g := d.tools["getUser"].goName; g != "FetchUser" {
		t.Errorf("pinned getUser named %s", g)
	}
	if g := d.tools["get-user"].goName; g != "GetUser2" {
		t.Errorf("get-user named %s, want GetUser2", g)
	}
}

// TestLoadReferenceAnnotations: annotations next to a $ref describe the
// property (and make it read-only), without changing the shared type; a
// discriminator's mapping selects variants by the values it gives; false
// closes a tuple and rejects any value, without a warning.
func TestLoadReferenceAnnotations(t *testing.T) {
	listing := `[{"name": "a", "inputSchema": {"type": "object", "required": ["owner", "id"], "properties": {
  "owner": {"$ref": "#/$defs/Owner", "description": "Who owns it."},
  "id": {"$ref": "#/$defs/ID", "readOnly": true},
  "pet": {"oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}], "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}}},
  "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false},
  "never": false},
  "$defs": {"Owner": {"type": "object", "description": "A person.", "properties": {"name": {"type": "string"}}},
    "ID": {"type": "string"},
    "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}}},
    "Dog": {"type": "object", "properties": {"kind": {"const": "dog"}}}}}}]`
	svc, diags, err := LoadData(context.Background(), []byte(listing), "x.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	noWarnings(t, diags)
	in := typ(t, svc, "AInput")
	if f := field(t, in, "owner"); f.Doc.Description != "Who owns it." || f.Type != typ(t, svc, "AOwner") || !f.Required {
		t.Errorf("owner: %+v", f)
	}
	if d := typ(t, svc, "AOwner").Doc.Description; d != "A person." {
		t.Errorf("AOwner doc %q", d)
	}
	if f := field(t, in, "id"); !f.ReadOnly || f.Required {
		t.Errorf("id: read-only %v, required %v", f.ReadOnly, f.Required)
	}
	pet := field(t, in, "pet").Type
	if pet.Kind != ir.Union || len(pet.Variants) != 2 || !slices.Equal(pet.Variants[0].Tags, []string{"cat"}) || !slices.Equal(pet.Variants[1].Tags, []string{"dog"}) {
		t.Errorf("pet: %+v", pet)
	}
	if p := field(t, in, "pair").Type; p.Kind != ir.Tuple || len(p.Items) != 2 || p.Elem != nil {
		t.Errorf("pair: %+v", p)
	}
	// The read-only id is required of a value read, not of one sent.
	if s := in.Def.Schema.String(); !strings.Contains(s, `"never":{"not":{}}`) || !strings.Contains(s, `"required":["owner","id"]`) {
		t.Errorf("schema %s", s)
	}
	if s := in.Def.InputSchema().String(); !strings.Contains(s, `"required":["owner"]`) {
		t.Errorf("input schema %s", s)
	}
}
