package webhook

import (
	"context"
	"errors"
	"iter"
	"sync"

	"github.com/opsgen/opsgen/runtime"
)

// ErrLagged ends a subscription whose subscriber fell further behind the
// events than the Receiver's subscriber buffer.
var ErrLagged = errors.New("webhook: subscriber fell behind the events and was dropped")

// feed is the set of subscribers of one operation's events.
type feed struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
}

type subscriber struct {
	ch     chan runtime.ResponseEnvelope[any]
	lagged chan struct{} // closed when the subscriber is dropped
}

func (r *Receiver) feed(id string) *feed {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := r.feeds[id]
	if f == nil {
		f = &feed{subs: map[*subscriber]struct{}{}}
		r.feeds[id] = f
	}
	return f
}

// publish hands env to every subscriber of operation id without waiting:
// a subscriber whose buffer is full is dropped (its subscription ends
// with ErrLagged), so a slow subscriber never delays the sender's answer.
func (r *Receiver) publish(id string, env runtime.ResponseEnvelope[any]) {
	r.mu.Lock()
	f := r.feeds[id]
	r.mu.Unlock()
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs {
		select {
		case s.ch <- env:
		default:
			delete(f.subs, s)
			close(s.lagged)
		}
	}
}

// Subscription returns the runtime.SubscriptionHandler of operation id's
// events: each subscriber gets every event handled (see Handle) after its
// subscription starts, as the envelope the handler got, until its context
// ends or it falls behind (ErrLagged). Registered with
// Registry.RegisterSubscription, it lets a call protocol hub fan the events
// out to its spokes; generated receivers do that in RegisterWebhooks.
// The input is ignored.
func (r *Receiver) Subscription(id string) runtime.SubscriptionHandler {
	return func(ctx context.Context, _ []byte) iter.Seq2[any, error] {
		return func(yield func(any, error) bool) {
			f := r.feed(id)
			s := &subscriber{ch: make(chan runtime.ResponseEnvelope[any], r.buffer), lagged: make(chan struct{})}
			f.mu.Lock()
			f.subs[s] = struct{}{}
			n := len(f.subs)
			f.mu.Unlock()
			if r.onSub != nil {
				r.onSub(id, n)
			}
			defer func() {
				f.mu.Lock()
				delete(f.subs, s)
				n := len(f.subs)
				f.mu.Unlock()
				if r.onSub != nil {
					r.onSub(id, n)
				}
			}()
			for {
				// Events already buffered are delivered before a lag is reported.
				select {
				case env := <-s.ch:
					if !yield(env, nil) {
						return
					}
					continue
				default:
				}
				select {
				case env := <-s.ch:
					if !yield(env, nil) {
						return
					}
				case <-s.lagged:
					yield(nil, ErrLagged)
					return
				case <-ctx.Done():
					return
				}
			}
		}
	}
}
