package httpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"

	"github.com/opsgen/opsgen/runtime"
)

// Stream sends r when iteration starts and yields one envelope per
// server-sent event of the text/event-stream response.
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
// http.Client Timeout bounds the whole stream; end streams with ctx instead.
// Iterating the sequence again sends the request again, so it works only
// for requests whose body can be read twice (or that have none).
func Stream[T any](ctx context.Context, c *Client, r *Request, responses []Response, opts ...CallOption) iter.Seq2[runtime.ResponseEnvelope[T], error] {
	return func(yield func(runtime.ResponseEnvelope[T], error) bool) {
		var zero runtime.ResponseEnvelope[T]
		cc := callOptions(opts)
		resp, err := c.send(ctx, r, cc, "text/event-stream")
		if err != nil {
			yield(zero, err)
			return
		}
		entry := selectResponse(responses, resp.StatusCode)
		if !isSuccess(resp.StatusCode) {
			yield(zero, statusError(r.opID, resp, entry))
			return
		}
		defer resp.Body.Close()
		meta := httpMeta(resp, "text/event-stream")
		if mt := mediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
			yield(zero, runtime.Errorf(runtime.CodeDecode, r.opID, "response has Content-Type %q, want text/event-stream", mt))
			return
		}
		p := c.pipeline(cc)
		var schema *runtime.Schema
		if entry != nil {
			schema = entry.Schema
		}
		warn := func(msg string) { p.Report(ctx, []runtime.Warning{{OperationID: r.opID, Message: msg}}) }
		maxData := int(min(c.cfg.MaxBodyBytes, math.MaxInt))
		parser := newSSEParser(resp.Body, maxEventLine, maxData, warn)
		for {
			ev, err := parser.next()
			if err != nil {
				if ce := runtime.ContextError(ctx, r.opID, err); ce != nil {
					yield(zero, ce)
				} else if err != io.EOF {
					yield(zero, runtime.NewError(runtime.CodeTransport, r.opID, "reading event stream", err))
				}
				return
			}
			if ce := runtime.ContextError(ctx, r.opID, nil); ce != nil {
				yield(zero, ce)
				return
			}
			var out T
			var warnings []runtime.Warning
			switch o := any(&out).(type) {
			case *string:
				*o = ev.data
			case *[]byte:
				*o = []byte(ev.data)
			default:
				warnings, err = runtime.Decode(ctx, p, r.opID, schema, []byte(ev.data), &out)
			}
			if err != nil {
				var ce *runtime.CallError
				if errors.As(err, &ce) && ce.Code != runtime.CodeDecode {
					if !yield(zero, err) {
						return
					}
					continue
				}
				if ce != nil && ce.Cause != nil {
					err = ce.Cause
				}
				warn(fmt.Sprintf("event (type %q, last id %q) skipped: its data does not decode: %v", ev.typ, ev.id, err))
				continue
			}
			m := meta
			m.EventType, m.LastEventID = ev.typ, ev.id
			env := runtime.HTTP(out, m)
			env.Warnings = warnings
			if !yield(env, nil) {
				return
			}
		}
	}
}
