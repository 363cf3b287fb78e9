package emit

import (
	"testing"

	"github.com/opsgen/opsgen/generator/ir"
)

// TestAcceptOf: the Accept header lists the result's media type first,
// then those of the other responses (error bodies too), each once.
func TestAcceptOf(t *testing.T) {
	ok := &ir.Response{Status: "200", MediaType: "application/json"}
	op := &ir.Operation{Result: ok, Responses: []*ir.Response{
		{Status: "201", MediaType: "application/json"},
		ok,
		{Status: "204"},
		{Status: "404", MediaType: "application/problem+json"},
		{Status: "5XX", MediaType: "text/plain"},
		{Status: "default", MediaType: "application/problem+json"},
	}}
	if got, want := acceptOf(op), "application/json, application/problem+json, text/plain"; got != want {
		t.Errorf("acceptOf = %q, want %q", got, want)
	}
	if got := acceptOf(&ir.Operation{Responses: []*ir.Response{{Status: "204"}}}); got != "" {
		t.Errorf("acceptOf(no bodies) = %q, want none", got)
	}
}
