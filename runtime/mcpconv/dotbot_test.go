package mcpconv_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpconv"
)

type dotbotVector struct {
	Envelope json.RawMessage `json:"envelope"`
	Expect   struct {
		Valid  bool   `json:"valid"`
		Status string `json:"status"`
	} `json:"expect"`
}

func loadDotbotVectors(t testing.TB) map[string]dotbotVector {
	t.Helper()
	files, err := filepath.Glob("../../testdata/vectors/dotbot/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no dotbot vectors: %v", err)
	}
	out := map[string]dotbotVector{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v dotbotVector
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = v
	}
	return out
}

func TestDotbotVectors(t *testing.T) {
	for name, v := range loadDotbotVectors(t) {
		t.Run(name, func(t *testing.T) {
			d, warnings, err := mcpconv.DecodeDotbot(v.Envelope)
			if !v.Expect.Valid {
				if err == nil {
					t.Fatalf("decoded %+v, want an error", d)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeDotbot: %v", err)
			}
			if string(d.Status) != v.Expect.Status {
				t.Errorf("Status = %q, want %q", d.Status, v.Expect.Status)
			}
			var raw map[string]json.RawMessage
			if err := json.Unmarshal(v.Envelope, &raw); err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, d.Data, raw["data"]) {
				t.Errorf("Data = %s, want %s", d.Data, raw["data"])
			}
			var declared string
			_ = json.Unmarshal(raw["status"], &declared)
			if string(d.DeclaredStatus) != declared {
				t.Errorf("DeclaredStatus = %q, want %q", d.DeclaredStatus, declared)
			}
			if mismatch := declared != v.Expect.Status; mismatch != (len(warnings) == 1) {
				t.Errorf("warnings = %+v for declared %q, computed %q", warnings, declared, d.Status)
			} else if mismatch && warnings[0].Pointer != "/status" {
				t.Errorf("warning pointer = %q", warnings[0].Pointer)
			}
			if d.Audit.Timestamp == "" || d.Audit.Source == "" || d.Audit.DurationMS <= 0 || d.Tool == "" || d.Summary == "" {
				t.Errorf("info = %+v", d.DotbotInfo)
			}
		})
	}
}

func TestDotbotOptionalParts(t *testing.T) {
	vs := loadDotbotVectors(t)
	d, _, err := mcpconv.DecodeDotbot(vs["intent.json"].Envelope)
	if err != nil || d.Intent == nil || d.Intent.RecommendedNext != "solution.structure" {
		t.Errorf("intent: %+v, %v", d, err)
	}
	d, _, err = mcpconv.DecodeDotbot(vs["actions.json"].Envelope)
	if err != nil || len(d.Actions) != 1 || d.Actions[0].Tool != "solution.structure" || d.Audit.WriteTo != ".bot/solution/projects.json" {
		t.Errorf("actions: %+v, %v", d, err)
	}
	d, _, err = mcpconv.DecodeDotbot(vs["error.json"].Envelope)
	if err != nil || len(d.Errors) != 1 || d.Errors[0].Code != "PROJECT_NOT_FOUND" || !strings.Contains(string(d.Errors[0].Details), "NonExistentProject") {
		t.Errorf("errors: %+v, %v", d, err)
	}
	d, _, err = mcpconv.DecodeDotbot(vs["ok.json"].Envelope)
	if err != nil || d.Audit.Host != "warp" {
		t.Errorf("host: %+v, %v", d, err)
	}
}

func TestDotbotInvalid(t *testing.T) {
	vs := loadDotbotVectors(t)
	for name, want := range map[string]string{
		"missing-audit.json":     "audit is missing",
		"unknown-schema-id.json": `schema_id "dotbot-mcp-response@2" is not`,
	} {
		_, _, err := mcpconv.DecodeDotbot(vs[name].Envelope)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", name, err, want)
		}
	}
	for _, tc := range []struct{ json, want string }{
		{`[]`, "dotbot envelope"},
		{`null`, "not an object"},
		{`{"schema_id":"dotbot-mcp-response@1"}`, "tool is missing; version is missing; status is missing"},
		{`{"schema_id":"dotbot-mcp-response@1","tool":"t","version":"1","status":"fine","summary":"s","data":{},"warnings":[],"errors":[],"audit":{"timestamp":"x","duration_ms":1.5,"source":"s"}}`,
			`audit.duration_ms: wrong type`},
		{`{"schema_id":"dotbot-mcp-response@1","tool":"t","version":"1","status":"fine","summary":"s","data":{},"warnings":[],"errors":[],"audit":{"timestamp":"x","duration_ms":1,"source":"s"}}`,
			`status "fine" is not one of`},
		{`{"schema_id":"dotbot-mcp-response@1","tool":1,"version":"1","status":"ok","summary":"s","data":{},"warnings":{},"errors":[],"audit":{"duration_ms":1,"source":"s"}}`,
			`tool: wrong type (number, want string); warnings: wrong type (object`},
	} {
		_, _, err := mcpconv.DecodeDotbot([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
}

func TestDotbotEncodeRoundTrip(t *testing.T) {
	b, err := mcpconv.EncodeDotbot(mcpconv.DotbotInfo{
		Tool: "solution.info", Version: "1.0.0", Summary: "ok.", Status: mcpconv.DotbotOK,
		Warnings: []mcpconv.DotbotIssue{{Code: "W", Message: "careful"}},
		Audit:    mcpconv.DotbotAudit{DurationMS: 3, Source: "x.ps1"},
	}, map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	d, warnings, err := mcpconv.DecodeDotbot(b)
	if err != nil || len(warnings) != 0 {
		t.Fatalf("decode %s: %v %v", b, warnings, err)
	}
	if d.Status != mcpconv.DotbotWarning || d.SchemaID != mcpconv.DotbotSchemaID || d.Audit.Timestamp == "" || !jsonEqual(t, d.Data, []byte(`{"n":1}`)) {
		t.Errorf("round trip = %+v", d)
	}
	if !strings.Contains(string(b), `"errors":[]`) {
		t.Errorf("nil errors not written as []: %s", b)
	}
}

func TestFindDotbot(t *testing.T) {
	vs := loadDotbotVectors(t)
	blocks := []runtime.ContentBlock{runtime.TextBlock("hello"), runtime.TextBlock(string(vs["warning.json"].Envelope))}
	d, _, err := mcpconv.FindDotbot(blocks)
	if err != nil || d.Status != mcpconv.DotbotWarning {
		t.Fatalf("FindDotbot = %+v, %v", d, err)
	}
	if _, _, err := mcpconv.FindDotbot(blocks[:1]); !errors.Is(err, mcpconv.ErrNoDotbot) {
		t.Errorf("FindDotbot without envelope: %v", err)
	}
	bad := []runtime.ContentBlock{runtime.TextBlock(string(vs["missing-audit.json"].Envelope))}
	if _, _, err := mcpconv.FindDotbot(bad); err == nil || errors.Is(err, mcpconv.ErrNoDotbot) || !strings.Contains(err.Error(), "content block 0") {
		t.Errorf("FindDotbot on invalid envelope: %v", err)
	}
}

// FuzzDotbot checks that no input makes decoding panic and that a decoded
// envelope's status is the one computed from its errors and warnings.
func FuzzDotbot(f *testing.F) {
	for _, v := range loadDotbotVectors(f) {
		f.Add([]byte(v.Envelope))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d, warnings, err := mcpconv.DecodeDotbot(b)
		if err != nil {
			return
		}
		if d.Status != mcpconv.ComputeDotbotStatus(d.Errors, d.Warnings) || d.SchemaID != mcpconv.DotbotSchemaID {
			t.Fatalf("decoded %+v", d.DotbotInfo)
		}
		if (d.DeclaredStatus != d.Status) != (len(warnings) == 1) {
			t.Fatalf("declared %q computed %q warnings %v", d.DeclaredStatus, d.Status, warnings)
		}
	})
}
