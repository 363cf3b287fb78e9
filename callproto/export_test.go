package callproto

import (
	"context"
	"encoding/json"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// EnvelopeAs is the decoding CallAs applies to call.responded's output,
// for the benchmarks' bare NATS side to decode its replies the same way.
func EnvelopeAs[Out any](ctx context.Context, p *runtime.Pipeline, id string, out json.RawMessage) (runtime.ResponseEnvelope[Out], error) {
	return envelopeAs[Out](ctx, p, id, out, nil)
}

// SetClockSkew makes m stamp deadlines as a spoke whose wall clock is off
// by d would (positive: ahead). Set it before the first call.
func SetClockSkew(m *PendingRequestMap, d time.Duration) { m.skew = d }
