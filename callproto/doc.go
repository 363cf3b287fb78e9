// Package callproto is the opsgen call protocol: operations registered in a
// runtime.Registry in one process (a hub) called from other processes
// (spokes) over a message broker, with the same envelopes, errors and
// result pipeline as a direct Registry.Execute. It is the Go form of the
// seeds' operations system (CallHandler, PendingRequestMap, call events).
//
// # Serving: CallHandler
//
//	reg := runtime.NewRegistry(nil)
//	client.Register(reg)                        // a generated client's operations
//	reg.RegisterSubscription(spec, handler)     // a local stream
//	bus, _ := natsbus.Connect(natsbus.Options{}) // embedded NATS; or a URL
//	h, _ := callproto.NewCallHandler(reg, bus, callproto.HandlerOptions{
//		Policy: callproto.Rules(callproto.Rule{Operation: "petstore.*", Roles: []string{"reader"}}),
//	})
//	defer h.Close()
//
// For each call.requested the handler looks the operation up
// (OPERATION_NOT_FOUND), asks the Policy (ACCESS_DENIED: only here, never in
// a direct Execute), and runs it through the Registry, which validates the
// input, recovers panics and applies the one result pipeline. Queries and
// mutations answer with call.responded, whose output is always an envelope
// (Respond refuses anything else); subscriptions with call.yielded per
// envelope, then call.completed. Failures, a handler's error or panic
// included, are call.error; an MCP envelope with isError is a response.
// Several hubs on one broker share the requests (a queue group).
//
// # Calling: PendingRequestMap
//
//	spoke, _ := callproto.NewPendingRequestMap(bus, callproto.SpokeOptions{Identity: &callproto.Identity{Subject: "ann", Roles: []string{"reader"}}})
//	env, err := spoke.Call(ctx, "petstore.listPets", json.RawMessage(`{"params":{"limit":2}}`))
//	pet, err := callproto.CallAs[api.Pet](ctx, spoke, "petstore.getPet", callproto.Input{Params: api.GetPetParams{PetID: 1}})
//	for env, err := range callproto.SubscribeAs[Tick](ctx, spoke, "local.ticks", map[string]int{"n": 5}) { ... }
//
// The context's deadline travels with the request and ends the handler's
// context on the hub; cancelling the context, or breaking out of a
// subscription's loop, sends call.canceled, which does too. A spoke that
// dies stops sending keepalives, and hubs cancel its requests after three
// silent periods. Answers that arrive after the caller gave up, and
// duplicates, are dropped. A hub does not run a request id twice: a
// duplicate request that arrives after the first finished is answered with
// the first's recorded answer (HandlerOptions.DedupeWindow), so that a
// caller that got no answer (TRANSPORT_ERROR, or its own deadline) retries
// safely under the same id (WithRequestID). Errors are
// *runtime.CallError, usable with
// errors.Is (runtime.ErrAccessDenied, runtime.ErrTimeout, ...).
//
// Subscriptions are flow controlled: the hub sends at most the window
// (SpokeOptions.Window, default 64) of envelopes beyond the last one the
// spoke acknowledged, so a slow consumer slows the handler down and neither
// side buffers without bound. Events carry sequence numbers: a gap (events
// a broker restart lost) ends the subscription with a TRANSPORT_ERROR
// naming them, never silently.
//
// # Buses
//
// Bus is the whole contract with a broker: Publish, and Subscribe to one
// exact subject, optionally in a queue group. natsbus is the NATS adapter
// (and the default: it embeds a NATS server when given no URL); redisbus
// is Redis pub/sub (queue groups on lists), wsbus a WebSocket hub with
// spokes that reconnect (for spokes that cannot reach a broker). Each
// adapter lives in a package of its own, so that importing callproto
// links none. WIRE.md, beside this file, specifies the subjects, the events
// and their JSON Schemas (EventsSchema, with opsgenimpl.EnvelopeSchema) for
// implementations in other languages.
//
// # Generated clients across the wire
//
// A generated client's operations are registered with the input
// {"params": ..., "body": ...} (see Input; an MCP tool's is its arguments);
// CallAs and SubscribeAs decode the envelope's data into the generated
// output type, through the same drift-tolerant decoding as a direct call.
// CallJSON and SubscribeJSON return the envelopes' wire form undecoded:
// they make a *PendingRequestMap a opsgenimpl.Remote (httpclient.Remote,
// mcpclient.Remote), so that a generated client's own methods run through
// the protocol, HTTP operations (binary and multipart bodies sent as base64)
// and MCP tools alike:
//
//	pets := api.NewClient(api.WithRemote(spoke)) // the hub registered api's client
//	pet, err := pets.GetPet(ctx, api.GetPetParams{PetID: 1}) // runtime.ResponseEnvelope[api.Pet]
//
// The spoke gets the envelope and the error a local call returns:
// call.responded carries the envelope's warnings beside it, and call.error
// the HTTP failure of the hub's call (status, headers, body), from which a
// generated client configured WithRemote makes the operation's error type
// for the status, its body typed, as over HTTP:
//
//	var nf *api.GetPetNotFound
//	if errors.As(err, &nf) { log.Print(nf.HTTP.StatusCode, nf.Body.Message) }
//
// Call and CallAs do the same with the generated packages' TypedError
// functions in SpokeOptions.TypedErrors.
package callproto
