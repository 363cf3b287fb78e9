package generator

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/opsgen/opsgen/generator/config"
)

// BenchmarkGenerateSpec runs Generate (load, emit, manifest; nothing
// written) on the OpenAPI document named by $OPSGEN_BENCH_SPEC, such as
// GitHub's description fetched by scripts/bench-generate.sh; skipped when
// it is not set. Profile with -cpuprofile to see where generation goes.
func BenchmarkGenerateSpec(b *testing.B) {
	spec := os.Getenv("OPSGEN_BENCH_SPEC")
	if spec == "" {
		b.Skip("OPSGEN_BENCH_SPEC is not set")
	}
	abs, err := filepath.Abs(spec)
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{
		Config: &config.Config{Package: "client", Output: b.TempDir(),
			Sources: []config.Source{{OpenAPI: abs}}},
		ConfigDir: filepath.Dir(abs),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Generate(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
}
