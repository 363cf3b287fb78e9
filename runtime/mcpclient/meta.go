package mcpclient

import (
	"slices"

	"github.com/opsgen/opsgen/runtime"
)

// Keys of the _meta of tools/call results that an opsgen server
// (runtime/mcpserver) sends, and that Call and AsError read back.
const (
	// MetaWarnings holds the warnings of the envelope the server made (its
	// schema drift): an array of {"operationId", "pointer", "message"}. Call
	// puts them on the envelope's Warnings, before its own.
	MetaWarnings = "io.opsgen/warnings"
	// MetaError holds, on an isError result made of a *runtime.CallError,
	// the error as an object: {"code", "message", "operationId", "status",
	// "issues"}. AsError rebuilds the error from it.
	MetaError = "io.opsgen/error"
	// MetaEnvelope holds the envelope's meta in its wire form, when the
	// server is asked to send it (mcpserver.Options.IncludeMeta).
	MetaEnvelope = "io.opsgen/meta"
)

// serverWarnings reads the warnings under MetaWarnings in a result's _meta
// (nil when there are none or they are malformed: they are advisory).
func serverWarnings(meta map[string]any) []runtime.Warning {
	list, _ := meta[MetaWarnings].([]any)
	var out []runtime.Warning
	for _, x := range list {
		m, ok := x.(map[string]any)
		if !ok {
			continue
		}
		msg, _ := m["message"].(string)
		if msg == "" {
			continue
		}
		ptr, _ := m["pointer"].(string)
		out = append(out, runtime.Warning{Pointer: ptr, Message: msg})
	}
	return out
}

// serverError reads the error under MetaError in a result's _meta: its
// code, message, operation id, issues and HTTP status, and whether there
// is one.
func serverError(meta map[string]any) (*runtime.CallError, bool) {
	m, _ := meta[MetaError].(map[string]any)
	c, _ := m["code"].(string)
	if c == "" {
		return nil, false
	}
	ce := &runtime.CallError{Code: runtime.ErrorCode(c)}
	ce.Message, _ = m["message"].(string)
	ce.OperationID, _ = m["operationId"].(string)
	if status, ok := m["status"].(float64); ok && status >= 100 && status <= 999 && status == float64(int(status)) {
		ce.HTTP = &runtime.HTTPFailure{StatusCode: int(status)}
	}
	issues, _ := m["issues"].([]any)
	for _, x := range issues {
		is, _ := x.(map[string]any)
		msg, _ := is["message"].(string)
		if msg == "" {
			continue
		}
		ptr, _ := is["pointer"].(string)
		ce.Issues = append(ce.Issues, runtime.Warning{OperationID: ce.OperationID, Pointer: ptr, Message: msg})
	}
	return ce, true
}

// distinct drops the warnings equal to an earlier one: an opsgen server
// sends the drift it saw (MetaWarnings), which this client's pipeline,
// checking the same schema, finds again.
func distinct(ws []runtime.Warning) []runtime.Warning {
	if len(ws) < 2 {
		return ws
	}
	out := ws[:0]
	for i, w := range ws {
		if !slices.Contains(ws[:i], w) {
			out = append(out, w)
		}
	}
	return out
}
