package mcpconv_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpconv"
)

type toolEnvelopeVector struct {
	CallToolResult struct {
		Content []runtime.ContentBlock `json:"content"`
	} `json:"callToolResult"`
	Expect struct {
		OK      bool            `json:"ok"`
		Payload json.RawMessage `json:"payload"`
		Meta    json.RawMessage `json:"meta"`
	} `json:"expect"`
}

func loadToolEnvelopeVectors(t testing.TB) map[string]toolEnvelopeVector {
	t.Helper()
	files, err := filepath.Glob("../../testdata/vectors/toolenvelope-v1/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no toolenvelope-v1 vectors: %v", err)
	}
	out := map[string]toolEnvelopeVector{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v toolEnvelopeVector
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = v
	}
	return out
}

// jsonEqual compares two JSON texts by value.
func jsonEqual(t testing.TB, got, want []byte) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v: %s", err, want)
	}
	return reflect.DeepEqual(g, w)
}

func TestToolEnvelopeVectors(t *testing.T) {
	for name, v := range loadToolEnvelopeVectors(t) {
		t.Run(name, func(t *testing.T) {
			env, err := mcpconv.DecodeToolEnvelope(v.CallToolResult.Content)
			if v.CallToolResult.Content[0].Text != env.Summary {
				t.Errorf("Summary = %q, want block 0 text %q", env.Summary, v.CallToolResult.Content[0].Text)
			}
			if !v.Expect.OK {
				if err == nil {
					t.Fatalf("decoded %s, want an error", env.Payload)
				}
				if name == "no-envelope-block.json" != errors.Is(err, mcpconv.ErrNoToolEnvelope) {
					t.Errorf("errors.Is(err, ErrNoToolEnvelope) wrong for %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeToolEnvelope: %v", err)
			}
			if env.Version != 1 || env.Tool == "" || env.TS == "" {
				t.Errorf("meta = %+v", env.ToolEnvelopeInfo)
			}
			if v.Expect.Payload != nil && !jsonEqual(t, env.Payload, v.Expect.Payload) {
				t.Errorf("payload = %s, want %s", env.Payload, v.Expect.Payload)
			}
			if v.Expect.Meta != nil {
				meta, _ := json.Marshal(env.ToolEnvelopeInfo)
				if !jsonEqual(t, meta, v.Expect.Meta) {
					t.Errorf("meta = %s, want %s", meta, v.Expect.Meta)
				}
			}
		})
	}
}

func TestToolEnvelopeErrorsSayWhy(t *testing.T) {
	vs := loadToolEnvelopeVectors(t)
	for name, want := range map[string]string{
		"bad-base64.json":        "no base64",
		"bad-json.json":          "envelope JSON",
		"version-2.json":         "unsupported envelope version 2",
		"no-envelope-block.json": "no __ENVELOPE_V1__: block",
	} {
		_, err := mcpconv.DecodeToolEnvelope(vs[name].CallToolResult.Content)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, want)
		}
	}
}

func TestToolEnvelopeMissingFields(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"payload":1,"meta":{"tool":"t","ts":"x"}}`, "no version"},
		{`{"payload":1}`, "no meta"},
		{`{"meta":{"version":1}}`, "no payload"},
		{`{"payload":1,"meta":{"version":0}}`, "unsupported envelope version 0"},
		{`{"payload":1,"meta":{"version":"1"}}`, "envelope JSON"},
	} {
		blocks := []runtime.ContentBlock{runtime.TextBlock("s"), runtime.TextBlock(mcpconv.ToolEnvelopePrefix + b64(tc.json))}
		_, err := mcpconv.DecodeToolEnvelope(blocks)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.json, err, tc.want)
		}
	}
}

func TestToolEnvelopeRoundTrip(t *testing.T) {
	ts := time.Date(2025, 6, 17, 18, 30, 0, 0, time.UTC)
	payload := map[string]any{"x": 1.5, "html": "<a&b>"}
	blocks, err := mcpconv.EncodeToolEnvelope("system-design", ts, payload, "## done")
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[0].Text != "## done" || !strings.HasPrefix(blocks[1].Text, mcpconv.ToolEnvelopePrefix) {
		t.Fatalf("blocks = %+v", blocks)
	}
	env, err := mcpconv.DecodeToolEnvelope(blocks)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(env.Payload, &got); err != nil || !reflect.DeepEqual(got, payload) {
		t.Errorf("payload = %s (%v), want %v", env.Payload, err, payload)
	}
	when, err := env.Time()
	if env.Tool != "system-design" || env.Summary != "## done" || err != nil || !when.Equal(ts) {
		t.Errorf("info = %+v, time %v (%v)", env.ToolEnvelopeInfo, when, err)
	}
	if _, err := mcpconv.EncodeToolEnvelope("t", ts, func() {}, ""); err == nil {
		t.Error("EncodeToolEnvelope accepted a func payload")
	}
}

func TestToolEnvelopeURLSafeAndUnpadded(t *testing.T) {
	js := `{"payload":{"q":"??>>"},"meta":{"tool":"t","ts":"2025-06-17T18:30:00Z","version":1}}`
	std := b64(js)
	for _, enc := range []string{
		strings.TrimRight(std, "="),
		strings.NewReplacer("+", "-", "/", "_").Replace(std),
		std + "\n",
	} {
		env, err := mcpconv.DecodeToolEnvelope([]runtime.ContentBlock{runtime.TextBlock(mcpconv.ToolEnvelopePrefix + enc)})
		if err != nil || !jsonEqual(t, env.Payload, []byte(`{"q":"??>>"}`)) {
			t.Errorf("%q: payload %s, err %v", enc, env.Payload, err)
		}
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// FuzzToolEnvelope checks that no block text makes decoding panic, and that
// whatever decodes has version 1 and a JSON payload.
func FuzzToolEnvelope(f *testing.F) {
	for _, v := range loadToolEnvelopeVectors(f) {
		f.Add(v.CallToolResult.Content[len(v.CallToolResult.Content)-1].Text)
	}
	f.Add(mcpconv.ToolEnvelopePrefix + "e30")
	f.Fuzz(func(t *testing.T, text string) {
		env, err := mcpconv.DecodeToolEnvelope([]runtime.ContentBlock{runtime.TextBlock("s"), runtime.TextBlock(text)})
		if env.Summary != "s" {
			t.Fatalf("summary lost: %q", env.Summary)
		}
		if err != nil {
			return
		}
		if env.Version != 1 || !json.Valid(env.Payload) {
			t.Fatalf("decoded version %d payload %q", env.Version, env.Payload)
		}
	})
}
