package opsgenimpl

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/opsgen/opsgen/runtime"
)

// Remote runs registered operations in another process: the call
// protocol's spoke (*callproto.PendingRequestMap) is one. A generated
// client configured with its WithRemote option sends each operation's
// registry id and typed input through it instead of its own transport
// (HTTP, MCP), and decodes the envelopes it returns into the same types as
// a direct call: the same methods, with the call protocol as the
// transport. httpclient.Remote and mcpclient.Remote are this interface.
type Remote interface {
	// CallJSON runs the query or mutation id with input and returns the
	// envelope's wire form; errors are *runtime.CallError.
	CallJSON(ctx context.Context, id string, input any) (json.RawMessage, error)
	// SubscribeJSON runs the subscription id and yields each envelope's
	// wire form; an error ends the sequence.
	SubscribeJSON(ctx context.Context, id string, input any) iter.Seq2[json.RawMessage, error]
}

// WarningsRemote is implemented by a Remote whose answers carry the
// envelope's warnings beside its wire form (the call protocol's spoke: its
// call.responded has them), so that a call through it returns the
// warnings a local call does. The wire form of an envelope has no
// warnings (the seeds'); a Remote without this method loses them.
type WarningsRemote interface {
	// CallJSONWarnings is CallJSON also returning the envelope's warnings.
	CallJSONWarnings(ctx context.Context, id string, input any) (json.RawMessage, []runtime.Warning, error)
	// SubscribeJSONWarnings is SubscribeJSON yielding each envelope's
	// warnings too.
	SubscribeJSONWarnings(ctx context.Context, id string, input any) iter.Seq2[RemoteEnvelope, error]
}

// RemoteEnvelope is an envelope's wire form and the warnings that came
// beside it (see WarningsRemote).
type RemoteEnvelope struct {
	JSON     json.RawMessage
	Warnings []runtime.Warning
}
