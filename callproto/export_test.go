package callproto

import (
	"context"
	"encoding/json"

	"github.com/opsgen/opsgen/runtime"
)

// EnvelopeAs is the decoding CallAs applies to call.responded's output,
// for the benchmarks' bare NATS side to decode its replies the same way.
func EnvelopeAs[Out any](ctx context.Context, p *runtime.Pipeline, id string, out json.RawMessage) (runtime.ResponseEnvelope[Out], error) {
	return envelopeAs[Out](ctx, p, id, out, nil)
}
