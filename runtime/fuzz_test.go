package runtime_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
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
		if !opsgenimpl.IsResponseEnvelope(out) {
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
		raw := opsgenimpl.IsResponseEnvelope(b)
		if opsgenimpl.IsResponseEnvelope(string(b)) != raw || opsgenimpl.IsResponseEnvelope(json.RawMessage(b)) != raw {
			t.Fatalf("[]byte, string and json.RawMessage disagree on %q", b)
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			if raw {
				t.Fatalf("malformed JSON %q detected as an envelope", b)
			}
			return
		}
		if opsgenimpl.IsResponseEnvelope(v) != raw {
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
		schema := opsgenimpl.NewSchema(schemaDoc)
		if schema.Compile() != nil {
			return
		}
		var out any
		ctx := context.Background()
		_, err := opsgenimpl.Decode(ctx, quiet, "fuzz.op", schema, []byte(body), &out)
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
		ws, err := opsgenimpl.Decode(ctx, quiet, "fuzz.op", schema, norm, &again)
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

// FuzzDecodeGoTypes: well-formed JSON never fails a decode into the kinds
// of types generated code declares (DECODE_ERROR is for bytes that are not
// JSON): in warn and off mode it decodes, dropping what the type cannot
// hold with warnings of the call's operation id; in strict mode it fails
// only with VALIDATION_ERROR.
func FuzzDecodeGoTypes(f *testing.F) {
	schemas := []string{``, `true`, driftSchema, statusSchema,
		`{"type":"object","properties":{"i8":{"type":"integer"},"tuple":{"type":"array","prefixItems":[{"type":"string"}]},"extra":{"additionalProperties":{"type":"integer"}}},"additionalProperties":false}`,
		`{"items":{"type":"object","properties":{"i8":{"type":"integer","default":1}}}}`,
	}
	bodies := []string{driftBody, `{}`, `[]`, `null`, `1e400`, `"x"`,
		`{"i8":300,"u16":-1,"i32":2.5,"big":1e400,"color":7,"union":{"a":[1]},"extra":{"name":1,"n":"x"},"tuple":[1,"a",{},[]],"counts":[1],"byID":{"-1":"a","1e3":"b"},"nested":[{"i8":"x"},null,[]],"quoted":"1.5","quotedBad":12,"when":"2020-01-01 00:00:00Z","file":"////","free":{"a":1},"any":[1e999]}`,
		`[{"i8":1},{"i8":128},{"I8":-129},"x",null]`,
		`{"ok":"yes","code":7,"items":{"0":"a"},"when":["2020"],"at":null,"f32":"1"}`,
	}
	for _, s := range schemas {
		for _, b := range bodies {
			f.Add(s, b)
		}
	}
	targets := []func() any{
		func() any { return new(genLike) }, func() any { return new(driftThing) }, func() any { return new(status) },
		func() any { return new([]genLeaf) }, func() any { return new(map[string]genTuple) }, func() any { return new(any) },
		func() any { return new(genExtra) }, func() any { return new(*genLike) },
	}
	f.Fuzz(func(t *testing.T, schemaDoc, body string) {
		var schema *opsgenimpl.Schema
		if schemaDoc != "" {
			if schema = opsgenimpl.NewSchema(schemaDoc); schema.Compile() != nil {
				return
			}
		}
		valid := json.Valid([]byte(body))
		ctx := context.Background()
		for _, target := range targets {
			for _, mode := range []runtime.ValidationMode{runtime.ValidateWarn, runtime.ValidateOff, runtime.ValidateStrict} {
				out := target()
				p := &runtime.Pipeline{Mode: mode, Logger: discardLogger()}
				ws, err := opsgenimpl.DecodeInto(ctx, p, "fuzz.op", schema, []byte(body), out)
				switch {
				case !valid:
					if !errors.Is(err, runtime.ErrDecode) {
						t.Fatalf("%s, %T: malformed body %q: err = %v, want DECODE_ERROR", mode, out, body, err)
					}
				case mode == runtime.ValidateStrict:
					if err != nil && !errors.Is(err, runtime.ErrValidation) {
						t.Fatalf("strict, %T: valid body %q: err = %v, want nil or VALIDATION_ERROR", out, body, err)
					}
				case err != nil:
					t.Fatalf("%s, %T: valid body %q failed: %v", mode, out, body, err)
				}
				for _, w := range ws {
					if w.OperationID != "fuzz.op" {
						t.Fatalf("%s, %T: warning %v has operation %q", mode, out, w, w.OperationID)
					}
					// The last-resort fallbacks mean the member-by-member
					// repair missed a case of these types.
					if strings.HasPrefix(w.Message, "the data does not fit") || strings.HasPrefix(w.Message, "decoding into Go type") {
						t.Fatalf("%s, %T: body %q: fallback used: %v", mode, out, body, w)
					}
				}
			}
		}
	})
}
