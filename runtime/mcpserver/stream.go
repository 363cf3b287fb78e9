package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
)

// maxStreamEvents bounds the events one call of a subscription tool
// collects before it returns.
const maxStreamEvents = 100

// stream answers a call of a subscription tool whose events are events
// (Registry.Subscribe's; see "Subscriptions" in the package doc). Each event's data is
// sent as it comes in a notifications/progress message of the request
// (progress counts the events, message holds the data's JSON) when the
// client gave a progress token; the result holds them all, as a JSON
// array, when the stream ends or after maxStreamEvents events. An error
// ends the call as errors of Execute do. The client cancelling the
// request cancels ctx, which stops the stream.
func (s *Server) stream(ctx context.Context, req *mcp.CallToolRequest, t *tool, events iter.Seq2[runtime.ResponseEnvelope[any], error]) (*mcp.CallToolResult, error) {
	var token any
	if req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	n := 0
	var warnings []runtime.Warning
	for env, err := range events {
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var ce *runtime.CallError
			if !errors.As(err, &ce) {
				ce = runtime.NewError(runtime.CodeExecution, t.spec.ID, "", err)
			}
			return errorResult(ce), nil
		}
		b, err := json.Marshal(env.Data)
		if err != nil {
			return errorResult(runtime.NewError(runtime.CodeDecode, t.spec.ID, "event data", err)), nil
		}
		for _, w := range env.Warnings {
			w.Pointer = "/" + strconv.Itoa(n) + w.Pointer // in the result's array
			warnings = append(warnings, w)
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		buf.Write(b)
		n++
		if token != nil && req.Session != nil {
			if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n), Message: string(b)}); err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		if n == maxStreamEvents {
			break
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	buf.WriteByte(']')
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: buf.String()}}}
	if modernProtocol(req.ProtocolVersion()) {
		structured := json.RawMessage(buf.Bytes())
		// As for a call's data (see result): the events are brought into
		// the served schema when they drifted.
		if t.served != nil && (s.opts.Validation != runtime.ValidateWarn || len(warnings) > 0) {
			var data any
			if err := json.Unmarshal(structured, &data); err != nil {
				return nil, err
			}
			out, ws, ok := t.conform(ctx, data)
			warnings = append(warnings, ws...)
			if !ok {
				return unfitResult(t, warnings, res.Content), nil
			}
			if len(ws) > 0 {
				b, err := json.Marshal(out)
				if err != nil {
					return nil, err
				}
				structured = b
			}
		}
		res.StructuredContent = structured
	}
	if len(warnings) > 0 {
		res.Meta = mcp.Meta{MetaWarnings: warningList(warnings)}
	}
	return res, nil
}
