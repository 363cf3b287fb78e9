// Package webhook receives webhooks and callbacks: requests an API sends
// to its clients (OpenAPI 3.1 "webhooks", OpenAPI 3.0 "callbacks"). It
// verifies each delivery's signature, rejects replays, caps the body, and
// hands the payload to a typed handler as a runtime.ResponseEnvelope that
// went through the result pipeline, as a client's response does. A client
// that receives no webhooks does not import it, and links none of it.
//
// opsgen generates, for a spec with webhooks or callbacks, a Webhooks
// interface with one method per operation and NewWebhookMux, which mounts
// one Handle per operation; code that does not use the generator calls
// Handle itself:
//
//	v, err := webhook.NewStandardWebhooks(os.Getenv("WEBHOOK_SECRET")) // "whsec_..."
//	if err != nil {
//		return err
//	}
//	rc := webhook.New(v)
//	op := webhook.Operation{ID: "shop.orderPaid", Name: "orderPaid", Method: "POST", Schema: orderSchema}
//	http.Handle("POST /hooks/order-paid", webhook.Handle(rc, op,
//		func(ctx context.Context, ev runtime.ResponseEnvelope[Order]) error {
//			return ship(ctx, ev.Data) // an error answers 500: the sender retries
//		}))
//
// # Signatures
//
// A Verifier checks a delivery. [StandardWebhooks] implements the Standard
// Webhooks specification (HMAC-SHA256 over id, timestamp and body, with a
// timestamp tolerance; Svix and others send it); [Stripe] and [GitHub]
// implement those vendors' schemes; [Unsigned] accepts everything, for a
// sender that signs nothing. Every scheme accepts several secrets, so that
// one can be rotated. Verification errors answer 400 (a signature header
// missing or malformed, [ErrMalformed]) or 401 (no signature matches,
// [ErrNoMatch]; a timestamp outside the tolerance, [ErrTimestamp]), with a
// text/plain body that says which header is wrong.
//
// # Replays
//
// The delivery id a Verifier returns (webhook-id, X-GitHub-Delivery) is
// claimed in a [ReplayStore] for a bounded window (DefaultReplayWindow,
// twice the tolerance): a delivery that comes again within it is answered
// 200 "duplicate delivery" and its handler does not run. The id is
// released when the handler fails, so that the sender's retry runs it.
// The default store is a [MemoryReplayStore] (bounded in time and in
// number of ids); implement ReplayStore over a shared database to extend
// the guarantee over several processes.
//
// # Payloads
//
// A JSON payload (application/json or a +json media type; 415 otherwise)
// is normalized and validated against the operation's schema by the
// Receiver's runtime.Pipeline, and decoded into the handler's type:
// members the schema does not declare are dropped, defaults filled in, and
// drift is kept as the envelope's Warnings (logged through the Pipeline),
// not an error; malformed JSON answers 400, and in strict mode a mismatch
// answers 422. The envelope's Meta is a *runtime.HTTPMeta with the
// request's headers (lower-case names), its content type, EventType the
// operation's name and LastEventID the delivery id. Bodies larger than the
// limit (DefaultMaxBodyBytes, WithMaxBodyBytes) answer 413 before the
// signature is checked.
//
// # Fan-out
//
// [Receiver.Subscription] is a runtime.SubscriptionHandler that yields
// every event of an operation handled after it starts: registered in a
// runtime.Registry (generated code does it in RegisterWebhooks), the
// events of a webhook become a subscription that a call protocol hub
// (package callproto) serves to its spokes. A subscriber that falls
// behind by more than its buffer is dropped with [ErrLagged]; the sender
// is never held up by a subscriber.
package webhook
