package callproto

import "context"

// Bus is what the call protocol needs from a message broker: fire-and-forget
// publishing to a subject, and subscriptions to one exact subject, optionally
// in a queue group. It is the whole contract of a bus adapter (natsbus is
// the reference); the protocol itself provides ordering checks, deadlines,
// cancellation, liveness and flow control on top of it.
//
// An adapter must:
//   - deliver the messages one publisher sends to one subject in the order
//     they were published (the protocol detects, but does not repair, loss
//     and reordering: a gap in a subscription's sequence ends it with a
//     TRANSPORT_ERROR);
//   - deliver each message to every plain subscriber of its subject, and to
//     exactly one member of each queue group subscribed to it (several hubs
//     share the load of call.requested this way); an adapter without queue
//     groups must refuse a non-empty group rather than ignore it;
//   - call each subscription's handler from one goroutine at a time, with a
//     data slice the handler may keep (the adapter does not reuse it);
//   - treat subjects as opaque strings of ASCII letters, digits, '.', '-'
//     and '_' (no wildcards are used).
//
// Handlers run on the adapter's delivery goroutine and return quickly: the
// protocol hands slow work to goroutines of its own.
//
// Package bustest checks an adapter against this contract (bustest.Run),
// and runs the protocol over it.
type Bus interface {
	// Publish sends data to the subscribers of subject. A nil error means
	// the adapter accepted the message, not that anyone received it.
	Publish(ctx context.Context, subject string, data []byte) error
	// Subscribe calls handler with the data of every message published to
	// subject from now on. A non-empty queue names a group among whose
	// members each message goes to one.
	Subscribe(subject, queue string, handler func(data []byte)) (Subscription, error)
}

// WorkerSubscriber is what a Bus may add for the hubs' requests: a
// subscription whose handler may block, for as long as a request runs, on
// a goroutine of the adapter's that is not the delivery goroutine of other
// messages. The adapter calls the handler concurrently, from as many
// goroutines as there are messages waiting (at least up to 1024), each
// message once, in no particular order. A hub whose Bus has it runs each
// request on the goroutine the message arrives on, where it otherwise hands
// it from the delivery goroutine to one of its own: on a 2-core machine
// that extra hand-over was most of a hub's CPU time per small call beyond a
// bare request-reply's. natsbus has it.
type WorkerSubscriber interface {
	// SubscribeWorkers is Subscribe (with the same queue groups) with
	// a handler that may block.
	SubscribeWorkers(subject, queue string, handler func(data []byte)) (Subscription, error)
}

// Subscription is an active Bus subscription.
type Subscription interface {
	// Unsubscribe stops delivery. Handlers may still be running when it
	// returns; no new call starts after it.
	Unsubscribe() error
}

// Subjects are the subjects of one call protocol deployment, all under one
// prefix (DefaultPrefix unless configured), so that several deployments can
// share a broker.
type Subjects struct {
	// Requested carries call.requested from spokes to hubs; hubs subscribe
	// in the queue group Hubs, so each request is served once.
	Requested string
	// Control carries call.canceled, call.ack and call.keepalive from
	// spokes to every hub (hubs ignore request ids they do not serve).
	Control string
	// Hubs is the queue group of hubs on Requested.
	Hubs   string
	prefix string
}

// DefaultPrefix is the subject prefix when none is configured.
const DefaultPrefix = "opsgen"

// SubjectsFor returns the subjects under prefix ("" means DefaultPrefix).
func SubjectsFor(prefix string) Subjects {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return Subjects{
		Requested: prefix + ".call.requested",
		Control:   prefix + ".call.control",
		Hubs:      prefix + ".hubs",
		prefix:    prefix,
	}
}

// Reply returns the subject on which the spoke spokeID receives the answers
// to its requests (call.responded, call.error, call.yielded, call.completed).
func (s Subjects) Reply(spokeID string) string { return s.prefix + ".reply." + spokeID }
