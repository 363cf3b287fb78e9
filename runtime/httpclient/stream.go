package httpclient

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"net/http"
	"time"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Stream sends r when iteration starts and yields one envelope per
// server-sent event of a text/event-stream response, or per item of a
// JSON sequence: JSON Lines (application/jsonl, application/x-ndjson,
// application/x-jsonlines: one JSON value per line) or a JSON text
// sequence (application/json-seq, RFC 7464: each value after a record
// separator), as the response's Content-Type says. Items are read one at
// a time, so memory is bounded by the largest item, however long the
// stream.
//
// Each item of a JSON sequence is decoded into T through the runtime
// pipeline against the 2xx entry's Schema (the schema of one item); its
// meta is the response's HTTPMeta. A blank line is not an item; an item
// that does not decode, or one longer than Config.MaxBodyBytes, is skipped
// with a warning and iteration goes on. A JSON sequence is not
// reconnected: the end of the response ends it, a dropped connection
// with TRANSPORT_ERROR. The rest of this comment is about event streams.
//
// Each event's data (its data lines joined with "\n") is decoded into T: as
// is for string and []byte, else as JSON through the runtime pipeline
// against the 2xx entry's Schema. The meta is the response's HTTPMeta with
// ContentType "text/event-stream", the event's "event" field as EventType
// and the last event ID (which, as the SSE spec says, persists until an
// event sets another) as LastEventID; the Headers map is shared by all
// events of one stream.
//
// A status outside 2xx, a transport failure or a response that is not an
// event stream is yielded as the only element, with a zero envelope. A
// frame whose data does not decode into T, a line longer than 1 MiB or
// event data over Config.MaxBodyBytes is skipped with a warning (to the
// pipeline's warning hook and logger) and iteration goes on; other
// pipeline errors (strict validation) are yielded and iteration goes on if
// the caller continues. An event left unterminated at the end of the
// stream is discarded with a warning, as the SSE spec says.
//
// Cancelling ctx ends the stream: its context error is yielded once.
// Stopping the loop early closes the response body. Note that an
// http.Client Timeout bounds the whole stream; end streams with ctx instead
// (the client's and operation's timeouts bound each connection until its
// response headers only). A dropped connection ends the stream with
// TRANSPORT_ERROR, unless a ReconnectPolicy (WithReconnect) says to
// reconnect. Iterating the sequence again sends the request again.
func Stream[T any](ctx context.Context, c *Client, r *Request, responses []Response, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[T], error] {
	if rm := c.remote(r); rm != nil {
		return streamRemote[T](ctx, c, rm, r, responses, callOptions(opts))
	}
	return func(yield func(runtime.ResponseEnvelope[T], error) bool) {
		var zero runtime.ResponseEnvelope[T]
		cc := callOptions(opts)
		rp := c.cfg.Reconnect
		if cc != nil && cc.hasReconnect {
			rp = cc.reconnect
		}
		delay := cmp.Or(rp.Delay, time.Second)
		p := c.pipeline(cc)
		warn := func(msg string) { p.Report(ctx, []runtime.Warning{{OperationID: r.opID, Message: msg}}) }
		maxData := int(min(c.cfg.MaxBodyBytes, math.MaxInt))
		var lastID string
		failures := 0 // reconnections in a row without an event
		defer func() {
			if r.src != nil {
				r.src.close()
			}
		}()
		for conn := 0; ; conn++ {
			if conn > 0 {
				if lastID != "" {
					r.setHeader("Last-Event-ID", lastID)
				}
				if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= delay {
					yield(zero, runtime.Errorf(runtime.CodeTimeout, r.opID, "event stream dropped; the deadline comes before the reconnection"))
					return
				}
				t := time.NewTimer(delay)
				select {
				case <-ctx.Done():
					t.Stop()
					yield(zero, opsgenimpl.ContextError(ctx, r.opID, nil))
					return
				case <-t.C:
				}
			}
			resp, err := c.send(ctx, r, cc, "text/event-stream", c.timeout(r, cc))
			if err != nil {
				yield(zero, err)
				return
			}
			if conn > 0 && resp.StatusCode == http.StatusNoContent {
				resp.Body.Close()
				return // the server says: do not reconnect
			}
			entry := selectResponse(responses, resp.StatusCode)
			if !isSuccess(resp.StatusCode) {
				yield(zero, statusError(r.opID, resp, entry))
				return
			}
			var schema *opsgenimpl.Schema
			if entry != nil {
				schema = entry.Schema
			}
			mt := mediaType(resp.Header.Get("Content-Type"))
			if mt == "" && entry != nil && entry.Kind == BodyJSONSeq {
				mt = "application/jsonl" // the declared kind decides, as in Do
			}
			if sep, ok := sequenceSeparator(mt); ok {
				// A JSON sequence has no event ids to resume from: it is
				// not reconnected.
				items := newItemReader(resp.Body, sep, maxData, warn)
				_, err := streamItems(ctx, p, r.opID, schema, items, httpMeta(resp, mt), warn, yield)
				resp.Body.Close()
				switch {
				case err == errStopped:
				case err != nil && ctx.Err() != nil:
					yield(zero, opsgenimpl.ContextError(ctx, r.opID, err))
				case err != nil:
					yield(zero, runtime.NewError(runtime.CodeTransport, r.opID, "reading "+mt+" stream", err))
				}
				return
			}
			if mt != "text/event-stream" {
				resp.Body.Close()
				yield(zero, runtime.Errorf(runtime.CodeDecode, r.opID, "response has Content-Type %q, want text/event-stream or a JSON sequence (application/jsonl, application/x-ndjson, application/json-seq)", mt))
				return
			}
			meta := httpMeta(resp, "text/event-stream")
			parser := newSSEParser(resp.Body, maxEventLine, maxData, warn)
			parser.lastID, parser.eventID = lastID, lastID
			events, err := streamEvents(ctx, p, r.opID, schema, parser, meta, warn, yield)
			resp.Body.Close()
			lastID = parser.eventID
			if parser.retry >= 0 {
				delay = parser.retry
			}
			if events > 0 {
				failures = 0
			}
			switch {
			case err == errStopped:
				return
			case err != nil && ctx.Err() != nil:
				yield(zero, opsgenimpl.ContextError(ctx, r.opID, err))
				return
			case err == nil && !rp.OnEOF, failures >= rp.MaxAttempts:
				if err != nil {
					yield(zero, runtime.NewError(runtime.CodeTransport, r.opID, "reading event stream", err))
				}
				return
			}
			failures++
			warn(fmt.Sprintf("event stream ended (%v); reconnecting in %s with Last-Event-ID %q", cmp.Or[error](err, io.EOF), delay, lastID))
		}
	}
}

// errStopped says the consumer stopped the iteration.
var errStopped = errors.New("iteration stopped")

// streamEvents yields the events of one connection. It returns how many
// it read and why it ended (see eachItem).
func streamEvents[T any](ctx context.Context, p *runtime.Pipeline, opID string, schema *opsgenimpl.Schema, parser *sseParser, meta runtime.HTTPMeta, warn func(string), yield func(runtime.ResponseEnvelope[T], error) bool) (int, error) {
	return eachItem(ctx, parser.next, func(ev sseEvent) bool {
		var out T
		var warnings []runtime.Warning
		var err error
		switch o := any(&out).(type) {
		case *string:
			*o = ev.data
		case *[]byte:
			*o = []byte(ev.data)
		default:
			warnings, err = opsgenimpl.Decode(ctx, p, opID, schema, []byte(ev.data), &out)
		}
		m := meta
		m.EventType, m.LastEventID = ev.typ, ev.id
		return yieldItem(out, warnings, err, m, yield, func(err error) {
			warn(fmt.Sprintf("event (type %q, last id %q) skipped: its data does not decode: %v", ev.typ, ev.id, err))
		})
	})
}

// eachItem calls each with the items next reads, until the end of the
// stream (next's io.EOF: it returns nil), the consumer stops (each returns
// false: errStopped), the context ends (its error) or a read fails (that
// error). It returns how many items it read.
func eachItem[E any](ctx context.Context, next func() (E, error), each func(E) bool) (int, error) {
	n := 0
	for {
		e, err := next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		n++
		if !each(e) {
			return n, errStopped
		}
	}
}

// yieldItem yields one decoded item of a stream as an envelope with meta;
// err is its decoding's error. An item whose body does not decode
// (CodeDecode) is reported to skipped instead, and the stream goes on;
// other errors (strict validation) are yielded. It returns false when the
// consumer stopped.
func yieldItem[T any](out T, warnings []runtime.Warning, err error, meta runtime.HTTPMeta, yield func(runtime.ResponseEnvelope[T], error) bool, skipped func(error)) bool {
	if err != nil {
		var ce *runtime.CallError
		if errors.As(err, &ce) && ce.Code != runtime.CodeDecode {
			return yield(runtime.ResponseEnvelope[T]{}, err)
		}
		if ce != nil && ce.Cause != nil {
			err = ce.Cause
		}
		skipped(err)
		return true
	}
	env := opsgenimpl.HTTP(out, meta)
	env.Warnings = warnings
	return yield(env, nil)
}

// ReconnectPolicy says how a stream (Stream) reconnects when its
// connection drops, as an EventSource does: after Delay, or the time the
// server's last "retry" field set, it sends the request again with a
// Last-Event-ID header holding the last event id received, and goes on
// yielding events. A reconnection answered 204 No Content ends the stream;
// one answered with another status outside 2xx ends it with that error.
// The zero policy never reconnects.
type ReconnectPolicy struct {
	// MaxAttempts bounds the reconnections in a row that deliver no event.
	MaxAttempts int
	// Delay is the wait before reconnecting until the server sets one
	// (default 1s). A wait that would pass the context's deadline is not
	// started: the stream ends with TIMEOUT.
	Delay time.Duration
	// OnEOF also reconnects after the server ended the response normally
	// (the EventSource behaviour); by default only a dropped connection (a
	// read error) reconnects.
	OnEOF bool
}

// WithReconnect sets how streams reconnect (default: never).
func WithReconnect(p ReconnectPolicy) Option { return func(c *Config) { c.Reconnect = p } }

// WithCallReconnect sets how this call's stream reconnects.
func WithCallReconnect(p ReconnectPolicy) CallOption {
	return func(cc *callConfig) { cc.reconnect, cc.hasReconnect = p, true }
}
