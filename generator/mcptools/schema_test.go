package mcptools

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsgen/opsgen/generator/diag"
)

// specDir holds the listings of the tests.
var specDir = filepath.Join("..", "..", "testdata", "specs", "mcp")

// prepareFile builds the synthetic document of a listing in specDir.
func prepareFile(t *testing.T, name string, opts LoadOptions) (*openapi3.T, diag.List) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(specDir, name))
	if err != nil {
		t.Fatal(err)
	}
	_, doc, diags := prepare(context.Background(), data, "specs/mcp/"+name, opts)
	if doc == nil {
		t.Fatalf("prepare(%s) failed:\n%v", name, diags.Err())
	}
	return doc, diags
}

// component returns a component schema of doc, failing the test when absent.
func component(t *testing.T, doc *openapi3.T, name string) *openapi3.Schema {
	t.Helper()
	ref := doc.Components.Schemas[name]
	if ref == nil || ref.Value == nil {
		t.Fatalf("no component %q; have %v", name, slices.Sorted(maps.Keys(doc.Components.Schemas)))
	}
	return ref.Value
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// wantRef checks that a schema reference points at a component and was resolved.
func wantRef(t *testing.T, what string, ref *openapi3.SchemaRef, component string) {
	t.Helper()
	if ref == nil {
		t.Fatalf("%s: no schema", what)
	}
	if want := "#/components/schemas/" + component; ref.Ref != want || ref.Value == nil {
		t.Errorf("%s: $ref %q (resolved: %v), want %q", what, ref.Ref, ref.Value != nil, want)
	}
}

func TestSyntheticDocumentDraft07Definitions(t *testing.T) {
	doc, _ := prepareFile(t, "draft07-definitions.json", LoadOptions{})
	if err := doc.Validate(context.Background()); err != nil {
		t.Errorf("synthetic document does not validate: %v", err)
	}
	op := doc.Paths.Find("/tools/create_order").Post
	if op.OperationID != "create_order" {
		t.Errorf("operationId = %q", op.OperationID)
	}
	wantRef(t, "request body", op.RequestBody.Value.Content["application/json"].Schema, "CreateOrderInput")
	wantRef(t, "response", op.Responses.Status(200).Value.Content["application/json"].Schema, "CreateOrderOutput")

	in := component(t, doc, "CreateOrderInput")
	wantRef(t, "customer", in.Properties["customer"], "CreateOrderCustomer")
	wantRef(t, "lines items", in.Properties["lines"].Value.Items, "CreateOrderOrderLine")
	wantRef(t, "address", component(t, doc, "CreateOrderCustomer").Properties["address"], "CreateOrderAddress")
	// The output schema's own Customer is a different schema: it gets its own name.
	wantRef(t, "output customer", component(t, doc, "CreateOrderOutput").Properties["customer"], "CreateOrderCustomer2")
	if got := component(t, doc, "CreateOrderCustomer2").Properties; len(got) != 1 {
		t.Errorf("output Customer has %d properties, want 1", len(got))
	}
	// Draft-07 ignores keywords next to $ref.
	if d := in.Properties["customer"].Value.Description; d != "" {
		t.Errorf("draft-07 $ref sibling kept: %q", d)
	}
	// Draft-07 tuples become prefixItems; additionalItems false closes them.
	point := in.Properties["point"].Value
	if len(point.PrefixItems) != 2 || point.Items != nil {
		t.Errorf("tuple not converted: prefixItems %d, items %+v", len(point.PrefixItems), point.Items)
	}
	if !slices.Equal(in.DependentRequired["coupon"], []string{"discount"}) || in.DependentSchemas["discount"] == nil {
		t.Errorf("dependencies not converted: %v %v", in.DependentRequired, in.DependentSchemas)
	}
	if in.SchemaDialect != "" || in.Defs != nil {
		t.Errorf("$schema or definitions left in the component")
	}
}

func TestSyntheticDocumentDefs2020(t *testing.T) {
	doc, _ := prepareFile(t, "defs-2020-12.json", LoadOptions{})
	in := component(t, doc, "UpdatePetInput")
	wantRef(t, "pet", in.Properties["pet"], "UpdatePetPet")
	wantRef(t, "pet allOf", component(t, doc, "UpdatePetPet").AllOf[0], "UpdatePetBase")
	if got := in.Properties["nickname"].Value.Type; got == nil || !got.Includes("null") || !got.Includes("string") {
		t.Errorf("nickname type = %v, want string and null", got)
	}
	if got := in.Properties["status"].Value.Enum; len(got) != 3 {
		t.Errorf("status enum = %v", got)
	}
	if got := in.Properties["kind"].Value.Const; got != "pet" {
		t.Errorf("kind const = %v", got)
	}
	// From 2019-09 on, assertions next to $ref apply too.
	owner := in.Properties["owner"].Value
	if len(owner.AllOf) != 2 || owner.AllOf[0].Ref != "#/components/schemas/UpdatePetOwner" ||
		!slices.Equal(owner.AllOf[1].Value.Required, []string{"email"}) {
		t.Errorf("owner = %+v, want allOf [$ref, {required: [email]}]", owner)
	}
	out := component(t, doc, "UpdatePetOutput")
	if len(out.OneOf) != 2 {
		t.Fatalf("output oneOf has %d variants", len(out.OneOf))
	}
	wantRef(t, "oneOf 0", out.OneOf[0], "UpdatePetCat")
	wantRef(t, "oneOf 1", out.OneOf[1], "UpdatePetDog")

	// 2019-09: an items array is a tuple, additionalItems the rest.
	pair := component(t, doc, "FindThingsInput").Properties["pair"].Value
	if len(pair.PrefixItems) != 1 || pair.Items == nil || !pair.Items.Value.Type.Is("integer") {
		t.Errorf("2019-09 tuple not converted: %+v", pair)
	}
	if got := component(t, doc, "FindThingsInput").Properties["filter"].Value.AnyOf; len(got) != 2 {
		t.Errorf("anyOf = %v", got)
	}
	// A tool without outputSchema has a response without content.
	if c := doc.Paths.Find("/tools/find_things").Post.Responses.Status(200).Value.Content; len(c) != 0 {
		t.Errorf("find_things response has content %v", c)
	}
}

func TestSyntheticDocumentRecursion(t *testing.T) {
	doc, _ := prepareFile(t, "recursion.json", LoadOptions{})
	in := component(t, doc, "WalkTreeInput")
	wantRef(t, "children items (#)", in.Properties["children"].Value.Items, "WalkTreeInput")
	wantRef(t, "graph", component(t, doc, "WalkTreeOutput").Properties["graph"], "WalkTreeNode")
	node := component(t, doc, "WalkTreeNode")
	wantRef(t, "edges", node.Properties["edges"].Value.Items, "WalkTreeEdge")
	edge := component(t, doc, "WalkTreeEdge")
	wantRef(t, "to", edge.Properties["to"], "WalkTreeNode")
	// A pointer into a definition is hoisted as a component of its own.
	wantRef(t, "label", edge.Properties["label"], "WalkTreeName")
	if !component(t, doc, "WalkTreeName").Type.Is("string") {
		t.Error("WalkTreeName is not the string it points at")
	}
}

func TestSyntheticDocumentNonObjectOutputs(t *testing.T) {
	doc, _ := prepareFile(t, "non-object-output.json", LoadOptions{})
	for name, typ := range map[string]string{
		"ListTagsOutput": "array", "SummarizeOutput": "string", "CountWordsOutput": "integer", "ScoreOutput": "number",
	} {
		if got := component(t, doc, name).Type; got == nil || !got.Includes(typ) {
			t.Errorf("%s type = %v, want %s", name, got, typ)
		}
	}
	// list_tags takes no arguments: no input component, no request body.
	if _, ok := doc.Components.Schemas["ListTagsInput"]; ok {
		t.Error("ListTagsInput made for a tool without arguments")
	}
	if doc.Paths.Find("/tools/list_tags").Post.RequestBody != nil {
		t.Error("request body for a tool without arguments")
	}
}

func TestSyntheticDocumentCollidingNames(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(specDir, "colliding-names.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, _, diags := prepare(context.Background(), data, "colliding-names.json", LoadOptions{})
	got := map[string]string{}
	for name, bt := range b.tools {
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
	for _, d := range diags {
		if d.Severity == diag.Warning && strings.Contains(d.Message, "is taken by another tool") {
			warned = append(warned, d.Pos.Pointer)
		}
	}
	slices.Sort(warned)
	if !slices.Equal(warned, []string{"/tools/0/name", "/tools/2/name"}) {
		t.Errorf("collision warnings at %v, want get_user (/tools/0) and getUser (/tools/2)", warned)
	}

	// Pinned names win and are claimed first.
	b, _, _ = prepare(context.Background(), data, "colliding-names.json", LoadOptions{
		Names: map[string]string{"get_user": "GetUser", "getUser": "FetchUser"},
	})
	if g := b.tools["get_user"].goName; g != "GetUser" {
		t.Errorf("pinned get_user named %s", g)
	}
	if g := b.tools["getUser"].goName; g != "FetchUser" {
		t.Errorf("pinned getUser named %s", g)
	}
	if g := b.tools["get-user"].goName; g != "GetUser2" {
		t.Errorf("get-user named %s, want GetUser2", g)
	}
}

func TestSyntheticDocumentStableUnderReordering(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(specDir, "colliding-names.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	tools := doc.(map[string]any)["tools"].([]any)
	slices.Reverse(tools)
	reversed := mustMarshal(t, map[string]any{"tools": tools})

	names := func(data []byte) map[string]string {
		b, _, _ := prepare(context.Background(), data, "x.json", LoadOptions{})
		out := map[string]string{}
		for n, bt := range b.tools {
			out[n] = bt.goName
		}
		return out
	}
	a, r := names(data), names(reversed)
	for n := range a {
		if a[n] != r[n] {
			t.Errorf("tool %q: %s in listing order, %s reversed", n, a[n], r[n])
		}
	}
}
