package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

func addVectorSeeds(f *testing.F) {
	for _, b := range envelopeVectors(f) {
		f.Add(b)
	}
	for _, raw := range detectionVectors(f).NotEnvelopes {
		f.Add([]byte(raw))
	}
}

// FuzzEnvelopeUnmarshal: whatever unmarshals as an envelope marshals back
// to an envelope that IsResponseEnvelope detects and that round-trips to
// the same bytes.
func FuzzEnvelopeUnmarshal(f *testing.F) {
	addVectorSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var env runtime.ResponseEnvelope[any]
		if json.Unmarshal(b, &env) != nil {
			return
		}
		out, err := json.Marshal(env)
		if err != nil {
			t.Fatalf("unmarshalled %q but cannot marshal it: %v", b, err)
		}
		if !runtime.IsResponseEnvelope(out) {
			t.Fatalf("marshalled envelope %s is not detected", out)
		}
		var again runtime.ResponseEnvelope[any]
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("marshalled envelope %s does not unmarshal: %v", out, err)
		}
		out2, err := json.Marshal(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("round trip is not stable:\n%s\n%s (%v)", out, out2, err)
		}
	})
}

// FuzzIsResponseEnvelope: detection agrees on raw bytes, strings and the
// decoded value, and never panics.
func FuzzIsResponseEnvelope(f *testing.F) {
	addVectorSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		raw := runtime.IsResponseEnvelope(b)
		if runtime.IsResponseEnvelope(string(b)) != raw || runtime.IsResponseEnvelope(json.RawMessage(b)) != raw {
			t.Fatalf("[]byte, string and json.RawMessage disagree on %q", b)
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			if raw {
				t.Fatalf("malformed JSON %q detected as an envelope", b)
			}
			return
		}
		if runtime.IsResponseEnvelope(v) != raw {
			t.Fatalf("bytes say %v, decoded value says %v for %q", raw, !raw, b)
		}
	})
}

// FuzzDecode: for any compilable schema, Decode in warn mode accepts
// exactly the bodies encoding/json accepts, never panics, and yields data
// that passes a second time with no type mismatch left (but the nulls
// that stand in for dropped array items and roots).
func FuzzDecode(f *testing.F) {
	schemas := []string{
		petSchema, `true`, `{"type":"integer"}`, `{"items":{"$ref":"#"}}`,
		`{"oneOf":[{"type":"object","properties":{"a":{"type":"string","default":"x"}}},{"type":"array"}]}`,
		`{"allOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"b":{"default":1}}}],"additionalProperties":false}`,
		`{"properties":{"a":{"anyOf":[{"type":"string"},{"properties":{"b":{"default":2}}}]}}}`,
		`{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"number","nullable":true},"uniqueItems":true}`,
	}
	for _, s := range schemas {
		for _, b := range envelopeVectors(f) {
			f.Add(s, string(b))
		}
		f.Add(s, `{"id":"7","name":"rex","tags":["a",3],"owner":{},"extra":1}`)
		f.Add(s, `[{"a":1},{"a":"b"},2.0,1e3,null]`)
	}
	f.Fuzz(func(t *testing.T, schemaDoc, body string) {
		schema := runtime.NewSchema(schemaDoc)
		if schema.Compile() != nil {
			return
		}
		var out any
		ctx := context.Background()
		_, err := runtime.Decode(ctx, quiet, "fuzz.op", schema, []byte(body), &out)
		var plain any
		if json.Unmarshal([]byte(body), &plain) != nil {
			if !errors.Is(err, runtime.ErrDecode) {
				t.Fatalf("malformed body %q: err = %v, want DECODE_ERROR", body, err)
			}
			return
		}
		if err != nil {
			t.Fatalf("valid body %q: %v", body, err)
		}
		norm, _ := json.Marshal(out)
		var again any
		ws, err := runtime.Decode(ctx, quiet, "fuzz.op", schema, norm, &again)
		if err != nil {
			t.Fatalf("normalized body %s: %v", norm, err)
		}
		for _, w := range ws {
			if strings.HasPrefix(w.Message, "expected ") && !strings.HasSuffix(w.Message, "got null") {
				t.Fatalf("normalized body %s still has a type mismatch: %v", norm, w)
			}
		}
	})
}
