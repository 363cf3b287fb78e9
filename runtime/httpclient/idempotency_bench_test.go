package httpclient

import (
	"context"
	"net/http"
	"testing"

	"github.com/opsgen/opsgen/runtime"
)

// BenchmarkPostInMemory is a POST through an in-memory transport: without
// idempotency keys (what every client without the option pays for the
// check) and with a key generated per call.
func BenchmarkPostInMemory(b *testing.B) {
	hc := &http.Client{Transport: memTransport{benchBody(1)}}
	ctx := context.Background()
	responses := []Response{{Status: "200", Kind: BodyJSON}}
	for _, bc := range []struct {
		name string
		opts []Option
	}{
		{"plain", nil},
		{"idempotency-keys", []Option{WithIdempotencyKeys()}},
	} {
		c := New("http://h", nil, append([]Option{WithHTTPClient(hc), WithValidation(runtime.ValidateOff)}, bc.opts...)...)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := c.NewRequest("createPet", http.MethodPost, "/pets")
				r.JSONBody("application/json", map[string]string{"name": "Rex"})
				r.Accept("application/json")
				if _, err := Do[benchPage](ctx, c, r, responses); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
