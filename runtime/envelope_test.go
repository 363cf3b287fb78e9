package runtime_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

const envelopeDir = "../testdata/vectors/envelopes"

// envelopeVectors returns the envelope files of the shared vectors by name
// (without .json), detection.json excluded.
func envelopeVectors(t testing.TB) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(envelopeDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no envelope vectors in %s: %v", envelopeDir, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if name == "detection" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

type detectionVector struct {
	Envelopes    []string                   `json:"envelopes"`
	NotEnvelopes map[string]json.RawMessage `json:"notEnvelopes"`
}

func detectionVectors(t testing.TB) detectionVector {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(envelopeDir, "detection.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d detectionVector
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func decodeAny(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding %s: %v", b, err)
	}
	return v
}

func TestEnvelopeVectorsRoundTrip(t *testing.T) {
	for name, b := range envelopeVectors(t) {
		t.Run(name, func(t *testing.T) {
			want := decodeAny(t, b)

			var env runtime.ResponseEnvelope[any]
			if err := json.Unmarshal(b, &env); err != nil {
				t.Fatalf("unmarshal into ResponseEnvelope[any]: %v", err)
			}
			out, err := json.Marshal(env)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if got := decodeAny(t, out); !reflect.DeepEqual(got, want) {
				t.Errorf("ResponseEnvelope[any] round trip:\n got %s\nwant %s", out, b)
			}

			var raw runtime.ResponseEnvelope[json.RawMessage]
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatalf("unmarshal into ResponseEnvelope[json.RawMessage]: %v", err)
			}
			out, err = json.Marshal(raw)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if got := decodeAny(t, out); !reflect.DeepEqual(got, want) {
				t.Errorf("ResponseEnvelope[json.RawMessage] round trip:\n got %s\nwant %s", out, b)
			}
			if runtime.SourceOf(env.Meta) != runtime.Source(want.(map[string]any)["meta"].(map[string]any)["source"].(string)) {
				t.Errorf("Source() = %q", runtime.SourceOf(env.Meta))
			}
		})
	}
}

func TestEnvelopeVectorsMeta(t *testing.T) {
	vs := envelopeVectors(t)
	var local runtime.ResponseEnvelope[struct {
		ID   int      `json:"id"`
		Name string   `json:"name"`
		Tags []string `json:"tags"`
	}]
	if err := json.Unmarshal(vs["local"], &local); err != nil {
		t.Fatal(err)
	}
	if m := runtime.LocalMetaOf(local.Meta); m == nil || m.OperationID != "pets.getPet" || m.Timestamp != 1747000000123 {
		t.Errorf("local meta = %+v", local.Meta)
	}
	if local.Data.ID != 7 || local.Data.Name != "rex" || !slices.Equal(local.Data.Tags, []string{"dog"}) {
		t.Errorf("local data = %+v", local.Data)
	}

	var h runtime.ResponseEnvelope[any]
	if err := json.Unmarshal(vs["http-json"], &h); err != nil {
		t.Fatal(err)
	}
	if m := runtime.HTTPMetaOf(h.Meta); m == nil || m.StatusCode != 200 || m.Headers["vary"] != "Accept, Accept-Encoding" || m.ContentType != "application/json" {
		t.Errorf("http meta = %+v", h.Meta)
	}

	var m runtime.ResponseEnvelope[[]runtime.ContentBlock]
	if err := json.Unmarshal(vs["mcp-is-error"], &m); err != nil {
		t.Fatal(err)
	}
	if mm := runtime.MCPMetaOf(m.Meta); mm == nil || !mm.IsError || len(mm.Content) != 1 {
		t.Errorf("mcp meta = %+v", m.Meta)
	}
	if text, ok := runtime.FirstText(m.Data); !ok || !strings.Contains(text, "ENOENT") {
		t.Errorf("mcp data = %+v", m.Data)
	}

	var void runtime.ResponseEnvelope[*struct{}]
	if err := json.Unmarshal(vs["local-void"], &void); err != nil {
		t.Fatal(err)
	}
	if void.Data != nil || runtime.LocalMetaOf(void.Meta).OperationID != "pets.deletePet" {
		t.Errorf("local-void = %+v", void)
	}
}

func TestDetectionVectors(t *testing.T) {
	d := detectionVectors(t)
	vs := envelopeVectors(t)
	if len(d.Envelopes) != len(vs) {
		t.Errorf("detection.json lists %d envelopes, the folder has %d", len(d.Envelopes), len(vs))
	}
	for _, name := range d.Envelopes {
		b, ok := vs[name]
		if !ok {
			t.Errorf("detection.json lists %q, which is not a file", name)
			continue
		}
		var env runtime.ResponseEnvelope[any]
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatal(err)
		}
		for what, v := range map[string]any{
			"[]byte":             b,
			"json.RawMessage":    json.RawMessage(b),
			"string":             string(b),
			"map[string]any":     decodeAny(t, b),
			"typed envelope":     env,
			"pointer to typed":   &env,
			"envelope with data": runtime.ResponseEnvelope[any]{Data: env.Data, Meta: env.Meta},
		} {
			if !opsgenimpl.IsResponseEnvelope(v) {
				t.Errorf("%s as %s: IsResponseEnvelope = false, want true", name, what)
			}
		}
	}
	if len(d.NotEnvelopes) == 0 {
		t.Fatal("no notEnvelopes in detection.json")
	}
	for name, raw := range d.NotEnvelopes {
		for what, v := range map[string]any{
			"[]byte":          []byte(raw),
			"json.RawMessage": raw,
			"decoded":         decodeAny(t, raw),
		} {
			if opsgenimpl.IsResponseEnvelope(v) {
				t.Errorf("%s as %s: IsResponseEnvelope = true, want false", name, what)
			}
		}
		// Not envelopes do not unmarshal as envelopes either.
		var env runtime.ResponseEnvelope[any]
		if err := json.Unmarshal(raw, &env); err == nil {
			t.Errorf("%s: unmarshal into an envelope succeeded", name)
		}
	}
}

func TestIsResponseEnvelopeGoValues(t *testing.T) {
	var nilEnv *runtime.ResponseEnvelope[int]
	noMeta := runtime.ResponseEnvelope[int]{Data: 1}
	nilMeta := runtime.ResponseEnvelope[int]{Data: 1, Meta: (*runtime.LocalMeta)(nil)}
	for name, v := range map[string]any{
		"nil":                   nil,
		"nil *ResponseEnvelope": nilEnv,
		"no meta":               noMeta,
		"typed nil meta":        nilMeta,
		"int":                   7,
		"struct":                struct{ Data, Meta int }{1, 2},
		"malformed JSON":        []byte(`{"data":1,"meta":{"source":"local"`),
		"map with typed meta":   map[string]any{"data": 1, "meta": map[string]string{"source": "local"}},
	} {
		if opsgenimpl.IsResponseEnvelope(v) {
			t.Errorf("%s: IsResponseEnvelope = true", name)
		}
	}
	env := opsgenimpl.Local(42, "math.answer")
	if !opsgenimpl.IsResponseEnvelope(env) || !opsgenimpl.IsResponseEnvelope(&env) {
		t.Error("a Local envelope is not detected")
	}
	if got := runtime.Unwrap(env); got != 42 {
		t.Errorf("Unwrap = %d", got)
	}
}

func TestEnvelopeUnmarshalErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not an object":        `[1]`,
		"no data":              `{"meta":{"source":"local","operationId":"a.b","timestamp":1}}`,
		"no meta":              `{"data":1}`,
		"unknown source":       `{"data":1,"meta":{"source":"smtp"}}`,
		"meta of wrong shape":  `{"data":1,"meta":{"source":"http","statusCode":"200"}}`,
		"truncated":            `{"data":1,"meta":{"source":"local"`,
		"null":                 `null`,
		"keys of other case":   `{"DATA":1,"Meta":{"source":"local","operationId":"a.b","timestamp":1}}`,
		"source of other case": `{"data":1,"meta":{"Source":"local","operationId":"a.b","timestamp":1}}`,
		"source not a string":  `{"data":1,"meta":{"source":1}}`,
	} {
		var env runtime.ResponseEnvelope[any]
		if err := json.Unmarshal([]byte(in), &env); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	var typed runtime.ResponseEnvelope[int]
	if err := json.Unmarshal([]byte(`{"data":"x","meta":{"source":"local","operationId":"a.b","timestamp":1}}`), &typed); err == nil {
		t.Error("data of the wrong type: no error")
	}
	if _, err := json.Marshal(runtime.ResponseEnvelope[int]{Data: 1}); err == nil {
		t.Error("marshalling an envelope without meta: no error")
	}
}
