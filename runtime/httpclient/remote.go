package httpclient

import (
	"context"
	"encoding/json"
	"iter"
	"reflect"

	"github.com/opsgen/opsgen/runtime"
)

// Remote runs registered operations in another process: the call
// protocol's spoke (*callproto.PendingRequestMap) is one. With WithRemote,
// a generated client's methods send their operation's registry id and
// typed input through it instead of an HTTP request, and decode the
// envelopes it returns into the same types as a direct call: the same
// methods, with the call protocol as the transport.
type Remote interface {
	// CallJSON runs the query or mutation id with input and returns the
	// envelope's wire form; errors are *runtime.CallError.
	CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error)
	// SubscribeJSON runs the subscription id and yields each envelope's
	// wire form; an error ends the sequence.
	SubscribeJSON(ctx context.Context, id string, input any) iter.Seq2[json.RawMessage, error]
}

// WithRemote sends the calls of operations that have a registry id (a
// client generated with registry: true) to rm instead of the server. The
// pages of a paginated operation (Pages) go through rm too, page after
// page: the next page's cursor or page number, or the query of the Link
// header's next URL (from the headers in the hub's envelope), is set in
// the parameters struct sent with the call, whose fields are found by
// their parameters' names; a next page that needs a parameter the struct
// does not have ends iteration with an EXECUTION_ERROR.
func WithRemote(rm Remote) Option { return func(c *Config) { c.Remote = rm } }

// RemoteInput is the input a generated client registers its HTTP
// operations with: the parameters struct and the body, as the method
// takes them.
type RemoteInput struct {
	Params any `json:"params,omitempty"`
	Body   any `json:"body,omitempty"`
}

// Remote records the operation's registry id and its typed input, so that
// a client configured WithRemote sends them instead of the HTTP request.
// params and body are what the generated method was given (nil when the
// operation has none).
func (r *Request) Remote(id string, params, body any) {
	r.remoteID = id
	r.remoteIn = RemoteInput{Params: nilIfNil(params), Body: nilIfNil(body)}
}

// nilIfNil turns a typed nil (a nil pointer, slice or map) into nil, so
// that an absent body is absent from the input rather than null.
func nilIfNil(v any) any {
	if v == nil {
		return nil
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
	}
	return v
}

// HasRemote reports whether the client was configured WithRemote: then
// generated methods record their input with Request.Remote.
func (c *Client) HasRemote() bool { return c.cfg.Remote != nil }

// remote returns the Remote to send r to, or nil for HTTP.
func (c *Client) remote(r *Request) Remote {
	if c.cfg.Remote == nil || r.remoteID == "" {
		return nil
	}
	return c.cfg.Remote
}

// remoteEnvelope decodes an envelope's wire form into ResponseEnvelope[T]
// through the result pipeline (drift-tolerant, as a direct call's data):
// the meta the hub sent (HTTP status and headers of its call) is kept.
func remoteEnvelope[T any](ctx context.Context, p *runtime.Pipeline, r *Request, out json.RawMessage) (runtime.ResponseEnvelope[T], error) {
	if !runtime.IsResponseEnvelope(out) {
		return runtime.ResponseEnvelope[T]{}, runtime.Errorf(runtime.CodeDecode, r.opID, "the remote answer is not a ResponseEnvelope")
	}
	return runtime.ProcessAs[T](ctx, p, r.opID, nil, out)
}

// doRemote is Do through rm.
func doRemote[T any](ctx context.Context, c *Client, rm Remote, r *Request, cc *callConfig) (runtime.ResponseEnvelope[T], error) {
	if d := c.timeout(r, cc); d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	out, err := rm.CallJSON(ctx, r.remoteID, r.remoteIn)
	if err != nil {
		return runtime.ResponseEnvelope[T]{}, err
	}
	return remoteEnvelope[T](ctx, c.pipeline(cc), r, out)
}

// streamRemote is Stream through rm.
func streamRemote[T any](ctx context.Context, c *Client, rm Remote, r *Request, cc *callConfig) iter.Seq2[runtime.ResponseEnvelope[T], error] {
	return func(yield func(runtime.ResponseEnvelope[T], error) bool) {
		p := c.pipeline(cc)
		for out, err := range rm.SubscribeJSON(ctx, r.remoteID, r.remoteIn) {
			var env runtime.ResponseEnvelope[T]
			if err == nil {
				env, err = remoteEnvelope[T](ctx, p, r, out)
			}
			if !yield(env, err) || err != nil {
				return
			}
		}
	}
}
