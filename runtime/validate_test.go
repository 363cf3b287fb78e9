package runtime_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestValidatorAgreesWithJSONSchema checks the walker's verdicts against
// santhosh-tekuri/jsonschema on schemas without defaults, without
// additionalProperties: false and without property counts next to declared
// properties: where normalization (which drops undeclared members before
// validation counts them) changes nothing that validation looks at.
func TestValidatorAgreesWithJSONSchema(t *testing.T) {
	schemas := []string{
		`{"type":"integer","minimum":0,"exclusiveMaximum":10,"multipleOf":3}`,
		`{"type":["string","null"],"minLength":2,"maxLength":4,"pattern":"^a"}`,
		`{"enum":[1,"two",[3],{"four":4},null,true]}`,
		`{"const":{"a":[1,2]}}`,
		`{"type":"array","items":{"type":"number"},"minItems":1,"maxItems":3,"uniqueItems":true}`,
		`{"type":"array","prefixItems":[{"type":"string"},{"type":"boolean"}],"items":{"type":"null"}}`,
		`{"type":"object","required":["a"],"properties":{"a":{"type":"object","required":["b"],"properties":{"b":{"type":"array","items":{"type":"integer"}}}}},"minProperties":1,"maxProperties":2}`,
		`{"anyOf":[{"type":"string","maxLength":1},{"type":"number","minimum":5}]}`,
		`{"oneOf":[{"type":"number"},{"type":"integer"},{"type":"string"}]}`,
		`{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"required":["a"]},{"minProperties":1}]}`,
		`{"$defs":{"l":{"type":"array","items":{"$ref":"#/$defs/l"},"maxItems":2}},"$ref":"#/$defs/l"}`,
		`{"type":"object","additionalProperties":{"type":"string","format":"date"}}`,
		`{"type":"string","format":"date-time"}`,
		`{"properties":{"x":false}}`,
		// additionalProperties applies to the members a chosen branch
		// declares too (Adyen's additionalData, seed 2718).
		`{"type":"object","additionalProperties":{"type":"string"},"anyOf":[{"properties":{"e":{"type":"boolean"}}},{"properties":{"x":{"type":"integer"}}}]}`,
	}
	instances := []string{
		`0`, `3`, `9`, `10`, `-3`, `4.5`, `6`, `3.0`, `null`, `true`, `"a"`, `"ab"`, `"abcde"`, `"ba"`, `"two"`,
		`[3]`, `[]`, `[1]`, `[1,1]`, `[1,2,3,4]`, `["s",true,null]`, `["s",1]`, `[[[]]]`, `[[],[],[]]`,
		`{"four":4}`, `{"a":[1,2]}`, `{"a":[2,1]}`, `{}`, `{"a":{}}`, `{"a":{"b":[1,"x"]}}`, `{"a":{"b":[1]},"c":1}`,
		`{"a":1,"b":2,"c":3,"d":4}`, `{"a":"x"}`, `{"d":"2024-02-30"}`, `{"d":"2024-02-03"}`, `"2024-02-03T04:05:06+01:00"`,
		`{"x":1}`, `{"y":1}`, `"ab\u0063"`, `{"e":true}`, `{"e":"s"}`,
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for si, s := range schemas {
		url := fmt.Sprintf("s%d.json", si)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(s)))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		ref, err := c.Compile(url)
		if err != nil {
			t.Fatalf("schema %s: %v", s, err)
		}
		ours := opsgenimpl.NewSchema(s)
		strict := &runtime.Pipeline{Mode: runtime.ValidateStrict}
		for _, in := range instances {
			v, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(in)))
			want := ref.Validate(v) == nil
			var out any
			_, err := opsgenimpl.Decode(context.Background(), strict, "test.op", ours, []byte(in), &out)
			if got := err == nil; got != want {
				t.Errorf("schema %s, instance %s: valid = %v, jsonschema says %v (%v)", s, in, got, want, err)
			}
		}
	}
}
