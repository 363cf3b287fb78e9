package mcpserver

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/mcpclient"
)

// Keys of the results' and tools' _meta.
const (
	// MetaError holds, on an isError result made of a CallError, the error
	// as an object: {"code", "message", "operationId", "status", "issues"}.
	MetaError = mcpclient.MetaError
	// MetaEnvelope holds the envelope's meta in its wire form
	// (Options.IncludeMeta).
	MetaEnvelope = mcpclient.MetaEnvelope
	// MetaWarnings holds the envelope's warnings, and those of bringing
	// its data into the served output schema: an array of {"operationId",
	// "pointer", "message"}. mcpclient puts them back on the envelope.
	MetaWarnings = mcpclient.MetaWarnings
	// MetaOutputSchema holds, in a tool's _meta, the operation's own output
	// schema when the one served is relaxed (see "Output schemas" in the
	// package doc): opsgen's generator (generator/mcptools) types the data
	// with it.
	MetaOutputSchema = "io.opsgen/outputSchema"
)

// maxErrorBody bounds the part of an HTTP error body put in an error
// result's text.
const maxErrorBody = 4 << 10

// result turns the envelope of a call to t into its tools/call result.
//
// An envelope from an MCP call passes its content, isError and _meta
// through; its structuredContent is the envelope's data when the tool has
// an output schema (the data was normalized against it), else the
// upstream's structuredContent as it came. Any other envelope's data is
// sent as structuredContent and as a text block holding the same JSON.
// Sessions older than protocol 2026-07-28 get structuredContent only when
// it is a JSON object (their protocol allows nothing else); the text block
// still holds the JSON.
func (s *Server) result(ctx context.Context, t *tool, env runtime.ResponseEnvelope[any], modern bool) (*mcp.CallToolResult, error) {
	res := &mcp.CallToolResult{}
	warnings := env.Warnings
	var structured, text json.RawMessage
	sendData := false // structured is env.Data, brought into the served schema
	if m := runtime.MCPMetaOf(env.Meta); m != nil {
		content, err := mcpclient.ToSDK(m.Content)
		if err != nil {
			return nil, err
		}
		res.Content, res.IsError = content, m.IsError
		if len(m.Meta) > 0 {
			res.Meta = maps.Clone(mcp.Meta(m.Meta)) // warnings are added to it
		}
		switch {
		case m.IsError:
		case t.hasOutput:
			sendData = true
		case len(m.StructuredContent) > 0:
			structured = m.StructuredContent
		}
	} else {
		b, err := json.Marshal(env.Data)
		if err != nil {
			return nil, err
		}
		text = b
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
		if t.hasOutput {
			sendData = true
		} else {
			structured = b
		}
	}
	if sendData {
		data := env.Data
		// In warn mode a result without warnings matched the exact schema,
		// so it fits the served one.
		if t.served != nil && (s.opts.Validation != runtime.ValidateWarn || len(env.Warnings) > 0) {
			out, ws, ok := t.conform(ctx, data)
			warnings = append(warnings, ws...)
			if !ok {
				return unfitResult(t, warnings, res.Content), nil
			}
			if len(ws) > 0 {
				data, text = out, nil
			}
		}
		structured = text
		if structured == nil {
			b, err := json.Marshal(data)
			if err != nil {
				return nil, err
			}
			structured = b
		}
	}
	if len(structured) > 0 && string(structured) != "null" && (modern || isObject(structured)) {
		res.StructuredContent = structured
	}
	if len(warnings) > 0 {
		if res.Meta == nil {
			res.Meta = mcp.Meta{}
		}
		res.Meta[MetaWarnings] = warningList(warnings)
	}
	if s.opts.IncludeMeta {
		if err := addEnvelopeMeta(res, env); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// warningList is the wire form of warnings under MetaWarnings.
func warningList(warnings []runtime.Warning) []map[string]string {
	ws := make([]map[string]string, len(warnings))
	for i, w := range warnings {
		ws[i] = map[string]string{"operationId": w.OperationID, "pointer": w.Pointer, "message": w.Message}
	}
	return ws
}

// unfitResult is the result of a call whose data does not fit the tool's
// served output schema even after conform (its root has another type): no
// structuredContent can be sent, so it is an isError result with code
// VALIDATION_ERROR listing why, followed by the data's content blocks.
func unfitResult(t *tool, warnings []runtime.Warning, content []mcp.Content) *mcp.CallToolResult {
	ce := &runtime.CallError{Code: runtime.CodeValidation, OperationID: t.spec.ID, Message: "the result does not fit the tool's output schema", Issues: warnings}
	if n := len(warnings); n > 0 {
		ce.Message += ": " + warnings[n-1].String()
	}
	res := errorResult(ce)
	res.Content = append(res.Content, content...)
	res.Meta[MetaWarnings] = warningList(warnings)
	return res
}

// addEnvelopeMeta puts env's meta and warnings in res's _meta.
func addEnvelopeMeta(res *mcp.CallToolResult, env runtime.ResponseEnvelope[any]) error {
	b, err := json.Marshal(runtime.ResponseEnvelope[any]{Meta: env.Meta})
	if err != nil {
		return err
	}
	var wire struct {
		Meta json.RawMessage `json:"meta"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		return err
	}
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	res.Meta[MetaEnvelope] = wire.Meta
	return nil
}

// errorResult is the isError result of a failed call: a text block whose
// first line is the error (code, operation, message), followed by the
// HTTP error body when there is one (cut at 4 KiB), and the error as an
// object in _meta (MetaError).
func errorResult(ce *runtime.CallError) *mcp.CallToolResult {
	text := ce.Error()
	detail := map[string]any{"code": ce.Code, "message": ce.Message, "operationId": ce.OperationID}
	if ce.Message == "" && ce.Cause != nil {
		detail["message"] = ce.Cause.Error()
	}
	if h := ce.HTTP; h != nil {
		detail["status"] = h.StatusCode
		if body := h.Body; len(body) > 0 && utf8.Valid(body) {
			cut := len(body) > maxErrorBody
			if cut {
				body = body[:maxErrorBody]
				for !utf8.Valid(body) {
					body = body[:len(body)-1]
				}
			}
			text += "\n" + strings.TrimRight(string(body), " \t\r\n")
			if cut || h.Truncated {
				text += "\n[body truncated]"
			}
		}
	}
	if len(ce.Issues) > 0 {
		issues := make([]map[string]string, len(ce.Issues))
		for i, is := range ce.Issues {
			issues[i] = map[string]string{"pointer": is.Pointer, "message": is.Message}
		}
		detail["issues"] = issues
	}
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		Meta:    mcp.Meta{MetaError: detail},
	}
}

// isObject reports whether b, valid JSON, is an object.
func isObject(b []byte) bool {
	i := slices.IndexFunc(b, func(c byte) bool { return c != ' ' && c != '\t' && c != '\n' && c != '\r' })
	return i >= 0 && b[i] == '{'
}
