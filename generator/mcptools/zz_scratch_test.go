package mcptools

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestZZScratch(t *testing.T) {
	for _, l := range []int{9990, 9996, 9997, 9998} {
		s := strings.Repeat(`{"items":`, l) + `{}` + strings.Repeat(`}`, l)
		in := `[{"name": "t", "inputSchema": ` + s + `}]`
		start := time.Now()
		_, diags, err := LoadData(context.Background(), []byte(in), "s.json", LoadOptions{})
		t.Logf("%d: %v %v (%v)", l, err, len(diags), time.Since(start))
		if len(diags) > 0 {
			t.Logf("%.300s", diags[0].String())
		}
	}
}
