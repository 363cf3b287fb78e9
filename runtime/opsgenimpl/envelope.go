package opsgenimpl

import (
	"context"
	"time"

	"github.com/opsgen/opsgen/runtime"
)

// Local wraps the result of an in-process operation. The timestamp is taken now.
func Local[T any](data T, operationID string) runtime.ResponseEnvelope[T] {
	return runtime.ResponseEnvelope[T]{Data: data, Meta: &runtime.LocalMeta{OperationID: operationID, Timestamp: time.Now().UnixMilli()}}
}

// HTTP wraps the result of an HTTP operation.
func HTTP[T any](data T, meta runtime.HTTPMeta) runtime.ResponseEnvelope[T] {
	return runtime.ResponseEnvelope[T]{Data: data, Meta: &meta}
}

// MCP wraps the result of an MCP tool call.
func MCP[T any](data T, meta runtime.MCPMeta) runtime.ResponseEnvelope[T] {
	return runtime.ResponseEnvelope[T]{Data: data, Meta: &meta}
}

// MaxErrorBody bounds the copy of an error response's body a transport keeps
// in runtime.HTTPFailure.Body.
const MaxErrorBody = 64 << 10

// IsResponseEnvelope reports whether v is an envelope: an object with a
// "data" member (null allowed) and a "meta" object whose "source" is one of
// local, http or mcp. v may be a runtime.ResponseEnvelope of any type, a
// decoded JSON value (map[string]any), raw JSON ([]byte, json.RawMessage) or
// a string of JSON. Detection is by the closed source set only, as the seeds
// define it.
func IsResponseEnvelope(v any) bool { return rt.IsResponseEnvelope(v) }

// ContextError turns a context failure into a runtime.CallError (TIMEOUT for
// a passed deadline, CANCELED for a cancellation), wrapping err. It returns
// nil when ctx has not failed.
func ContextError(ctx context.Context, operationID string, err error) *runtime.CallError {
	return rt.ContextError(ctx, operationID, err)
}
