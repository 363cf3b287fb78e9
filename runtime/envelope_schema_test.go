package runtime_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestEnvelopeSchemaAcceptsVectors(t *testing.T) {
	// Compile the exported document independently of ValidateEnvelopeJSON.
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(opsgenimpl.EnvelopeSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("envelope.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("envelope.json")
	if err != nil {
		t.Fatalf("EnvelopeSchema does not compile: %v", err)
	}
	for name, b := range envelopeVectors(t) {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := opsgenimpl.ValidateEnvelopeJSON(b); err != nil {
			t.Errorf("%s: ValidateEnvelopeJSON: %v", name, err)
		}
	}
	// What the Go envelopes marshal validates too.
	env := opsgenimpl.MCP[any](map[string]any{"ok": true}, runtime.MCPMeta{Content: []runtime.ContentBlock{runtime.TextBlock("ok")}})
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := opsgenimpl.ValidateEnvelopeJSON(b); err != nil {
		t.Errorf("marshalled MCP envelope %s: %v", b, err)
	}
	b, _ = json.Marshal(opsgenimpl.HTTP("x", runtime.HTTPMeta{StatusCode: 201, ContentType: "text/plain"}))
	if err := opsgenimpl.ValidateEnvelopeJSON(b); err != nil {
		t.Errorf("marshalled HTTP envelope %s: %v", b, err)
	}
}

func TestEnvelopeSchemaRejectsMalformed(t *testing.T) {
	for name, tc := range map[string]struct{ json, where string }{
		"missing data":        {`{"meta":{"source":"local","operationId":"a.b","timestamp":1}}`, "data"},
		"missing meta":        {`{"data":1}`, "meta"},
		"unknown source":      {`{"data":1,"meta":{"source":"ftp"}}`, "/meta"},
		"local without id":    {`{"data":1,"meta":{"source":"local","timestamp":1}}`, "/meta"},
		"timestamp as string": {`{"data":1,"meta":{"source":"local","operationId":"a.b","timestamp":"now"}}`, "/meta"},
		"status as string":    {`{"data":1,"meta":{"source":"http","statusCode":"200","headers":{},"contentType":"x"}}`, "/meta"},
		"header not a string": {`{"data":1,"meta":{"source":"http","statusCode":200,"headers":{"a":["b"]},"contentType":"x"}}`, "/meta"},
		"unknown block type":  {`{"data":1,"meta":{"source":"mcp","isError":false,"content":[{"type":"hologram"}]}}`, "/meta"},
		"text block no text":  {`{"data":1,"meta":{"source":"mcp","isError":false,"content":[{"type":"text"}]}}`, "/meta"},
		"isError missing":     {`{"data":1,"meta":{"source":"mcp","content":[]}}`, "/meta"},
		"not an object":       {`[{"data":1,"meta":{"source":"local"}}]`, ""},
	} {
		err := opsgenimpl.ValidateEnvelopeJSON([]byte(tc.json))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if !strings.Contains(err.Error(), tc.where) {
			t.Errorf("%s: error %q does not name %q", name, err, tc.where)
		}
	}
	if err := opsgenimpl.ValidateEnvelopeJSON([]byte(`{"data":`)); err == nil {
		t.Error("truncated JSON accepted")
	}
}
