// Package redisbus is the Redis adapter of the call protocol's Bus
// (package callproto), over github.com/redis/go-redis/v9.
//
// Plain subscriptions are Redis pub/sub: PUBLISH to the subject as channel,
// one SUBSCRIBE connection per subscription, whose messages reach the
// handler in order from one goroutine. Redis pub/sub has no queue groups,
// so they are built from lists: a queue member registers its group in a
// sorted set per subject (key "<KeyPrefix>g:<subject>", score = the Redis
// server's time, refreshed every second), and Publish (one Lua script, so
// atomic) PUBLISHes the message and RPUSHes it onto the list
// "<KeyPrefix>q:<subject>:<group>" of every group seen in the last
// GroupTTL. Members take messages with BLMPOP (up to 32 at once; BLPOP,
// one, before Redis 7), each on a connection of its own, so each message
// goes to exactly one of them; Unsubscribe ends a member's wait (CLIENT
// UNBLOCK) before it returns, and a member that unsubscribes with messages
// in hand puts them back at the head of the list.
//
// What differs from NATS queue groups, precisely:
//   - a group starts receiving when its first member has registered
//     (before Subscribe returns, as with NATS); it stops GroupTTL (5s)
//     after its last member left or died, and until then messages
//     accumulate in its list (bounded by QueueLimit, expiring after
//     GroupTTL without members);
//   - a list holds at most QueueLimit messages: beyond that the oldest are
//     dropped (LTRIM), which the protocol sees as lost messages;
//   - the keys are computed inside the script, so the adapter needs a
//     single Redis server (or a primary with replicas), not Redis Cluster.
//
// The connection reconnects by itself (go-redis re-subscribes pub/sub
// connections); a Redis restart without persistence loses the messages in
// flight and in the lists, and the group registrations until the members
// refresh them (within a second), which the protocol detects as a gap in a
// subscription's sequence or a call no hub answered.
package redisbus

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opsgen/opsgen/callproto"
)

// Options configure Connect.
type Options struct {
	// Addr is the Redis server's host:port (default "127.0.0.1:6379").
	Addr string
	// Redis, when set, is used instead of Addr (its Addr, password, TLS,
	// pool ...).
	Redis *redis.Options
	// KeyPrefix prefixes the keys of queue groups (default "callproto:").
	KeyPrefix string
	// QueueLimit bounds each queue group's list (default 100000 messages).
	QueueLimit int
	// GroupTTL is how long a queue group keeps receiving after its last
	// member's last refresh (default 5s; at least 2s).
	GroupTTL time.Duration
}

// Bus is a callproto.Bus over one go-redis client (a connection pool; each
// subscription holds a connection of its own).
type Bus struct {
	rdb    *redis.Client
	prefix string
	limit  int
	ttl    time.Duration

	mu     sync.Mutex
	subs   map[*subscription]struct{}
	closed bool
}

var _ callproto.Bus = (*Bus)(nil)

// publishScript publishes ARGV[1] to channel KEYS[1] and pushes it onto the
// list of each queue group of the subject registered in the sorted set
// KEYS[2] within the last ARGV[3] ms. ARGV[2] is the lists' key prefix,
// ARGV[4] their length bound.
var publishScript = redis.NewScript(`
redis.call('PUBLISH', KEYS[1], ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
local groups = redis.call('ZRANGEBYSCORE', KEYS[2], now - ttl, '+inf')
for _, g in ipairs(groups) do
  local k = ARGV[2] .. g
  redis.call('RPUSH', k, ARGV[1])
  redis.call('LTRIM', k, -tonumber(ARGV[4]), -1)
  redis.call('PEXPIRE', k, ttl)
end
return #groups
`)

// registerScript records that group KEYS[2]... ARGV[1] has a live member
// (score: the server's time in ms) and drops groups silent for ARGV[2] ms.
var registerScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return now
`)

// Connect connects to the Redis server and checks it answers.
func Connect(ctx context.Context, opts Options) (*Bus, error) {
	ro := opts.Redis
	if ro == nil {
		ro = &redis.Options{Addr: opts.Addr}
	}
	if ro.Addr == "" {
		ro.Addr = "127.0.0.1:6379"
	}
	if ro.MaxRetryBackoff == 0 {
		ro.MaxRetryBackoff = 100 * time.Millisecond
	}
	b := &Bus{rdb: redis.NewClient(ro), prefix: opts.KeyPrefix, limit: opts.QueueLimit, ttl: opts.GroupTTL, subs: map[*subscription]struct{}{}}
	if b.prefix == "" {
		b.prefix = "callproto:"
	}
	if b.limit <= 0 {
		b.limit = 100000
	}
	if b.ttl == 0 {
		b.ttl = 5 * time.Second
	}
	b.ttl = max(b.ttl, 2*time.Second)
	if err := b.rdb.Ping(ctx).Err(); err != nil {
		b.rdb.Close()
		return nil, fmt.Errorf("redisbus: connect %s: %w", ro.Addr, err)
	}
	return b, nil
}

// Client returns the go-redis client.
func (b *Bus) Client() *redis.Client { return b.rdb }

func (b *Bus) groupsKey(subject string) string { return b.prefix + "g:" + subject }
func (b *Bus) listPrefix(subject string) string {
	return b.prefix + "q:" + subject + ":"
}

// Publish implements callproto.Bus: one round trip that publishes to the
// subject's subscribers and queues for its groups. An error means Redis
// did not take the message (e.g. it is down).
func (b *Bus) Publish(ctx context.Context, subject string, data []byte) error {
	err := publishScript.Run(ctx, b.rdb, []string{subject, b.groupsKey(subject)},
		data, b.listPrefix(subject), b.ttl.Milliseconds(), b.limit).Err()
	if err != nil {
		return fmt.Errorf("redisbus: publish %s: %w", subject, err)
	}
	return nil
}

// subscription is a plain or queue subscription.
type subscription struct {
	b      *Bus
	cancel context.CancelFunc
	done   chan struct{}
	ps     *redis.PubSub // plain
	// mu is held while a handler call starts, so that none starts after
	// Unsubscribe set stopped.
	mu      sync.Mutex
	stopped bool
	// taking is held by a queue member while it takes messages from its
	// group's list (BLMPOP): once Unsubscribe has held it, the member
	// takes no more.
	taking sync.Mutex
	conn   *redis.Conn  // a queue member's own connection for BLMPOP (under taking)
	connID atomic.Int64 // its CLIENT ID (0: none yet), which Unsubscribe unblocks
}

// Subscribe implements callproto.Bus. The subscription is active on the
// server when it returns.
func (b *Bus) Subscribe(subject, queue string, handler func(data []byte)) (callproto.Subscription, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, errors.New("redisbus: the bus is closed")
	}
	b.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	s := &subscription{b: b, cancel: cancel, done: make(chan struct{})}
	if queue == "" {
		s.ps = b.rdb.Subscribe(ctx, subject)
		// Wait for the confirmation: the server knows the subscription.
		rctx, rcancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := s.ps.Receive(rctx)
		rcancel()
		if err != nil {
			s.ps.Close()
			cancel()
			return nil, fmt.Errorf("redisbus: subscribe %s: %w", subject, err)
		}
		go s.plain(ctx, handler)
	} else {
		if err := b.register(ctx, subject, queue); err != nil {
			cancel()
			return nil, fmt.Errorf("redisbus: subscribe %s in %s: %w", subject, queue, err)
		}
		go s.member(ctx, subject, queue, handler)
	}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s, nil
}

func (b *Bus) register(ctx context.Context, subject, queue string) error {
	return registerScript.Run(ctx, b.rdb, []string{b.groupsKey(subject)}, queue, b.ttl.Milliseconds()).Err()
}

// deliver calls handler unless the subscription was stopped.
func (s *subscription) deliver(handler func([]byte), data []byte) bool {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return false
	}
	s.mu.Unlock()
	handler(data)
	return true
}

func (s *subscription) plain(ctx context.Context, handler func([]byte)) {
	defer close(s.done)
	for {
		msg, err := s.ps.ReceiveMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			// go-redis reconnects and re-subscribes on the next call.
			sleep(ctx, 50*time.Millisecond)
			continue
		}
		if !s.deliver(handler, []byte(msg.Payload)) {
			return
		}
	}
}

func (s *subscription) member(ctx context.Context, subject, queue string, handler func([]byte)) {
	defer close(s.done)
	defer s.dropConn()
	b := s.b
	list := b.listPrefix(subject) + queue
	refresh := time.Now()
	batched := true
	for ctx.Err() == nil {
		if time.Since(refresh) >= time.Second {
			if err := b.register(ctx, subject, queue); err != nil {
				sleep(ctx, 50*time.Millisecond)
				continue
			}
			refresh = time.Now()
		}
		batch, err := s.take(ctx, list, &batched)
		if err != nil {
			if !errors.Is(err, redis.Nil) {
				// Redis is down or restarting: register again once back.
				refresh = time.Time{}
				sleep(ctx, 50*time.Millisecond)
			}
			continue
		}
		for i, m := range batch {
			if !s.deliver(handler, []byte(m)) {
				// Unsubscribed with messages in hand.
				b.handBack(list, batch[i:])
				return
			}
		}
	}
}

// take waits up to a second for messages of list, up to maxBatch of them,
// on the member's own connection, holding s.taking. It takes none once ctx
// is done; what it takes once Unsubscribe has begun goes back to the list
// before it returns, so that Unsubscribe returns with nothing taken and not
// delivered.
func (s *subscription) take(ctx context.Context, list string, batched *bool) ([]string, error) {
	s.taking.Lock()
	defer s.taking.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.conn == nil {
		c := s.b.rdb.Conn()
		id, err := c.ClientID(ctx).Result()
		if err != nil {
			c.Close()
			return nil, err
		}
		s.conn = c
		s.connID.Store(id)
	}
	var batch []string
	var err error
	if *batched {
		// What waits, up to maxBatch, in one round trip: one BLPOP per
		// message would bound a hub to one request per round trip.
		// (BLMPOP needs Redis 7; before it, BLPOP.)
		_, batch, err = s.conn.BLMPop(ctx, time.Second, "left", maxBatch, list).Result()
		if err != nil && !errors.Is(err, redis.Nil) && ctx.Err() == nil && isUnknownCommand(err) {
			*batched = false
		}
	}
	if !*batched {
		var r []string
		if r, err = s.conn.BLPop(ctx, time.Second, list).Result(); err == nil {
			batch = r[1:]
		}
	}
	if err != nil && !errors.Is(err, redis.Nil) {
		s.conn.Close() // perhaps broken (Redis restarted): a new one next time
		s.conn = nil
		s.connID.Store(0)
	}
	if len(batch) > 0 && ctx.Err() != nil {
		s.b.handBack(list, batch)
		return nil, ctx.Err()
	}
	return batch, err
}

// dropConn closes a queue member's connection.
func (s *subscription) dropConn() {
	s.taking.Lock()
	defer s.taking.Unlock()
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
		s.connID.Store(0)
	}
}

// handBack gives messages a member took but did not deliver back to the
// group, at the head of its list, in their order.
func (b *Bus) handBack(list string, msgs []string) {
	rest := make([]any, 0, len(msgs))
	for j := len(msgs) - 1; j >= 0; j-- {
		rest = append(rest, msgs[j])
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	b.rdb.LPush(ctx, list, rest...)
	cancel()
}

// maxBatch is how many messages a queue member takes from its list at
// once.
const maxBatch = 32

// isUnknownCommand reports whether Redis refused a command (BLMPOP before
// Redis 7).
func isUnknownCommand(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "wrong number of arguments") || strings.Contains(msg, "unknown command") || strings.Contains(msg, "syntax error")
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Unsubscribe implements callproto.Subscription. A queue member's ends
// its wait for messages first (CLIENT UNBLOCK, or within the wait's second
// should the BLMPOP not have reached Redis yet), so that when Unsubscribe
// returns the member takes no more messages from its group and holds none
// it has not begun to deliver (a handler still running gives the rest of
// its batch back on return). Called from a handler, it does not wait.
func (s *subscription) Unsubscribe() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.mu.Unlock()
	s.cancel()
	var err error
	if s.ps != nil {
		err = s.ps.Close()
	} else {
		if id := s.connID.Load(); id != 0 {
			uctx, ucancel := context.WithTimeout(context.Background(), time.Second)
			s.b.rdb.ClientUnblock(uctx, id) // a BLMPOP in progress ends as at its timeout
			ucancel()
		}
		// Waits for a take in progress to end; none starts after (ctx is
		// done). The section is empty on purpose: the lock is the wait.
		s.taking.Lock()
		//lint:ignore SA2001 the empty section waits for the take that holds the lock
		s.taking.Unlock()
	}
	s.b.mu.Lock()
	delete(s.b.subs, s)
	s.b.mu.Unlock()
	return err
}

// Close ends the subscriptions, waits for their goroutines and closes the
// client.
func (b *Bus) Close() error {
	b.mu.Lock()
	b.closed = true
	subs := make([]*subscription, 0, len(b.subs))
	for s := range b.subs {
		subs = append(subs, s)
	}
	b.mu.Unlock()
	for _, s := range subs {
		s.Unsubscribe()
		<-s.done
	}
	return b.rdb.Close()
}
