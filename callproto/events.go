package callproto

import (
	"bytes"
	"encoding/json"
	"net/http"
	"unicode/utf8"

	"github.com/opsgen/opsgen/runtime"
)

// The event types: the "type" field of every message on the bus.
const (
	TypeRequested = "call.requested" // spoke -> hubs: run an operation
	TypeResponded = "call.responded" // hub -> spoke: a query's or mutation's envelope
	TypeError     = "call.error"     // hub -> spoke: the call failed (ends a subscription)
	TypeYielded   = "call.yielded"   // hub -> spoke: one envelope of a subscription
	TypeCompleted = "call.completed" // hub -> spoke: the subscription ended normally
	TypeCanceled  = "call.canceled"  // spoke -> hubs: stop the handler
	TypeAck       = "call.ack"       // spoke -> hubs: subscription events consumed (flow control)
	TypeKeepalive = "call.keepalive" // spoke -> hubs: the spoke is alive; cumulative acks
	TypeAlive     = "call.alive"     // hub -> spoke: these requests are running
)

// Identity is who makes a call. It travels with call.requested, and the
// hub's Policy decides from it. The bus is the trust boundary: a hub
// believes the identity a request carries, so restrict who may publish to
// the Requested subject (broker accounts, TLS) where that matters.
type Identity struct {
	// Subject names the caller (a user, a service).
	Subject string `json:"subject"`
	// Roles are what the Policy usually checks.
	Roles []string `json:"roles,omitempty"`
	// Claims holds anything else a Policy may want.
	Claims map[string]any `json:"claims,omitempty"`
}

// Requested is the call.requested event.
type Requested struct {
	Type            string `json:"type"`
	RequestID       string `json:"requestId"`
	ParentRequestID string `json:"parentRequestId,omitempty"`
	OperationID     string `json:"operationId"`
	// Input is the operation's JSON input; absent means {}.
	Input    json.RawMessage `json:"input,omitempty"`
	Identity *Identity       `json:"identity,omitempty"`
	// Deadline is when the caller stops waiting, in Unix epoch
	// milliseconds; 0 means none. The hub's handler context ends then.
	Deadline int64 `json:"deadline,omitempty"`
	// ReplyTo is the subject of the answers.
	ReplyTo string `json:"replyTo"`
	// Subscribe says the caller wants a stream (call.yielded events, then
	// call.completed). Without it, a subscription is refused with an
	// EXECUTION_ERROR; with it, a query or mutation answers with its one
	// call.responded.
	Subscribe bool `json:"subscribe,omitempty"`
	// Window is, for a subscription, how many call.yielded events the hub
	// may send beyond the last acknowledged one (0: DefaultWindow).
	Window int64 `json:"window,omitempty"`
	// Heartbeat is the spoke's call.keepalive period in milliseconds; a hub
	// cancels the call when it hears nothing for 3 periods. 0: no check.
	Heartbeat int64 `json:"heartbeat,omitempty"`
	// IdempotencyKey, if set, names the logical call across retries and
	// hops (see runtime.WithIdempotencyKey): hubs dedupe on it instead of
	// RequestID, and the handler's context carries it. Older hubs ignore it.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

// Responded is the call.responded event. Output is always an envelope's
// wire form ({"data":...,"meta":{"source":...}}), never a raw value; the
// envelope's warnings travel beside it (the wire form has none), so that
// the spoke's envelope is the hub's.
type Responded struct {
	Type      string `json:"type"`
	RequestID string `json:"requestId"`
	// Warnings are the envelope's (runtime.ResponseEnvelope.Warnings);
	// absent when it has none. Older peers ignore them.
	Warnings []Issue         `json:"warnings,omitempty"`
	Output   json.RawMessage `json:"output"`
}

// WireError is a CallError on the wire.
type WireError struct {
	Code        runtime.ErrorCode `json:"code"`
	Message     string            `json:"message,omitempty"`
	OperationID string            `json:"operationId,omitempty"`
	// Issues lists the schema mismatches of a VALIDATION_ERROR, and those
	// of an HTTP failure's body that did not fit its declared type.
	Issues []Issue `json:"issues,omitempty"`
	// HTTP is the transport's detail when the failure is an HTTP response
	// outside 2xx (runtime.CallError.HTTP): a spoke rebuilds from it the
	// error a direct call returns, typed body included. Older peers
	// ignore it.
	HTTP *WireHTTP `json:"http,omitempty"`
}

// WireHTTP is a runtime.HTTPFailure on the wire. The body is in one of
// Body (when it is compact JSON: carried as it is, so that it is readable
// and its bytes survive), BodyText (other UTF-8 text) or BodyBase64
// (anything else); all are absent for an empty body.
type WireHTTP struct {
	StatusCode int `json:"statusCode"`
	// Headers are the response's, names canonical (as net/http keeps
	// them), each with all its values.
	Headers     map[string][]string `json:"headers,omitempty"`
	ContentType string              `json:"contentType,omitempty"`
	Body        json.RawMessage     `json:"body,omitempty"`
	BodyText    string              `json:"bodyText,omitempty"`
	BodyBase64  []byte              `json:"bodyBase64,omitempty"`
	// Truncated says the body is the first opsgenimpl.MaxErrorBody bytes of
	// a longer one.
	Truncated bool `json:"truncated,omitempty"`
}

// Issue is one schema mismatch (a runtime.Warning) on the wire.
type Issue struct {
	OperationID string `json:"operationId,omitempty"`
	Pointer     string `json:"pointer,omitempty"`
	Message     string `json:"message"`
}

// ErrorEvent is the call.error event. For a subscription, Seq is the number
// of call.yielded events sent before it.
type ErrorEvent struct {
	Type      string    `json:"type"`
	RequestID string    `json:"requestId"`
	Error     WireError `json:"error"`
	Seq       int64     `json:"seq,omitempty"`
}

// Yielded is the call.yielded event: the Seq'th envelope (from 1) of a
// subscription, its warnings beside it as in Responded.
type Yielded struct {
	Type      string          `json:"type"`
	RequestID string          `json:"requestId"`
	Seq       int64           `json:"seq"`
	Warnings  []Issue         `json:"warnings,omitempty"`
	Output    json.RawMessage `json:"output"`
}

// Completed is the call.completed event: the subscription ended after Seq
// envelopes.
type Completed struct {
	Type      string `json:"type"`
	RequestID string `json:"requestId"`
	Seq       int64  `json:"seq"`
}

// Control is call.canceled (RequestID), call.ack (RequestID, Seq: the last
// envelope consumed) and call.keepalive (ReplyTo, and Acks: the last
// envelope consumed of each open subscription, repeating acks a broker
// outage may have lost).
type Control struct {
	Type      string           `json:"type"`
	RequestID string           `json:"requestId,omitempty"`
	Seq       int64            `json:"seq,omitempty"`
	ReplyTo   string           `json:"replyTo,omitempty"`
	Acks      map[string]int64 `json:"acks,omitempty"`
}

// Alive is the call.alive event: the hub is running these requests of the
// spoke it is sent to (every heartbeat period of theirs).
type Alive struct {
	Type       string   `json:"type"`
	RequestIDs []string `json:"requestIds"`
	// Sent is, per subscription, the number of call.yielded sent so far:
	// a spoke that received fewer before this event lost the rest (the
	// tail of a stream lost in a broker outage, which no later event
	// would reveal while the hub waits for acks).
	Sent map[string]int64 `json:"sent,omitempty"`
}

// answer is any hub -> spoke event, decoded once by type.
type answer struct {
	RequestIDs []string         `json:"requestIds"`
	Sent       map[string]int64 `json:"sent"`
	Type       string           `json:"type"`
	RequestID  string           `json:"requestId"`
	Output     json.RawMessage  `json:"output"`
	Warnings   []Issue          `json:"warnings"`
	Error      *WireError       `json:"error"`
	Seq        int64            `json:"seq"`
}

// toWire turns an error into its wire form.
func toWire(err error, id string) WireError {
	ce, ok := err.(*runtime.CallError)
	if !ok {
		ce = runtime.NewError(runtime.CodeExecution, id, "", err)
		if e := asCallError(err); e != nil {
			ce = e
		}
	}
	w := WireError{Code: ce.Code, Message: ce.Message, OperationID: ce.OperationID, HTTP: httpToWire(ce.HTTP)}
	for _, is := range ce.Issues {
		w.Issues = append(w.Issues, Issue(is))
	}
	if ce.Cause != nil && (w.Message == "" || !containsStr(w.Message, ce.Cause.Error())) {
		if w.Message != "" {
			w.Message += ": "
		}
		w.Message += ce.Cause.Error()
	}
	if w.OperationID == "" {
		w.OperationID = id
	}
	return w
}

// callError is the Go error of a WireError.
func (w WireError) callError() *runtime.CallError {
	code := w.Code
	if code == "" {
		code = runtime.CodeExecution
	}
	ce := &runtime.CallError{Code: code, Message: w.Message, OperationID: w.OperationID, HTTP: w.HTTP.failure()}
	for _, is := range w.Issues {
		ce.Issues = append(ce.Issues, runtime.Warning(is))
	}
	return ce
}

// httpToWire returns the wire form of an HTTP failure (nil for nil).
func httpToWire(f *runtime.HTTPFailure) *WireHTTP {
	if f == nil {
		return nil
	}
	w := &WireHTTP{StatusCode: f.StatusCode, Headers: f.Headers, ContentType: f.ContentType, Truncated: f.Truncated}
	switch b := f.Body; {
	case len(b) == 0:
	case isCompactJSON(b):
		w.Body = b
	case utf8.Valid(b):
		w.BodyText = string(b)
	default:
		w.BodyBase64 = b
	}
	return w
}

// isCompactJSON reports whether b is JSON that encoding/json would write
// as it is (compact), so that its bytes survive the event's encoding.
func isCompactJSON(b []byte) bool {
	if !json.Valid(b) {
		return false
	}
	var buf bytes.Buffer
	return json.Compact(&buf, b) == nil && bytes.Equal(buf.Bytes(), b)
}

// failure is the runtime.HTTPFailure of w (nil for nil). Typed is left
// nil: the generated client, which knows the operation's error types,
// decodes the body (httpclient.TypedError).
func (w *WireHTTP) failure() *runtime.HTTPFailure {
	if w == nil {
		return nil
	}
	f := &runtime.HTTPFailure{StatusCode: w.StatusCode, Headers: http.Header(w.Headers), ContentType: w.ContentType, Truncated: w.Truncated}
	switch {
	case len(w.Body) > 0:
		f.Body = w.Body
	case w.BodyText != "":
		f.Body = []byte(w.BodyText)
	case len(w.BodyBase64) > 0:
		f.Body = w.BodyBase64
	}
	return f
}

// warningsToWire returns the wire form of an envelope's warnings.
func warningsToWire(ws []runtime.Warning) []Issue {
	if len(ws) == 0 {
		return nil
	}
	out := make([]Issue, len(ws))
	for i, w := range ws {
		out[i] = Issue(w)
	}
	return out
}

// warningsOf returns the warnings of their wire form.
func warningsOf(is []Issue) []runtime.Warning {
	if len(is) == 0 {
		return nil
	}
	out := make([]runtime.Warning, len(is))
	for i, w := range is {
		out[i] = runtime.Warning(w)
	}
	return out
}
