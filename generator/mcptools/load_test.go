package mcptools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/diag"
	"github.com/opsgen/opsgen/generator/ir"
)

// loadFile loads a listing of specDir, failing the test on an error.
func loadFile(t *testing.T, name string, opts LoadOptions) (*ir.Service, diag.List) {
	t.Helper()
	svc, diags, err := Load(context.Background(), filepath.Join(specDir, name), opts)
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return svc, diags
}

func op(t *testing.T, svc *ir.Service, tool string) *ir.Operation {
	t.Helper()
	for _, o := range svc.Operations {
		if o.ID == tool {
			return o
		}
	}
	t.Fatalf("no operation for tool %q", tool)
	return nil
}

func typ(t *testing.T, svc *ir.Service, name string) *ir.Type {
	t.Helper()
	for _, ty := range svc.Types {
		if ty.Name == name {
			return ty
		}
	}
	t.Fatalf("no type %q", name)
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

func noWarnings(t *testing.T, diags diag.List) {
	t.Helper()
	for _, d := range diags {
		t.Errorf("unexpected diagnostic: %s", d)
	}
}

func TestLoadDraft07Definitions(t *testing.T) {
	svc, diags := loadFile(t, "draft07-definitions.json", LoadOptions{})
	noWarnings(t, diags)
	if svc.Kind != ir.MCP || svc.Source != filepath.Join(specDir, "draft07-definitions.json") {
		t.Errorf("service kind %v source %q", svc.Kind, svc.Source)
	}
	o := op(t, svc, "create_order")
	wantDoc := ir.Doc{Summary: "Create order", Description: "Creates an order for a customer.", Origin: `MCP tool "create_order"`}
	if o.Kind != ir.MCPTool || o.GoName != "CreateOrder" || o.ParamsName != "CreateOrderInput" || o.Doc != wantDoc {
		t.Errorf("operation = kind %v, GoName %s, ParamsName %s, Doc %+v", o.Kind, o.GoName, o.ParamsName, o.Doc)
	}
	if o.Method != "" || o.Path != "" || o.Body != nil || o.Responses != nil {
		t.Errorf("HTTP fields left on an MCP operation: %s %s", o.Method, o.Path)
	}
	if o.Pos.Pointer != "/tools/0" || o.Pos.Line != 3 {
		t.Errorf("operation position %s", o.Pos)
	}
	in, out := o.Tool.InputType, o.Tool.OutputType
	if in != typ(t, svc, "CreateOrderInput") || out != typ(t, svc, "CreateOrderOutput") {
		t.Fatalf("tool types %v %v", in, out)
	}
	if o.Tool.Name != "create_order" || o.Tool.Title != "Create order" {
		t.Errorf("tool %+v", o.Tool)
	}
	if o.InputSchema.String() != `{"$ref":"#/$defs/CreateOrderInput"}` || o.OutputSchema.String() != `{"$ref":"#/$defs/CreateOrderOutput"}` {
		t.Errorf("schemas %s %s", o.InputSchema, o.OutputSchema)
	}
	if svc.Def("CreateOrderInput") == nil || svc.Def("CreateOrderCustomer") == nil {
		t.Errorf("Defs lack the tool's types: %v", svc.Defs)
	}
	if c := field(t, in, "customer"); c.Type != typ(t, svc, "CreateOrderCustomer") || !c.Required {
		t.Errorf("customer field: %+v", c)
	}
	if a := field(t, typ(t, svc, "CreateOrderCustomer"), "address"); a.Type != typ(t, svc, "CreateOrderAddress") {
		t.Errorf("address field type %+v", a.Type)
	}
	if l := field(t, in, "lines"); l.Type.Kind != ir.Array || l.Type.Elem != typ(t, svc, "CreateOrderOrderLine") {
		t.Errorf("lines field type %+v", l.Type)
	}
	if p := field(t, in, "point").Type; p.Kind != ir.Tuple || len(p.Items) != 2 || p.Elem != nil {
		t.Errorf("point field type %+v, want a closed tuple of 2", p)
	}
	if f := field(t, typ(t, svc, "CreateOrderCustomer2"), "id"); f.Type.Kind != ir.String {
		t.Errorf("output customer id %+v", f.Type)
	}
	// Types point back into the listing.
	if p := typ(t, svc, "CreateOrderAddress").Pos; p.Pointer != "/tools/0/inputSchema/definitions/Address" || p.Line != 28 {
		t.Errorf("CreateOrderAddress position %s", p)
	}
	if in.Doc.Origin != `MCP tool "create_order" inputSchema` {
		t.Errorf("input type origin %q", in.Doc.Origin)
	}
}

func TestLoadDefs2020(t *testing.T) {
	svc, diags := loadFile(t, "defs-2020-12.json", LoadOptions{})
	noWarnings(t, diags)
	in := typ(t, svc, "UpdatePetInput")
	if s := field(t, in, "status").Type; s.Kind != ir.Enum || len(s.Values) != 3 {
		t.Errorf("status %+v", s)
	}
	if n := field(t, in, "nickname"); n.Type.Kind != ir.String || !(n.Nullable || n.Type.Nullable) {
		t.Errorf("nickname %+v", n)
	}
	if e := field(t, typ(t, svc, "UpdatePetInputOwner"), "email"); !e.Required {
		t.Error("owner.email is not required (the $ref sibling was lost)")
	}
	if p := typ(t, svc, "UpdatePetPet"); len(p.Fields) != 2 || !field(t, p, "name").Required {
		t.Errorf("allOf not merged into Pet: %+v", p.Fields)
	}
	// Doc origins name the tool schema and the place in it.
	for name, want := range map[string]string{
		"UpdatePetBase":       `MCP tool "update_pet" inputSchema #/$defs/Base`,
		"UpdatePetInputOwner": `MCP tool "update_pet" inputSchema #/properties/owner`,
		"UpdatePetOutput":     `MCP tool "update_pet" outputSchema`,
	} {
		if got := typ(t, svc, name).Doc.Origin; got != want {
			t.Errorf("%s origin %q, want %q", name, got, want)
		}
	}
	out := op(t, svc, "update_pet").Tool.OutputType
	if out.Kind != ir.Union || len(out.Variants) != 2 || out.Variants[0].Type != typ(t, svc, "UpdatePetCat") {
		t.Errorf("output %+v, want a union of Cat and Dog", out)
	}
	find := op(t, svc, "find_things")
	if find.Tool.OutputType != nil || find.OutputSchema != nil {
		t.Error("find_things has an output type without an output schema")
	}
	if p := field(t, find.Tool.InputType, "pair").Type; p.Kind != ir.Tuple || len(p.Items) != 1 || p.Elem == nil || p.Elem.Kind != ir.Int {
		t.Errorf("pair %+v, want a tuple (string; integer...)", p)
	}
}

func TestLoadRecursion(t *testing.T) {
	svc, diags := loadFile(t, "recursion.json", LoadOptions{})
	noWarnings(t, diags)
	in := typ(t, svc, "WalkTreeInput")
	if c := field(t, in, "children").Type; c.Kind != ir.Array || c.Elem != in {
		t.Errorf("children %+v, want []WalkTreeInput", c)
	}
	node, edge := typ(t, svc, "WalkTreeNode"), typ(t, svc, "WalkTreeEdge")
	if e := field(t, node, "edges").Type; e.Elem != edge {
		t.Errorf("edges elem %+v", e.Elem)
	}
	if to := field(t, edge, "to").Type; to != node {
		t.Errorf("edge.to %+v", to)
	}
}

func TestLoadSharedDefinitions(t *testing.T) {
	svc, diags := loadFile(t, "shared-defs.json", LoadOptions{})
	noWarnings(t, diags)
	var names []string
	for _, ty := range svc.Types {
		names = append(names, ty.Name)
	}
	// Item and Tag are the same in both schemas: declared once. Page differs;
	// Filter refers to its own root, which differs.
	want := []string{"SyncItemsFilter", "SyncItemsFilter2", "SyncItemsInput", "SyncItemsItem", "SyncItemsOutput", "SyncItemsPage", "SyncItemsPage2", "SyncItemsTag"}
	if !slices.Equal(names, want) {
		t.Errorf("types %v, want %v", names, want)
	}
	in, out := typ(t, svc, "SyncItemsInput"), typ(t, svc, "SyncItemsOutput")
	if field(t, in, "items").Type.Elem != field(t, out, "items").Type.Elem {
		t.Error("input and output items are not the same type")
	}
	if f := field(t, typ(t, svc, "SyncItemsFilter2"), "and").Type; f.Elem != out {
		t.Errorf("output filter refers to %+v, want the output type", f.Elem)
	}
}

func TestLoadNonObjectOutputs(t *testing.T) {
	svc, diags := loadFile(t, "non-object-output.json", LoadOptions{})
	noWarnings(t, diags)
	for tool, kind := range map[string]ir.Kind{"list_tags": ir.Array, "summarize": ir.String, "count_words": ir.Int, "score": ir.Float} {
		o := op(t, svc, tool)
		if out := o.Tool.OutputType; out == nil || out.Kind != kind || out.Name != o.GoName+"Output" {
			t.Errorf("%s output %+v, want kind %v named %sOutput", tool, out, kind, o.GoName)
		}
	}
	if s := op(t, svc, "score").Tool.OutputType; !s.Nullable {
		t.Error("score output is not nullable")
	}
	tags := op(t, svc, "list_tags")
	if tags.ParamsName != "" || tags.Tool.InputType != nil || tags.InputSchema.String() != `{"type":"object"}` {
		t.Errorf("list_tags input: %q %v %s", tags.ParamsName, tags.Tool.InputType, tags.InputSchema)
	}
}

func TestLoadAnnotationsAndConventions(t *testing.T) {
	svc, diags := loadFile(t, "annotations-no-output.json", LoadOptions{
		DefaultConvention: "auto",
		Conventions:       map[string]string{"read_file": "dotbot"},
	})
	noWarnings(t, diags)
	del := op(t, svc, "delete_file").Tool
	hints := func(b *bool) string {
		if b == nil {
			return "-"
		}
		if *b {
			return "t"
		}
		return "f"
	}
	if got := hints(del.ReadOnly) + hints(del.Destructive) + hints(del.Idempotent) + hints(del.OpenWorld); got != "fttf" {
		t.Errorf("delete_file hints %s, want fttf", got)
	}
	read := op(t, svc, "read_file")
	if got := hints(read.Tool.ReadOnly) + hints(read.Tool.Destructive); got != "t-" {
		t.Errorf("read_file hints %s", got)
	}
	if read.Tool.Title != "Read a file (2025-03-26 style title)" {
		t.Errorf("title from annotations: %q", read.Tool.Title)
	}
	if read.Tool.Convention != "dotbot" || del.Convention != "auto" {
		t.Errorf("conventions %q %q", read.Tool.Convention, del.Convention)
	}
	now := op(t, svc, "now")
	if now.Tool.InputType != nil || now.Tool.OutputType != nil || now.OutputSchema != nil || now.ParamsName != "" {
		t.Errorf("now: %+v", now.Tool)
	}
}

func TestLoadOutputSchemaOption(t *testing.T) {
	svc, diags := loadFile(t, "bare-array.json", LoadOptions{OutputSchemas: map[string]json.RawMessage{
		"noop": json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`),
		"echo": json.RawMessage(`{"type":"string"}`),
	}})
	noop := op(t, svc, "noop")
	if out := noop.Tool.OutputType; out == nil || out.Name != "NoopOutput" || field(t, out, "ok").Type.Kind != ir.Bool {
		t.Errorf("noop output %+v", out)
	} else if out.Doc.Origin != `MCP tool "noop" outputSchema (configured)` {
		t.Errorf("noop output origin %q", out.Doc.Origin)
	}
	// echo declares its own: it wins, with a warning.
	if out := op(t, svc, "echo").Tool.OutputType; out.Kind != ir.Struct {
		t.Errorf("echo output %+v, want its declared object", out)
	}
	if len(diags) != 1 || diags[0].Severity != diag.Warning || diags[0].Pos.Pointer != "/0/outputSchema" ||
		!strings.Contains(diags[0].Message, "declares an outputSchema") {
		t.Errorf("diagnostics %v", diags)
	}
}

func TestLoadFilterAndNames(t *testing.T) {
	svc, diags := loadFile(t, "colliding-names.json", LoadOptions{
		Filter: ir.Filter{IncludeOperations: []string{"get*", "users.get", "missing"}, ExcludeOperations: []string{"getUser"}},
		Names:  map[string]string{"users.get": "ListUser"},
	})
	var ids, names []string
	for _, o := range svc.Operations {
		ids = append(ids, o.ID)
		names = append(names, o.GoName)
	}
	if want := []string{"get-user", "get_user", "users.get"}; !slices.Equal(ids, want) {
		t.Errorf("selected %v, want %v", ids, want)
	}
	if want := []string{"GetUser", "GetUser2", "ListUser"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v (sorted)", names, want)
	}
	if op(t, svc, "users.get").ParamsName != "ListUserInput" {
		t.Error("pinned name does not name the input type")
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Message)
	}
	if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, `included tool "missing"`) }) {
		t.Errorf("no warning for the unknown included tool: %v", msgs)
	}
}

func TestLoadSnapshotOfSDKServer(t *testing.T) {
	svc, diags := loadFile(t, "sdk-server.json", LoadOptions{})
	noWarnings(t, diags)
	var names []string
	for _, o := range svc.Operations {
		names = append(names, o.GoName)
	}
	if want := []string{"Ping", "ReadGraph", "SearchItems"}; !slices.Equal(names, want) {
		t.Errorf("operations %v, want %v", names, want)
	}
	read := op(t, svc, "read-graph")
	if !*read.Tool.ReadOnly || !*read.Tool.Idempotent {
		t.Errorf("read-graph hints %+v", read.Tool)
	}
	node := typ(t, svc, "ReadGraphNode")
	if c := field(t, node, "children").Type; c.Elem != node {
		t.Errorf("node.children %+v", c)
	}
}

// summary describes what the emitter sees of a service, for comparisons.
func summary(svc *ir.Service) string {
	var b strings.Builder
	for _, o := range svc.Operations {
		b.WriteString(o.ID + " " + o.GoName + " " + o.ParamsName + " " + o.InputSchema.String() + " " + o.OutputSchema.String() + "\n")
	}
	for _, d := range svc.Defs {
		b.WriteString(d.Name + " " + d.Schema.String() + "\n")
	}
	return b.String()
}

func TestLoadStableUnderReordering(t *testing.T) {
	for _, name := range []string{"colliding-names.json", "non-object-output.json", "defs-2020-12.json", "draft07-definitions.json", "recursion.json", "shared-defs.json"} {
		data, err := os.ReadFile(filepath.Join(specDir, name))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := decodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		tools := doc.(map[string]any)["tools"].([]any)
		slices.Reverse(tools)
		reversed := mustMarshal(t, tools) // and as a bare array
		a, _, err := LoadData(context.Background(), data, name, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := LoadData(context.Background(), reversed, name, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sa, sb := summary(a), summary(b); sa != sb {
			t.Errorf("%s: reordering the tools changes the result:\n%s\nreversed:\n%s", name, sa, sb)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		opts        LoadOptions
		// want is the first error as "pos: message fragment".
		pos, msg string
	}{
		{name: "not JSON", input: "tools: []", pos: "x.json:1:3", msg: "invalid character 'o' in literal true"},
		{name: "truncated", input: "{\n  \"tools\": [\n", pos: "x.json:3:1", msg: "invalid JSON"},
		{name: "trailing data", input: `{"tools": []} {}`, pos: "x.json:1:15", msg: "invalid JSON: data after the top-level value"},
		{name: "number", input: `42`, pos: "x.json:1:1", msg: "not a tool listing"},
		{name: "no tools key", input: `{"items": []}`, pos: "x.json:1:1", msg: `without "tools"`},
		{name: "tools not array", input: `{"tools": {}}`, pos: "x.json:1:2 (#/tools)", msg: `"tools" must be an array, found an object`},
		{name: "tool not object", input: `{"tools": ["x"]}`, pos: "x.json:1:12 (#/tools/0)", msg: "a tool must be an object, found a string"},
		{name: "tool without name", input: "{\"tools\": [\n  {\"name\": \"ok\", \"inputSchema\": {}},\n  {\"description\": \"no name\"}\n]}",
			pos: "x.json:3:3 (#/tools/1)", msg: `tool has no "name"`},
		{name: "empty name", input: `[{"name": ""}]`, pos: "x.json:1:3 (#/0/name)", msg: "non-empty string"},
		{name: "duplicate", input: "[\n{\"name\": \"a\"},\n{\"name\": \"a\"}\n]", pos: "x.json:3:2 (#/1/name)", msg: `duplicate tool name "a" (first at /0)`},
		{name: "bad inputSchema", input: `[{"name": "a", "inputSchema": [1]}]`, pos: "x.json:1:16 (#/0/inputSchema)", msg: "inputSchema must be a JSON Schema object, found an array"},
		{name: "bad outputSchema", input: `[{"name": "a", "inputSchema": {}, "outputSchema": 3}]`, pos: "x.json:1:35 (#/0/outputSchema)", msg: "outputSchema must be"},
		{name: "bad convention", input: `[{"name": "a"}]`, opts: LoadOptions{Conventions: map[string]string{"a": "v2"}},
			pos: "x.json", msg: `unknown convention "v2" for tool "a"`},
		{name: "bad default convention", input: `[{"name": "a"}]`, opts: LoadOptions{DefaultConvention: "x"},
			pos: "x.json", msg: `unknown default convention "x"`},
		{name: "bad Go name", input: `[{"name": "a"}]`, opts: LoadOptions{Names: map[string]string{"a": "not ok"}},
			pos: "x.json", msg: `Go name "not ok" for tool "a" is not an exported Go identifier`},
		{name: "bad configured output schema", input: `[{"name": "a"}]`, opts: LoadOptions{OutputSchemas: map[string]json.RawMessage{"a": json.RawMessage(`{"type":`)}},
			pos: `x.json: configured output schema of "a":1:9`, msg: "invalid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, diags, err := LoadData(context.Background(), []byte(tc.input), "x.json", tc.opts)
			if err == nil || svc != nil {
				t.Fatalf("LoadData succeeded; diagnostics %v", diags)
			}
			var first *diag.Diagnostic
			for i := range diags {
				if diags[i].Severity == diag.Error {
					first = &diags[i]
					break
				}
			}
			if first == nil {
				t.Fatalf("error %v without an error diagnostic", err)
			}
			if got := first.Pos.String(); got != tc.pos || !strings.Contains(first.Message, tc.msg) {
				t.Errorf("first error %q, want at %q containing %q", first.String(), tc.pos, tc.msg)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("returned error %q lacks %q", err, tc.msg)
			}
		})
	}
}

func TestLoadWarnings(t *testing.T) {
	input := `[{"name": "a", "title": 3, "annotations": {"readOnlyHint": "yes"},
	  "outputSchema": {"properties": {"r": {"$ref": "https://example.com/s.json"}}}}]`
	svc, diags, err := LoadData(context.Background(), []byte(input), "w.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`w.json:1:2 (#/0): warning: tool "a" has no inputSchema; it is taken to have no arguments`,
		`w.json:1:16 (#/0/title): warning: title must be a string, found a number; ignored`,
		`w.json:1:44 (#/0/annotations/readOnlyHint): warning: readOnlyHint must be a boolean, found a string; ignored`,
		`w.json:2:42 (#/0/outputSchema/properties/r/$ref): warning: $ref "https://example.com/s.json" is not a local JSON pointer and is not supported; any value is accepted`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	a := op(t, svc, "a")
	if a.Tool.ReadOnly != nil || a.Tool.Title != "" {
		t.Errorf("ignored values kept: %+v", a.Tool)
	}
	if r := field(t, a.Tool.OutputType, "r").Type; r.Kind != ir.Any {
		t.Errorf("unsupported $ref gave %+v, want Any", r)
	}
}

func TestLoadAliasCycle(t *testing.T) {
	// The root is an alias of a definition that is an alias of the root.
	input := `[{"name": "a", "inputSchema": {"$ref": "#/$defs/b", "$defs": {"b": {"$ref": "#"}}}}]`
	svc, diags, err := LoadData(context.Background(), []byte(input), "c.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`c.json:1:16 (#/0/inputSchema): warning: schema only refers to itself through $ref; any value is accepted`,
		`c.json:1:63 (#/0/inputSchema/$defs/b): warning: schema only refers to itself through $ref; any value is accepted`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if in := op(t, svc, "a").Tool.InputType; in == nil || in.Kind != ir.Any {
		t.Errorf("input type %+v, want Any", in)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, _, err := Load(context.Background(), filepath.Join(t.TempDir(), "nope.json"), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func FuzzLoadData(f *testing.F) {
	files, err := filepath.Glob(filepath.Join(specDir, "*.json"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{`[]`, `{"tools":[{"name":"a","inputSchema":{"$ref":"#"}}]}`, `[{"name":"a","inputSchema":{"items":[true,false]}}]`, `{`, `[{"name":"a","inputSchema":{"$ref":"#/x/0/y"}, "x":[]}]`,
		`[{"name":"a","inputSchema":{"properties":{"x":{"type":5},"y":3},"required":["x",1],"allOf":[{"minimum":"1"}]}}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		svc, diags, err := LoadData(context.Background(), data, "fuzz.json", LoadOptions{})
		if (err == nil) == diags.HasErrors() {
			t.Fatalf("error %v inconsistent with diagnostics %v", err, diags)
		}
		if err == nil {
			for _, o := range svc.Operations {
				if o.Kind != ir.MCPTool || o.Tool == nil || o.GoName == "" || o.InputSchema == nil {
					t.Fatalf("incomplete operation %+v", o)
				}
			}
		}
	})
}

func BenchmarkLoadData(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(specDir, "mcptest-server.json"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := LoadData(ctx, data, "mcptest-server.json", LoadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestLoadServerInfoAndTaskSupport(t *testing.T) {
	svc, diags := loadFile(t, "task-support.json", LoadOptions{})
	if svc.ServerName != "example/research" || svc.Title != "Research Server" || svc.Version != "0.4.2" ||
		svc.ProtocolVersion != "2025-11-25" || !strings.HasPrefix(svc.Description, "Runs research jobs") {
		t.Errorf("service %q %q %q %q %q", svc.ServerName, svc.Title, svc.Version, svc.ProtocolVersion, svc.Description)
	}
	for tool, want := range map[string]string{"quick-answer": "forbidden", "research-query": "required", "summarize": "optional"} {
		if got := op(t, svc, tool).Tool.TaskSupport; got != want {
			t.Errorf("%s: TaskSupport %q, want %q", tool, got, want)
		}
	}
	// Only the required one is worth a warning, at its place.
	if len(diags) != 1 || !strings.Contains(diags[0].String(), "task-support.json:29:") ||
		!strings.Contains(diags[0].String(), "/tools/1/execution/taskSupport") || !strings.Contains(diags[0].String(), "go-sdk v1.8.0 cannot make") {
		t.Errorf("diagnostics: %v", diags)
	}

	// A listing without them (older snapshots, hand-written) has none.
	svc, _ = loadFile(t, "bare-array.json", LoadOptions{})
	if svc.ServerName != "" || svc.ProtocolVersion != "" || svc.Title != "" {
		t.Errorf("bare array: %+v", svc)
	}
}

func TestLoadBadServerInfoAndExecution(t *testing.T) {
	input := `{"serverInfo": ["x"], "protocolVersion": 3, "tools": [
		{"name": "a", "inputSchema": {"type": "object"}, "execution": "now"},
		{"name": "b", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "sometimes"}}]}`
	svc, diags, err := LoadData(context.Background(), []byte(input), "x.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"(#/serverInfo): warning: serverInfo must be an object, found an array; ignored",
		"(#/protocolVersion): warning: protocolVersion must be a string, found a number; ignored",
		"(#/tools/0/execution): warning: execution must be an object, found a string; ignored",
		`(#/tools/1/execution/taskSupport): warning: unknown taskSupport "sometimes"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, got)
		}
	}
	if svc.ServerName != "" || svc.ProtocolVersion != "" || op(t, svc, "b").Tool.TaskSupport != "" {
		t.Errorf("bad values kept: %q %q", svc.ServerName, svc.ProtocolVersion)
	}
}

// TestLoadExactOutputSchema: an opsgen server in warn mode serves a relaxed
// output schema and puts the operation's own in the tool's _meta
// ("io.opsgen/outputSchema"); the tool is typed from that one (its enum
// becomes an enum type, its required member a plain field).
func TestLoadExactOutputSchema(t *testing.T) {
	listing := `{"tools":[{"name":"get_pet","inputSchema":{"type":"object"},
		"outputSchema":{"type":"object","properties":{"name":{"type":"string"},"status":{"type":"string"}}},
		"_meta":{"io.opsgen/outputSchema":{"type":"object","properties":{"name":{"type":"string"},"status":{"type":"string","enum":["available","sold"]}},"required":["name","status"]}}}]}`
	svc, diags, err := LoadData(context.Background(), []byte(listing), "tools.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	noWarnings(t, diags)
	out := op(t, svc, "get_pet").Tool.OutputType
	if out == nil {
		t.Fatal("no output type")
	}
	if st := field(t, out, "status").Type; st.Kind != ir.Enum {
		t.Errorf("status is %v, want an enum (from the exact schema)", st.Kind)
	}
	if !field(t, out, "name").Required {
		t.Error("name is not required (from the exact schema)")
	}
}
