package runtime

import (
	"context"
	"encoding/json"

	"github.com/opsgen/opsgen/runtime/internal/bridge"
	"github.com/opsgen/opsgen/runtime/internal/conform"
)

// The unexported functions package runtime/opsgenimpl calls (see package
// runtime/internal/bridge): what only generated code uses is exported
// there, not here.
func init() { bridge.Runtime = implementation{} }

// implementation's methods are those of opsgenimpl's runtimeImpl.
type implementation struct{}

func (implementation) DecodeInto(ctx context.Context, p *Pipeline, operationID string, schema *conform.Schema, body []byte, out any) ([]Warning, error) {
	return decodeInto(ctx, p, operationID, schema, body, out)
}

func (implementation) Process(ctx context.Context, p *Pipeline, operationID string, schema *conform.Schema, result any) (ResponseEnvelope[any], error) {
	return p.process(ctx, operationID, schema, result)
}

func (implementation) ProcessInto(ctx context.Context, p *Pipeline, operationID string, schema *conform.Schema, result, out any) (Meta, []Warning, error) {
	return processInto(ctx, p, operationID, schema, result, out)
}

func (implementation) DecodeFit(operationID string, b []byte, out any) ([]Warning, error) {
	return decodeFit(operationID, b, out)
}

func (implementation) UnionOf(variant string, v any) UnionValue {
	return UnionValue{v: v, variant: variant}
}

func (implementation) UnionParts(u UnionValue) (v any, variant string, raw json.RawMessage) {
	return u.v, u.variant, u.raw
}

func (implementation) IsResponseEnvelope(v any) bool { return isResponseEnvelope(v) }

func (implementation) ContextError(ctx context.Context, operationID string, err error) *CallError {
	return contextError(ctx, operationID, err)
}
