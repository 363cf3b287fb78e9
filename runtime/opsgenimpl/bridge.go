package opsgenimpl

import (
	"context"
	"encoding/json"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/internal/bridge"
)

// runtimeImpl is what package runtime implements for this package (see
// package runtime/internal/bridge).
type runtimeImpl interface {
	DecodeInto(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, body []byte, out any) ([]runtime.Warning, error)
	Process(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, result any) (runtime.ResponseEnvelope[any], error)
	ProcessInto(ctx context.Context, p *runtime.Pipeline, operationID string, schema *Schema, result, out any) (runtime.Meta, []runtime.Warning, error)
	DecodeFit(operationID string, b []byte, out any) ([]runtime.Warning, error)
	UnionOf(variant string, v any) runtime.UnionValue
	UnionParts(u runtime.UnionValue) (v any, variant string, raw json.RawMessage)
	IsResponseEnvelope(v any) bool
	ContextError(ctx context.Context, operationID string, err error) *runtime.CallError
}

// rt is set: package runtime, which this package imports, is initialized first.
var rt = bridge.Runtime.(runtimeImpl)
