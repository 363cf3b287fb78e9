package emit

import (
	"bytes"
	"strings"
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// TestValidationOption: Options.Validation makes NewClient (HTTP and MCP)
// put the mode before the caller's options, and documents it; the
// runtime's default needs no code.
func TestValidationOption(t *testing.T) {
	client := func(svc *ir.Service, opts Options) []byte {
		t.Helper()
		files, _ := emit(t, svc, opts)
		for _, f := range files {
			if f.Name == "client.go" {
				return f.Content
			}
		}
		t.Fatal("no client.go")
		return nil
	}
	for _, mode := range []string{"", "warn"} {
		if c := client(petstore(), Options{Package: "petstore", Validation: mode}); bytes.Contains(c, []byte("WithValidation(runtime.")) {
			t.Errorf("validation %q: NewClient sets a mode", mode)
		}
	}
	for mode, want := range map[string]string{"strict": "ValidateStrict", "off": "ValidateOff"} {
		line := "opts = append([]Option{WithValidation(runtime." + want + ")}, opts...)"
		doc := "// The validation mode defaults to runtime." + want + " (client.validation in opsgen's config); WithValidation overrides it.\n"
		for kind, svc := range map[string]*ir.Service{"http": petstore(), "mcp": mcpService()} {
			c := string(client(svc, Options{Package: "gen", Validation: mode}))
			// Doc comments are wrapped: compare them unwrapped.
			if !strings.Contains(c, line) || !strings.Contains(strings.ReplaceAll(c, "\n// ", " "), doc) {
				t.Errorf("%s client with validation %q lacks\n%s\n%s", kind, mode, line, doc)
			}
		}
	}
	if _, _, err := Emit(petstore(), Options{Package: "petstore", Validation: "loose"}); err == nil || !strings.Contains(err.Error(), `validation mode "loose"`) {
		t.Errorf("Emit with validation loose: %v", err)
	}
}
