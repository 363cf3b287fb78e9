package httpclient

import (
	"context"
	"encoding/json"
	"io"
	"iter"
	"reflect"
	"strings"

	"github.com/opsgen/opsgen/runtime"
	"github.com/opsgen/opsgen/runtime/opsgenimpl"
)

// Remote runs registered operations in another process (see
// opsgenimpl.Remote): the call protocol's spoke (*callproto.PendingRequestMap)
// is one.
type Remote = opsgenimpl.Remote

// WithRemote sends the calls of operations that have a registry id (a
// client generated with registry: true) to rm instead of the server.
// Binary content (a binary body, the files of a multipart body) is read
// into memory, at most the client's WithMaxBodyBytes in all, and sent as
// base64 strings, the form the hub's registry takes it in. The
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
	// Call reaches the remote path through here only, so that clients
	// generated without a registry do not link it.
	r.remoteID, r.remoteCall = id, (*Client).doRemoteInto
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
// generated methods record their input with Request.Remote. Not inlined,
// as NewRequest.
//
//go:noinline
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
// the meta the hub sent (HTTP status and headers of its call) is kept,
// and the warnings that came beside it come first.
func remoteEnvelope[T any](ctx context.Context, p *runtime.Pipeline, r *Request, out opsgenimpl.RemoteEnvelope) (runtime.ResponseEnvelope[T], error) {
	if !opsgenimpl.IsResponseEnvelope(out.JSON) {
		return runtime.ResponseEnvelope[T]{}, runtime.Errorf(runtime.CodeDecode, r.opID, "the remote answer is not a ResponseEnvelope")
	}
	if len(out.Warnings) == 0 {
		return opsgenimpl.ProcessAs[T](ctx, p, r.opID, nil, out.JSON)
	}
	var env runtime.ResponseEnvelope[any]
	if err := env.UnmarshalJSON(out.JSON); err != nil {
		return runtime.ResponseEnvelope[T]{}, runtime.NewError(runtime.CodeDecode, r.opID, "the remote answer is not a ResponseEnvelope", err)
	}
	env.Warnings = out.Warnings
	return opsgenimpl.ProcessAs[T](ctx, p, r.opID, nil, env)
}

// remoteEvents is rm's subscription id with the warnings beside each
// envelope when rm carries them (opsgenimpl.WarningsRemote).
func remoteEvents(ctx context.Context, rm Remote, id string, in RemoteInput) iter.Seq2[opsgenimpl.RemoteEnvelope, error] {
	if wr, ok := rm.(opsgenimpl.WarningsRemote); ok {
		return wr.SubscribeJSONWarnings(ctx, id, in)
	}
	return func(yield func(opsgenimpl.RemoteEnvelope, error) bool) {
		for out, err := range rm.SubscribeJSON(ctx, id, in) {
			if !yield(opsgenimpl.RemoteEnvelope{JSON: out}, err) {
				return
			}
		}
	}
}

// remoteInto is remoteEnvelope for the data stored through data (see
// Client.Call); warnings are those the Remote returned beside the
// envelope (see opsgenimpl.WarningsRemote), which come first, as in the
// hub's envelope.
func remoteInto(ctx context.Context, p *runtime.Pipeline, r *Request, out json.RawMessage, warnings []runtime.Warning, data any) (runtime.Meta, []runtime.Warning, error) {
	if !opsgenimpl.IsResponseEnvelope(out) {
		zeroData(data)
		return nil, nil, runtime.Errorf(runtime.CodeDecode, r.opID, "the remote answer is not a ResponseEnvelope")
	}
	if len(warnings) == 0 {
		return opsgenimpl.ProcessInto(ctx, p, r.opID, nil, out, data)
	}
	var env runtime.ResponseEnvelope[any]
	if err := env.UnmarshalJSON(out); err != nil {
		zeroData(data)
		return nil, nil, runtime.NewError(runtime.CodeDecode, r.opID, "the remote answer is not a ResponseEnvelope", err)
	}
	env.Warnings = warnings
	return opsgenimpl.ProcessInto(ctx, p, r.opID, nil, env, data)
}

// doRemoteInto is Call through rm. A failure is typed as responses
// declare it, as a direct call's is (see TypedError).
func (c *Client) doRemoteInto(ctx context.Context, rm Remote, r *Request, responses []Response, cc *callConfig, data any) (runtime.Meta, []runtime.Warning, error) {
	in, err := c.remoteInput(r)
	if err != nil {
		zeroData(data)
		return nil, nil, err
	}
	out, warnings, err := callRemote(ctx, c, rm, r, in, cc)
	if err != nil {
		zeroData(data)
		return nil, nil, remoteError(err, responses)
	}
	return remoteInto(ctx, c.pipeline(cc), r, out, warnings, data)
}

// streamRemote is Stream through rm.
func streamRemote[T any](ctx context.Context, c *Client, rm Remote, r *Request, responses []Response, cc *callConfig) iter.Seq2[runtime.ResponseEnvelope[T], error] {
	return func(yield func(runtime.ResponseEnvelope[T], error) bool) {
		in, err := c.remoteInput(r)
		if err != nil {
			yield(runtime.ResponseEnvelope[T]{}, err)
			return
		}
		p := c.pipeline(cc)
		events := remoteEvents(ctx, rm, r.remoteID, in)
		for out, err := range events {
			var env runtime.ResponseEnvelope[T]
			if err == nil {
				env, err = remoteEnvelope[T](ctx, p, r, out)
			} else {
				err = remoteError(err, responses)
			}
			if !yield(env, err) || err != nil {
				return
			}
		}
	}
}

// readerType is the type of the binary fields of multipart bodies.
var readerType = reflect.TypeFor[io.Reader]()

// remoteInput returns the input r sends through a Remote: the recorded one
// with its binary content read into []byte, which JSON carries as base64
// (the registry's input form, contentEncoding base64): a binary body (an
// io.Reader, closed after reading when it is an io.Closer, as an HTTP body
// is) and the io.Reader fields of a multipart body struct, which take their
// fields' JSON names. The content is read from the readers the request
// holds when it has them (RawBody and MultipartBody may have read the
// first bytes to sniff a media type). At most the client's MaxBodyBytes
// are read in all; more fails the call with VALIDATION_ERROR before
// anything is sent.
func (c *Client) remoteInput(r *Request) (RemoteInput, error) {
	in := r.remoteIn
	if in.Body == nil {
		return in, nil
	}
	budget := c.cfg.MaxBodyBytes
	read := func(rd io.Reader) ([]byte, error) {
		b, err := io.ReadAll(io.LimitReader(rd, budget+1))
		if err != nil {
			return nil, runtime.NewError(runtime.CodeValidation, r.opID, "reading the request body", err)
		}
		if int64(len(b)) > budget {
			return nil, runtime.Errorf(runtime.CodeValidation, r.opID, "the request body's binary content is larger than %d bytes (WithMaxBodyBytes): not sent to the remote", c.cfg.MaxBodyBytes)
		}
		budget -= int64(len(b))
		return b, nil
	}
	if rd, ok := in.Body.(io.Reader); ok {
		src := rd
		if r.reader != nil {
			src = r.reader
		}
		b, err := read(src)
		if cl, ok := rd.(io.Closer); ok {
			cl.Close()
		}
		in.Body = b
		return in, err
	}
	v := reflect.Indirect(reflect.ValueOf(in.Body))
	t := v.Type()
	if t.Kind() != reflect.Struct {
		return in, nil
	}
	// A copy of the struct without its readers is marshalled, then each
	// reader's content is set under its field's JSON name.
	var files map[string][]byte
	var cp reflect.Value
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type != readerType || !f.IsExported() || v.Field(i).IsNil() {
			continue
		}
		if !cp.IsValid() {
			cp = reflect.New(t).Elem()
			cp.Set(v)
		}
		cp.Field(i).SetZero() // a typed nil reader too: absent, not null
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || nilIfNil(v.Field(i).Interface()) == nil {
			continue
		}
		if name == "" {
			name = f.Name
		}
		src := v.Field(i).Interface().(io.Reader)
		for _, p := range r.parts {
			if p.name == name && p.reader != nil {
				src = p.reader // the part of the field (named by its JSON name)
				break
			}
		}
		b, err := read(src)
		if err != nil {
			return in, err
		}
		if files == nil {
			files = map[string][]byte{}
		}
		files[name] = b
	}
	if !cp.IsValid() {
		return in, nil
	}
	raw, err := json.Marshal(cp.Interface())
	var obj map[string]json.RawMessage
	if err == nil {
		err = json.Unmarshal(raw, &obj)
	}
	if err != nil {
		return in, runtime.NewError(runtime.CodeValidation, r.opID, "encoding the multipart body", err)
	}
	for name, b := range files {
		obj[name], _ = json.Marshal(b) // a []byte always marshals
	}
	in.Body = obj
	return in, nil
}

// TypedError returns ce, the *runtime.CallError of an HTTP failure that
// crossed a Remote (the call protocol's call.error carries the status,
// headers and body of the hub's response), as a direct call of the
// operation returns it: the operation's generated error type for the
// status (responses is the operation's table, as its method passes it to
// Call), its JSON (or XML) body decoded into Body. The CallError's Issues are kept
// as they came (the hub decoded the body as well), not added to. It
// returns nil when ce carries no HTTP failure or the operation declares
// nothing for its status. Generated packages call it from their
// TypedError function (callproto.SpokeOptions.TypedErrors).
func TypedError(ce *runtime.CallError, responses []Response) error {
	if ce == nil || ce.HTTP == nil {
		return nil
	}
	entry := selectResponse(responses, ce.HTTP.StatusCode)
	if entry == nil || entry.NewError == nil && !isNilPointer(entry.Error) {
		return nil
	}
	issues := ce.Issues
	ce.Issues = nil
	typed := typedFailure(ce, entry, mediaType(ce.HTTP.ContentType))
	ce.Issues = issues
	return typed
}

// remoteError is the error of a call through a Remote that failed with
// err: typed as responses declare it (TypedError), or err.
func remoteError(err error, responses []Response) error {
	if ce, ok := err.(*runtime.CallError); ok {
		if typed := TypedError(ce, responses); typed != nil {
			return typed
		}
	}
	return err
}
