package mcpdiff

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// tool returns the JSON of a tool named "t" with the given input and output
// schemas ("" leaves the output schema out) and extra members.
func tool(in, out, extra string) json.RawMessage {
	s := `{"name":"t","inputSchema":` + in
	if out != "" {
		s += `,"outputSchema":` + out
	}
	if extra != "" {
		s += "," + extra
	}
	return json.RawMessage(s + "}")
}

const obj = `{"type":"object"}`

func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		old, new json.RawMessage
		// want is the one change expected: its pointer and whether it breaks.
		pointer  string
		breaking bool
	}{
		// Input members.
		{"new optional input member", tool(obj, "", ""), tool(`{"type":"object","properties":{"a":{"type":"string"}}}`, "", ""),
			"/inputSchema/properties/a", false},
		{"new required input member", tool(obj, "", ""), tool(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, "", ""),
			"/inputSchema/properties/a", true},
		{"input member removed", tool(`{"type":"object","properties":{"a":{"type":"string"}}}`, "", ""), tool(obj, "", ""),
			"/inputSchema/properties/a", true},
		{"input member now required", tool(`{"type":"object","properties":{"a":{}}}`, "", ""), tool(`{"type":"object","properties":{"a":{}},"required":["a"]}`, "", ""),
			"/inputSchema/properties/a", true},
		{"input member now optional", tool(`{"type":"object","properties":{"a":{}},"required":["a"]}`, "", ""), tool(`{"type":"object","properties":{"a":{}}}`, "", ""),
			"/inputSchema/properties/a", false},
		{"required without a property", tool(obj, "", ""), tool(`{"type":"object","required":["a"]}`, "", ""),
			"/inputSchema/properties/a", true},
		// Input types.
		{"input type changed", tool(`{"properties":{"a":{"type":"integer"}}}`, "", ""), tool(`{"properties":{"a":{"type":"string"}}}`, "", ""),
			"/inputSchema/properties/a/type", true},
		{"input type widened integer to number", tool(`{"properties":{"a":{"type":"integer"}}}`, "", ""), tool(`{"properties":{"a":{"type":"number"}}}`, "", ""),
			"/inputSchema/properties/a/type", false},
		{"input type narrowed number to integer", tool(`{"properties":{"a":{"type":"number"}}}`, "", ""), tool(`{"properties":{"a":{"type":"integer"}}}`, "", ""),
			"/inputSchema/properties/a/type", true},
		{"input type made nullable", tool(`{"properties":{"a":{"type":"string"}}}`, "", ""), tool(`{"properties":{"a":{"type":["string","null"]}}}`, "", ""),
			"/inputSchema/properties/a/type", false},
		{"input type restricted from any", tool(`{"properties":{"a":{}}}`, "", ""), tool(`{"properties":{"a":{"type":"string"}}}`, "", ""),
			"/inputSchema/properties/a/type", true},
		{"input array item type changed", tool(`{"properties":{"a":{"type":"array","items":{"type":"string"}}}}`, "", ""), tool(`{"properties":{"a":{"type":"array","items":{"type":"integer"}}}}`, "", ""),
			"/inputSchema/properties/a/items/type", true},
		// Input enums and formats.
		{"input enum narrowed", tool(`{"properties":{"a":{"enum":["x","y"]}}}`, "", ""), tool(`{"properties":{"a":{"enum":["x"]}}}`, "", ""),
			"/inputSchema/properties/a/enum", true},
		{"input enum widened", tool(`{"properties":{"a":{"enum":["x"]}}}`, "", ""), tool(`{"properties":{"a":{"enum":["x","y"]}}}`, "", ""),
			"/inputSchema/properties/a/enum", false},
		{"input enum dropped", tool(`{"properties":{"a":{"enum":["x"]}}}`, "", ""), tool(`{"properties":{"a":{}}}`, "", ""),
			"/inputSchema/properties/a/enum", false},
		{"input const added", tool(`{"properties":{"a":{"type":"string"}}}`, "", ""), tool(`{"properties":{"a":{"type":"string","const":"x"}}}`, "", ""),
			"/inputSchema/properties/a/enum", true},
		{"input format added", tool(`{"properties":{"a":{"type":"string"}}}`, "", ""), tool(`{"properties":{"a":{"type":"string","format":"uri"}}}`, "", ""),
			"/inputSchema/properties/a/format", true},
		{"input format removed", tool(`{"properties":{"a":{"type":"string","format":"uri"}}}`, "", ""), tool(`{"properties":{"a":{"type":"string"}}}`, "", ""),
			"/inputSchema/properties/a/format", false},
		// Output members.
		{"new output member", tool(obj, obj, ""), tool(obj, `{"type":"object","properties":{"b":{"type":"string"}}}`, ""),
			"/outputSchema/properties/b", false},
		{"output member removed", tool(obj, `{"type":"object","properties":{"b":{"type":"string"}}}`, ""), tool(obj, obj, ""),
			"/outputSchema/properties/b", true},
		{"output member no longer required", tool(obj, `{"properties":{"b":{}},"required":["b"]}`, ""), tool(obj, `{"properties":{"b":{}}}`, ""),
			"/outputSchema/properties/b", true},
		{"output member now required", tool(obj, `{"properties":{"b":{}}}`, ""), tool(obj, `{"properties":{"b":{}},"required":["b"]}`, ""),
			"/outputSchema/properties/b", false},
		// Output types, enums and formats: the mirror of inputs.
		{"output type changed", tool(obj, `{"properties":{"b":{"type":"string"}}}`, ""), tool(obj, `{"properties":{"b":{"type":"boolean"}}}`, ""),
			"/outputSchema/properties/b/type", true},
		{"output type widened integer to number", tool(obj, `{"properties":{"b":{"type":"integer"}}}`, ""), tool(obj, `{"properties":{"b":{"type":"number"}}}`, ""),
			"/outputSchema/properties/b/type", true},
		{"output type narrowed number to integer", tool(obj, `{"properties":{"b":{"type":"number"}}}`, ""), tool(obj, `{"properties":{"b":{"type":"integer"}}}`, ""),
			"/outputSchema/properties/b/type", false},
		{"output made nullable", tool(obj, `{"properties":{"b":{"type":"string"}}}`, ""), tool(obj, `{"properties":{"b":{"type":["null","string"]}}}`, ""),
			"/outputSchema/properties/b/type", true},
		{"output enum widened", tool(obj, `{"properties":{"b":{"enum":[1,2]}}}`, ""), tool(obj, `{"properties":{"b":{"enum":[1,2,3]}}}`, ""),
			"/outputSchema/properties/b/enum", true},
		{"output enum narrowed", tool(obj, `{"properties":{"b":{"enum":[1,2]}}}`, ""), tool(obj, `{"properties":{"b":{"enum":[1]}}}`, ""),
			"/outputSchema/properties/b/enum", false},
		{"output format changed", tool(obj, `{"properties":{"b":{"format":"date-time"}}}`, ""), tool(obj, `{"properties":{"b":{"format":"date"}}}`, ""),
			"/outputSchema/properties/b/format", true},
		{"output format removed", tool(obj, `{"properties":{"b":{"format":"date-time"}}}`, ""), tool(obj, `{"properties":{"b":{}}}`, ""),
			"/outputSchema/properties/b/format", true},
		{"output format added", tool(obj, `{"properties":{"b":{}}}`, ""), tool(obj, `{"properties":{"b":{"format":"uuid"}}}`, ""),
			"/outputSchema/properties/b/format", false},
		// Output schema as a whole.
		{"output schema removed", tool(obj, obj, ""), tool(obj, "", ""), "/outputSchema", true},
		{"output schema added", tool(obj, "", ""), tool(obj, obj, ""), "/outputSchema", false},
		// Unions are compared as a whole.
		{"anyOf changed", tool(`{"properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, "", ""), tool(`{"properties":{"a":{"anyOf":[{"type":"string"}]}}}`, "", ""),
			"/inputSchema/properties/a/anyOf", true},
		// References are followed, in each schema's own root.
		{"referenced output member removed",
			tool(obj, `{"properties":{"n":{"$ref":"#/$defs/node"}},"$defs":{"node":{"properties":{"name":{"type":"string"},"id":{}}}}}`, ""),
			tool(obj, `{"properties":{"n":{"$ref":"#/$defs/v2"}},"$defs":{"v2":{"properties":{"name":{"type":"string"}}}}}`, ""),
			"/outputSchema/properties/n/properties/id", true},
		// Task support: see TestTaskSupport.
		// Documentation.
		{"description changed", tool(obj, "", `"description":"a"`), tool(obj, "", `"description":"b"`), "/description", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := CompareTools([]json.RawMessage{tt.old}, []json.RawMessage{tt.new})
			if err != nil {
				t.Fatal(err)
			}
			if len(d) != 1 {
				t.Fatalf("got %d changes, want 1:\n%v", len(d), d)
			}
			c := d[0]
			if c.Tool != "t" || c.Pointer != tt.pointer || c.Breaking != tt.breaking {
				t.Errorf("got %v\nwant pointer %s, breaking %v", c, tt.pointer, tt.breaking)
			}
			if d.Breaking() != tt.breaking {
				t.Errorf("Diff.Breaking() = %v", d.Breaking())
			}
			// The reverse change is classified the other way, or is
			// breaking both ways (a changed type, format or union);
			// documentation changes are compatible both ways.
			back, err := CompareTools([]json.RawMessage{tt.new}, []json.RawMessage{tt.old})
			if err != nil {
				t.Fatal(err)
			}
			if !tt.breaking && !back.Breaking() && tt.pointer != "/description" {
				t.Errorf("neither the change nor its reverse is breaking:\n%v\n%v", d, back)
			}
		})
	}
}

func TestUnchangedAndRecursive(t *testing.T) {
	// A recursive schema compared with itself ends, and has no changes; an
	// explicit "forbidden" task support is the default.
	const out = `{"properties":{"nodes":{"type":"array","items":{"$ref":"#/$defs/node"}}},` +
		`"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`
	d, err := CompareTools([]json.RawMessage{tool(obj, out, `"execution":{"taskSupport":"forbidden"}`)}, []json.RawMessage{tool(obj, out, "")})
	if err != nil {
		t.Fatal(err)
	}
	if len(d) != 0 {
		t.Errorf("changes between equal listings: %v", d)
	}
}

func TestToolsAddedAndRemoved(t *testing.T) {
	old := `{"tools":[{"name":"keep","inputSchema":{"type":"object"}},{"name":"gone","inputSchema":{"type":"object"}}]}`
	new := `{"serverInfo":{"name":"s"},"tools":[{"name":"new","inputSchema":{"type":"object"}},{"name":"keep","inputSchema":{"type":"object"}}]}`
	d, err := CompareListings([]byte(old), []byte(new))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"BREAKING   gone: tool removed (the generated client still calls it)",
		"COMPATIBLE new: tool added (regenerate to call it)",
	}
	if len(d) != len(want) {
		t.Fatalf("got %v, want %v", d, want)
	}
	for i := range want {
		if d[i].String() != want[i] {
			t.Errorf("change %d = %q, want %q", i, d[i], want[i])
		}
	}
	if b, c := d.Count(); b != 1 || c != 1 {
		t.Errorf("Count() = %d, %d", b, c)
	}
}

func TestBadListings(t *testing.T) {
	good := `{"tools":[]}`
	for _, tt := range []struct{ old, new, want string }{
		{`{"tools":`, good, "old listing"},
		{good, `{}`, `new listing: no "tools" array`},
		{good, `{"tools":[{"inputSchema":{}}]}`, "new listing: /tools/0: no name"},
		{good, `{"tools":[{"name":"a"},{"name":"a"}]}`, `new listing: /tools/1: tool "a" listed twice`},
		{good, `{"tools":[1]}`, "new listing: /tools/0:"},
	} {
		_, err := CompareListings([]byte(tt.old), []byte(tt.new))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CompareListings(%s, %s) error = %v, want one containing %q", tt.old, tt.new, err, tt.want)
		}
	}
}

// TestStandardLibraryOnly: generated clients link mcpdiff through
// runtime/mcpclient, so it must not pull in anything beyond the standard
// library (generator code above all).
func TestStandardLibraryOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if deps := strings.Fields(string(out)); len(deps) != 1 || deps[0] != "github.com/opsgen/opsgen/runtime/mcpdiff" {
		t.Errorf("mcpdiff links %v", deps)
	}
}

// FuzzCompareListings: any pair of inputs gives changes or an error, never
// a panic, and a listing compared with itself has no changes.
func FuzzCompareListings(f *testing.F) {
	f.Add(`{"tools":[{"name":"a","inputSchema":{"properties":[],"required":"x","type":5,"enum":"e","items":[1]}}]}`,
		`{"tools":[{"name":"a","inputSchema":{"$ref":"#/$defs/x","$defs":{"x":{"$ref":"#/$defs/x"}}},"outputSchema":true}]}`)
	f.Add(`{"tools":[{"name":"a","title":{"x":1},"description":[]}]}`, `{"tools":[{"name":"a","title":{"x":2}}]}`)
	f.Add(`{"tools":[{"name":"a","inputSchema":{"$ref":"#/no/such"},"outputSchema":{"properties":{"p":{"$ref":"#"}}}}]}`, `{"tools":[]}`)
	f.Fuzz(func(t *testing.T, old, new string) {
		d, err := CompareListings([]byte(old), []byte(new))
		if err != nil {
			return
		}
		_ = d.Breaking()
		if same, err := CompareListings([]byte(old), []byte(old)); err != nil || len(same) != 0 {
			t.Errorf("a listing compared with itself: %v, %v", same, err)
		}
	})
}

// TestTaskSupport: a change of execution.taskSupport breaks a client
// speaking 2025-11-25 only when the server now refuses the call the client
// makes (a plain one, or one asking for a task: mcpclient asks exactly when
// its Tool.TaskSupport is "optional" or "required"); from 2026-07-28 the
// client follows the server's tasks, and no change breaks it.
func TestTaskSupport(t *testing.T) {
	exec := func(ts string) string {
		if ts == "" {
			return "" // absent: "forbidden"
		}
		return `"execution":{"taskSupport":"` + ts + `"}`
	}
	tests := []struct {
		old, new string
		breaks   bool // on 2025-11-25 (and when the version is unknown)
	}{
		{"optional", "required", false},
		{"required", "optional", false},
		{"forbidden", "required", true},
		{"", "required", true},
		{"required", "forbidden", true},
		{"optional", "", true},
		{"forbidden", "optional", false},
		{"", "optional", false},
	}
	for _, tt := range tests {
		for _, version := range []string{"", "2025-11-25", "2026-07-28"} {
			listing := func(ts string) []byte {
				l := `{"tools":[` + string(tool(obj, "", exec(ts))) + `]`
				if version != "" {
					l += `,"protocolVersion":"` + version + `"`
				}
				return []byte(l + "}")
			}
			d, err := CompareListings(listing(tt.old), listing(tt.new))
			if err != nil {
				t.Fatal(err)
			}
			if len(d) != 1 || d[0].Pointer != "/execution/taskSupport" {
				t.Fatalf("%q -> %q on %q: got %v, want one task support change", tt.old, tt.new, version, d)
			}
			want := tt.breaks && version != "2026-07-28"
			if d[0].Breaking != want {
				t.Errorf("%q -> %q on %q: %v; want breaking %v", tt.old, tt.new, version, d[0], want)
			}
			// CompareToolsWith agrees with CompareListings.
			o, _ := ReadListing(listing(tt.old))
			n, _ := ReadListing(listing(tt.new))
			d2, err := CompareToolsWith(o, n, Options{ProtocolVersion: version})
			if err != nil || len(d2) != 1 || d2[0] != d[0] {
				t.Errorf("%q -> %q on %q: CompareToolsWith gave %v, %v; CompareListings %v", tt.old, tt.new, version, d2, err, d)
			}
		}
	}
}
