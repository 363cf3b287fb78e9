package callproto

import (
	"encoding/json"

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
}

// Responded is the call.responded event. Output is always an envelope's
// wire form ({"data":...,"meta":{"source":...}}), never a raw value.
type Responded struct {
	Type      string          `json:"type"`
	RequestID string          `json:"requestId"`
	Output    json.RawMessage `json:"output"`
}

// WireError is a CallError on the wire.
type WireError struct {
	Code        runtime.ErrorCode `json:"code"`
	Message     string            `json:"message,omitempty"`
	OperationID string            `json:"operationId,omitempty"`
	// Issues lists the schema mismatches of a VALIDATION_ERROR.
	Issues []Issue `json:"issues,omitempty"`
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
// subscription.
type Yielded struct {
	Type      string          `json:"type"`
	RequestID string          `json:"requestId"`
	Seq       int64           `json:"seq"`
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
	w := WireError{Code: ce.Code, Message: ce.Message, OperationID: ce.OperationID}
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
	ce := &runtime.CallError{Code: code, Message: w.Message, OperationID: w.OperationID}
	for _, is := range w.Issues {
		ce.Issues = append(ce.Issues, runtime.Warning(is))
	}
	return ce
}
