package mcptools

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

func TestLoadParamHeaders(t *testing.T) {
	input := `{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {
		"region": {"type": "string", "x-mcp-header": "Region"},
		"n": {"type": "integer", "x-mcp-header": "N"},
		"f": {"type": "number", "x-mcp-header": "F"},
		"bad": {"type": "string", "x-mcp-header": "Bad Name"},
		"empty": {"type": "string", "x-mcp-header": ""},
		"again": {"type": "boolean", "x-mcp-header": "region"},
		"o/x": {"type": "object", "properties": {"deep": {"type": "boolean", "x-mcp-header": "Deep"}}},
		"plain": {"type": "string"}}}}]}`
	svc, diags, err := LoadData(context.Background(), []byte(input), "x.json", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := svc.Operations[0].Tool.ParamHeaders
	// Path order: of two names equal but for case, the first one counts.
	want := []ir.ParamHeader{
		{Path: []string{"again"}, Header: "region"},
		{Path: []string{"n"}, Header: "N"},
		{Path: []string{"o/x", "deep"}, Header: "Deep"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParamHeaders = %+v, want %+v", got, want)
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	all := strings.Join(msgs, "\n")
	for _, w := range []string{
		`x.json:4:27 (#/tools/0/inputSchema/properties/f/x-mcp-header): warning: x-mcp-header "F" is on a property of type "number" (want string, integer or boolean); ignored`,
		`(#/tools/0/inputSchema/properties/bad/x-mcp-header): warning: x-mcp-header must be a non-empty HTTP token, found "Bad Name"; ignored`,
		`(#/tools/0/inputSchema/properties/empty/x-mcp-header): warning: x-mcp-header must be a non-empty HTTP token, found ""; ignored`,
		`(#/tools/0/inputSchema/properties/region/x-mcp-header): warning: x-mcp-header "Region" is used twice (first at /tools/0/inputSchema/properties/again/x-mcp-header); ignored`,
	} {
		if !strings.Contains(all, w) {
			t.Errorf("diagnostics lack %q:\n%s", w, all)
		}
	}
}
