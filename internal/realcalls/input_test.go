package realcalls

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// inputSchemas are registry-style input schemas with the keywords the
// generator honours.
var inputSchemas = []string{
	// A file of a multipart body, given as base64 (contentEncoding).
	`{"type":"object","required":["file"],"properties":{"file":{"type":"string","format":"binary","contentEncoding":"base64"}}}`,
	`{"type":"object"}`,
	`{"type":"object","required":["params"],"properties":{"params":{"type":"object","required":["id","when","day","mail","uid","kind","n","x","code","tags"],"properties":{
		"id":{"type":"integer","minimum":10,"maximum":12},
		"when":{"type":"string","format":"date-time"},
		"day":{"type":"string","format":"date"},
		"mail":{"type":"string","format":"email"},
		"uid":{"type":"string","format":"uuid"},
		"kind":{"type":"string","enum":["a","b"]},
		"n":{"type":"number","exclusiveMinimum":0,"maximum":1},
		"x":{"type":"integer","multipleOf":5,"minimum":1},
		"code":{"type":"string","pattern":"^[A-Z]{3}-\\d{2,4}$"},
		"tags":{"type":"array","minItems":2,"uniqueItems":true,"items":{"type":"string","enum":["p","q","r"]}},
		"short":{"type":"string","maxLength":2},
		"long":{"type":"string","minLength":12}}}}}`,
	`{"$defs":{"Node":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"kids":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}},
	  "type":"object","required":["body"],"properties":{"body":{"$ref":"#/$defs/Node"}}}`,
	`{"type":"object","required":["body"],"properties":{"body":{"allOf":[{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}},{"type":"object","required":["b"],"properties":{"b":{"type":"boolean"}}}]}}}`,
	`{"type":"object","required":["body"],"properties":{"body":{"oneOf":[{"type":"object","required":["cat"],"properties":{"cat":{"type":"string"}},"additionalProperties":false},{"type":"object","required":["dog"],"properties":{"dog":{"type":"integer"}},"additionalProperties":false}]}}}`,
	`{"type":"object","required":["body"],"properties":{"body":{"type":["string","null"],"const":"fixed"}}}`,
}

// TestInputGen checks that generated inputs are valid for their schema,
// for several seeds, and that a seed always gives the same input.
func TestInputGen(t *testing.T) {
	for i, src := range inputSchemas {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		c.AssertContent()
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(src)))
		if err != nil {
			t.Fatalf("schema %d: %v", i, err)
		}
		if err := c.AddResource("s.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("s.json")
		if err != nil {
			t.Fatalf("schema %d: %v", i, err)
		}
		for seed := uint64(1); seed <= 20; seed++ {
			in, err := NewInputGen(seed).Generate(json.RawMessage(src))
			if err != nil {
				t.Fatalf("schema %d seed %d: %v", i, seed, err)
			}
			again, _ := NewInputGen(seed).Generate(json.RawMessage(src))
			if !bytes.Equal(in, again) {
				t.Errorf("schema %d seed %d: not deterministic:\n%s\n%s", i, seed, in, again)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(v); err != nil {
				t.Errorf("schema %d seed %d: %s is invalid: %v", i, seed, in, err)
			}
		}
	}
}

func TestFromPattern(t *testing.T) {
	for _, p := range []string{`^[a-z0-9-]{3,10}$`, `\d+\.\d+`, `^(foo|bar)_[A-F]{2}$`, `^arn:aws:[^:\s]+$`, `[\w.]+@x\.org`} {
		s, ok := fromPattern(p)
		if !ok {
			t.Errorf("%s: not parsed", p)
			continue
		}
		if !regexp.MustCompile(p).MatchString(s) {
			t.Errorf("%s: %q does not match", p, s)
		}
	}
	if _, ok := fromPattern(`(?<=x)y`); ok {
		t.Error("a lookbehind parsed")
	}
}

// TestPatternMinLength: a string with a pattern and a minLength is grown
// inside the pattern's repetitions, so that it matches and is long enough
// (it was padded with 'e': "0eeee" for ^[0-9]+$).
func TestPatternMinLength(t *testing.T) {
	for _, c := range []struct {
		pattern string
		min     int
	}{
		{`^[0-9]+$`, 5},
		{`^\d*$`, 3},
		{`^[A-Z]{2}-[0-9]{1,8}$`, 9},
		{`^(ab)+x?$`, 6},
		{`^[a-z]{1,3}[0-9]*$`, 10},
	} {
		src := fmt.Sprintf(`{"type":"object","required":["s"],"properties":{"s":{"type":"string","pattern":%q,"minLength":%d}}}`, c.pattern, c.min)
		in, err := NewInputGen(1).Generate(json.RawMessage(src))
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ S string }
		if err := json.Unmarshal(in, &v); err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(c.pattern).MatchString(v.S) || len(v.S) < c.min {
			t.Errorf("pattern %s minLength %d: %q", c.pattern, c.min, v.S)
		}
	}
}

// TestCompileInput: the independent check of refused inputs accepts what
// the published schema accepts and refuses what it refuses (not and
// formats included), and gives up (nil) on a schema it cannot compile.
func TestCompileInput(t *testing.T) {
	check := compileInput(json.RawMessage(`{"type":"object","properties":{"mcc":{"type":"integer","not":{"minimum":800,"maximum":899}},"day":{"type":"string","format":"date"},` +
		`"file":{"type":"string","contentEncoding":"base64"},"bytes":{"type":"string","format":"byte"}}}`))
	if check == nil {
		t.Fatal("the schema did not compile")
	}
	for in, valid := range map[string]bool{`{"mcc":700}`: true, `{"mcc":850}`: false, `{"day":"2024-01-02"}`: true, `{"day":"tomorrow"}`: false,
		`{"file":"ZTJl"}`: true, `{"file":"ü-e2e"}`: false, `{"bytes":"ZTJl"}`: true, `{"bytes":"e2e&x=1"}`: false} {
		if err := check(json.RawMessage(in)); (err == nil) != valid {
			t.Errorf("%s: %v, want valid %v", in, err, valid)
		}
	}
	if compileInput(json.RawMessage(`{"type":`)) != nil || compileInput(nil) != nil {
		t.Error("a schema that does not parse compiled")
	}
}

// TestInputGenBodyNotEmpty: a body whose members are all optional gets one
// (an empty form body is no body on the wire), whatever the seed; a nested
// object of optional members may stay empty.
func TestInputGenBodyNotEmpty(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["body"],"properties":{"body":{"type":"object","properties":{"json":{"type":"object","properties":{"x":{"type":"string"}}}}}}}`)
	emptyNested := false
	for seed := range uint64(40) {
		g := NewInputGen(seed)
		out, err := g.Generate(schema)
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			Body map[string]map[string]any `json:"body"`
		}
		if err := json.Unmarshal(out, &in); err != nil {
			t.Fatal(err)
		}
		if len(in.Body) == 0 {
			t.Fatalf("seed %d: empty body %s", seed, out)
		}
		emptyNested = emptyNested || len(in.Body["json"]) == 0
	}
	if !emptyNested {
		t.Error("no seed left the nested object of optional members empty")
	}
}
